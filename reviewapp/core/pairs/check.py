"""`reviewapp pairs check`: is a committed results file what the protocol says it should be?

Checks, in order: the protocol file is there and well-formed; the CSV's sha256 matches the one the protocol
recorded; the seed is the one derived from the set's fingerprint and the rater's name (algorithm v2; a v1
pair protocol's seed was chosen, which is a warning); the trials recomputed from the seed, pair ids and control
settings are the ones the protocol lists; the CSV has the expected columns and exactly one row per trial, each
matching its trial (pair, control kind, sides), with a valid response mapped correctly to conditions; and every
row equals the one recomputed from the rater's append-only `pair_session` and `pair_rating` records in their
review file beside the results (`<reviews>/<rater>.jsonl`). Then the summary is computed. A file that passes is
valid even when the rater was inconsistent; a consistency threshold, when given, is checked separately.

What this proves: the results are what the rater's records say, for trials nobody could pick. What it cannot:
that the records were made by a person looking at the images (whoever can write the review file can write
records), or that the review file is the one committed (compare it with the repository's history for that).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewapp.core.io.safepath import UnsafeReference, read_capped
from reviewapp.core.io.spreadsheet import spreadsheet_plain
from reviewapp.core.pairs.protocol import (
    ALGORITHM,
    FREE_SEED_ALGORITHM,
    READABLE_ALGORITHMS,
    ControlSettings,
    Trial,
    build_trials,
    derived_seed,
)
from reviewapp.core.pairs.results import (
    COLUMNS,
    PROTOCOL_FORMAT,
    PROTOCOL_VERSION,
    READABLE_PROTOCOL_VERSIONS,
    RESPONSES,
    ResultRow,
    preferred_condition,
    protocol_path_for,
)
from reviewapp.core.pairs.stats import Summary, summarize

MAX_RESULTS_BYTES = 64 * 1024 * 1024
MAX_REPORTED = 20


@dataclass
class CheckReport:
    csv_path: Path
    protocol_path: Path
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what the check cannot vouch for; the file is still valid
    summary: Summary | None = None
    rows: list[ResultRow] = field(default_factory=list)  # as read from the CSV (all of them, once it parsed)
    protocol: dict[str, Any] | None = None
    threshold: float | None = None

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def consistency(self) -> float | None:
        return self.summary.consistency.value if self.summary else None

    @property
    def below_threshold(self) -> bool:
        if self.threshold is None or self.summary is None:
            return False
        value = self.consistency
        return value is None or value < self.threshold

    @property
    def passed(self) -> bool:
        return self.valid and not self.below_threshold

    def to_dict(self) -> dict[str, Any]:
        proto = self.protocol or {}
        return {
            "csv": str(self.csv_path),
            "protocol": str(self.protocol_path),
            "valid": self.valid,
            "passed": self.passed,
            "errors": self.errors,
            "warnings": self.warnings,
            "set": (proto.get("set") or {}).get("name") if isinstance(proto.get("set"), dict) else None,
            "annotator": proto.get("annotator"),
            "seed": proto.get("seed"),
            "consistency": self.consistency,
            "min_consistency": self.threshold,
            "below_threshold": self.below_threshold,
            "summary": self.summary.to_dict() if self.summary else None,
        }


def check_results(csv_path: Path, min_consistency: float | None = None) -> CheckReport:
    protocol_path = protocol_path_for(csv_path)
    report = CheckReport(csv_path, protocol_path, threshold=min_consistency)
    try:
        csv_data = read_capped(csv_path, MAX_RESULTS_BYTES)
    except UnsafeReference as exc:
        report.errors.append(f"{csv_path.name}: {exc}")
        return report
    try:
        protocol = json.loads(read_capped(protocol_path, MAX_RESULTS_BYTES))
    except UnsafeReference as exc:
        report.errors.append(f"{protocol_path.name}: protocol file missing or unreadable ({exc})")
        return report
    except (ValueError, RecursionError) as exc:
        report.errors.append(f"{protocol_path.name}: not valid JSON ({exc})")
        return report
    if not isinstance(protocol, dict):
        report.errors.append(f"{protocol_path.name}: expected a JSON object")
        return report
    report.protocol = protocol
    parsed = _parse_protocol(protocol, protocol_path.name, report.errors)
    if parsed is None:
        return report
    trials, conditions, recorded_hash = parsed
    actual_hash = hashlib.sha256(csv_data).hexdigest()
    if actual_hash != recorded_hash:
        report.errors.append(
            f"{csv_path.name}: sha256 {actual_hash[:12]}… does not match the protocol's {recorded_hash[:12]}… "
            "(the file was changed after it was written)"
        )
    version = protocol.get("version")
    if version == 1:
        report.warnings.append(
            f"{protocol_path.name}: written by an older version (protocol 1), whose CSV cells are not protected "
            "against spreadsheet formulas; open it in a spreadsheet with care"
        )
    rows = _parse_rows(csv_data, csv_path.name, conditions, report.errors, quoted=version != 1)
    if rows is None:
        return report
    _match_trials(rows, trials, conditions, csv_path.name, report.errors)
    _match_records(csv_path, protocol, trials, conditions, rows, report)
    if len(report.errors) > MAX_REPORTED:
        more = len(report.errors) - MAX_REPORTED
        report.errors[MAX_REPORTED:] = [f"… and {more} more problems"]
    report.rows = rows
    report.summary = summarize(rows, conditions)
    return report


def _parse_protocol(
    protocol: dict[str, Any], label: str, errors: list[str]
) -> tuple[list[Trial], tuple[str, str], str] | None:
    if protocol.get("format") != PROTOCOL_FORMAT or protocol.get("version") not in READABLE_PROTOCOL_VERSIONS:
        errors.append(f"{label}: not a reviewapp pair protocol ({PROTOCOL_FORMAT!r}, version {PROTOCOL_VERSION})")
        return None
    if protocol.get("algorithm") not in READABLE_ALGORITHMS:
        errors.append(f"{label}: unknown trial algorithm {protocol.get('algorithm')!r} (this version: {ALGORITHM})")
        return None
    seed = protocol.get("seed")
    pair_set = protocol.get("set")
    csv_info = protocol.get("csv")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        errors.append(f"{label}: 'seed' must be a non-negative integer")
        return None
    if not isinstance(pair_set, dict) or not isinstance(csv_info, dict):
        errors.append(f"{label}: 'set' and 'csv' must be objects")
        return None
    pairs = pair_set.get("pairs")
    conditions = pair_set.get("conditions")
    if not isinstance(pairs, list) or not pairs or not all(isinstance(p, str) for p in pairs):
        errors.append(f"{label}: 'set.pairs' must be a non-empty list of pair ids")
        return None
    if len(set(pairs)) != len(pairs):
        errors.append(f"{label}: 'set.pairs' lists a pair id twice")
        return None
    if not isinstance(conditions, dict) or not all(isinstance(conditions.get(k), str) for k in ("a", "b")):
        errors.append(f"{label}: 'set.conditions' must name conditions a and b")
        return None
    recorded_hash = csv_info.get("sha256")
    if not isinstance(recorded_hash, str) or len(recorded_hash) != 64:
        errors.append(f"{label}: 'csv.sha256' is missing")
        return None
    try:
        controls = ControlSettings.from_dict(protocol.get("controls") or {})
    except (TypeError, ValueError) as exc:
        errors.append(f"{label}: invalid 'controls' ({exc})")
        return None
    trials = build_trials(pairs, seed, controls)
    recorded = (protocol.get("trial_order"), protocol.get("sides"), protocol.get("control_kinds"))
    expected: tuple[list[Any], ...] = (
        [t.pair_id for t in trials],
        [t.left for t in trials],
        [t.control for t in trials],
    )
    for name, got, want in zip(("trial_order", "sides", "control_kinds"), recorded, expected, strict=True):
        if got != want:
            errors.append(
                f"{label}: '{name}' is not what the seed gives ({_first_difference(got, want)}); "
                "the seed, pairs, controls or trials were altered"
            )
    return trials, (conditions["a"], conditions["b"]), recorded_hash


def _match_records(
    csv_path: Path,
    protocol: dict[str, Any],
    trials: list[Trial],
    conditions: tuple[str, str],
    rows: list[ResultRow],
    report: CheckReport,
) -> None:
    """The seed rule of the protocol's algorithm, and every row against the rater's own records."""
    from reviewapp.core.pairs.rating import recomputed_rows  # the rating module pulls in the review layer

    label = csv_path.name
    annotator = protocol.get("annotator")
    pair_set = protocol.get("set") or {}
    v1 = protocol.get("algorithm") == FREE_SEED_ALGORITHM
    if not isinstance(annotator, str) or not annotator:
        report.errors.append(f"{protocol_path_for(csv_path).name}: 'annotator' is missing")
        return
    if v1:
        report.warnings.append(
            f"{label}: made with {FREE_SEED_ALGORITHM}, whose seed the rater could choose; the trial order is "
            "checked against that seed but cannot be shown to be unchosen"
        )
    elif protocol.get("seed") != derived_seed(str(pair_set.get("fingerprint")), annotator):
        report.errors.append(
            f"{label}: the seed is not the one derived from the set's fingerprint and the rater's name "
            f"({ALGORITHM}); it was chosen or altered"
        )
    found = recomputed_rows(csv_path.parent.parent, annotator, str(protocol.get("session")), trials, conditions)
    if isinstance(found, str):
        (report.warnings if v1 else report.errors).append(f"{label}: {found}")
        return
    expected = {row.trial: row for row in found}
    for row in rows:
        want = expected.get(row.trial)
        if want is None:
            report.errors.append(f"{label}: trial {row.trial} has no rating in the rater's records")
        elif want != row:
            changed = [name for name in ResultRow.__dataclass_fields__ if getattr(want, name) != getattr(row, name)]
            report.errors.append(f"{label}: trial {row.trial} differs from the rater's records ({', '.join(changed)})")
    rated = {row.trial for row in rows}
    missing = sorted(set(expected) - rated)
    if missing:
        report.errors.append(f"{label}: {len(missing)} rated trials of the records are not in the file")


def _first_difference(got: Any, want: list[Any]) -> str:
    if not isinstance(got, list):
        return "not a list"
    if len(got) != len(want):
        return f"{len(got)} entries, expected {len(want)}"
    at = next(i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w)
    return f"trial {at}: {got[at]!r}, expected {want[at]!r}"


def _parse_rows(
    data: bytes, label: str, conditions: tuple[str, str], errors: list[str], *, quoted: bool = True
) -> list[ResultRow] | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        errors.append(f"{label}: not UTF-8 text")
        return None
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None or tuple(header) != COLUMNS:
        errors.append(f"{label}: header must be {','.join(COLUMNS)}")
        return None
    rows: list[ResultRow] = []
    for line, values in enumerate(reader, start=2):
        if len(values) != len(COLUMNS):
            errors.append(f"{label}:{line}: {len(values)} fields, expected {len(COLUMNS)}")
            continue
        if quoted:  # text cells were written spreadsheet-safe: read back what was meant
            values = [spreadsheet_plain(value) for value in values]
        raw = dict(zip(COLUMNS, values, strict=True))
        try:
            rows.append(_row(raw, conditions))
        except ValueError as exc:
            errors.append(f"{label}:{line}: {exc}")
    return rows


def _int(text: str, name: str, *, optional: bool = False, low: int = 0, high: int | None = None) -> int | None:
    if text == "" and optional:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} {text!r} is not an integer") from None
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} {value} is out of range")
    return value


def _flag(text: str, name: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(f"{name} must be 0 or 1, not {text!r}")
    return text == "1"


def _row(raw: dict[str, str], conditions: tuple[str, str]) -> ResultRow:
    if raw["response"] not in RESPONSES:
        raise ValueError(f"response {raw['response']!r} is not one of {', '.join(RESPONSES)}")
    for side in ("left_condition", "right_condition"):
        if raw[side] not in conditions:
            raise ValueError(f"{side} {raw[side]!r} is not a condition of this set")
    left_unusable = _flag(raw["left_unusable"], "left_unusable")
    right_unusable = _flag(raw["right_unusable"], "right_unusable")
    unusable = tuple(u for u in raw["unusable"].split(";") if u)
    trial = _int(raw["trial"], "trial")
    assert trial is not None
    response_ms = _int(raw["response_ms"], "response_ms")
    assert response_ms is not None
    return ResultRow(
        trial=trial,
        pair_id=raw["pair_id"],
        control=raw["control"],
        repeat_of=_int(raw["repeat_of"], "repeat_of", optional=True),
        left_condition=raw["left_condition"],
        right_condition=raw["right_condition"],
        response=raw["response"],
        preferred=raw["preferred"],
        left_unusable=left_unusable,
        right_unusable=right_unusable,
        unusable=unusable,
        confidence=_int(raw["confidence"], "confidence", optional=True, low=1, high=3),
        response_ms=response_ms,
        rated_at=raw["rated_at"],
        comment=raw["comment"],
    )


def _match_trials(
    rows: list[ResultRow], trials: list[Trial], conditions: tuple[str, str], label: str, errors: list[str]
) -> None:
    names = {"a": conditions[0], "b": conditions[1]}
    seen: dict[int, int] = {}
    for row in rows:
        seen[row.trial] = seen.get(row.trial, 0) + 1
    for index, count in sorted(seen.items()):
        if count > 1:
            errors.append(f"{label}: trial {index} is rated {count} times")
        if index >= len(trials):
            errors.append(f"{label}: trial {index} is not in the protocol ({len(trials)} trials)")
    missing = [t.index for t in trials if t.index not in seen]
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" …" if len(missing) > 10 else "")
        errors.append(f"{label}: {len(missing)} of {len(trials)} trials not rated (trials {shown})")
    for row in rows:
        if row.trial >= len(trials):
            continue
        trial = trials[row.trial]
        where = f"{label}: trial {row.trial}"
        expected = (trial.pair_id, trial.control, trial.repeat_of, names[trial.left], names[trial.right])
        got = (row.pair_id, row.control, row.repeat_of, row.left_condition, row.right_condition)
        if got != expected:
            errors.append(f"{where}: shows {got}, the protocol gives {expected}")
            continue
        if row.preferred != preferred_condition(row.response, row.left_condition, row.right_condition):
            errors.append(f"{where}: preferred {row.preferred!r} does not follow from response {row.response!r}")
        marked = {row.left_condition} if row.left_unusable else set()
        if row.right_unusable:
            marked.add(row.right_condition)
        if set(row.unusable) != marked:
            errors.append(f"{where}: unusable {';'.join(row.unusable)!r} does not match the left/right flags")
