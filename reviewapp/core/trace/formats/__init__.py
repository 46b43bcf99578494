"""Raw agent transcripts, one JSON record per line, turned into events: Claude Code, Codex (enveloped rollouts
and the older bare form), Pi v3 and "Session Trace Simple" (the two formats of published trace datasets), and
opencode-style message logs. Anything else is read record by record as `other` events. A module per format;
here, which format a file is and which converter reads it.

A converter turns one record into its events given the running state of the file (turn count, message ids
already seen); the index calls it once per line while indexing, and again on one line to show its events, then
restores turn and pairing from what indexing found. What Trackio's own converter drops is kept: shell calls,
tool output structured beside the text, token usage, sub-agent lines, records of unknown types.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from reviewapp.core.trace.formats import claude_code, codex, codex_legacy, generic, opencode, pi
from reviewapp.core.trace.formats.shared import EXTRA_LIMIT, Converter, ReadState, other_event

__all__ = ["EXTRA_LIMIT", "Converter", "ReadState", "converter", "detect", "other_event"]

DETECT_RECORDS = 100

CLAUDE = "Claude Code"
CODEX = "Codex"
CODEX_LEGACY = "Codex (legacy)"
PI = "Pi"
STS = "Session Trace Simple"
OPENCODE = "opencode"
GENERIC = "JSON lines"


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
    return _CONVERTERS.get(format_name, generic.convert)


_CONVERTERS: dict[str, Converter] = {
    CLAUDE: claude_code.convert,
    CODEX: codex.convert,
    CODEX_LEGACY: codex_legacy.convert,
    PI: pi.convert,
    STS: pi.convert,
    OPENCODE: opencode.convert,
    GENERIC: generic.convert,
}
