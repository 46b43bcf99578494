"""Codex's older bare form: a header line with the instructions, then response items without an envelope and
`state` markers."""

from __future__ import annotations

from typing import Any

from reviewapp.core.trace.events import Event, compact_json
from reviewapp.core.trace.formats.codex import item_events
from reviewapp.core.trace.formats.shared import ReadState, nonempty_str, other_event


def convert(record: Any, line: int, state: ReadState) -> list[Event]:
    if not isinstance(record, dict):
        return [other_event(record, line)]
    if line == 1 and "type" not in record and ("instructions" in record or "id" in record):
        state.facts.session_id = state.facts.session_id or nonempty_str(record.get("id"))
        state.facts.started_at = state.facts.started_at or nonempty_str(record.get("timestamp"))
        meta = {k: v for k, v in record.items() if k != "instructions"}
        return [
            Event(
                "status",
                "Session",
                text=" · ".join(str(v) for v in (record.get("id"), record.get("timestamp")) if v),
                timestamp=nonempty_str(record.get("timestamp")),
                record=line,
                record_type="session header",
                extra=compact_json(meta),
            )
        ]
    if record.get("record_type") == "state":
        return [other_event(record, line, "State marker")]
    if record.get("type") == "message" and record.get("role") == "user":
        state.turn += 1
    return item_events(record, line, state, nonempty_str(record.get("timestamp")), str(record.get("type")))
