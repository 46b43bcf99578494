"""Trace events as list models: the full timeline (read chunk by chunk as it is scrolled) and a claim's excerpts."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from reviewapp.core.logbook.model import TraceEvent
from reviewapp.core.review.secret_scan import mask_secrets
from reviewapp.core.trace.events import Event
from reviewapp.core.trace.excerpts import Excerpt, command_of
from reviewapp.core.trace.index import TraceIndex
from reviewapp.core.trace.sessions import TraceSession
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
    "other": "RECORD",
}


class EventRole(IntEnum):
    EVENT = Qt.ItemDataRole.UserRole + 1
    KIND = Qt.ItemDataRole.UserRole + 2
    SUMMARY = Qt.ItemDataRole.UserRole + 3
    REASONS = Qt.ItemDataRole.UserRole + 4
    EXCERPT = Qt.ItemDataRole.UserRole + 5
    ERROR = Qt.ItemDataRole.UserRole + 6
    HIT = Qt.ItemDataRole.UserRole + 7
    POSITION = Qt.ItemDataRole.UserRole + 8
    PAIRED = Qt.ItemDataRole.UserRole + 9


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, kind.upper()[:8] or "EVENT")


def event_summary(event: TraceEvent | Event) -> str:
    """One line saying what happened: the message, the command run, or the first line of a result."""
    if event.kind == "tool_call":
        text = command_of(event)  # type: ignore[arg-type]  # the same fields
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


DETAIL_CAP = 6_000  # characters of one field shown before "Show whole"


def _capped(value: str, whole: bool) -> tuple[str, bool]:
    if whole or len(value) <= DETAIL_CAP:
        return value, False
    return value[:DETAIL_CAP] + f"\n… {len(value) - DETAIL_CAP:,} more characters (Show whole)", True


def timeline_detail(
    event: Event, *, whole: bool = False, paired: Event | None = None, links: list[str] | None = None
) -> tuple[str, bool]:
    """The selected event in full, with fields capped unless `whole`, secrets masked; and whether a cap applied."""
    head = [f"#{event.sequence} · {kind_label(event.kind)} · {event.title}"]
    facts = [
        f"tool {event.tool_name}" if event.tool_name else None,
        f"status {event.status}" if event.status else None,
        f"turn {event.turn}" if event.turn is not None else None,
        event.timestamp,
        f"call {event.call_id}" if event.call_id else None,
        "sub-agent" if event.sidechain else None,
        f"record {event.record}" + (f" ({event.record_type})" if event.record_type else ""),
    ]
    head.append(" · ".join(f for f in facts if f))
    if paired is not None:
        which = "result" if event.kind == "tool_call" else "call"
        head.append(f"its {which}: #{paired.sequence} {mask_secrets(event_summary(paired))[:160]}")
    capped_any = False
    parts = ["\n".join(h for h in head if h)]
    for reason in links or []:
        parts.append(f"→ {reason}")
    for label, value in (
        ("text", event.text),
        ("input", event.input),
        ("output", event.output),
        ("also recorded", event.extra),
    ):
        if value:
            shown, capped = _capped(value, whole)
            capped_any |= capped
            parts.append(f"── {label} ──\n{mask_secrets(shown)}")
    if event.usage:
        parts.append("── token usage ──\n" + ", ".join(f"{k} {v}" for k, v in event.usage.items()))
    for image in event.images:
        if whole:
            parts.append(f"── image {image.media_type}, {image.size:,} bytes (base64) ──\n{image.data}")
        else:
            capped_any = True
            parts.append(f"── image {image.media_type}, {image.size:,} bytes: inline base64 not shown (Show whole) ──")
    return "\n\n".join(parts), capped_any


@dataclass(frozen=True, slots=True)
class _Row:
    event: TraceEvent | Event
    kind: str
    summary: str
    error: bool


def _row(event: TraceEvent | Event) -> _Row:
    if isinstance(event, Event):
        error = event.error
    else:
        error = event.status == "error" or (event.kind == "status" and "abort" in (event.status or event.title).lower())
    return _Row(event, kind_label(event.kind), mask_secrets(event_summary(event)), error)


ROW_CACHE = 4_096


class TraceEventModel(QAbstractListModel):
    """A whole session over a trace index: one uniform row per event, read from the file only when painted.

    Rows are the index's positions, or a filtered list of them. The index is built in a worker; `grow` adds the
    rows it has published so far, so the first rows show long before the last line is read.
    """

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._session: TraceSession | None = None
        self._index: TraceIndex | None = None
        self._rows: array[int] | None = None  # None: every position, in order
        self._shown = 0
        self._cache: OrderedDict[int, _Row] = OrderedDict()
        self._hits: array[int] = array("i")
        self.scrub: Callable[[str], str] | None = None  # blind review: names taken out of what is shown

    @property
    def runner(self) -> TaskRunner:
        return self._runner

    @property
    def trace(self) -> TraceSession | None:
        """The session shown (its `id` names it in notes and excerpts)."""
        return self._session

    @property
    def index_(self) -> TraceIndex | None:
        """The trace index shown (`index` is Qt's model index)."""
        return self._index

    @property
    def filtered(self) -> bool:
        return self._rows is not None

    def set_index(self, session: TraceSession | None, index: TraceIndex | None) -> None:
        self.beginResetModel()
        self._session, self._index = session, index
        self._rows = None
        self._shown = index.count if index is not None else 0
        self._cache.clear()
        self._hits = array("i")
        self.endResetModel()

    def grow(self) -> None:
        """Show the rows the index has published since the last call (unfiltered view only)."""
        if self._index is None or self._rows is not None:
            return
        count = self._index.count
        if count > self._shown:
            self.beginInsertRows(QModelIndex(), self._shown, count - 1)
            self._shown = count
            self.endInsertRows()

    def set_rows(self, rows: array[int] | None) -> None:
        self.beginResetModel()
        self._rows = rows
        self._shown = len(rows) if rows is not None else (self._index.count if self._index else 0)
        self._cache.clear()
        self.endResetModel()

    def set_hits(self, hits: array[int]) -> None:
        self._hits = hits
        if self._shown:
            self.dataChanged.emit(self.index(0), self.index(self._shown - 1), [EventRole.HIT])

    def position_at(self, row: int) -> int:
        return self._rows[row] if self._rows is not None else row

    def row_of_position(self, position: int) -> int:
        """The row showing `position`, else -1 (filtered out, or not indexed yet)."""
        if position < 0:
            return -1
        if self._rows is None:
            return position if position < self._shown else -1
        row = bisect_left(self._rows, position)
        return row if row < len(self._rows) and self._rows[row] == position else -1

    def row_of_sequence(self, sequence: int) -> int:
        if self._index is None:
            return -1
        return self.row_of_position(self._index.position_of_sequence(sequence))

    def event_at(self, row: int) -> Event:
        assert self._index is not None
        return self._index.event(self.position_at(row))

    def _cached(self, row: int) -> _Row:
        found = self._cache.get(row)
        if found is None:
            found = _row(self.event_at(row))
            if self.scrub is not None:
                found = _Row(found.event, found.kind, self.scrub(found.summary), found.error)
            self._cache[row] = found
            if len(self._cache) > ROW_CACHE:
                self._cache.popitem(last=False)
        return found

    def is_hit(self, position: int) -> bool:
        at = bisect_left(self._hits, position)
        return at < len(self._hits) and self._hits[at] == position

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._shown

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < self._shown or self._index is None:
            return None
        if role == EventRole.HIT:
            return self.is_hit(self.position_at(index.row()))
        if role == EventRole.POSITION:
            return self.position_at(index.row())
        if role == EventRole.PAIRED:
            return self._index.paired(self.position_at(index.row()))
        row = self._cached(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            title = self.scrub(row.event.title) if self.scrub is not None else row.event.title
            return f"#{row.event.sequence}  {row.kind}  {title}  {row.summary}"
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
        self._excerpts: list[Excerpt] = []
        self._rows: dict[int, _Row] = {}  # summaries made (and secrets masked) when a row is first painted

    def set_excerpts(self, excerpts: list[Excerpt]) -> None:
        self.beginResetModel()
        self._excerpts = list(excerpts)
        self._rows = {}
        self.endResetModel()

    def excerpt_at(self, row: int) -> Excerpt:
        return self._excerpts[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._excerpts)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._excerpts):
            return None
        excerpt = self._excerpts[index.row()]
        if role == EventRole.EXCERPT:
            return excerpt
        if role == EventRole.EVENT:
            return excerpt.event
        row = self._rows.get(index.row())
        if row is None:
            row = self._rows[index.row()] = _row(excerpt.event)
        reasons = "; ".join(excerpt.reasons)
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
