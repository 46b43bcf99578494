"""Generated raw transcripts in the shapes real agents write (see formats-and-facts §2.5, §3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SECRET = "hf_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7"


def write_jsonl(path: Path, records: list[Any], tail: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(record if isinstance(record, str) else json.dumps(record))
            handle.write("\n")
        handle.write(tail)
    return path


def claude_records(session: str = "sess-claude") -> list[Any]:
    base = {"sessionId": session, "cwd": "/work/repro", "version": "2.0.1", "userType": "external"}
    return [
        {
            **base,
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "timestamp": "2026-07-20T10:00:00Z",
            "message": {"role": "user", "content": "Reproduce claim 1 and log it."},
        },
        # one API message streamed over three lines sharing message.id, each with the same usage
        {
            **base,
            "type": "assistant",
            "uuid": "a1",
            "parentUuid": "u1",
            "timestamp": "2026-07-20T10:00:01Z",
            "requestId": "req_1",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "model": "claude-x",
                "content": [{"type": "thinking", "thinking": "Run the experiment.", "signature": "sig"}],
                "usage": {"input_tokens": 100, "output_tokens": 20},
            },
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a2",
            "parentUuid": "a1",
            "timestamp": "2026-07-20T10:00:02Z",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "model": "claude-x",
                "content": [{"type": "text", "text": "Running claim 1 now."}],
                "usage": {"input_tokens": 100, "output_tokens": 20},
            },
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a3",
            "parentUuid": "a2",
            "timestamp": "2026-07-20T10:00:03Z",
            "message": {
                "id": "msg_1",
                "role": "assistant",
                "model": "claude-x",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Bash",
                        "input": {"command": 'trackio logbook run --page "Claim 1" -- python exp.py'},
                    }
                ],
                "usage": {"input_tokens": 100, "output_tokens": 20},
            },
        },
        {
            **base,
            "type": "file-history-snapshot",
            "messageId": "a3",
            "snapshot": {"files": 2},
            "isSnapshotUpdate": False,
        },
        {
            **base,
            "type": "user",
            "uuid": "u2",
            "parentUuid": "a3",
            "timestamp": "2026-07-20T10:00:09Z",
            "toolUseResult": {"stdout": "loss 0.12", "stderr": "", "interrupted": False},
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": "loss 0.12\nwrote out/metrics.csv",
                        "is_error": False,
                    }
                ],
            },
        },
        {
            **base,
            "type": "assistant",
            "uuid": "a4",
            "parentUuid": "u2",
            "timestamp": "2026-07-20T10:00:10Z",
            "isSidechain": True,
            "message": {
                "id": "msg_2",
                "role": "assistant",
                "model": "claude-x",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "toolu_2",
                        "name": "Read",
                        "input": {"file_path": "/work/repro/missing.txt"},
                    }
                ],
                "usage": {"input_tokens": 7, "output_tokens": 3},
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u3",
            "parentUuid": "a4",
            "timestamp": "2026-07-20T10:00:11Z",
            "isSidechain": True,
            "message": {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_2",
                        "content": [{"type": "text", "text": "File does not exist."}],
                        "is_error": True,
                    }
                ],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": "u4",
            "parentUuid": "u3",
            "timestamp": "2026-07-20T10:01:00Z",
            "message": {
                "role": "user",
                "content": [
                    {"type": "text", "text": f"Here is the key {SECRET} and a plot"},
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo" * 500},
                    },
                ],
            },
        },
        {"type": "summary", "summary": "Reproduced claim 1", "leafUuid": "u4"},
        {
            **base,
            "type": "system",
            "subtype": "compact_boundary",
            "content": "Conversation compacted",
            "timestamp": "2026-07-20T10:02:00Z",
            "compactMetadata": {"preTokens": 9000, "trigger": "auto"},
        },
    ]


def codex_records(session: str = "0199-codex-thread") -> list[Any]:
    def line(ts: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        return {"timestamp": f"2026-07-28T09:{ts}Z", "type": kind, "payload": payload}

    return [
        line(
            "00:00.000",
            "session_meta",
            {
                "id": session,
                "timestamp": "2026-07-28T09:00:00Z",
                "cwd": "/repo",
                "originator": "codex_cli_rs",
                "cli_version": "0.40.0",
                "base_instructions": {"text": "long"},
            },
        ),
        line("00:01.000", "turn_context", {"cwd": "/repo", "model": "gpt-x", "effort": "high"}),
        line("00:01.500", "event_msg", {"type": "task_started"}),
        line(
            "00:02.000",
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Run claim 2"}]},
        ),
        line("00:02.100", "event_msg", {"type": "user_message", "message": "Run claim 2"}),
        line(
            "00:03.000",
            "response_item",
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "Use the runner."}],
                "encrypted_content": "gAAA",
            },
        ),
        line(
            "00:04.000",
            "response_item",
            {
                "type": "function_call",
                "name": "shell",
                "call_id": "call_1",
                "arguments": json.dumps({"command": ["bash", "-lc", "python exp2.py"]}),
            },
        ),
        line(
            "00:05.000",
            "response_item",
            {
                "type": "local_shell_call",
                "call_id": "call_2",
                "status": "completed",
                "action": {"type": "exec", "command": ["ls", "out"]},
            },
        ),
        line(
            "00:06.000",
            "response_item",
            {
                "type": "function_call_output",
                "call_id": "call_1",
                "output": json.dumps({"output": "Traceback: boom", "metadata": {"exit_code": 1}}),
            },
        ),
        line("00:07.000", "event_msg", {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 50}}}),
        line("00:08.000", "world_state", {"note": "new record type"}),
        line("00:09.000", "event_msg", {"type": "turn_aborted", "reason": "interrupted"}),
        line("00:10.000", "compacted", {"message": "summary of earlier turns"}),
    ]


def codex_legacy_records() -> list[Any]:
    return [
        {"id": "legacy-1", "timestamp": "2025-08-01T10:00:00Z", "instructions": "be careful", "git": {}},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
        {"type": "function_call", "name": "shell", "arguments": '{"command": ["ls"]}', "call_id": "c1"},
        {"type": "function_call_output", "call_id": "c1", "output": "a.txt"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]},
    ]


def pi_records() -> list[Any]:
    return [
        {
            "type": "session",
            "version": 3,
            "id": "pi-1",
            "timestamp": "2026-09-01T10:00:00.000Z",
            "cwd": "/w",
            "harness": "trackio",
            "name": "Agent session",
        },
        {
            "type": "model_change",
            "id": "m0",
            "modelId": "pi-model",
            "parentId": None,
            "timestamp": "2026-09-01T10:00:00.000Z",
        },
        {
            "type": "message",
            "id": "aaaa0001",
            "parentId": "m0",
            "timestamp": "2026-09-01T10:00:01.000Z",
            "message": {"role": "user", "content": [{"type": "text", "text": "Check claim 4"}]},
        },
        {
            "type": "message",
            "id": "aaaa0002",
            "parentId": "aaaa0001",
            "timestamp": "2026-09-01T10:00:02.000Z",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "plan"},
                    {"type": "toolCall", "id": "tc1", "name": "bash", "arguments": {"command": "python check.py"}},
                ],
            },
        },
        {
            "type": "message",
            "id": "aaaa0003",
            "parentId": "aaaa0002",
            "timestamp": "2026-09-01T10:00:03.000Z",
            "message": {
                "role": "toolResult",
                "toolCallId": "tc1",
                "toolName": "bash",
                "content": [{"type": "text", "text": "ok"}],
                "isError": False,
            },
        },
        {"type": "thinking_level_change", "id": "x1", "level": "high"},
    ]


def sts_records() -> list[Any]:
    return [
        {"type": "session", "id": "sts-1", "harness": "trackio", "timestamp": "2026-07-01T00:00:00Z"},
        {"type": "message", "message": {"role": "user", "content": "go", "timestamp": 1782864000000}},
        {
            "type": "message",
            "message": {
                "role": "assistant",
                "content": "",
                "reasoningContent": "think",
                "toolCalls": [{"id": "t1", "function": {"name": "bash", "arguments": '{"command":"ls"}'}}],
                "timestamp": 1782864001000,
            },
        },
        {
            "type": "message",
            "message": {"role": "tool", "toolCallId": "t1", "content": "file.txt", "timestamp": 1782864002000},
        },
    ]


def big_claude(path: Path, calls: int) -> Path:
    """A Claude Code transcript with `calls` tool calls (3 events per round: call, result, message)."""
    with path.open("w", encoding="utf-8") as handle:
        for n in range(calls):
            stamp = f"2026-07-20T{10 + n // 3600 % 10:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
            handle.write(
                json.dumps(
                    {
                        "sessionId": "big",
                        "type": "assistant",
                        "timestamp": stamp,
                        "message": {
                            "id": f"m{n}",
                            "role": "assistant",
                            "content": [
                                {"type": "text", "text": f"step {n}"},
                                {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": f"echo {n}"}},
                            ],
                        },
                    }
                )
            )
            handle.write("\n")
            handle.write(
                json.dumps(
                    {
                        "sessionId": "big",
                        "type": "user",
                        "timestamp": stamp,
                        "message": {
                            "role": "user",
                            "content": [{"type": "tool_result", "tool_use_id": f"t{n}", "content": f"out {n}"}],
                        },
                    }
                )
            )
            handle.write("\n")
    return path
