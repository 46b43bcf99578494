"""One event of an agent session, as every trace reader produces it, whatever the file's format.

Kinds are Trackio's (user, assistant, reasoning, tool_call, tool_result, status) plus `other`: a record of a
type no reader knows (Claude Code's file-history snapshots, Codex's world state, a newer format's additions),
kept and shown rather than dropped. `record` addresses the event in its file, independently of our numbering:
the 1-based line of a JSONL transcript, or Trackio's own sequence number in normalized traces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from reviewapp.core.logbook.model import TraceEvent

KINDS: tuple[str, ...] = ("user", "assistant", "reasoning", "tool_call", "tool_result", "status", "other")
KIND_CODE: dict[str, int] = {kind: code for code, kind in enumerate(KINDS)}
MESSAGE_KINDS = frozenset({"user", "assistant", "reasoning"})


def kind_code(kind: str) -> int:
    return KIND_CODE.get(kind, KIND_CODE["other"])


@dataclass(frozen=True, slots=True)
class Image:
    media_type: str
    data: str  # base64, as the transcript holds it; never decoded unless asked

    @property
    def size(self) -> int:
        return len(self.data) * 3 // 4


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    title: str
    text: str = ""
    tool_name: str | None = None
    call_id: str | None = None
    input: str | None = None
    output: str | None = None
    status: str | None = None
    timestamp: str | None = None
    turn: int | None = None
    error: bool = False
    record: int = 0  # 1-based line of a JSONL file, or Trackio's sequence number
    record_type: str | None = None  # the raw record's own type ("assistant", "response_item/function_call", ...)
    usage: dict[str, Any] | None = None  # token usage, once per API message
    sidechain: bool = False  # a sub-agent's event (Claude Code sidechains)
    uuid: str | None = None
    parent: str | None = None
    extra: str | None = None  # what the format carries beyond the fields above (Claude's toolUseResult, raw JSON)
    images: tuple[Image, ...] = ()
    position: int = -1  # 0-based row in the trace index
    sequence: int = 0  # Trackio's sequence, else position + 1

    def placed(self, position: int, **changes: Any) -> Event:
        changes.setdefault("sequence", self.sequence or position + 1)
        return replace(self, position=position, **changes)

    def as_trace_event(self) -> TraceEvent:
        """The logbook layer's event, for the claim matcher."""
        return TraceEvent(
            sequence=self.sequence,
            kind=self.kind,
            title=self.title,
            text=self.text,
            tool_name=self.tool_name,
            call_id=self.call_id,
            input=self.input,
            output=self.output,
            status=self.status,
            timestamp=self.timestamp,
            turn=self.turn,
        )

    def searchable(self) -> tuple[str, ...]:
        # tool input is JSON text: its quoted strings are searched as written, not as escaped
        unescaped = self.input.replace('\\"', '"') if self.input and '\\"' in self.input else None
        fields = (
            self.title, self.text, self.tool_name, self.call_id, self.input, unescaped, self.output, self.status,
            self.extra,
        )  # fmt: skip
        return tuple(v for v in fields if v)


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line that could not be read; the rest of the file still loads."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class SessionFacts:
    """What a transcript says about its session, from the records that carry it."""

    format: str
    session_id: str | None = None
    model: str | None = None
    cwd: str | None = None
    started_at: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def compact_json(value: Any, limit: int | None = None) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if limit is None or len(text) <= limit else text[:limit] + "…"


def pretty_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)
