"""Trace excerpts for the selected claim, and the full trace timeline they jump into."""

from __future__ import annotations

import re
import time
from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QKeyEvent, QKeySequence, QPainter, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.io.collector import collector_paused
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
from reviewapp.core.trace.excerpts import Excerpt
from reviewapp.core.trace.index import EventFilter, TraceIndex, parse_time
from reviewapp.core.trace.index_process import build_elsewhere
from reviewapp.core.trace.links import LinkPlan, TraceLinks, describe
from reviewapp.core.trace.sessions import TraceSession, list_sessions
from reviewapp.qt import theme
from reviewapp.qt.models.trace_events import (
    EventRole,
    ExcerptModel,
    TraceEventModel,
    event_detail,
    timeline_detail,
)
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.code_block import monospace_font
from reviewapp.qt.workers import alive, release_on

_KIND_COLORS = {
    "USER": "#2f6fb0",
    "AGENT": "#2f7d6d",
    "THOUGHT": "#7a7f8a",
    "TOOL": "#8a5a2f",
    "RESULT": "#5b7083",
    "STATUS": "#6d4f8a",
}
EXCERPT_ROW = 62
TIMELINE_ROW = 24
DRAWN_ROWS = 400  # timeline rows kept drawn: a few screens
GROW_EVERY_S = 0.5  # how often rows indexed meanwhile are added while a trace is read


class EventDelegate(QStyledItemDelegate):
    """A kind chip, the sequence number and title; excerpts add a summary line and why the event is tied."""

    def __init__(self, detailed: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detailed = detailed
        self.marked_row = -1  # the row a jump landed on
        self._drawn: OrderedDict[tuple[object, ...], QPixmap] = OrderedDict()

    def forget(self) -> None:
        """Rows now show other events (a new session, filters): draw them again."""
        self._drawn.clear()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(option.rect.width(), EXCERPT_ROW if self.detailed else TIMELINE_ROW)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        if self.detailed:
            self._paint_row(painter, option, index)
            return
        # A timeline row is drawn once and then copied: while a worker indexes the trace it holds the interpreter,
        # and every call a row's drawing makes waits for it, so repainting the same rows must cost few calls.
        rect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        row = index.row()
        ratio = painter.device().devicePixelRatioF()
        key = (row, selected, row == self.marked_row, index.data(EventRole.HIT), rect.width(), ratio, theme.colors())
        pixmap = self._drawn.get(key)
        if pixmap is None:
            pixmap = QPixmap(QSize(int(rect.width() * ratio), int(rect.height() * ratio)))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(Qt.GlobalColor.transparent)
            local = QStyleOptionViewItem(option)
            local.rect = QRect(0, 0, rect.width(), rect.height())
            canvas = QPainter(pixmap)
            self._paint_row(canvas, local, index)
            canvas.end()
            self._drawn[key] = pixmap
            if len(self._drawn) > DRAWN_ROWS:
                self._drawn.popitem(last=False)
        painter.drawPixmap(rect.topLeft(), pixmap)

    def _paint_row(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        colors = theme.colors()
        rect = option.rect
        painter.save()
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(rect, QColor(colors.selection))
        elif index.row() == self.marked_row:
            painter.fillRect(rect, QColor(colors.highlight))
        elif index.data(EventRole.HIT) is True:
            painter.fillRect(rect, QColor(colors.search_hit))
        painter.setPen(QColor(colors.border))
        painter.drawLine(rect.bottomLeft(), rect.bottomRight())
        kind: str = index.data(EventRole.KIND)
        event = index.data(EventRole.EVENT)
        small = QFont(option.font)
        small.setPointSizeF(max(7.0, option.font.pointSizeF() * 0.78))
        small.setWeight(QFont.Weight.Bold)
        metrics = QFontMetrics(small)
        chip = QRectF(rect.left() + 6, rect.top() + 4, metrics.horizontalAdvance("THOUGHT") + 10, 16)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(
            QColor(colors.error) if index.data(EventRole.ERROR) else QColor(_KIND_COLORS.get(kind, "#666"))
        )
        painter.drawRoundedRect(chip, 3, 3)
        painter.setFont(small)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, kind)
        painter.setFont(option.font)
        text_color = QColor(colors.selection_text if option.state & QStyle.StateFlag.State_Selected else colors.text)
        muted = QColor(colors.muted)
        fm = QFontMetrics(option.font)
        x = chip.right() + 8
        line = QRectF(x, rect.top() + 2, rect.right() - x - 6, 20)
        paired = index.data(EventRole.PAIRED)
        head = f"#{event.sequence}" + (" ⇄" if isinstance(paired, int) and paired >= 0 else "")
        painter.setPen(muted)
        painter.drawText(line, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, head)
        x2 = x + fm.horizontalAdvance(head) + 8
        painter.setPen(text_color)
        rest = event.title if self.detailed else f"{event.title}   {index.data(EventRole.SUMMARY)}"
        painter.drawText(
            QRectF(x2, line.top(), line.right() - x2, 20),
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(rest, Qt.TextElideMode.ElideRight, int(line.right() - x2)),
        )
        if self.detailed:
            summary = QRectF(rect.left() + 10, rect.top() + 22, rect.width() - 16, 18)
            painter.drawText(
                summary,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                fm.elidedText(index.data(EventRole.SUMMARY) or "", Qt.TextElideMode.ElideRight, int(summary.width())),
            )
            reasons = QRectF(rect.left() + 10, rect.top() + 40, rect.width() - 16, 18)
            italic = QFont(option.font)
            italic.setItalic(True)
            italic.setPointSizeF(max(7.0, option.font.pointSizeF() * 0.86))
            painter.setFont(italic)
            painter.setPen(muted)
            painter.drawText(
                reasons,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                QFontMetrics(italic).elidedText(
                    "↳ " + (index.data(EventRole.REASONS) or ""), Qt.TextElideMode.ElideRight, int(reasons.width())
                ),
            )
        painter.restore()


def _detail_view(parent: QWidget) -> QPlainTextEdit:
    view = QPlainTextEdit(parent)
    view.setObjectName("eventDetail")
    view.setReadOnly(True)
    view.setFont(monospace_font())
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    view.setPlaceholderText("Select an event to see all of it.")
    return view


class ExcerptPanel(QWidget):
    """Events tied to the selected claim; "Show in timeline" jumps to one in the full trace."""

    jump_requested = Signal(object)  # Excerpt

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ExcerptModel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        self.pinned = PlainLabel(self)
        self.pinned.setObjectName("pinnedExcerpts")
        self.pinned.setWordWrap(True)
        self.pinned.hide()
        layout.addWidget(self.pinned)
        self.summary = PlainLabel(self)
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("excerptSplitter")
        self.splitter = splitter
        self.view = QListView(splitter)
        self.view.setObjectName("excerptList")
        self.view.setModel(self.model)
        self.view.setItemDelegate(EventDelegate(True, self.view))
        self.view.setUniformItemSizes(True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail = _detail_view(splitter)
        splitter.setSizes([360, 220])
        layout.addWidget(splitter, 1)
        self.filler = QWidget(self)
        layout.addWidget(self.filler, 1)
        buttons = QHBoxLayout()
        self.jump = QPushButton("Show in timeline", self)
        self.jump.setObjectName("small")
        self.jump.setEnabled(False)
        self.jump.clicked.connect(self._jump_current)
        buttons.addWidget(self.jump)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.view.doubleClicked.connect(lambda _i: self._jump_current())
        self.view.activated.connect(lambda _i: self._jump_current())

    def set_pinned(self, labels: list[str]) -> None:
        """The excerpts reviewers pinned to the claim, as evidence."""
        self.pinned.setVisible(bool(labels))
        self.pinned.setText("Pinned as evidence:\n" + "\n".join(f"📌 {label}" for label in labels) if labels else "")

    def show_state(self, text: str) -> None:
        self.model.set_excerpts([])
        self.detail.clear()
        self.summary.setText(text)
        self._set_listing(False)

    def _set_listing(self, listing: bool) -> None:
        self.splitter.setVisible(listing)
        self.filler.setVisible(not listing)
        self.jump.setVisible(listing)
        self.jump.setEnabled(listing)

    def show_excerpts(self, claim_label: str, excerpts: list[Excerpt], truncated: bool) -> None:
        self.model.set_excerpts(excerpts)
        self.detail.clear()
        tied = sum(1 for e in excerpts if not e.is_context)
        if excerpts:
            text = f"{len(excerpts)} trace events for {claim_label}: {tied} tied directly, the rest are context."
            if truncated:
                text += " Only the first ones are listed."
            self.view.setCurrentIndex(self.model.index(0))
        else:
            text = (
                f"No trace event names {claim_label}, its page, or a command run on its page. "
                "The full timeline is in the next tab."
            )
        self.summary.setText(text)
        self._set_listing(bool(excerpts))

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            excerpt: Excerpt = current.data(EventRole.EXCERPT)
            self.detail.setPlainText(
                "Tied because: " + "; ".join(excerpt.reasons) + "\n\n" + event_detail(excerpt.event)
            )

    def _jump_current(self) -> None:
        index = self.view.currentIndex()
        if index.isValid():
            self.jump_requested.emit(index.data(EventRole.EXCERPT))


KIND_CHOICES = (
    ("All kinds", ""),
    ("User", "user"),
    ("Agent", "assistant"),
    ("Thoughts", "reasoning"),
    ("Tool calls", "tool_call"),
    ("Results", "tool_result"),
    ("Status", "status"),
    ("Other records", "other"),
)
_TURNS = re.compile(r"^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")


def parse_turns(text: str) -> tuple[int, int] | None:
    match = _TURNS.match(text)
    if not match:
        return None
    low = int(match.group(1))
    return low, int(match.group(2) or low)


def parse_when(text: str, day: float | None) -> float | None:
    """An ISO time, or hh:mm[:ss] on the trace's first day (UTC)."""
    text = text.strip()
    if not text:
        return None
    if _CLOCK.match(text) and day is not None:
        base = datetime.fromtimestamp(day, UTC).date().isoformat()
        text = f"{base}T{text if text.count(':') == 2 else text + ':00'}+00:00"
    value = parse_time(text)
    return None if value != value else value


def parse_time_range(text: str, day: float | None) -> tuple[float | None, float | None] | None:
    """ "10:00-10:30", "10:00-", "-10:30" or "ISO - ISO"; None when it cannot be read."""
    text = text.strip()
    if not text:
        return (None, None)
    if " - " in text:
        head, tail = text.split(" - ", 1)
    elif re.fullmatch(r"[\d:]*-[\d:]*", text):
        head, tail = text.split("-", 1)
    else:
        head, tail = text, ""
    since = parse_when(head, day) if head.strip() else None
    until = parse_when(tail, day) if tail.strip() else None
    if (head.strip() and since is None) or (tail.strip() and until is None):
        return None
    return since, until


def timeline_view(parent: QWidget, model: TraceEventModel) -> QTableView:
    """One column of uniform rows. A table, not a list: QListView lays every row out again whenever rows are
    added, asking the Python model about each one (millions of calls for a 100,000-event trace, a frozen
    window while it is indexed); a table's fixed-height rows cost nothing per row."""
    view = QTableView(parent)
    view.setObjectName("timelineList")
    view.setModel(model)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setTabKeyNavigation(False)
    view.setCornerButtonEnabled(False)
    view.horizontalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    rows = view.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(TIMELINE_ROW)
    rows.setMinimumSectionSize(TIMELINE_ROW)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    return view


class TimelinePanel(QWidget):
    """Every event of a session over a trace index built in a worker: filters, search, jumps, links and pinning."""

    attach_requested = Signal()
    pin_requested = Signal(int, int)  # first and last position of the selected events
    cell_requested = Signal(str, int)  # page slug, cell ordinal (-1: the page)
    session_shown = Signal(object)  # TraceSession | None
    indexed = Signal()  # the session's index and its links to the evidence are complete

    def __init__(self, model: TraceEventModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._logbook: Logbook | None = None
        self._sessions: list[TraceSession] = []
        self._generation = 0
        self._cancel: CancelToken | None = None
        self._pending_jump: int | None = None
        self._hits: array[int] = array("i")
        self._whole = False
        self.links: TraceLinks | None = None
        self._held = False  # a session's trace is read once `release` is called (see hold)
        self._waiting: Callable[[], None] | None = None
        self._build()
        self._connect()

    # -- layout ------------------------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        top = QHBoxLayout()
        self.sessions = QComboBox(self)
        self.sessions.setObjectName("traceSessions")
        top.addWidget(self.sessions, 1)
        top.addStretch(0)
        self.attach = QPushButton("Attach…", self)
        self.attach.setObjectName("small")
        self.attach.setToolTip("Attach an agent's raw transcript (Claude Code, Codex, Pi, opencode JSON lines)")
        top.addWidget(self.attach)
        layout.addLayout(top)
        self.empty_state = self._empty_state()
        layout.addWidget(self.empty_state, 1)
        self.body = QWidget(self)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(6)
        layout.addWidget(self.body, 1)
        find = QHBoxLayout()
        self.search = QLineEdit(self)
        self.search.setObjectName("traceSearch")
        self.search.setPlaceholderText("Search every event (Enter; F3 / Shift+F3 next / previous)")
        self.search.setClearButtonEnabled(True)
        find.addWidget(self.search, 1)
        self.previous_hit = QToolButton(self)
        self.previous_hit.setText("▲")
        self.previous_hit.setToolTip("Previous hit (Shift+F3)")
        self.next_hit = QToolButton(self)
        self.next_hit.setText("▼")
        self.next_hit.setToolTip("Next hit (F3)")
        find.addWidget(self.previous_hit)
        find.addWidget(self.next_hit)
        self.hit_count = PlainLabel(self)
        self.hit_count.setObjectName("muted")
        self.hit_count.setMinimumWidth(70)
        find.addWidget(self.hit_count)
        body.addLayout(find)
        filters = QHBoxLayout()
        self.kind_filter = QComboBox(self)
        self.kind_filter.setObjectName("kindFilter")
        for label, value in KIND_CHOICES:
            self.kind_filter.addItem(label, value)
        self.tool_filter = QComboBox(self)
        self.tool_filter.setObjectName("toolFilter")
        self.tool_filter.addItem("All tools", "")
        for combo in (self.kind_filter, self.tool_filter):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)
            filters.addWidget(combo, 1)
        self.errors_only = QCheckBox("Errors", self)
        self.errors_only.setToolTip("Only failed tool results, aborted turns and unreadable lines")
        filters.addWidget(self.errors_only)
        body.addLayout(filters)
        go = QHBoxLayout()
        self.turn_filter = QLineEdit(self)
        self.turn_filter.setObjectName("turnFilter")
        self.turn_filter.setPlaceholderText("turns 3-7")
        self.turn_filter.setToolTip("Only these turns: one number or a range")
        self.time_filter = QLineEdit(self)
        self.time_filter.setObjectName("timeFilter")
        self.time_filter.setPlaceholderText("time 10:00-10:30")
        self.time_filter.setToolTip("Only events stamped in this span (UTC; hh:mm is on the trace's first day)")
        self.jump = QLineEdit(self)
        self.jump.setObjectName("traceJump")
        self.jump.setPlaceholderText("Go to #seq, turn N, 10:42 (Ctrl+G)")
        for edit, stretch in ((self.turn_filter, 1), (self.time_filter, 1), (self.jump, 2)):
            edit.setMinimumWidth(40)
            go.addWidget(edit, stretch)
        body.addLayout(go)
        self.info = PlainLabel(self)
        self.info.setObjectName("muted")
        self.info.setWordWrap(True)
        body.addWidget(self.info)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("timelineSplitter")
        self.view = timeline_view(splitter, self.model)
        self.delegate = EventDelegate(False, self.view)
        self.view.setItemDelegate(self.delegate)
        self.model.modelReset.connect(self.delegate.forget)
        below = QWidget(splitter)
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        self.detail = _detail_view(below)
        below_layout.addWidget(self.detail, 1)
        buttons = QHBoxLayout()
        self.show_whole = QPushButton("Whole", below)
        self.show_whole.setObjectName("small")
        self.show_whole.setToolTip("Show long outputs and inline images in full")
        self.go_pair = QPushButton("Result", below)
        self.go_pair.setObjectName("small")
        self.go_pair.setToolTip("Jump between a tool call and its result (P)")
        self.show_cell = QPushButton("Evidence", below)
        self.show_cell.setToolTip("Show the page and cell this event produced")
        self.show_cell.setObjectName("small")
        self.pin = QPushButton("Pin", below)
        self.pin.setObjectName("small")
        self.pin.setToolTip("Pin the selected events to the selected claim as evidence")
        for button in (self.show_whole, self.go_pair, self.show_cell, self.pin):
            button.setEnabled(False)
            buttons.addWidget(button)
        buttons.addStretch(1)
        below_layout.addLayout(buttons)
        splitter.setSizes([420, 220])
        body.addWidget(splitter, 1)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(250)

    def _empty_state(self) -> QWidget:
        """What the pane shows for a logbook with no session at all: why, and the way to attach one."""
        box = QWidget(self)
        box.setObjectName("timelineEmpty")
        column = QVBoxLayout(box)
        column.setContentsMargins(16, 24, 16, 16)
        column.setSpacing(12)
        self.empty_text = PlainLabel(box)
        self.empty_text.setObjectName("muted")
        self.empty_text.setWordWrap(True)
        self.empty_text.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        column.addWidget(self.empty_text)
        self.attach_empty = QPushButton("Attach a transcript…", box)
        self.attach_empty.setObjectName("primary")
        self.attach_empty.setToolTip(
            "Read the agent's raw transcript (Claude Code, Codex, Pi, opencode JSON lines) beside this logbook; "
            "it is copied to your data folder, never into the logbook (Ctrl+Shift+T)"
        )
        column.addWidget(self.attach_empty, 0, Qt.AlignmentFlag.AlignHCenter)
        column.addStretch(1)
        box.hide()
        return box

    def say(self, text: str) -> None:
        """A message about the trace, wherever the pane shows it (the empty state has no info line)."""
        self.info.setText(text)
        self.empty_text.setText(text)

    def _set_empty(self, empty: bool) -> None:
        self.empty_state.setVisible(empty)
        self.body.setVisible(not empty)
        self.attach.setVisible(not empty)

    def _connect(self) -> None:
        self.sessions.currentIndexChanged.connect(self._session_changed)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._update_pin())
        self.attach.clicked.connect(self.attach_requested)
        self.attach_empty.clicked.connect(self.attach_requested)
        self.search.returnPressed.connect(self._search_or_next)
        self.search.textChanged.connect(self._search_edited)
        self.next_hit.clicked.connect(lambda: self.step_hit(1))
        self.previous_hit.clicked.connect(lambda: self.step_hit(-1))
        for combo in (self.kind_filter, self.tool_filter):
            combo.currentIndexChanged.connect(lambda _i: self._filter_timer.start())
        self.errors_only.toggled.connect(lambda _on: self._filter_timer.start())
        for edit in (self.turn_filter, self.time_filter):
            edit.textChanged.connect(lambda _t: self._filter_timer.start())
        self._filter_timer.timeout.connect(self.apply_filters)
        self.jump.returnPressed.connect(self._jump_entered)
        self.show_whole.clicked.connect(self._toggle_whole)
        self.go_pair.clicked.connect(self.go_to_pair)
        self.show_cell.clicked.connect(self._show_cell)
        self.pin.clicked.connect(self._pin_selected)
        # keys handled where they are typed: shortcuts need an active window, which offscreen runs never have
        self.view.installEventFilter(self)
        self.search.installEventFilter(self)
        shortcut = QShortcut(QKeySequence("Ctrl+G"), self)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.jump.setFocus)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, shift = event.key(), bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            if key == Qt.Key.Key_F3:
                self.step_hit(-1 if shift else 1)
                return True
            if watched is self.view and key == Qt.Key.Key_P and not event.modifiers():
                self.go_to_pair()
                return True
        return super().eventFilter(watched, event)

    # -- sessions ----------------------------------------------------------------------------------------------

    def set_logbook(self, logbook: Logbook) -> None:
        """The sessions the manifest lists (attached transcripts come with `set_sessions`)."""
        self.set_sessions(logbook, list_sessions(logbook, []))

    def _shown(self, text: str) -> str:
        """`text` as the reviewer may see it: scrubbed of the participant's names in blind review (the model's
        scrubber, the same blind rule the events follow)."""
        scrub = self.model.scrub
        return scrub(text) if scrub is not None and text else text

    def _say(self, text: str) -> None:
        self.info.setText(self._shown(text))

    def set_sessions(self, logbook: Logbook, sessions: list[TraceSession], keep: str | None = None) -> None:
        self._logbook = logbook
        self._sessions = sessions
        self.sessions.blockSignals(True)
        self.sessions.clear()
        for session in sessions:
            state = "" if session.readable and session.transcript is None else f" ({session.state})"
            label = f"{session.title} · {session.provider or 'agent'}{state}"
            self.sessions.addItem(self._shown(label), session.id)
        self.sessions.blockSignals(False)
        self.sessions.setVisible(len(sessions) > 1)
        position = max(self.sessions.findData(keep), 0) if keep else 0
        self.sessions.setCurrentIndex(position)
        self._session_changed(position)

    @property
    def session(self) -> TraceSession | None:
        position = self.sessions.currentIndex()
        return self._sessions[position] if 0 <= position < len(self._sessions) else None

    def select_trace(self, trace_id: str) -> None:
        index = self.sessions.findData(trace_id)
        if index >= 0 and index != self.sessions.currentIndex():
            self.sessions.setCurrentIndex(index)

    def hold(self) -> None:
        """Read the next session's trace only once `release` is called: the window shows the first claim first
        (reading a long trace holds the interpreter in long stretches, and the claim's cards wait for it)."""
        self._held = True

    def release(self) -> None:
        """Read the session's trace now, if one waits (see hold)."""
        self._held = False
        start, self._waiting = self._waiting, None
        if start is not None:
            start()

    @property
    def waiting(self) -> bool:
        """A session's trace waits to be read (held)."""
        return self._waiting is not None

    def stop(self) -> None:
        """Stop reading the trace (the window is closing): its child process ends, nothing waits for it."""
        if self._cancel is not None:
            self._cancel.cancel()

    def _session_changed(self, position: int) -> None:
        if self._cancel is not None:
            self._cancel.cancel()
        self._generation += 1
        self._waiting = None
        self._pending_jump = None
        self._hits = array("i")
        release_on(self.model.runner, self.links)  # tens of thousands of entries: freed whole, 46 ms of this turn
        self.links = None
        self.delegate.marked_row = -1
        self.detail.clear()
        self._set_buttons(None)
        self.tool_filter.blockSignals(True)
        self.tool_filter.clear()
        self.tool_filter.addItem("All tools", "")
        self.tool_filter.blockSignals(False)
        self.hit_count.clear()
        session = self._sessions[position] if 0 <= position < len(self._sessions) else None
        self.session_shown.emit(session)
        self._set_empty(session is None)
        if session is None:
            self.model.set_index(None, None)
            self.say(
                "This logbook lists no agent session and names no traces dataset. Attach the agent's raw "
                "transcript to read the whole session here, linked to the claims and cells it produced."
            )
            return
        if not session.readable:
            self.model.set_index(session, None)
            count = session.trace.event_count if session.trace else None
            self._say(
                f"The manifest lists “{session.title}” ({count or '?'} events) but its files are not in this "
                "folder; committed logbooks usually leave traces out. Attach the transcript to read it."
            )
            return
        try:
            index = session.open_index()
        except (OSError, ValueError) as exc:
            self.model.set_index(session, None)
            self._say(f"The trace cannot be read: {exc}")
            return
        self.model.set_index(session, index)
        self.info.setText("Reading the trace…")
        self._index_in_worker(index, self._generation)

    def _index_in_worker(self, index: TraceIndex, generation: int) -> None:
        if self._held:
            self._waiting = lambda: self._index_in_worker(index, generation)
            return
        if generation != self._generation:
            return
        cancel = self._cancel = CancelToken()
        logbook = self._logbook

        def work(progress: ProgressCallback) -> TraceLinks | None:
            with collector_paused():  # no collector pass over what it builds while the window draws (collector.py)
                plan = LinkPlan.of(logbook) if logbook is not None else None
                return build_elsewhere(index, plan, cancel, lambda n: progress(n, 0, "events"))

        shown_at = [0.0]

        def grew(_done: int, _total: int, _label: str) -> None:
            # the first rows at once, then a few times a second: each time the window draws again
            if generation != self._generation or not alive(self) or time.monotonic() - shown_at[0] < GROW_EVERY_S:
                return
            shown_at[0] = time.monotonic()
            self.model.grow()
            self.info.setText(f"Reading the trace… {index.count:,} events so far")
            self._try_pending()

        def done(links: TraceLinks | None) -> None:
            if generation != self._generation or not alive(self):
                return
            self.links = links
            self.model.grow()
            self._indexed(index)

        def failed(exc: BaseException) -> None:
            if generation == self._generation and alive(self) and not isinstance(exc, Cancelled):
                self.model.grow()
                self._say(f"The trace stopped being read: {exc}")

        self.model.runner.submit(work, done, failed, grew)

    def _indexed(self, index: TraceIndex) -> None:
        self.tool_filter.blockSignals(True)
        for name in sorted(n for n in index.tool_names if n):
            self.tool_filter.addItem(name, name)
        self.tool_filter.blockSignals(False)
        turns = index.turn_count()  # a trace whose events name no turn says nothing of turns
        facts = [index.format, f"{index.count:,} events", *([f"{turns} turns"] if turns else [])]
        session = self.session
        if session is not None and session.transcript is not None:
            facts.insert(0, f"attached {session.transcript.file_name}")
        if index.facts.model:
            facts.append(index.facts.model)
        text = " · ".join(facts)
        if index.problems:
            where = ", ".join(f"{p.file}:{p.line}" if p.line else p.file for p in index.problems[:5])
            more = f" and {len(index.problems) - 5} more" if len(index.problems) > 5 else ""
            text += f"\n{len(index.problems)} unreadable: {where}{more} (shown as red STATUS rows)"
        self._say(text)
        self._try_pending()
        self.indexed.emit()
        if self.search.text().strip():
            self.run_search()
        if self._filter_spec().active:
            self.apply_filters()
        self._current_changed(self.view.currentIndex(), QModelIndex())

    # -- jumping -----------------------------------------------------------------------------------------------

    def jump_to(self, sequence: int) -> None:
        """Select the event with this sequence number, now or as soon as indexing reaches it."""
        index = self.model.index_
        position = index.position_of_sequence(sequence) if index is not None else -1
        if position >= 0:
            self.select_position(position)
        elif index is not None and not index.complete:
            self._pending_jump = sequence
        else:
            self.info.setText("That event is not in the trace files.")

    def _try_pending(self) -> None:
        index = self.model.index_
        if self._pending_jump is None or index is None:
            return
        position = index.position_of_sequence(self._pending_jump)
        if position >= 0:
            self._pending_jump = None
            self.select_position(position)
        elif index.complete:
            self._pending_jump = None
            self.info.setText("That event is not in the trace files.")

    def select_position(self, position: int) -> None:
        row = self.model.row_of_position(position)
        if row < 0 and self.model.filtered:  # filtered out: show everything again
            self.clear_filters()
            row = self.model.row_of_position(position)
        if row < 0:
            return
        index = self.model.index(row)
        self.delegate.marked_row = row
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    def _jump_entered(self) -> None:
        text = self.jump.text().strip().lower()
        index = self.model.index_
        if index is None or not text:
            return
        position = -1
        if text.startswith("turn") or (text.startswith("t") and text[1:].strip().isdigit()):
            number = text.removeprefix("turn").removeprefix("t").strip()
            position = index.first_of_turn(int(number)) if number.isdigit() else -1
        elif _CLOCK.match(text) or ("t" in text and ":" in text):
            span = index.time_range()
            when = parse_when(text, span[0] if span else None)
            position = index.first_at_time(when) if when is not None else -1
        else:
            number = text.lstrip("#").strip()
            position = index.position_of_sequence(int(number)) if number.isdigit() else -1
        if position < 0:
            self.info.setText(f"Nothing to go to for “{self.jump.text()}”.")
            return
        self.select_position(position)
        self.view.setFocus()

    def go_to_pair(self) -> None:
        current = self.view.currentIndex()
        index = self.model.index_
        if not current.isValid() or index is None:
            return
        paired = index.paired(self.model.position_at(current.row()))
        if paired >= 0:
            self.select_position(paired)

    # -- filters -----------------------------------------------------------------------------------------------

    def _filter_spec(self) -> EventFilter:
        index = self.model.index_
        span = index.time_range() if index is not None and index.complete else None
        kind = self.kind_filter.currentData()
        tool = self.tool_filter.currentData()
        times = parse_time_range(self.time_filter.text(), span[0] if span else None) or (None, None)
        return EventFilter(
            kinds=frozenset({kind}) if kind else frozenset(),
            tools=frozenset({tool}) if tool else frozenset(),
            turns=parse_turns(self.turn_filter.text()),
            errors_only=self.errors_only.isChecked(),
            since=times[0],
            until=times[1],
        )

    def clear_filters(self) -> None:
        for widget in (self.kind_filter, self.tool_filter, self.errors_only, self.turn_filter, self.time_filter):
            widget.blockSignals(True)
        self.kind_filter.setCurrentIndex(0)
        self.tool_filter.setCurrentIndex(0)
        self.errors_only.setChecked(False)
        self.turn_filter.clear()
        self.time_filter.clear()
        for widget in (self.kind_filter, self.tool_filter, self.errors_only, self.turn_filter, self.time_filter):
            widget.blockSignals(False)
        self.model.set_rows(None)

    def apply_filters(self) -> None:
        index = self.model.index_
        if index is None:
            return
        wanted = self._filter_spec()
        if not index.complete:
            self.info.setText("Filters apply once the trace is read.")
            return
        if not wanted.active:
            self._show_rows(None, index)
            return
        generation = self._generation

        def done(rows: array[int]) -> None:
            if generation == self._generation and alive(self):
                self._show_rows(rows, index)

        self.model.runner.submit(lambda _p: index.filter(wanted), done, lambda _e: None)

    def _show_rows(self, rows: array[int] | None, index: TraceIndex) -> None:
        keep = self.view.currentIndex()
        position = self.model.position_at(keep.row()) if keep.isValid() else -1
        self.delegate.marked_row = -1
        self.model.set_rows(rows)
        shown = index.count if rows is None else len(rows)
        self.hit_count.setText(self._hit_text(-1))
        if rows is not None:
            self.info.setText(f"{shown:,} of {index.count:,} events match the filters")
        row = self.model.row_of_position(position)
        if row >= 0:
            self.view.setCurrentIndex(self.model.index(row))
            self.view.scrollTo(self.model.index(row), QAbstractItemView.ScrollHint.PositionAtCenter)

    # -- search ------------------------------------------------------------------------------------------------

    def _search_edited(self, text: str) -> None:
        if not text.strip():
            self._hits = array("i")
            self.model.set_hits(self._hits)
            self.hit_count.clear()

    def _search_or_next(self) -> None:
        if self._hits and self.hit_count.property("query") == self.search.text().strip():
            self.step_hit(1)
        else:
            self.run_search()

    def run_search(self) -> None:
        index = self.model.index_
        query = self.search.text().strip()
        if index is None or not query:
            return
        generation = self._generation
        self.hit_count.setText("searching…")

        def done(hits: array[int]) -> None:
            if generation != self._generation or not alive(self):
                return
            self._hits = hits
            self.hit_count.setProperty("query", query)
            self.model.set_hits(hits)
            self.hit_count.setText(self._hit_text(-1))
            if hits:
                self.step_hit(1)

        self.model.runner.submit(lambda _p: index.search(query), done, lambda _e: self.hit_count.setText("failed"))

    def _visible_hits(self) -> list[int]:
        return [h for h in self._hits if self.model.row_of_position(h) >= 0]

    def _hit_text(self, at: int) -> str:
        if not self._hits:
            return "no hits" if self.hit_count.property("query") else ""
        visible = self._visible_hits()
        hidden = len(self._hits) - len(visible)
        base = f"{at + 1} of {len(visible)}" if at >= 0 else f"{len(visible)} hits"
        return base + (f" ({hidden} filtered out)" if hidden else "")

    def step_hit(self, direction: int) -> None:
        visible = self._visible_hits()
        if not visible:
            return
        current = self.view.currentIndex()
        position = self.model.position_at(current.row()) if current.isValid() else -1
        if direction > 0:
            at = bisect_right(visible, position)
            at = 0 if at >= len(visible) else at
        else:
            at = bisect_left(visible, position) - 1
            at = len(visible) - 1 if at < 0 else at
        self.select_position(visible[at])
        self.hit_count.setText(self._hit_text(at))

    # -- the selected event ------------------------------------------------------------------------------------

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._whole = False
        self._show_detail(current)

    def _toggle_whole(self) -> None:
        self._whole = not self._whole
        self._show_detail(self.view.currentIndex())

    def _show_detail(self, current: QModelIndex) -> None:
        index = self.model.index_
        if not current.isValid() or index is None:
            self._set_buttons(None)
            return
        position = self.model.position_at(current.row())
        event = index.event(position)
        paired_at = index.paired(position)
        paired = index.event(paired_at) if paired_at >= 0 else None
        links = self._links_of(position)
        text, capped = timeline_detail(event, whole=self._whole, paired=paired, links=links)
        self.detail.setPlainText(self.model.scrub(text) if self.model.scrub is not None else text)
        self._set_buttons(event, capped or self._whole, paired_at >= 0, bool(links))

    def _links_of(self, position: int) -> list[str]:
        if self.links is None or self._logbook is None:
            return []
        return [f"{describe(ref, self._logbook)}: {reason}" for ref, reason in self.links.cells_for(position)]

    def _set_buttons(self, event: object, capped: bool = False, paired: bool = False, linked: bool = False) -> None:
        self.show_whole.setEnabled(capped)
        self.show_whole.setText("Capped" if self._whole else "Whole")
        self.go_pair.setEnabled(paired)
        kind = getattr(event, "kind", "")
        self.go_pair.setText("Call" if kind == "tool_result" else "Result")
        self.show_cell.setEnabled(linked)
        self._update_pin()

    def selected_range(self) -> tuple[int, int] | None:
        rows = [i.row() for i in self.view.selectionModel().selectedIndexes()]
        if not rows:
            return None
        positions = [self.model.position_at(r) for r in rows]
        return min(positions), max(positions)

    def _update_pin(self) -> None:
        index = self.model.index_
        self.pin.setEnabled(bool(index is not None and index.complete and self.selected_range() is not None))

    def _pin_selected(self) -> None:
        span = self.selected_range()
        if span is not None:
            self.pin_requested.emit(*span)

    def _show_cell(self) -> None:
        current = self.view.currentIndex()
        if not current.isValid() or self.links is None:
            return
        found = self.links.cells_for(self.model.position_at(current.row()))
        if found:
            ref = found[0][0]
            self.cell_requested.emit(ref.page, -1 if ref.ordinal is None else ref.ordinal)
