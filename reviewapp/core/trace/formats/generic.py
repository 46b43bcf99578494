"""Any other JSON lines: a record with a user or assistant role and its text is a message, anything else an
`other` event."""

from __future__ import annotations

from typing import Any

from reviewapp.core.trace.events import Event
from reviewapp.core.trace.formats.shared import ReadState, nonempty_str, other_event, text_of


def convert(record: Any, line: int, state: ReadState) -> list[Event]:
    if isinstance(record, dict):
        role = record.get("role") or record.get("type")
        content = record.get("content") if "content" in record else record.get("text")
        if role in ("user", "assistant") and isinstance(content, (str, list)):
            if role == "user":
                state.turn += 1
            kind = "user" if role == "user" else "assistant"
            stamp = nonempty_str(record.get("timestamp"))
            return [
                Event(kind, kind.capitalize(), text=text_of(content), turn=state.turn, timestamp=stamp, record=line)
            ]
    return [other_event(record, line)]
