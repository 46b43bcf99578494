"""Pi session v3 and its predecessor Session Trace Simple (the two formats of published trace datasets): a
`session` header, then `message` records."""

from __future__ import annotations

from typing import Any

from reviewapp.core.trace.events import Event, compact_json
from reviewapp.core.trace.formats.shared import (
    EXTRA_LIMIT,
    ReadState,
    images_of,
    ms_time,
    nonempty_str,
    other_event,
    text_of,
    tool_call,
    with_usage,
)


def convert(record: Any, line: int, state: ReadState) -> list[Event]:
    """Pi session v3 and its predecessor STS: a `session` header, then `message` records."""
    if not isinstance(record, dict):
        return [other_event(record, line)]
    kind = record.get("type")
    stamp = nonempty_str(record.get("timestamp")) or ms_time(record.get("timestamp"))
    common: dict[str, Any] = {
        "timestamp": stamp,
        "record": line,
        "record_type": kind if isinstance(kind, str) else None,
        "uuid": nonempty_str(record.get("id")),
        "parent": nonempty_str(record.get("parentId")),
    }
    facts = state.facts
    if kind == "session":
        facts.session_id = facts.session_id or nonempty_str(record.get("id"))
        facts.cwd = facts.cwd or nonempty_str(record.get("cwd"))
        facts.started_at = facts.started_at or stamp
        title = nonempty_str(record.get("name")) or nonempty_str(record.get("title")) or "Session"
        text = " · ".join(str(v) for v in (record.get("harness"), record.get("cwd")) if v)
        return [Event("status", title, text=text, extra=compact_json(record, EXTRA_LIMIT), **common)]
    if kind == "model_change":
        model = nonempty_str(record.get("modelId")) or nonempty_str(record.get("model"))
        facts.model = facts.model or model
        return [Event("status", "Model", text=model or "", **common)]
    message = record.get("message")
    if kind != "message" or not isinstance(message, dict):
        return [other_event(record, line, timestamp=stamp)]
    common["timestamp"] = common["timestamp"] or ms_time(message.get("timestamp"))
    role = message.get("role")
    content = message.get("content")
    blocks = content if isinstance(content, list) else None
    if role == "user":
        state.turn += 1
        return [Event("user", "User", text=text_of(content), images=images_of(blocks), turn=state.turn, **common)]
    if role in ("toolResult", "tool"):
        is_error = bool(message.get("isError"))
        name = nonempty_str(message.get("toolName"))
        return [
            Event(
                "tool_result",
                "Output",
                tool_name=name,
                call_id=nonempty_str(message.get("toolCallId")),
                output=text_of(content),
                images=images_of(blocks),
                status="error" if is_error else "success",
                error=is_error,
                turn=state.turn or None,
                **common,
            )
        ]
    if role == "assistant":
        facts.model = facts.model or nonempty_str(message.get("model"))
        events: list[Event] = []
        reasoning = message.get("reasoningContent")
        if isinstance(reasoning, str) and reasoning:
            events.append(Event("reasoning", "Thought", text=reasoning, turn=state.turn or None, **common))
        if isinstance(content, str) and content:
            events.append(Event("assistant", "Agent", text=content, turn=state.turn or None, **common))
        for block in blocks or []:
            if not isinstance(block, dict):
                continue
            btype = block.get("type")
            if btype == "text":
                events.append(Event("assistant", "Agent", text=text_of(block), turn=state.turn or None, **common))
            elif btype == "thinking":
                body = str(block.get("thinking") or block.get("text") or "")
                events.append(Event("reasoning", "Thought", text=body, turn=state.turn or None, **common))
            elif btype == "toolCall":
                events.append(
                    tool_call(
                        block.get("name"), block.get("id"), block.get("arguments"), turn=state.turn or None, **common
                    )
                )
            else:
                events.append(other_event(block, line, f"{btype or 'block'} block", stamp))
        for call in message.get("toolCalls") or []:  # STS: OpenAI-style calls, arguments a JSON string
            if isinstance(call, dict):
                function: dict[str, Any] = call["function"] if isinstance(call.get("function"), dict) else call
                events.append(
                    tool_call(
                        function.get("name"),
                        call.get("id"),
                        function.get("arguments"),
                        turn=state.turn or None,
                        **common,
                    )
                )
        usage = message.get("usage")
        if not events:
            events.append(Event("status", "Agent", text="(empty message)", turn=state.turn or None, **common))
        if isinstance(usage, dict):
            events[0] = with_usage(events[0], usage)
        return events
    return [Event("status", f"{str(role).capitalize()} message", text=text_of(content), **common)]
