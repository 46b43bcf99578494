"""The challenge's claim registry (`claims_anchored.json`) and paper index (`index.json`).

The registry is `{paper id: [{"text": "... (Table 1)", "status": ...}, ...]}`, keyed by OpenReview id or by the
numeric ICML id of the paper. Numeric keys are resolved to OpenReview ids through the paper index, whose entries
carry both (`pid` and `orid`); without an index they stay unsupported and are reported as such.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewapp.core.io.coerce import as_name
from reviewapp.core.io.safepath import FileTooLarge, UnsafeReference, read_capped, why_unreadable
from reviewapp.core.logbook_judge.entries import FILE_LIMIT, ImportProblem, VerdictsFileError

_ANCHOR = re.compile(r"\(([^()]{1,80})\)\s*[.;]?\s*$")


@dataclass(frozen=True, slots=True)
class RegistryClaim:
    index: int  # 1-based position for the paper
    text: str
    status: str | None

    @property
    def anchor(self) -> str | None:
        """The paper location the claim comes from, as the registry writes it at the end: "Table 1"."""
        return anchor_of(self.text)


@dataclass
class Registry:
    claims: dict[str, tuple[RegistryClaim, ...]]  # OpenReview id (or an unresolved numeric id) -> claims
    unsupported: dict[str, str] = field(default_factory=dict)  # numeric ids that could not be resolved -> why
    problems: list[ImportProblem] = field(default_factory=list)

    def for_paper(self, orid: str | None) -> tuple[RegistryClaim, ...] | None:
        if not orid:
            return None
        found = self.claims.get(orid)
        if found is None:  # the board looks papers up case-insensitively (paper- tags are lower-cased)
            lowered = orid.lower()
            found = next((v for k, v in self.claims.items() if k.lower() == lowered), None)
        return found

    def missing_note(self, orid: str | None) -> str | None:
        """Why the registry gives no claims for paper `orid` (None when it does): said, never silently ignored."""
        if self.for_paper(orid) is not None:
            return None
        note = f"The claim registry has no claims for paper {orid or '(the entry names none)'}"
        if self.unsupported:
            reason = next(iter(self.unsupported.values()))
            note += f"; {len(self.unsupported)} paper(s) in it are unsupported: {reason}"
        return note + "."

    def to_json(self) -> dict[str, Any]:
        return {
            "claims": {k: [{"text": c.text, "status": c.status} for c in v] for k, v in self.claims.items()},
            "unsupported": self.unsupported,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Registry:
        claims = {
            k: tuple(RegistryClaim(i, c["text"], c.get("status")) for i, c in enumerate(v, start=1))
            for k, v in data.get("claims", {}).items()
        }
        return cls(claims, dict(data.get("unsupported") or {}))


def anchor_of(text: str | None) -> str | None:
    if not text:
        return None
    match = _ANCHOR.search(text)
    return match.group(1).strip() if match else None


def _load_json(path: Path, what: str) -> Any:
    name = path.name
    try:
        data = read_capped(path, FILE_LIMIT)
    except FileTooLarge as exc:
        raise VerdictsFileError(f"{name}: {what} larger than {FILE_LIMIT // (1024 * 1024)} MB") from exc
    except (UnsafeReference, OSError) as exc:
        raise VerdictsFileError(f"{name}: cannot read {what}: {why_unreadable(exc)}") from exc
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise VerdictsFileError(f"{name}: {what} is not valid UTF-8 (byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise VerdictsFileError(f"{name}:{exc.lineno}: {what} is not valid JSON: {exc.msg}") from exc
    except RecursionError as exc:
        raise VerdictsFileError(f"{name}: {what} is nested too deeply") from exc


def read_paper_index(path: Path | str) -> dict[str, str]:
    """Numeric ICML id (`pid`) -> OpenReview id (`orid`), from the challenge's `index.json`."""
    path = Path(path)
    data = _load_json(path, "paper index")
    papers = data.get("papers") if isinstance(data, dict) else data
    if not isinstance(papers, list):
        raise VerdictsFileError(f"{path.name}: paper index has no `papers` list")
    ids: dict[str, str] = {}
    for paper in papers:
        if not isinstance(paper, dict):
            continue
        orid = as_name(paper.get("orid"))
        pid = paper.get("pid")
        pid_text = str(pid) if isinstance(pid, int) and not isinstance(pid, bool) else as_name(pid)
        if orid and pid_text:
            ids[pid_text] = orid
    return ids


def read_registry(path: Path | str, paper_index: dict[str, str] | None = None) -> Registry:
    path = Path(path)
    name = path.name
    data = _load_json(path, "claim registry")
    if not isinstance(data, dict):
        raise VerdictsFileError(f"{name}: claim registry must be an object keyed by paper id")
    registry = Registry({})
    for key, value in data.items():
        paper = key.strip()
        if not isinstance(value, list):
            registry.problems.append(ImportProblem(name, paper, "expected a list of claims; skipped"))
            continue
        claims: list[RegistryClaim] = []
        for position, item in enumerate(value, start=1):
            text = as_name(item.get("text")) if isinstance(item, dict) else None
            if text is None:
                registry.problems.append(ImportProblem(name, paper, f"claim {position} has no text; kept empty"))
            status = as_name(item.get("status")) if isinstance(item, dict) else None
            claims.append(RegistryClaim(position, text or "", status))
        if paper.isdigit():
            orid = (paper_index or {}).get(paper)
            if orid is None:
                why = (
                    "numeric ICML id; give --paper-index to resolve it"
                    if paper_index is None
                    else ("numeric ICML id not in the paper index")
                )
                registry.unsupported[paper] = why
                continue
            paper = orid
        registry.claims[paper] = tuple(claims)
    return registry
