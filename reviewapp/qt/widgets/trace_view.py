"""Trace excerpts for the selected claim, and the full trace timeline they jump into."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook.model import Logbook, TraceInfo
from reviewapp.core.trace.excerpts import Excerpt
from reviewapp.qt import theme
from reviewapp.qt.models.trace_events import EventRole, ExcerptModel, TraceEventModel, event_detail
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.code_block import monospace_font

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


class EventDelegate(QStyledItemDelegate):
    """A kind chip, the sequence number and title; excerpts add a summary line and why the event is tied."""

    def __init__(self, detailed: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detailed = detailed
        self.marked_row = -1  # the row a jump landed on

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(option.rect.width(), EXCERPT_ROW if self.detailed else TIMELINE_ROW)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        colors = theme.colors()
        rect = option.rect
        painter.save()
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(rect, QColor(colors.selection))
        elif index.row() == self.marked_row:
            painter.fillRect(rect, QColor(colors.highlight))
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
        head = f"#{event.sequence}"
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


class TimelinePanel(QWidget):
    """Every event of a trace, read chunk by chunk as the list scrolls."""

    def __init__(self, model: TraceEventModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self._logbook: Logbook | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        top = QHBoxLayout()
        self.sessions = QComboBox(self)
        self.sessions.setObjectName("traceSessions")
        top.addWidget(self.sessions, 1)
        layout.addLayout(top)
        self.info = PlainLabel(self)
        self.info.setObjectName("muted")
        self.info.setWordWrap(True)
        layout.addWidget(self.info)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setObjectName("timelineSplitter")
        self.view = QListView(splitter)
        self.view.setObjectName("timelineList")
        self.view.setModel(model)
        self.delegate = EventDelegate(False, self.view)
        self.view.setItemDelegate(self.delegate)
        self.view.setUniformItemSizes(True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail = _detail_view(splitter)
        splitter.setSizes([420, 200])
        layout.addWidget(splitter, 1)
        self.sessions.currentIndexChanged.connect(self._session_changed)
        self.view.selectionModel().currentChanged.connect(self._current_changed)

    def set_logbook(self, logbook: Logbook) -> None:
        self._logbook = logbook
        self.sessions.blockSignals(True)
        self.sessions.clear()
        for trace in logbook.traces:
            state = "" if trace.available else " (files missing)"
            self.sessions.addItem(f"{trace.title} · {trace.provider or 'agent'}{state}", trace.id)
        self.sessions.blockSignals(False)
        self.sessions.setVisible(len(logbook.traces) > 1)
        self._session_changed(0)

    def select_trace(self, trace_id: str) -> None:
        index = self.sessions.findData(trace_id)
        if index >= 0 and index != self.sessions.currentIndex():
            self.sessions.setCurrentIndex(index)

    def jump_to(self, sequence: int) -> None:
        """Scroll to the event with this sequence number (reading chunks up to it if needed) and select it."""
        self.model.ensure_loaded(sequence, self._select_row)

    def _select_row(self, row: int) -> None:
        if row < 0:
            self.info.setText("That event is not in the trace files.")
            return
        index = self.model.index(row)
        self.delegate.marked_row = row
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index, QListView.ScrollHint.PositionAtCenter)

    def _session_changed(self, position: int) -> None:
        trace = self._trace(position)
        self.delegate.marked_row = -1
        self.detail.clear()
        self.model.set_trace(self._logbook.root if self._logbook else None, trace if trace and trace.chunks else None)
        if trace is None:
            self.info.setText("This logbook has no agent trace attached.")
        elif not trace.available:
            self.info.setText(
                f"The manifest lists “{trace.title}” ({trace.event_count or '?'} events) but its files are not in "
                "this folder; committed logbooks usually leave traces out."
            )
        else:
            facts = [trace.provider, trace.model, f"{trace.event_count or '?'} events", trace.started_at]
            self.info.setText(" · ".join(f for f in facts if f))
        if self.model.canFetchMore(QModelIndex()):
            self.model.fetchMore(QModelIndex())

    def _trace(self, position: int) -> TraceInfo | None:
        if self._logbook is None or not 0 <= position < len(self._logbook.traces):
            return None
        return self._logbook.traces[position]

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.detail.setPlainText(event_detail(current.data(EventRole.EVENT)))
