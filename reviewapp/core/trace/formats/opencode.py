"""opencode message logs: `{id, role, data{time, tokens, modelID, finish, ...}}` records, or `{info, parts}`
exports."""

from __future__ import annotations

from typing import Any

from reviewapp.core.trace.events import Event
from reviewapp.core.trace.formats.shared import (
    ReadState,
    ms_time,
    nonempty_str,
    other_event,
    text_of,
    tool_call,
    with_usage,
)


def convert(record: Any, line: int, state: ReadState) -> list[Event]:
    """opencode messages: `{id, role, data{time, tokens, modelID, finish, ...}}`, or `{info, parts}` exports."""
    if not isinstance(record, dict):
        return [other_event(record, line)]
    info = record.get("info") if isinstance(record.get("info"), dict) else record.get("data")
    if not isinstance(info, dict):
        return [other_event(record, line)]
    role = record.get("role") or info.get("role")
    times: dict[str, Any] = info["time"] if isinstance(info.get("time"), dict) else {}
    stamp = ms_time(times.get("created"))
    state.facts.started_at = state.facts.started_at or stamp
    state.facts.model = state.facts.model or nonempty_str(info.get("modelID")) or _nested(info, "model", "modelID")
    state.facts.session_id = state.facts.session_id or nonempty_str(info.get("sessionID"))
    common: dict[str, Any] = {
        "timestamp": stamp,
        "record": line,
        "record_type": f"message/{role}",
        "uuid": nonempty_str(record.get("id")) or nonempty_str(info.get("id")),
        "parent": nonempty_str(info.get("parentID")),
    }
    tokens = record.get("tokens") if isinstance(record.get("tokens"), dict) else info.get("tokens")
    usage = tokens if isinstance(tokens, dict) else None
    if isinstance(info.get("cost"), (int, float)) and usage is not None:
        usage = {**usage, "cost": info["cost"]}
    finish = nonempty_str(record.get("finish")) or nonempty_str(info.get("finish"))
    error = info.get("error")
    parts = record.get("parts") if isinstance(record.get("parts"), list) else info.get("parts")
    events: list[Event] = []
    if role == "user":
        state.turn += 1
    for part in parts if isinstance(parts, list) else []:
        if not isinstance(part, dict):
            continue
        ptype = part.get("type")
        if ptype == "text":
            kind = "user" if role == "user" else "assistant"
            events.append(
                Event(kind, "User" if kind == "user" else "Agent", text=text_of(part), turn=state.turn, **common)
            )
        elif ptype == "reasoning":
            events.append(Event("reasoning", "Thought", text=text_of(part), turn=state.turn, **common))
        elif ptype == "tool":
            name = nonempty_str(part.get("tool")) or "tool"
            call = nonempty_str(part.get("callID")) or nonempty_str(part.get("id"))
            tool_state: dict[str, Any] = part["state"] if isinstance(part.get("state"), dict) else {}
            events.append(tool_call(name, call, tool_state.get("input"), turn=state.turn, **common))
            status = nonempty_str(tool_state.get("status"))
            if "output" in tool_state or "error" in tool_state:
                failed = status == "error" or "error" in tool_state
                events.append(
                    Event(
                        "tool_result",
                        "Output",
                        tool_name=name,
                        call_id=call,
                        output=text_of(tool_state.get("output") or tool_state.get("error")),
                        status=status,
                        error=failed,
                        turn=state.turn,
                        **common,
                    )
                )
        else:
            events.append(other_event(part, line, f"{ptype or 'part'} part", stamp))
    if not events:
        facts = [
            f"finish {finish}" if finish else None,
            nonempty_str(info.get("modelID")),
            nonempty_str(info.get("agent")),
        ]
        title = "User" if role == "user" else "Agent"
        kind = "user" if role == "user" else "assistant"
        events.append(
            Event(
                kind,
                title,
                text="(message without parts) " + " · ".join(f for f in facts if f),
                status=finish,
                turn=state.turn or None,
                **common,
            )
        )
    if error:
        events.append(Event("status", "Error", text=text_of(error), error=True, turn=state.turn or None, **common))
    if usage is not None:
        events[0] = with_usage(events[0], usage)
    return events


def _nested(value: dict[str, Any], *keys: str) -> str | None:
    current: Any = value
    for key in keys:
        current = current.get(key) if isinstance(current, dict) else None
    return nonempty_str(current)
