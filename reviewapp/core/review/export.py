"""Export the current state of a logbook's review: one row per claim and reviewer, as CSV or JSONL.

A claim nobody judged gets one row with empty human columns; a claim several reviewers judged gets one row
per reviewer. Verdicts on claims that are no longer there (after a split or merge) are kept, with origin
"missing", so an export never hides a judgment. `judge_verdict` is the Logbook Judge's, once imported.
"""

from __future__ import annotations

import csv
import json
from typing import Any, TextIO

from reviewapp.core.review.records import VerdictPayload, VerdictRecord
from reviewapp.core.review.state import AnnotationState, EffectiveClaim

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
    "annotator",
    "role",
    "record_id",
    "created_at",
)
_FORMULA_START = ("=", "+", "@", "\t", "\r")


def export_rows(state: AnnotationState, annotator: str | None = None) -> list[dict[str, Any]]:
    """Rows in claim order; `annotator` limits the human columns to one reviewer."""
    rows: list[dict[str, Any]] = []
    present: set[str] = set()
    for claim in state.effective_claims():
        present.add(claim.key)
        verdicts = state.verdicts(claim.key)
        if annotator is not None:
            verdicts = {name: record for name, record in verdicts.items() if name == annotator}
        if not verdicts:
            rows.append(_row(claim, claim.key, None, state.tags(claim.key, annotator)))
        for name, record in sorted(verdicts.items()):
            rows.append(_row(claim, claim.key, record, state.tags(claim.key, name)))
    for key in state.verdict_claims():
        if key in present:
            continue
        for name, record in sorted(state.verdicts(key).items()):
            if annotator is None or name == annotator:
                rows.append(_row(None, key, record, state.tags(key, name)))
    return rows


def _row(claim: EffectiveClaim | None, key: str, record: VerdictRecord | None, tags: list[str]) -> dict[str, Any]:
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
    if name == "tags":
        value = "; ".join(value)
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value
