"""Raw agent transcripts, one JSON record per line, turned into events: Claude Code, Codex (enveloped rollouts
and the older bare form), Pi v3 and "Session Trace Simple" (the two formats of published trace datasets), and
opencode-style message logs. Anything else is read record by record as `other` events.

A converter turns one record into its events given the running state of the file (turn count, message ids
already seen); the index calls it once per line while indexing, and again on one line to show its events, then
restores turn and pairing from what indexing found. What Trackio's own converter drops is kept: shell calls,
tool output structured beside the text, token usage, sub-agent lines, records of unknown types.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from reviewapp.core.trace.events import Event, Image, SessionFacts, compact_json, pretty_json

EXTRA_LIMIT = 20_000
DETECT_RECORDS = 100

CLAUDE = "Claude Code"
CODEX = "Codex"
CODEX_LEGACY = "Codex (legacy)"
PI = "Pi"
STS = "Session Trace Simple"
OPENCODE = "opencode"
GENERIC = "JSON lines"


@dataclass
class ReadState:
    facts: SessionFacts
    turn: int = 0
    seen_messages: set[str] = field(default_factory=set)  # API message ids whose usage was counted


Converter = Callable[[Any, int, ReadState], list[Event]]


def detect(records: Iterable[Any]) -> str:
    """The format of a transcript from its first records (like Trackio, but knowing the legacy Codex form)."""
    seen = 0
    verdict: str | None = None
    for record in records:
        seen += 1
        if seen > DETECT_RECORDS:
            break
        if not isinstance(record, dict):
            continue
        kind = record.get("type")
        if kind == "session_meta" and isinstance(record.get("payload"), dict):
            return CODEX
        if kind == "session" and "version" in record:
            return PI
        if kind == "session" and "harness" in record:
            return STS
        if record.get("record_type") == "state" or (seen == 1 and "instructions" in record and "type" not in record):
            return CODEX_LEGACY
        if "sessionId" in record or (kind in ("user", "assistant") and isinstance(record.get("message"), dict)):
            verdict = verdict or CLAUDE
        if (isinstance(record.get("data"), dict) and "role" in record) or ("info" in record and "parts" in record):
            verdict = verdict or OPENCODE
        if kind in ("function_call", "function_call_output") and "call_id" in record:
            verdict = verdict or CODEX_LEGACY
    return verdict or GENERIC


def converter(format_name: str) -> Converter:
    return _CONVERTERS.get(format_name, _generic)


# -- helpers ---------------------------------------------------------------------------------------------------


def _text(value: Any) -> str:
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
                    parts.append(_text(block["content"]))
        return "\n".join(parts)
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return str(value["text"])
    return "" if value is None else compact_json(value, EXTRA_LIMIT)


def _images(value: Any) -> tuple[Image, ...]:
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
                found.extend(_images(block["content"]))
    return tuple(found)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _json_input(value: Any) -> str:
    """Tool input as Trackio shows it: an object pretty-printed, a JSON string parsed first when it is one."""
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            return value
        return pretty_json(parsed) if isinstance(parsed, (dict, list)) else value
    return pretty_json(value) if value is not None else ""


def _ms_time(value: Any) -> str | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        from datetime import UTC, datetime

        try:
            return datetime.fromtimestamp(value / 1000, UTC).isoformat().replace("+00:00", "Z")
        except (OverflowError, OSError, ValueError):
            return None
    return _str(value)


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


# -- Claude Code -----------------------------------------------------------------------------------------------


def _claude(record: Any, line: int, state: ReadState) -> list[Event]:
    if not isinstance(record, dict):
        return [other_event(record, line)]
    kind = record.get("type")
    stamp = _str(record.get("timestamp"))
    common: dict[str, Any] = {
        "timestamp": stamp,
        "record": line,
        "record_type": kind if isinstance(kind, str) else None,
        "sidechain": bool(record.get("isSidechain")),
        "uuid": _str(record.get("uuid")),
        "parent": _str(record.get("parentUuid")),
    }
    facts = state.facts
    facts.session_id = facts.session_id or _str(record.get("sessionId"))
    facts.cwd = facts.cwd or _str(record.get("cwd"))
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
                        text=_text(texts),
                        images=_images(blocks),
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
                            output=_text(body),
                            images=_images(body),
                            call_id=_str(block.get("tool_use_id")),
                            status="error" if block.get("is_error") else "success",
                            error=bool(block.get("is_error")),
                            extra=compact_json(extra, EXTRA_LIMIT) if extra is not None else None,
                            turn=state.turn,
                            **common,
                        )
                    )
        else:
            facts.model = facts.model or _str(message.get("model"))
            for block in blocks:
                if not isinstance(block, dict):
                    continue
                btype = block.get("type")
                if btype == "text":
                    events.append(Event("assistant", prefix + "Agent", text=_text(block), turn=state.turn, **common))
                elif btype in ("thinking", "reasoning", "redacted_thinking"):
                    body = block.get("thinking") or block.get("text") or ("[redacted]" if btype != "thinking" else "")
                    events.append(Event("reasoning", prefix + "Thought", text=str(body), turn=state.turn, **common))
                elif btype in ("tool_use", "server_tool_use"):
                    name = _str(block.get("name")) or "tool"
                    events.append(
                        Event(
                            "tool_call",
                            prefix + name,
                            tool_name=name,
                            call_id=_str(block.get("id")),
                            input=_json_input(block.get("input")),
                            turn=state.turn,
                            **common,
                        )
                    )
                else:
                    events.append(other_event(block, line, f"{prefix}{btype or 'block'} block", stamp))
            usage = message.get("usage")
            message_id = _str(message.get("id"))
            if isinstance(usage, dict):
                fresh = message_id is None or message_id not in state.seen_messages
                if message_id is not None:
                    state.seen_messages.add(message_id)
                if not events:
                    events.append(Event("status", prefix + "Usage", turn=state.turn, **common))
                if fresh:
                    events[0] = _with_usage(events[0], usage)
        return events or [Event("status", prefix + kind.capitalize(), text="(empty message)", **common)]
    if kind == "system":
        subtype = _str(record.get("subtype"))
        text = _text(record.get("content"))
        extra = record.get("compactMetadata")
        return [
            Event(
                "status",
                "System" + (f" · {subtype}" if subtype else ""),
                text=text,
                status=_str(record.get("level")),
                error=record.get("level") == "error",
                extra=compact_json(extra) if extra else None,
                **common,
            )
        ]
    if kind == "summary":
        return [Event("status", "Summary", text=_text(record.get("summary")), **common)]
    return [other_event(record, line, timestamp=stamp)]


def _with_usage(event: Event, usage: dict[str, Any]) -> Event:
    from dataclasses import replace

    return replace(event, usage=usage)


# -- Codex -----------------------------------------------------------------------------------------------------


def _codex(record: Any, line: int, state: ReadState) -> list[Event]:
    if not isinstance(record, dict):
        return [other_event(record, line)]
    kind = record.get("type")
    payload = record.get("payload")
    stamp = _str(record.get("timestamp"))
    if not isinstance(payload, dict):
        return [other_event(record, line, timestamp=stamp)]
    facts = state.facts
    facts.started_at = facts.started_at or stamp
    if kind == "session_meta":
        facts.session_id = facts.session_id or _str(payload.get("id")) or _str(payload.get("session_id"))
        facts.cwd = facts.cwd or _str(payload.get("cwd"))
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
        facts.model = facts.model or _str(payload.get("model"))
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
        return _codex_item(payload, line, state, stamp, f"response_item/{payload.get('type')}")
    if kind == "event_msg":
        return _codex_event(payload, line, state, stamp)
    if kind == "compacted":
        return [
            Event(
                "status",
                "Compacted",
                text=_text(payload.get("message")),
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
        text = _text(payload.get("last_agent_message"))
        return [Event("status", "Turn complete", text=text, turn=state.turn, status="complete", **common)]
    if ptype == "turn_aborted":
        reason = _text(payload.get("reason"))
        return [Event("status", "Turn aborted", text=reason, turn=state.turn, status="aborted", error=True, **common)]
    if ptype == "token_count":
        info = payload.get("info")
        usage = info if isinstance(info, dict) else {"info": info}
        return [Event("status", "Token count", usage=usage, turn=state.turn or None, **common)]
    if ptype == "error":
        return [Event("status", "Error", text=_text(payload.get("message")), error=True, turn=state.turn, **common)]
    title = ptype.replace("_", " ").capitalize()
    text = _text(payload.get("message")) if "message" in payload else compact_json(payload, 400)
    return [
        Event("other", title, text=text, turn=state.turn or None, extra=compact_json(payload, EXTRA_LIMIT), **common)
    ]


def _codex_item(
    payload: dict[str, Any], line: int, state: ReadState, stamp: str | None, record_type: str
) -> list[Event]:
    ptype = payload.get("type")
    common: dict[str, Any] = {"timestamp": stamp, "record": line, "record_type": record_type}
    turn = state.turn or None
    if ptype == "message":
        role = payload.get("role")
        content = payload.get("content")
        text = _text(content)
        images = _images(content)
        if role == "user":
            return [Event("user", "User", text=text, images=images, turn=turn, **common)]
        if role == "assistant":
            phase = _str(payload.get("phase"))
            return [Event("assistant", "Agent" + (f" · {phase}" if phase else ""), text=text, turn=turn, **common)]
        return [Event("status", f"{str(role).capitalize()} message", text=text, turn=turn, **common)]
    if ptype == "reasoning":
        summary = _text(payload.get("summary"))
        content = _text(payload.get("content")) if payload.get("content") else ""
        text = "\n\n".join(t for t in (summary, content) if t)
        if not text and payload.get("encrypted_content"):
            text = "[encrypted reasoning]"
        return [Event("reasoning", "Thought", text=text, turn=turn, **common)]
    if ptype in ("function_call", "custom_tool_call"):
        name = _str(payload.get("name")) or "tool"
        raw = payload.get("arguments") if ptype == "function_call" else payload.get("input")
        return [
            Event(
                "tool_call",
                name,
                tool_name=name,
                call_id=_str(payload.get("call_id")) or _str(payload.get("id")),
                input=_json_input(raw),
                status=_str(payload.get("status")),
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
                call_id=_str(payload.get("call_id")),
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
                call_id=_str(payload.get("call_id")) or _str(payload.get("id")),
                input=pretty_json(shown),
                status=_str(payload.get("status")),
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
                call_id=_str(payload.get("id")),
                input=pretty_json(action) if action is not None else "",
                status=_str(payload.get("status")),
                turn=turn,
                **common,
            )
        ]
    return [other_event(payload, line, f"{ptype} item", stamp)]


def _codex_output(value: Any) -> tuple[str, bool]:
    """Codex writes a function's output as text, or as JSON text with the output and its exit code."""
    if isinstance(value, dict):
        body = value.get("content") if "content" in value else value.get("output")
        return _text(body), value.get("success") is False
    if isinstance(value, list):
        return _text(value), False
    text = value if isinstance(value, str) else ("" if value is None else compact_json(value))
    if text[:1] == "{":
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            return text, False
        if isinstance(parsed, dict) and "output" in parsed:
            meta = parsed.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            return _text(parsed.get("output")), isinstance(code, int) and code != 0
    return text, False


def _codex_legacy(record: Any, line: int, state: ReadState) -> list[Event]:
    if not isinstance(record, dict):
        return [other_event(record, line)]
    if line == 1 and "type" not in record and ("instructions" in record or "id" in record):
        state.facts.session_id = state.facts.session_id or _str(record.get("id"))
        state.facts.started_at = state.facts.started_at or _str(record.get("timestamp"))
        meta = {k: v for k, v in record.items() if k != "instructions"}
        return [
            Event(
                "status",
                "Session",
                text=" · ".join(str(v) for v in (record.get("id"), record.get("timestamp")) if v),
                timestamp=_str(record.get("timestamp")),
                record=line,
                record_type="session header",
                extra=compact_json(meta),
            )
        ]
    if record.get("record_type") == "state":
        return [other_event(record, line, "State marker")]
    if record.get("type") == "message" and record.get("role") == "user":
        state.turn += 1
    return _codex_item(record, line, state, _str(record.get("timestamp")), str(record.get("type")))


# -- Pi v3 and Session Trace Simple ----------------------------------------------------------------------------


def _pi(record: Any, line: int, state: ReadState) -> list[Event]:
    """Pi session v3 and its predecessor STS: a `session` header, then `message` records."""
    if not isinstance(record, dict):
        return [other_event(record, line)]
    kind = record.get("type")
    stamp = _str(record.get("timestamp")) or _ms_time(record.get("timestamp"))
    common: dict[str, Any] = {
        "timestamp": stamp,
        "record": line,
        "record_type": kind if isinstance(kind, str) else None,
        "uuid": _str(record.get("id")),
        "parent": _str(record.get("parentId")),
    }
    facts = state.facts
    if kind == "session":
        facts.session_id = facts.session_id or _str(record.get("id"))
        facts.cwd = facts.cwd or _str(record.get("cwd"))
        facts.started_at = facts.started_at or stamp
        title = _str(record.get("name")) or _str(record.get("title")) or "Session"
        text = " · ".join(str(v) for v in (record.get("harness"), record.get("cwd")) if v)
        return [Event("status", title, text=text, extra=compact_json(record, EXTRA_LIMIT), **common)]
    if kind == "model_change":
        model = _str(record.get("modelId")) or _str(record.get("model"))
        facts.model = facts.model or model
        return [Event("status", "Model", text=model or "", **common)]
    message = record.get("message")
    if kind != "message" or not isinstance(message, dict):
        return [other_event(record, line, timestamp=stamp)]
    common["timestamp"] = common["timestamp"] or _ms_time(message.get("timestamp"))
    role = message.get("role")
    content = message.get("content")
    blocks = content if isinstance(content, list) else None
    if role == "user":
        state.turn += 1
        return [Event("user", "User", text=_text(content), images=_images(blocks), turn=state.turn, **common)]
    if role in ("toolResult", "tool"):
        is_error = bool(message.get("isError"))
        name = _str(message.get("toolName"))
        return [
            Event(
                "tool_result",
                "Output",
                tool_name=name,
                call_id=_str(message.get("toolCallId")),
                output=_text(content),
                images=_images(blocks),
                status="error" if is_error else "success",
                error=is_error,
                turn=state.turn or None,
                **common,
            )
        ]
    if role == "assistant":
        facts.model = facts.model or _str(message.get("model"))
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
                events.append(Event("assistant", "Agent", text=_text(block), turn=state.turn or None, **common))
            elif btype == "thinking":
                body = str(block.get("thinking") or block.get("text") or "")
                events.append(Event("reasoning", "Thought", text=body, turn=state.turn or None, **common))
            elif btype == "toolCall":
                name = _str(block.get("name")) or "tool"
                events.append(
                    Event(
                        "tool_call",
                        name,
                        tool_name=name,
                        call_id=_str(block.get("id")),
                        input=_json_input(block.get("arguments")),
                        turn=state.turn or None,
                        **common,
                    )
                )
            else:
                events.append(other_event(block, line, f"{btype or 'block'} block", stamp))
        for call in message.get("toolCalls") or []:  # STS: OpenAI-style calls, arguments a JSON string
            if isinstance(call, dict):
                function: dict[str, Any] = call["function"] if isinstance(call.get("function"), dict) else call
                name = _str(function.get("name")) or "tool"
                events.append(
                    Event(
                        "tool_call",
                        name,
                        tool_name=name,
                        call_id=_str(call.get("id")),
                        input=_json_input(function.get("arguments")),
                        turn=state.turn or None,
                        **common,
                    )
                )
        usage = message.get("usage")
        if not events:
            events.append(Event("status", "Agent", text="(empty message)", turn=state.turn or None, **common))
        if isinstance(usage, dict):
            events[0] = _with_usage(events[0], usage)
        return events
    return [Event("status", f"{str(role).capitalize()} message", text=_text(content), **common)]


# -- opencode --------------------------------------------------------------------------------------------------


def _opencode(record: Any, line: int, state: ReadState) -> list[Event]:
    """opencode messages: `{id, role, data{time, tokens, modelID, finish, ...}}`, or `{info, parts}` exports."""
    if not isinstance(record, dict):
        return [other_event(record, line)]
    info = record.get("info") if isinstance(record.get("info"), dict) else record.get("data")
    if not isinstance(info, dict):
        return [other_event(record, line)]
    role = record.get("role") or info.get("role")
    times: dict[str, Any] = info["time"] if isinstance(info.get("time"), dict) else {}
    stamp = _ms_time(times.get("created"))
    state.facts.started_at = state.facts.started_at or stamp
    state.facts.model = state.facts.model or _str(info.get("modelID")) or _nested(info, "model", "modelID")
    state.facts.session_id = state.facts.session_id or _str(info.get("sessionID"))
    common: dict[str, Any] = {
        "timestamp": stamp,
        "record": line,
        "record_type": f"message/{role}",
        "uuid": _str(record.get("id")) or _str(info.get("id")),
        "parent": _str(info.get("parentID")),
    }
    tokens = record.get("tokens") if isinstance(record.get("tokens"), dict) else info.get("tokens")
    usage = tokens if isinstance(tokens, dict) else None
    if isinstance(info.get("cost"), (int, float)) and usage is not None:
        usage = {**usage, "cost": info["cost"]}
    finish = _str(record.get("finish")) or _str(info.get("finish"))
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
                Event(kind, "User" if kind == "user" else "Agent", text=_text(part), turn=state.turn, **common)
            )
        elif ptype == "reasoning":
            events.append(Event("reasoning", "Thought", text=_text(part), turn=state.turn, **common))
        elif ptype == "tool":
            name = _str(part.get("tool")) or "tool"
            call = _str(part.get("callID")) or _str(part.get("id"))
            tool_state: dict[str, Any] = part["state"] if isinstance(part.get("state"), dict) else {}
            events.append(
                Event(
                    "tool_call",
                    name,
                    tool_name=name,
                    call_id=call,
                    input=_json_input(tool_state.get("input")),
                    turn=state.turn,
                    **common,
                )
            )
            status = _str(tool_state.get("status"))
            if "output" in tool_state or "error" in tool_state:
                failed = status == "error" or "error" in tool_state
                events.append(
                    Event(
                        "tool_result",
                        "Output",
                        tool_name=name,
                        call_id=call,
                        output=_text(tool_state.get("output") or tool_state.get("error")),
                        status=status,
                        error=failed,
                        turn=state.turn,
                        **common,
                    )
                )
        else:
            events.append(other_event(part, line, f"{ptype or 'part'} part", stamp))
    if not events:
        facts = [f"finish {finish}" if finish else None, _str(info.get("modelID")), _str(info.get("agent"))]
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
        events.append(Event("status", "Error", text=_text(error), error=True, turn=state.turn or None, **common))
    if usage is not None:
        events[0] = _with_usage(events[0], usage)
    return events


def _nested(value: dict[str, Any], *keys: str) -> str | None:
    current: Any = value
    for key in keys:
        current = current.get(key) if isinstance(current, dict) else None
    return _str(current)


def _generic(record: Any, line: int, state: ReadState) -> list[Event]:
    if isinstance(record, dict):
        role = record.get("role") or record.get("type")
        content = record.get("content") if "content" in record else record.get("text")
        if role in ("user", "assistant") and isinstance(content, (str, list)):
            if role == "user":
                state.turn += 1
            kind = "user" if role == "user" else "assistant"
            stamp = _str(record.get("timestamp"))
            return [Event(kind, kind.capitalize(), text=_text(content), turn=state.turn, timestamp=stamp, record=line)]
    return [other_event(record, line)]


_CONVERTERS: dict[str, Converter] = {
    CLAUDE: _claude,
    CODEX: _codex,
    CODEX_LEGACY: _codex_legacy,
    PI: _pi,
    STS: _pi,
    OPENCODE: _opencode,
    GENERIC: _generic,
}
