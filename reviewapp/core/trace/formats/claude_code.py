"""Claude Code transcripts: `user`, `assistant`, `system` and `summary` records, sub-agent lines marked as
such, token usage counted once per API message."""

from __future__ import annotations

from typing import Any

from reviewapp.core.trace.events import Event, compact_json
from reviewapp.core.trace.formats.shared import (
    EXTRA_LIMIT,
    ReadState,
    images_of,
    nonempty_str,
    other_event,
    text_of,
    tool_call,
    with_usage,
)


def convert(record: Any, line: int, state: ReadState) -> list[Event]:
    if not isinstance(record, dict):
        return [other_event(record, line)]
    kind = record.get("type")
    stamp = nonempty_str(record.get("timestamp"))
    common: dict[str, Any] = {
        "timestamp": stamp,
        "record": line,
        "record_type": kind if isinstance(kind, str) else None,
        "sidechain": bool(record.get("isSidechain")),
        "uuid": nonempty_str(record.get("uuid")),
        "parent": nonempty_str(record.get("parentUuid")),
    }
    facts = state.facts
    facts.session_id = facts.session_id or nonempty_str(record.get("sessionId"))
    facts.cwd = facts.cwd or nonempty_str(record.get("cwd"))
    facts.started_at = facts.started_at or stamp
    message = record.get("message")
    prefix = "Sub-agent · " if common["sidechain"] else ""
    if kind in ("user", "assistant") and isinstance(message, dict):
        content = message.get("content")
        blocks: list[Any] = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
        if not isinstance(blocks, list):
            blocks = []
        events: list[Event] = []
        if kind == "user":
            texts = [b for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
            if texts and not record.get("isMeta") and not common["sidechain"]:
                state.turn += 1
            if texts or any(isinstance(b, dict) and b.get("type") == "image" for b in blocks):
                events.append(
                    Event(
                        "user",
                        prefix + ("User (meta)" if record.get("isMeta") else "User"),
                        text=text_of(texts),
                        images=images_of(blocks),
                        turn=state.turn,
                        **common,
                    )
                )
            extra = record.get("toolUseResult")
            for block in blocks:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    body = block.get("content")
                    events.append(
                        Event(
                            "tool_result",
                            prefix + "Output",
                            output=text_of(body),
                            images=images_of(body),
                            call_id=nonempty_str(block.get("tool_use_id")),
                            status="error" if block.get("is_error") else "success",
                            error=bool(block.get("is_error")),
                            extra=compact_json(extra, EXTRA_LIMIT) if extra is not None else None,
                            turn=state.turn,
                            **common,
                        )
                    )
        else:
            facts.model = facts.model or nonempty_str(message.get("model"))
            for block in blocks:
                if not isinstance(block, dict):
                    continue
                btype = block.get("type")
                if btype == "text":
                    events.append(Event("assistant", prefix + "Agent", text=text_of(block), turn=state.turn, **common))
                elif btype in ("thinking", "reasoning", "redacted_thinking"):
                    body = block.get("thinking") or block.get("text") or ("[redacted]" if btype != "thinking" else "")
                    events.append(Event("reasoning", prefix + "Thought", text=str(body), turn=state.turn, **common))
                elif btype in ("tool_use", "server_tool_use"):
                    events.append(
                        tool_call(
                            block.get("name"), block.get("id"), block.get("input"), prefix, turn=state.turn, **common
                        )
                    )
                else:
                    events.append(other_event(block, line, f"{prefix}{btype or 'block'} block", stamp))
            usage = message.get("usage")
            message_id = nonempty_str(message.get("id"))
            if isinstance(usage, dict):
                fresh = message_id is None or message_id not in state.seen_messages
                if message_id is not None:
                    state.seen_messages.add(message_id)
                if not events:
                    events.append(Event("status", prefix + "Usage", turn=state.turn, **common))
                if fresh:
                    events[0] = with_usage(events[0], usage)
        return events or [Event("status", prefix + kind.capitalize(), text="(empty message)", **common)]
    if kind == "system":
        subtype = nonempty_str(record.get("subtype"))
        text = text_of(record.get("content"))
        extra = record.get("compactMetadata")
        return [
            Event(
                "status",
                "System" + (f" · {subtype}" if subtype else ""),
                text=text,
                status=nonempty_str(record.get("level")),
                error=record.get("level") == "error",
                extra=compact_json(extra) if extra else None,
                **common,
            )
        ]
    if kind == "summary":
        return [Event("status", "Summary", text=text_of(record.get("summary")), **common)]
    return [other_event(record, line, timestamp=stamp)]
