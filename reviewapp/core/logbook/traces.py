"""Attached agent traces: the session list at load time, event chunks only when asked for.

Committed logbooks almost never carry their trace files even when the manifest lists them, so a listed trace
whose files are missing is reported and marked unavailable rather than failing the load.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reviewapp.core.io.coerce import as_int, as_name, as_text
from reviewapp.core.io.safepath import UnsafeReference, read_inside, resolve_inside
from reviewapp.core.logbook.metadata import JSON_LIMIT, read_json_object
from reviewapp.core.logbook.model import Problem, TraceChunk, TraceEvent, TraceInfo


def load_traces(root: Path, manifest: dict[str, Any] | None, problems: list[Problem]) -> list[TraceInfo]:
    summaries: dict[str, dict[str, Any]] = {}
    listed = (manifest or {}).get("traces")
    if isinstance(listed, list):
        for entry in listed:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                summaries.setdefault(entry["id"], entry)
    index = read_json_object(root / "traces" / "index.json", "traces/index.json", problems, root=root)
    sessions = index.get("sessions") if index else None
    if isinstance(sessions, list):
        for entry in sessions:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                summaries[entry["id"]] = {**summaries.get(entry["id"], {}), **entry}
    return [_trace_info(root, trace_id, summary, problems) for trace_id, summary in summaries.items()]


def _trace_info(root: Path, trace_id: str, summary: dict[str, Any], problems: list[Problem]) -> TraceInfo:
    index_file = as_name(summary.get("index_file")) or f"traces/{trace_id}/index.json"
    info = TraceInfo(
        id=trace_id,
        title=as_name(summary.get("title")) or trace_id,
        provider=as_name(summary.get("provider")),
        model=as_name(summary.get("model")),
        started_at=as_name(summary.get("started_at")),
        ended_at=as_name(summary.get("ended_at")),
        event_count=as_int(summary.get("event_count")),
        index_file=index_file,
        available=False,
    )
    try:
        index_path = resolve_inside(root, index_file)
    except UnsafeReference as exc:
        problems.append(Problem("logbook.json", None, f"trace '{trace_id}' index refused: {exc}"))
        return info
    if not index_path.is_file():
        problems.append(Problem(index_file, None, f"trace '{trace_id}' is listed but its files are missing"))
        return info
    session = read_json_object(root / index_file, index_file, problems, root=root)
    if session is None:
        return info
    if info.event_count is None:
        info.event_count = as_int(session.get("event_count"))
    chunks = session.get("chunks")
    missing: list[str] = []
    listed: set[str] = set()
    for chunk in chunks if isinstance(chunks, list) else []:
        if not isinstance(chunk, dict) or not isinstance(chunk.get("file"), str):
            problems.append(Problem(index_file, None, "trace chunk entry without a file; skipped"))
            continue
        if chunk["file"] in listed:  # one 42 MB chunk listed 300 times was indexed 300 times
            problems.append(Problem(index_file, None, f"trace chunk '{chunk['file']}' is listed again; read once"))
            continue
        listed.add(chunk["file"])
        parsed = TraceChunk(
            file=chunk["file"],
            count=as_int(chunk.get("count")) or 0,
            first_sequence=as_int(chunk.get("first_sequence")) or 0,
            last_sequence=as_int(chunk.get("last_sequence")) or 0,
        )
        try:
            if not resolve_inside(root, parsed.file).is_file():
                missing.append(parsed.file)
        except UnsafeReference as exc:
            problems.append(Problem(index_file, None, f"trace chunk refused: {exc}"))
            missing.append(parsed.file)
            continue
        info.chunks.append(parsed)
    if missing:
        problems.append(Problem(index_file, None, f"trace '{trace_id}': {len(missing)} event file(s) missing"))
    info.available = bool(info.chunks) and not missing
    return info


def iter_events(root: Path, trace: TraceInfo, first: int = 1, last: int | None = None) -> Iterator[TraceEvent]:
    """Events with first <= sequence <= last, reading only the chunks that overlap; bad chunks are skipped."""
    for chunk in trace.chunks:
        if chunk.last_sequence and chunk.last_sequence < first:
            continue
        if last is not None and chunk.first_sequence and chunk.first_sequence > last:
            break
        for event in read_chunk(root, chunk.file):
            if event.sequence >= first and (last is None or event.sequence <= last):
                yield event


def read_chunk(root: Path, file: str) -> list[TraceEvent]:
    try:
        data = read_inside(root, file, JSON_LIMIT)
        payload = json.loads(data.decode("utf-8", errors="replace"))
    except (UnsafeReference, ValueError, RecursionError):
        return []
    events = payload.get("events") if isinstance(payload, dict) else None
    return [e for e in (event_from_json(item) for item in events or []) if e is not None]


def event_from_json(item: Any) -> TraceEvent | None:
    if not isinstance(item, dict):
        return None
    sequence = as_int(item.get("sequence"))
    if sequence is None:
        return None
    return TraceEvent(
        sequence=sequence,
        kind=as_text(item.get("kind")) or "status",
        title=as_text(item.get("title")) or as_text(item.get("kind")) or "",
        text=as_text(item.get("text")) or "",
        tool_name=as_text(item.get("tool_name")),
        call_id=as_text(item.get("call_id")),
        input=as_text(item.get("input")),
        output=as_text(item.get("output")),
        status=as_text(item.get("status")),
        timestamp=as_text(item.get("timestamp")),
        turn=as_int(item.get("turn")),
    )
