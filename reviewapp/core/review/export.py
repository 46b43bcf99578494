"""Export the current state of a logbook's review: one row per claim and reviewer, as CSV or JSONL.

A claim nobody judged gets one row with empty human columns; a claim several reviewers judged gets one row
per reviewer. Verdicts on claims that are no longer there (after a split or merge) are kept, with origin
"missing", so an export never hides a judgment. `judge_verdict` is the Logbook Judge's, once imported.
Notes are exported too: those about a claim in its reviewer's row (a reviewer who only left notes gets a row of
their own), and notes on a page or on the logbook as rows of origin "note".
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from reviewapp.core.io.spreadsheet import spreadsheet_safe
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.identity import annotator_slug
from reviewapp.core.review.records import NoteRecord, VerdictPayload, VerdictRecord
from reviewapp.core.review.state import AnnotationState, EffectiveClaim
from reviewapp.core.review.targets import describe_target
from reviewapp.core.review.trace_links import excerpt_label, pinned_excerpts
from reviewapp.core.verdicts import Verdict

if TYPE_CHECKING:
    from reviewapp.core.logbook.model import Logbook

COLUMNS: tuple[str, ...] = (
    "key",
    "n",
    "title",
    "page",
    "origin",
    "agent_verdict",
    "agent_verdict_read",
    "judge_verdict",
    "human_verdict",
    "confidence",
    "rationale",
    "tags",
    "notes",
    "annotator",
    "role",
    "record_id",
    "created_at",
    "trace_excerpts",
)


def export_rows(
    state: AnnotationState,
    annotator: str | None = None,
    logbook_judge: Mapping[str, Verdict] | None = None,
    rule: BlindRule = BlindRule.SEEING_ALL,
) -> list[dict[str, Any]]:
    """Rows in claim order; `annotator` limits the human columns to one reviewer; `logbook_judge` is the Logbook Judge's
    verdict per claim key (from a stored import); `rule` leaves out what blind review hides (others' records on a
    claim until the reviewer has a verdict on it) and scrubs the text."""
    rows: list[dict[str, Any]] = []
    present: set[str] = set()
    claims = state.effective_claims()

    def notes_of(key: str, name: str | None) -> list[str]:
        return [_note_text(note, claims) for note in rule.shown(state, state.notes(claim=key, annotator=name))]

    for claim in claims:
        present.add(claim.key)
        verdicts = rule.verdicts(state, claim.key)
        noted = {note.annotator for note in rule.shown(state, state.notes(claim=claim.key))}
        if annotator is not None:
            verdicts = {name: record for name, record in verdicts.items() if name == annotator}
            noted &= {annotator}
        reviewers = sorted(set(verdicts) | noted)
        if not reviewers:
            rows.append(_row(claim, claim.key, None, state.tags(claim.key, annotator), []))
        for name in reviewers:
            record = verdicts.get(name)
            row = _row(claim, claim.key, record, state.tags(claim.key, name), notes_of(claim.key, name))
            if record is None:  # only notes from this reviewer
                first = state.notes(claim=claim.key, annotator=name)[0]
                row["annotator"], row["role"] = name, first.role
            rows.append(row)
    for key in state.verdict_claims():
        if key in present:
            continue
        for name, record in sorted(rule.verdicts(state, key).items()):
            if annotator is None or name == annotator:
                rows.append(_row(None, key, record, state.tags(key, name), notes_of(key, name)))
    for note in rule.shown(state, state.notes(annotator=annotator)):
        if not note.target.claim:  # a note on a page, a cell outside claims, a trace event or the logbook
            rows.append(_note_row(note, claims))
    excerpts: dict[str, list[str]] = {}
    for excerpt in rule.shown(state, pinned_excerpts(state)):
        if excerpt.target.claim and (annotator is None or excerpt.annotator == annotator):
            excerpts.setdefault(excerpt.target.claim, []).append(excerpt_label(excerpt))
    for row in rows:
        row["trace_excerpts"] = excerpts.get(row["key"], [])
    if logbook_judge:
        for row in rows:
            found = logbook_judge.get(row["key"] or "")
            row["judge_verdict"] = found.value if found else None
    if rule.blind:
        rows = [{name: _scrubbed(value, rule) for name, value in row.items()} for row in rows]
    return rows


def default_export_path(logbook: Logbook, home: Path | None = None, rule: BlindRule = BlindRule.SEEING_ALL) -> Path:
    """Where an export goes unless the user says otherwise: a visible file named after the logbook's folder (never
    `.trackio`), or after its pseudonym in blind review, in Documents when there is one."""
    folder = logbook.workspace if logbook.workspace is not None else logbook.root
    name = next((part for part in (folder.name, logbook.title) if part and not part.startswith(".")), "logbook")
    home = home if home is not None else Path.home()
    where = home / "Documents" if (home / "Documents").is_dir() else home
    return where / f"{annotator_slug(rule.file_stem(name))}-reviews.csv"


def _scrubbed(value: Any, rule: BlindRule) -> Any:
    if isinstance(value, str):
        return rule.text(value)
    if isinstance(value, list):
        return [rule.text(v) if isinstance(v, str) else v for v in value]
    return value


def _note_text(note: NoteRecord, claims: list[EffectiveClaim]) -> str:
    text = note.payload.text.strip() or "; ".join(note.payload.tags)
    return f"{describe_target(note.target, claims)}: {text}"


def _note_row(note: NoteRecord, claims: list[EffectiveClaim]) -> dict[str, Any]:
    row = dict.fromkeys(COLUMNS)
    row.update(
        key="",
        page=note.target.page,
        origin="note",
        tags=list(note.payload.tags),
        notes=[_note_text(note, claims)],
        annotator=note.annotator,
        role=note.role,
        record_id=note.id,
        created_at=note.created_at.isoformat(),
    )
    return row


def _row(
    claim: EffectiveClaim | None, key: str, record: VerdictRecord | None, tags: list[str], notes: list[str]
) -> dict[str, Any]:
    payload = record.payload if record is not None else None
    assert payload is None or isinstance(payload, VerdictPayload)
    return {
        "key": key,
        "n": claim.n if claim else None,
        "title": claim.title if claim else None,
        "page": claim.page if claim else (record.target.page if record else None),
        "origin": claim.origin if claim else "missing",
        "agent_verdict": claim.agent_verdict.value if claim else None,
        "agent_verdict_read": claim.agent_verdict_read.value if claim and claim.agent_verdict_read else None,
        "judge_verdict": None,
        "human_verdict": payload.verdict.value if payload else None,
        "confidence": payload.confidence if payload else None,
        "rationale": payload.rationale if payload else None,
        "tags": tags,
        "notes": notes,
        "annotator": record.annotator if record else None,
        "role": record.role if record else None,
        "record_id": record.id if record else None,
        "created_at": record.created_at.isoformat() if record else None,
    }


def write_jsonl(rows: list[dict[str, Any]], out: TextIO) -> None:
    for row in rows:
        out.write(json.dumps(row, ensure_ascii=False) + "\n")


def write_csv(rows: list[dict[str, Any]], out: TextIO) -> None:
    """Tags joined by "; "; text that a spreadsheet would run as a formula is prefixed with an apostrophe."""
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({name: _cell(name, row[name]) for name in COLUMNS})


def _cell(name: str, value: Any) -> Any:
    if value is None:
        return ""
    if name in ("tags", "trace_excerpts"):
        value = "; ".join(value)
    elif name == "notes":
        value = "\n".join(value)
    return spreadsheet_safe(value)
