"""Rubrics: the criteria a judge scores a whole logbook on, their scale and weights, from a small TOML file.

    name = "ICML 2026 prizes"
    scale = [1, 5]

    [[criterion]]
    name = "rigor"
    label = "Rigor of evidence"
    weight = 2
    description = "Do the runs and figures actually support the verdicts?"

A rubric file is meant to be committed beside a queue so that every judge scores on the same one; each score
record names the rubric and the sha256 of its canonical form, so scores made on different rubrics are never
mixed silently.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewapp.core.io.safepath import FileTooLarge, UnsafeReference, read_capped, why_unreadable

MAX_RUBRIC_BYTES = 256 * 1024
MAX_MAGNITUDE = 1e6  # weights and scale ends beyond this (or inf, nan) would make the weighted mean inf or nan
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class RubricError(ValueError):
    """A rubric file or a score that does not fit its rubric; the message names the file or criterion."""


@dataclass(frozen=True, slots=True)
class Criterion:
    name: str  # short identifier used on the command line: `--criterion rigor=4`
    label: str
    weight: float = 1.0
    description: str = ""


@dataclass(frozen=True, slots=True)
class Rubric:
    name: str
    criteria: tuple[Criterion, ...]
    scale: tuple[float, float] = (1.0, 5.0)

    @property
    def sha256(self) -> str:
        canonical = {
            "name": self.name,
            "scale": list(self.scale),
            "criteria": [[c.name, c.label, c.weight, c.description] for c in self.criteria],
        }
        return hashlib.sha256(json.dumps(canonical, sort_keys=True).encode()).hexdigest()

    def criterion(self, name: str) -> Criterion:
        for criterion in self.criteria:
            if criterion.name == name:
                return criterion
        raise RubricError(f"no criterion {name!r} in rubric {self.name!r} (it has: {self.names()})")

    def names(self) -> str:
        return ", ".join(c.name for c in self.criteria)

    def check_value(self, value: float, what: str) -> float:
        low, high = self.scale
        if not math.isfinite(value) or not low <= value <= high:
            raise RubricError(f"{what}: {value:g} is outside the scale {low:g}-{high:g}")
        return value

    def overall(self, values: Mapping[str, float]) -> float:
        """The weighted mean of the criteria scored; every criterion must be scored."""
        missing = [c.name for c in self.criteria if c.name not in values]
        if missing:
            raise RubricError(f"criteria not scored: {', '.join(missing)}")
        total = sum(c.weight for c in self.criteria)
        mean = sum(c.weight * values[c.name] for c in self.criteria) / total
        if not math.isfinite(mean):  # only a rubric built in code can get here: files are checked on loading
            raise RubricError(f"rubric {self.name!r}: the weighted score is not a number")
        return mean


def score_text(value: float, scale: tuple[float, float]) -> str:
    """A score written as its rubric's scale is: 4 on a 1-5 scale, not 4.00; a weighted mean between whole values,
    or any score on a scale with fractional ends, keeps two decimals."""
    whole_scale = all(float(end).is_integer() for end in scale)
    return f"{value:.0f}" if whole_scale and float(value).is_integer() else f"{value:.2f}"


DEFAULT_RUBRIC = Rubric(
    name="reviewapp default",
    criteria=(
        Criterion("rigor", "Rigor of evidence", 1.0, "Do the runs, outputs and figures support each verdict?"),
        Criterion("scale", "Scale relative to the paper", 1.0, "How close to the paper's scale were the checks?"),
        Criterion("honesty", "Honesty about simplifications", 1.0, "Are proxies, toy runs and gaps said plainly?"),
        Criterion("clarity", "Clarity of the logbook", 1.0, "Can a reader follow claim, method and result?"),
    ),
)

#: `--overall` alone: a rubric of one criterion, the overall score itself.
OVERALL_ONLY = Rubric(name="overall only", criteria=(Criterion("overall", "Overall", 1.0),))


def load_rubric(path: Path) -> Rubric:
    """Read a rubric TOML file; raise RubricError naming the file and the problem."""
    try:
        raw = read_capped(path, MAX_RUBRIC_BYTES)
    except FileTooLarge:
        raise RubricError(f"{path}: larger than {MAX_RUBRIC_BYTES // 1024} KB; not a rubric") from None
    except (UnsafeReference, OSError) as exc:
        raise RubricError(f"{path}: cannot read the rubric: {why_unreadable(exc)}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RubricError(f"{path}: not valid TOML: {exc}") from None
    try:
        return rubric_from_data(data)
    except RubricError as exc:
        raise RubricError(f"{path}: {exc}") from None


def rubric_from_data(data: Mapping[str, Any]) -> Rubric:
    name = data.get("name", "unnamed rubric")
    if not isinstance(name, str) or not name.strip():
        raise RubricError("`name` must be a non-empty string")
    scale = data.get("scale", [1, 5])
    if (
        not isinstance(scale, list)
        or len(scale) != 2
        or not all(_number(v) and abs(v) <= MAX_MAGNITUDE for v in scale)
        or not scale[0] < scale[1]
    ):
        raise RubricError(f"`scale` must be two finite numbers, lowest first, e.g. [1, 5] (got {scale!r})")
    entries = data.get("criterion")
    if not isinstance(entries, list) or not entries:
        raise RubricError("needs at least one [[criterion]] table")
    criteria: list[Criterion] = []
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise RubricError(f"criterion {number} is not a table")
        cname = entry.get("name")
        if not isinstance(cname, str) or not _NAME.match(cname):
            raise RubricError(f"criterion {number}: `name` must be lower-case letters, digits, - or _")
        if any(c.name == cname for c in criteria):
            raise RubricError(f"criterion {cname!r} appears twice")
        weight = entry.get("weight", 1)
        if not _number(weight) or not 0 < weight <= MAX_MAGNITUDE:
            raise RubricError(
                f"criterion {cname!r}: `weight` must be a positive finite number up to {MAX_MAGNITUDE:g} "
                f"(got {weight!r})"
            )
        label = entry.get("label", cname)
        description = entry.get("description", "")
        if not isinstance(label, str) or not isinstance(description, str):
            raise RubricError(f"criterion {cname!r}: `label` and `description` must be strings")
        criteria.append(Criterion(cname, label, float(weight), description))
    return Rubric(name=name.strip(), criteria=tuple(criteria), scale=(float(scale[0]), float(scale[1])))


def rubric_toml(rubric: Rubric) -> str:
    """The rubric as a TOML file `load_rubric` reads back to the same rubric (to start a team's own)."""
    lines = [f"name = {json.dumps(rubric.name)}", f"scale = [{rubric.scale[0]:g}, {rubric.scale[1]:g}]"]
    for c in rubric.criteria:
        lines += [
            "",
            "[[criterion]]",
            f"name = {json.dumps(c.name)}",
            f"label = {json.dumps(c.label)}",
            f"weight = {c.weight:g}",
            f"description = {json.dumps(c.description)}",
        ]
    return "\n".join(lines) + "\n"


def _number(value: object) -> bool:
    """A finite int or float (TOML's inf and nan, and booleans, are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
