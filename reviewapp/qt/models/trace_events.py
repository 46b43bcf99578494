"""Trace events as list models: the full timeline (read chunk by chunk as it is scrolled) and a claim's excerpts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from reviewapp.core.logbook.model import TraceEvent, TraceInfo
from reviewapp.core.logbook.traces import read_chunk
from reviewapp.core.trace.excerpts import Excerpt, command_of
from reviewapp.qt.plain import plain_tooltip
from reviewapp.qt.workers import TaskRunner

_Index = QModelIndex | QPersistentModelIndex
SUMMARY_CHARS = 240

KIND_LABELS = {
    "user": "USER",
    "assistant": "AGENT",
    "message": "AGENT",
    "reasoning": "THOUGHT",
    "tool_call": "TOOL",
    "tool_result": "RESULT",
    "status": "STATUS",
}


class EventRole(IntEnum):
    EVENT = Qt.ItemDataRole.UserRole + 1
    KIND = Qt.ItemDataRole.UserRole + 2
    SUMMARY = Qt.ItemDataRole.UserRole + 3
    REASONS = Qt.ItemDataRole.UserRole + 4
    EXCERPT = Qt.ItemDataRole.UserRole + 5
    ERROR = Qt.ItemDataRole.UserRole + 6


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, kind.upper()[:8] or "EVENT")


def event_summary(event: TraceEvent) -> str:
    """One line saying what happened: the message, the command run, or the first line of a result."""
    if event.kind == "tool_call":
        text = command_of(event)
    elif event.kind == "tool_result":
        text = event.output or event.text or event.status or ""
    else:
        text = event.text or event.status or event.title
    text = " ".join(text[: SUMMARY_CHARS * 2].split())
    return text[:SUMMARY_CHARS] + ("…" if len(text) > SUMMARY_CHARS else "")


def event_detail(event: TraceEvent) -> str:
    """Everything an event carries, for the detail pane."""
    head = [f"#{event.sequence} · {kind_label(event.kind)} · {event.title}"]
    facts = [
        f"tool {event.tool_name}" if event.tool_name else None,
        f"status {event.status}" if event.status else None,
        f"turn {event.turn}" if event.turn is not None else None,
        event.timestamp,
        f"call {event.call_id}" if event.call_id else None,
    ]
    head.append(" · ".join(f for f in facts if f))
    parts = ["\n".join(h for h in head if h)]
    for label, value in (("text", event.text), ("input", event.input), ("output", event.output)):
        if value:
            parts.append(f"── {label} ──\n{value}")
    return "\n\n".join(parts)


@dataclass(frozen=True, slots=True)
class _Row:
    event: TraceEvent
    kind: str
    summary: str
    error: bool


def _row(event: TraceEvent) -> _Row:
    error = event.status == "error" or (event.kind == "status" and "abort" in (event.status or event.title).lower())
    return _Row(event, kind_label(event.kind), event_summary(event), error)


class TraceEventModel(QAbstractListModel):
    """A whole trace. Chunks are read as the view scrolls (fetchMore); a jump far ahead reads them in a worker."""

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._root: Path | None = None
        self._trace: TraceInfo | None = None
        self._rows: list[_Row] = []
        self._row_of: dict[int, int] = {}
        self._next_chunk = 0
        self._filling = False
        self._generation = 0

    @property
    def trace(self) -> TraceInfo | None:
        return self._trace

    def set_trace(self, root: Path | None, trace: TraceInfo | None) -> None:
        self.beginResetModel()
        self._generation += 1
        self._root, self._trace = root, trace
        self._rows, self._row_of = [], {}
        self._next_chunk = 0
        self._filling = False
        self.endResetModel()

    @property
    def fully_loaded(self) -> bool:
        return self._trace is None or self._next_chunk >= len(self._trace.chunks)

    def row_of_sequence(self, sequence: int) -> int:
        return self._row_of.get(sequence, -1)

    def event_at(self, row: int) -> TraceEvent:
        return self._rows[row].event

    def canFetchMore(self, parent: _Index) -> bool:
        return not parent.isValid() and not self._filling and not self.fully_loaded

    def fetchMore(self, parent: _Index) -> None:
        if not self.canFetchMore(parent) or self._trace is None or self._root is None:
            return
        chunk = self._trace.chunks[self._next_chunk]
        self._next_chunk += 1
        self._append(read_chunk(self._root, chunk.file))

    def ensure_loaded(self, sequence: int, then: Callable[[int], None]) -> None:
        """Make sure the event with `sequence` is a row, then call then(row) (row -1 if the trace has no such event)."""
        if sequence in self._row_of or self.fully_loaded:
            then(self._row_of.get(sequence, -1))
            return
        if self._trace is None or self._root is None or self._filling:
            return
        trace, root, generation = self._trace, self._root, self._generation
        start = self._next_chunk
        stop = next(
            (i + 1 for i in range(start, len(trace.chunks)) if trace.chunks[i].last_sequence >= sequence),
            len(trace.chunks),
        )
        self._filling = True

        def read(_progress: object) -> list[TraceEvent]:
            events: list[TraceEvent] = []
            for chunk in trace.chunks[start:stop]:
                events.extend(read_chunk(root, chunk.file))
            return events

        def done(events: list[TraceEvent]) -> None:
            if generation != self._generation:
                return
            self._filling = False
            self._next_chunk = stop
            self._append(events)
            then(self._row_of.get(sequence, -1))

        def failed(_exc: BaseException) -> None:
            if generation == self._generation:
                self._filling = False

        self._runner.submit(read, done, failed)

    def _append(self, events: list[TraceEvent]) -> None:
        if not events:
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(events) - 1)
        for offset, event in enumerate(events):
            self._rows.append(_row(event))
            self._row_of.setdefault(event.sequence, first + offset)
        self.endInsertRows()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"#{row.event.sequence}  {row.kind}  {row.event.title}  {row.summary}"
        if role == EventRole.EVENT:
            return row.event
        if role == EventRole.KIND:
            return row.kind
        if role == EventRole.SUMMARY:
            return row.summary
        if role == EventRole.ERROR:
            return row.error
        return None


class ExcerptModel(QAbstractListModel):
    """The events tied to one claim, each with the reasons it was tied."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[Excerpt, _Row, str]] = []

    def set_excerpts(self, excerpts: list[Excerpt]) -> None:
        self.beginResetModel()
        self._rows = [(e, _row(e.event), "; ".join(e.reasons)) for e in excerpts]
        self.endResetModel()

    def excerpt_at(self, row: int) -> Excerpt:
        return self._rows[row][0]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        excerpt, row, reasons = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return f"#{excerpt.sequence}  {row.kind}  {excerpt.event.title}  {row.summary}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(f"Tied because: {reasons}")
        if role == EventRole.EVENT:
            return excerpt.event
        if role == EventRole.KIND:
            return row.kind
        if role == EventRole.SUMMARY:
            return row.summary
        if role == EventRole.REASONS:
            return reasons
        if role == EventRole.EXCERPT:
            return excerpt
        if role == EventRole.ERROR:
            return row.error
        return None
