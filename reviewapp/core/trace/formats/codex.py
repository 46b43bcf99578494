"""Codex rollouts: `session_meta`, `turn_context`, `response_item`, `event_msg` and `compacted` records, each
with its payload; `item_events` reads a response item, which the older bare form writes without an envelope."""

from __future__ import annotations

import json
from typing import Any

from reviewapp.core.trace.events import Event, compact_json, pretty_json
from reviewapp.core.trace.formats.shared import (
    EXTRA_LIMIT,
    ReadState,
    images_of,
    json_input,
    nonempty_str,
    other_event,
    text_of,
)


def convert(record: Any, line: int, state: ReadState) -> list[Event]:
    if not isinstance(record, dict):
        return [other_event(record, line)]
    kind = record.get("type")
    payload = record.get("payload")
    stamp = nonempty_str(record.get("timestamp"))
    if not isinstance(payload, dict):
        return [other_event(record, line, timestamp=stamp)]
    facts = state.facts
    facts.started_at = facts.started_at or stamp
    if kind == "session_meta":
        facts.session_id = (
            facts.session_id or nonempty_str(payload.get("id")) or nonempty_str(payload.get("session_id"))
        )
        facts.cwd = facts.cwd or nonempty_str(payload.get("cwd"))
        text = " · ".join(
            str(v) for v in (payload.get("originator"), payload.get("cli_version"), payload.get("cwd")) if v
        )
        meta = {k: v for k, v in payload.items() if k not in ("base_instructions", "instructions")}
        return [
            Event(
                "status", "Session", text=text, timestamp=stamp, record=line, record_type=kind, extra=compact_json(meta)
            )
        ]
    if kind == "turn_context":
        facts.model = facts.model or nonempty_str(payload.get("model"))
        text = " · ".join(str(v) for v in (payload.get("model"), payload.get("effort"), payload.get("cwd")) if v)
        return [
            Event(
                "status",
                "Turn context",
                text=text,
                timestamp=stamp,
                record=line,
                record_type=kind,
                turn=state.turn or None,
                extra=compact_json(payload, EXTRA_LIMIT),
            )
        ]
    if kind == "response_item":
        return item_events(payload, line, state, stamp, f"response_item/{payload.get('type')}")
    if kind == "event_msg":
        return _codex_event(payload, line, state, stamp)
    if kind == "compacted":
        return [
            Event(
                "status",
                "Compacted",
                text=text_of(payload.get("message")),
                timestamp=stamp,
                record=line,
                record_type=kind,
                turn=state.turn or None,
            )
        ]
    return [other_event(record, line, timestamp=stamp)]


def _codex_event(payload: dict[str, Any], line: int, state: ReadState, stamp: str | None) -> list[Event]:
    ptype = str(payload.get("type"))
    common: dict[str, Any] = {"timestamp": stamp, "record": line, "record_type": f"event_msg/{ptype}"}
    if ptype in ("task_started", "turn_started"):
        state.turn += 1
        return [Event("status", "Turn started", turn=state.turn, status="started", **common)]
    if ptype in ("task_complete", "turn_complete"):
        text = text_of(payload.get("last_agent_message"))
        return [Event("status", "Turn complete", text=text, turn=state.turn, status="complete", **common)]
    if ptype == "turn_aborted":
        reason = text_of(payload.get("reason"))
        return [Event("status", "Turn aborted", text=reason, turn=state.turn, status="aborted", error=True, **common)]
    if ptype == "token_count":
        info = payload.get("info")
        usage = info if isinstance(info, dict) else {"info": info}
        return [Event("status", "Token count", usage=usage, turn=state.turn or None, **common)]
    if ptype == "error":
        return [Event("status", "Error", text=text_of(payload.get("message")), error=True, turn=state.turn, **common)]
    title = ptype.replace("_", " ").capitalize()
    text = text_of(payload.get("message")) if "message" in payload else compact_json(payload, 400)
    return [
        Event("other", title, text=text, turn=state.turn or None, extra=compact_json(payload, EXTRA_LIMIT), **common)
    ]


def item_events(
    payload: dict[str, Any], line: int, state: ReadState, stamp: str | None, record_type: str
) -> list[Event]:
    ptype = payload.get("type")
    common: dict[str, Any] = {"timestamp": stamp, "record": line, "record_type": record_type}
    turn = state.turn or None
    if ptype == "message":
        role = payload.get("role")
        content = payload.get("content")
        text = text_of(content)
        images = images_of(content)
        if role == "user":
            return [Event("user", "User", text=text, images=images, turn=turn, **common)]
        if role == "assistant":
            phase = nonempty_str(payload.get("phase"))
            return [Event("assistant", "Agent" + (f" · {phase}" if phase else ""), text=text, turn=turn, **common)]
        return [Event("status", f"{str(role).capitalize()} message", text=text, turn=turn, **common)]
    if ptype == "reasoning":
        summary = text_of(payload.get("summary"))
        content = text_of(payload.get("content")) if payload.get("content") else ""
        text = "\n\n".join(t for t in (summary, content) if t)
        if not text and payload.get("encrypted_content"):
            text = "[encrypted reasoning]"
        return [Event("reasoning", "Thought", text=text, turn=turn, **common)]
    if ptype in ("function_call", "custom_tool_call"):
        name = nonempty_str(payload.get("name")) or "tool"
        raw = payload.get("arguments") if ptype == "function_call" else payload.get("input")
        return [
            Event(
                "tool_call",
                name,
                tool_name=name,
                call_id=nonempty_str(payload.get("call_id")) or nonempty_str(payload.get("id")),
                input=json_input(raw),
                status=nonempty_str(payload.get("status")),
                turn=turn,
                **common,
            )
        ]
    if ptype in ("function_call_output", "custom_tool_call_output"):
        output, error = _codex_output(payload.get("output"))
        return [
            Event(
                "tool_result",
                "Output",
                call_id=nonempty_str(payload.get("call_id")),
                output=output,
                status="error" if error else "success",
                error=error,
                turn=turn,
                **common,
            )
        ]
    if ptype == "local_shell_call":
        action = payload.get("action")
        command = action.get("command") if isinstance(action, dict) else None
        shown: dict[str, Any] = {"command": " ".join(map(str, command)) if isinstance(command, list) else command}
        if isinstance(action, dict):
            shown.update({k: v for k, v in action.items() if k not in ("command", "type")})
        return [
            Event(
                "tool_call",
                "shell",
                tool_name="shell",
                call_id=nonempty_str(payload.get("call_id")) or nonempty_str(payload.get("id")),
                input=pretty_json(shown),
                status=nonempty_str(payload.get("status")),
                turn=turn,
                **common,
            )
        ]
    if ptype == "web_search_call":
        action = payload.get("action")
        return [
            Event(
                "tool_call",
                "web_search",
                tool_name="web_search",
                call_id=nonempty_str(payload.get("id")),
                input=pretty_json(action) if action is not None else "",
                status=nonempty_str(payload.get("status")),
                turn=turn,
                **common,
            )
        ]
    return [other_event(payload, line, f"{ptype} item", stamp)]


def _codex_output(value: Any) -> tuple[str, bool]:
    """Codex writes a function's output as text, or as JSON text with the output and its exit code."""
    if isinstance(value, dict):
        body = value.get("content") if "content" in value else value.get("output")
        return text_of(body), value.get("success") is False
    if isinstance(value, list):
        return text_of(value), False
    text = value if isinstance(value, str) else ("" if value is None else compact_json(value))
    if text[:1] == "{":
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            return text, False
        if isinstance(parsed, dict) and "output" in parsed:
            meta = parsed.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            return text_of(parsed.get("output")), isinstance(code, int) and code != 0
    return text, False
