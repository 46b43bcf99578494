"""What every transcript format's converter shares: the running state of a file, and the readers of text,
images, tool input and times that records of several formats hold alike."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from reviewapp.core.trace.events import Event, Image, SessionFacts, compact_json, pretty_json

EXTRA_LIMIT = 20_000


@dataclass
class ReadState:
    facts: SessionFacts
    turn: int = 0
    seen_messages: set[str] = field(default_factory=set)  # API message ids whose usage was counted


Converter = Callable[[Any, int, ReadState], list[Event]]


def text_of(value: Any) -> str:
    """Text of a string or of a list of text blocks; other blocks are named, not dumped."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for block in value:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                kind = block.get("type")
                text = block.get("text")
                if isinstance(text, str):
                    parts.append(text)
                elif kind == "image" or kind == "input_image":
                    parts.append("[image]")
                elif isinstance(block.get("content"), (str, list)):
                    parts.append(text_of(block["content"]))
        return "\n".join(parts)
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return str(value["text"])
    return "" if value is None else compact_json(value, EXTRA_LIMIT)


def images_of(value: Any) -> tuple[Image, ...]:
    found: list[Image] = []
    if isinstance(value, list):
        for block in value:
            if not isinstance(block, dict):
                continue
            source = block.get("source")
            if block.get("type") == "image" and isinstance(source, dict) and isinstance(source.get("data"), str):
                found.append(Image(str(source.get("media_type") or "image"), source["data"]))
            elif block.get("type") == "image" and isinstance(block.get("data"), str):  # Pi
                found.append(Image(str(block.get("mimeType") or "image"), block["data"]))
            elif block.get("type") == "input_image" and isinstance(block.get("image_url"), str):  # Codex data URL
                url = block["image_url"]
                head, _, data = url.partition(",")
                if head.startswith("data:") and data:
                    found.append(Image(head[5:].split(";")[0] or "image", data))
            elif isinstance(block.get("content"), list):
                found.extend(images_of(block["content"]))
    return tuple(found)


def nonempty_str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def json_input(value: Any) -> str:
    """Tool input as Trackio shows it: an object pretty-printed, a JSON string parsed first when it is one."""
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            return value
        return pretty_json(parsed) if isinstance(parsed, (dict, list)) else value
    return pretty_json(value) if value is not None else ""


def tool_call(name: Any, call_id: Any, arguments: Any, title_prefix: str = "", **fields: Any) -> Event:
    """A call of the tool `name` ("tool" when the record names none), its arguments shown as `json_input` does."""
    tool = nonempty_str(name) or "tool"
    return Event(
        "tool_call",
        title_prefix + tool,
        tool_name=tool,
        call_id=nonempty_str(call_id),
        input=json_input(arguments),
        **fields,
    )


def ms_time(value: Any) -> str | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        from datetime import UTC, datetime

        try:
            return datetime.fromtimestamp(value / 1000, UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, OSError, ValueError):
            return None
    return nonempty_str(value)


def other_event(record: Any, line: int, title: str | None = None, timestamp: str | None = None) -> Event:
    kind = record.get("type") if isinstance(record, dict) else None
    name = title or (f"{kind} record" if isinstance(kind, str) else "record")
    return Event(
        "other",
        name,
        text=compact_json(record, 400),
        extra=compact_json(record, EXTRA_LIMIT),
        timestamp=timestamp,
        record=line,
        record_type=kind if isinstance(kind, str) else None,
    )


def with_usage(event: Event, usage: dict[str, Any]) -> Event:
    return replace(event, usage=usage)
