"""Reading the Logbook Judge's verdicts: the published `verdicts.json` and our one-row-per-claim CSV/JSONL form.

`verdicts.json` is one object keyed by Space id; each value names the judged Space (`space_id`, which may differ from
the key), the paper (`orid`, else `paper_id`, else `paper`), the revision judged (`sha`, sometimes absent) and one
claim per registry claim, in registry order: `{claim, verdict, evidence}`. A bad entry or claim is reported with the
file and the entry and skipped; the rest of the file is still read.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewapp.core.io.coerce import as_int, as_name, as_text
from reviewapp.core.io.safepath import FileTooLarge, UnsafeReference, read_capped, why_unreadable
from reviewapp.core.verdicts import JUDGE_VERDICTS, Verdict

FILE_LIMIT = 256 * 1024 * 1024
ROW_COLUMNS = ("space_id", "orid", "claim_index", "claim", "verdict", "evidence", "judged_at", "model", "sha")
ENTRY_COLUMNS = ("paper_title", "overall", "quality")  # optional in the row form; the same on every row of an entry
QUALITIES = ("low", "medium", "high")


class VerdictsFileError(ValueError):
    """The file cannot be read at all (missing, not JSON/CSV, not an object keyed by Space id)."""


@dataclass(frozen=True, slots=True)
class ImportProblem:
    file: str
    entry: str | None  # the Space id key, or "row N" / "line N" in the row forms
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.entry}: {self.message}" if self.entry else f"{self.file}: {self.message}"


@dataclass(frozen=True, slots=True)
class JudgeClaim:
    index: int  # 1-based position in the challenge's claim registry for the paper
    text: str | None  # the claim as the Logbook Judge was given it; None when the entry carries no text
    verdict: Verdict | None  # None: the entry gave a word outside the Logbook Judge's vocabulary (reported)
    verdict_raw: str | None
    evidence: str | None = None


@dataclass(frozen=True, slots=True)
class JudgeEntry:
    key: str  # the Space id the file is keyed by
    space_id: str  # the entry's own space_id; the key when absent
    orid: str | None
    paper_title: str | None
    sha: str | None
    judged_at: str | None
    model: str | None
    overall: str | None
    quality: str | None
    claims: tuple[JudgeClaim, ...]
    extra: dict[str, Any] = field(default_factory=dict)  # fields this reader does not use, kept for the record

    @property
    def space_ids(self) -> tuple[str, ...]:
        """Every Space this entry names (the key and the inner `space_id` when they differ)."""
        return (self.key,) if self.key == self.space_id else (self.key, self.space_id)

    @property
    def has_text(self) -> bool:
        return any(c.text for c in self.claims)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "space_id": self.space_id,
            "orid": self.orid,
            "paper_title": self.paper_title,
            "sha": self.sha,
            "judged_at": self.judged_at,
            "model": self.model,
            "overall": self.overall,
            "quality": self.quality,
            "claims": [
                {
                    "index": c.index,
                    "claim": c.text,
                    "verdict": c.verdict.value if c.verdict else None,
                    "verdict_raw": c.verdict_raw,
                    "evidence": c.evidence,
                }
                for c in self.claims
            ],
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JudgeEntry:
        """The inverse of to_json (our own normalized form, already validated when it was stored)."""
        claims = tuple(
            JudgeClaim(
                index=int(c["index"]),
                text=c.get("claim"),
                verdict=Verdict(c["verdict"]) if c.get("verdict") else None,
                verdict_raw=c.get("verdict_raw"),
                evidence=c.get("evidence"),
            )
            for c in data.get("claims", [])
        )
        return cls(
            key=data["key"],
            space_id=data.get("space_id") or data["key"],
            orid=data.get("orid"),
            paper_title=data.get("paper_title"),
            sha=data.get("sha"),
            judged_at=data.get("judged_at"),
            model=data.get("model"),
            overall=data.get("overall"),
            quality=data.get("quality"),
            claims=claims,
            extra=dict(data.get("extra") or {}),
        )


@dataclass
class VerdictsFile:
    path: Path
    entries: list[JudgeEntry]
    problems: list[ImportProblem]


def logbook_judge_verdict(raw: Any) -> Verdict | None:
    """The Logbook Judge's verdict word, compared case-insensitively; None when it is not one of its four."""
    text = as_name(raw)
    if text is None:
        return None
    try:
        value = Verdict(text.lower())
    except ValueError:
        return None
    return value if value in JUDGE_VERDICTS else None


def read_verdicts(path: Path | str) -> VerdictsFile:
    """Read `verdicts.json`, or our CSV / JSON Lines form (by extension; JSON sniffed otherwise)."""
    path = Path(path)
    name = path.name
    try:
        data = read_capped(path, FILE_LIMIT)
    except FileTooLarge as exc:
        raise VerdictsFileError(f"{name}: larger than {FILE_LIMIT // (1024 * 1024)} MB") from exc
    except (UnsafeReference, OSError) as exc:
        raise VerdictsFileError(f"{name}: cannot read: {why_unreadable(exc)}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise VerdictsFileError(f"{name}: not valid UTF-8 (byte {exc.start})") from exc
    suffix = path.suffix.lower()
    problems: list[ImportProblem] = []
    if suffix == ".csv":
        entries = _entries_from_rows(_csv_rows(text, name, problems), name, problems)
    elif suffix in (".jsonl", ".ndjson"):
        entries = _entries_from_rows(_jsonl_rows(text, name, problems), name, problems)
    else:
        entries = _entries_from_object(_json_object(text, name), name, problems)
    return VerdictsFile(path, entries, problems)


def _json_object(text: str, name: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise VerdictsFileError(f"{name}:{exc.lineno}: invalid JSON: {exc.msg}") from exc
    except RecursionError as exc:
        raise VerdictsFileError(f"{name}: invalid JSON: nested too deeply") from exc
    if not isinstance(value, dict):
        raise VerdictsFileError(
            f"{name}: expected a JSON object keyed by Space id (owner/name), found {type(value).__name__}"
        )
    return value


def _entries_from_object(data: dict[str, Any], name: str, problems: list[ImportProblem]) -> list[JudgeEntry]:
    entries: list[JudgeEntry] = []
    for key, value in data.items():
        space = key.strip()
        if "/" not in space or not space.split("/")[0] or not space.split("/")[1]:
            problems.append(ImportProblem(name, key or "(empty key)", "key is not a Space id (owner/name); skipped"))
            continue
        if not isinstance(value, dict):
            problems.append(ImportProblem(name, space, f"expected an object, found {type(value).__name__}; skipped"))
            continue
        entry = _entry(space, value, name, problems)
        if entry is not None:
            entries.append(entry)
    return entries


_KNOWN = {"space_id", "orid", "paper_id", "paper", "paper_title", "sha", "judged_at", "model", "claims", "overall"}
_KNOWN |= {"quality"}


def _entry(key: str, value: dict[str, Any], name: str, problems: list[ImportProblem]) -> JudgeEntry | None:
    raw_claims = value.get("claims")
    if not isinstance(raw_claims, list):
        problems.append(ImportProblem(name, key, "`claims` is missing or not a list; skipped"))
        return None
    claims: list[JudgeClaim] = []
    for position, item in enumerate(raw_claims, start=1):
        if not isinstance(item, dict):
            problems.append(ImportProblem(name, key, f"claim {position} is not an object; left out"))
            continue
        claims.append(_claim(position, item, name, key, problems))
    inner = as_name(value.get("space_id"))
    return JudgeEntry(
        key=key,
        space_id=inner or key,
        orid=_orid(value),
        paper_title=as_name(value.get("paper_title")),
        sha=as_name(value.get("sha")),
        judged_at=as_name(value.get("judged_at")),
        model=as_name(value.get("model")),
        overall=as_name(as_text(value.get("overall"))),
        quality=_quality(value.get("quality"), name, key, problems),
        claims=tuple(claims),
        extra={k: v for k, v in value.items() if k not in _KNOWN},
    )


def _orid(value: dict[str, Any]) -> str | None:
    for field_name in ("orid", "paper_id", "paper"):
        found = value.get(field_name)
        if isinstance(found, int) and not isinstance(found, bool):
            return str(found)
        if as_name(found):
            return as_name(found)
    return None


def _quality(raw: Any, name: str, key: str, problems: list[ImportProblem]) -> str | None:
    text = as_name(raw)
    if text is None:
        return None
    if text.lower() not in QUALITIES:
        problems.append(ImportProblem(name, key, f"quality {text!r} is not low, medium or high; kept as written"))
        return text
    return text.lower()


def _claim(index: int, item: dict[str, Any], name: str, key: str, problems: list[ImportProblem]) -> JudgeClaim:
    raw = as_name(item.get("verdict"))
    verdict = logbook_judge_verdict(raw)
    if verdict is None:
        allowed = ", ".join(v.value for v in JUDGE_VERDICTS)
        shown = repr(raw) if raw else "no verdict"
        problems.append(ImportProblem(name, key, f"claim {index}: {shown} is not one of {allowed}; left empty"))
    return JudgeClaim(
        index=index,
        text=as_name(item.get("claim")),
        verdict=verdict,
        verdict_raw=raw,
        evidence=as_name(as_text(item.get("evidence"))),
    )


# -- the row form: one row per claim ------------------------------------------------------------------------------


def _csv_rows(text: str, name: str, problems: list[ImportProblem]) -> Iterable[tuple[str, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    fields = [f.strip() for f in reader.fieldnames or []]
    missing = [c for c in ("space_id", "verdict") if c not in fields]
    if missing:
        raise VerdictsFileError(f"{name}: missing column(s) {', '.join(missing)} (expected {', '.join(ROW_COLUMNS)})")
    for row in reader:
        where = f"row {reader.line_num}"
        yield where, {(k or "").strip(): v for k, v in row.items() if k is not None}


def _jsonl_rows(text: str, name: str, problems: list[ImportProblem]) -> Iterable[tuple[str, dict[str, Any]]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(ImportProblem(name, where, f"invalid JSON: {exc.msg}; skipped"))
            continue
        if not isinstance(value, dict):
            problems.append(ImportProblem(name, where, f"expected an object, found {type(value).__name__}; skipped"))
            continue
        yield where, value


def _entries_from_rows(
    rows: Iterable[tuple[str, dict[str, Any]]], name: str, problems: list[ImportProblem]
) -> list[JudgeEntry]:
    grouped: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for where, row in rows:
        space = as_name(row.get("space_id"))
        if space is None or "/" not in space:
            problems.append(ImportProblem(name, where, "no Space id (owner/name) in space_id; skipped"))
            continue
        grouped.setdefault(space, []).append((where, row))
    entries: list[JudgeEntry] = []
    for space, group in grouped.items():
        claims: dict[int, JudgeClaim] = {}
        for position, (where, row) in enumerate(group, start=1):
            index = as_int(row.get("claim_index"))
            if index is None and as_name(row.get("claim_index")) is None:
                index = position  # no column: the rows are in registry order
            if index is None or index < 1:
                problems.append(ImportProblem(name, where, f"claim_index {row.get('claim_index')!r} is not 1 or more"))
                continue
            if index in claims:
                problems.append(ImportProblem(name, where, f"{space}: claim {index} given twice; the first row kept"))
                continue
            claims[index] = _claim(index, row, name, f"{space} ({where})", problems)
        first = group[0][1]
        entries.append(
            JudgeEntry(
                key=space,
                space_id=space,
                orid=_orid(first),
                paper_title=as_name(first.get("paper_title")),
                sha=as_name(first.get("sha")),
                judged_at=as_name(first.get("judged_at")),
                model=as_name(first.get("model")),
                overall=as_name(first.get("overall")),
                quality=_quality(first.get("quality"), name, space, problems),
                claims=tuple(claims[i] for i in sorted(claims)),
            )
        )
    return entries


def write_rows_csv(entries: Iterable[JudgeEntry]) -> str:
    """Our row form of `entries`, for exports and tests (the columns `read_verdicts` reads)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((*ROW_COLUMNS, *ENTRY_COLUMNS))
    for entry in entries:
        for claim in entry.claims:
            writer.writerow(
                (
                    entry.space_id,
                    entry.orid or "",
                    claim.index,
                    claim.text or "",
                    claim.verdict_raw or "",
                    claim.evidence or "",
                    entry.judged_at or "",
                    entry.model or "",
                    entry.sha or "",
                    entry.paper_title or "",
                    entry.overall or "",
                    entry.quality or "",
                )
            )
    return out.getvalue()
