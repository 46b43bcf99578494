"""The claims pane: search across claims and evidence, a verdict filter, a disagreement toggle, and the list.

The title line counts the claims the reviewer has given a verdict ("3 of 5 reviewed by you"); the filter "Not
reviewed by you" is about the reviewer's own verdicts, unlike "No verdict stated", which is about every slot.

Each row shows the claim's number and title, then three verdict badges (agent, judge, reviewer) and a warning
mark where stated verdicts disagree. Rows have one fixed height and are painted by a delegate.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QKeyEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.models.claim_table import NOT_REVIEWED, ClaimFilter, ClaimFilterProxy, ClaimRole, ClaimTableModel
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.verdict_badge import (
    BADGE_HEIGHT,
    badge_font,
    badge_width,
    paint_badge_cached,
    paint_disagreement,
)

ROW_HEIGHT = 60
SEARCH_DELAY_MS = 180
VERDICT_FILTERS: tuple[tuple[str, ClaimFilter], ...] = (
    ("All verdicts", None),
    ("Not reviewed by you", NOT_REVIEWED),
    ("Verified", Verdict.VERIFIED),
    ("Partial", Verdict.PARTIAL),
    ("Falsified", Verdict.FALSIFIED),
    ("Toy", Verdict.TOY),
    ("Inconclusive", Verdict.INCONCLUSIVE),
    ("No verdict stated", Verdict.UNSTATED),
)


class ClaimDelegate(QStyledItemDelegate):
    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(option.rect.width(), ROW_HEIGHT)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        colors = theme.colors()
        rect = option.rect
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if selected:
            painter.fillRect(rect, QColor(colors.selection))
        elif option.state & QStyle.StateFlag.State_MouseOver:
            painter.fillRect(rect, QColor(colors.panel))
        painter.setPen(QPen(QColor(colors.border)))
        painter.drawLine(rect.bottomLeft(), rect.bottomRight())
        slots: VerdictSlots = index.data(ClaimRole.SLOTS)
        number: str = index.data(ClaimRole.NUMBER)
        title: str = index.data(Qt.ItemDataRole.DisplayRole)
        # Number in a round tab, coloured by the agent's verdict.
        pill = QRectF(rect.left() + 8, rect.top() + 9, 26, 20)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.verdict_color(slots.agent))
        painter.drawRoundedRect(pill, 10, 10)
        bold = QFont(option.font)
        bold.setWeight(QFont.Weight.DemiBold)
        painter.setFont(bold)
        painter.setPen(QColor("#ffffff") if not colors.dark else QColor("#111418"))
        painter.drawText(pill, Qt.AlignmentFlag.AlignCenter, number)
        text_left = pill.right() + 8
        right = rect.right() - 8
        if slots.disagreement:
            paint_disagreement(painter, QRectF(right - 16, rect.top() + 10, 16, 16))
            right -= 22
        painter.setPen(QColor(colors.selection_text if selected else colors.text))
        metrics = QFontMetrics(bold)
        title_rect = QRectF(text_left, rect.top() + 8, right - text_left, metrics.height() + 2)
        painter.drawText(
            title_rect,
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            metrics.elidedText(title, Qt.TextElideMode.ElideRight, int(title_rect.width())),
        )
        font = badge_font(option.font)
        badge_metrics = QFontMetrics(font)
        x = text_left
        top = rect.top() + ROW_HEIGHT - BADGE_HEIGHT - 9
        for slot, verdict in (("agent", slots.agent), ("judge", slots.logbook_judge), ("human", slots.human)):
            width = badge_width(badge_metrics, verdict)
            paint_badge_cached(painter, QPointF(x, top), QSize(width, BADGE_HEIGHT), slot, verdict, font)
            x += width + 6
        mark: str = index.data(ClaimRole.MARK) or ""
        if mark:  # how reviewers changed the claim: "split", "A corrected"
            italic = QFont(option.font)
            italic.setItalic(True)
            italic.setPointSizeF(max(7.0, option.font.pointSizeF() * 0.85))
            painter.setFont(italic)
            painter.setPen(QColor(colors.warning))
            mark_rect = QRectF(x + 2, top - 2, rect.right() - 8 - x, BADGE_HEIGHT + 4)
            text = QFontMetrics(italic).elidedText(f"✎ {mark}", Qt.TextElideMode.ElideRight, int(mark_rect.width()))
            painter.drawText(mark_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        painter.restore()


class ClaimListPanel(QFrame):
    claim_selected = Signal(str)  # claim key
    search_changed = Signal(str)

    def __init__(self, model: ClaimTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pane")
        self.model = model
        self.proxy = ClaimFilterProxy(self)
        self.proxy.setSourceModel(model)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 6)
        layout.setSpacing(6)
        heading = QHBoxLayout()
        title = PlainLabel("CLAIMS", self)
        title.setObjectName("paneTitle")
        heading.addWidget(title)
        heading.addStretch(1)
        self.progress = PlainLabel(self)  # "3 of 5 reviewed by you", once someone is reviewing
        self.progress.setObjectName("reviewProgress")
        heading.addWidget(self.progress)
        layout.addLayout(heading)
        self.reviewing = False
        self.search = QLineEdit(self)
        self.search.setObjectName("claimSearch")
        self.search.setPlaceholderText("Search claims and evidence")
        self.search.setClearButtonEnabled(True)
        layout.addWidget(self.search)
        filters = QHBoxLayout()
        self.verdict_filter = QComboBox(self)
        self.verdict_filter.setObjectName("verdictFilter")
        for label, verdict in VERDICT_FILTERS:
            self.verdict_filter.addItem(label, verdict)
        self.verdict_filter.setToolTip(
            "Claims where the agent, the Logbook Judge or you gave this verdict; “Not reviewed by you”: claims without "
            "your verdict; “No verdict stated”: claims nobody gave a verdict"
        )
        filters.addWidget(self.verdict_filter, 1)
        self.disagreement_toggle = QToolButton(self)
        self.disagreement_toggle.setObjectName("filterToggle")
        self.disagreement_toggle.setText("Disagreements")
        self.disagreement_toggle.setCheckable(True)
        self.disagreement_toggle.setToolTip("Only claims whose stated verdicts disagree")
        filters.addWidget(self.disagreement_toggle)
        layout.addLayout(filters)
        self.view = QListView(self)
        self.view.setObjectName("claimList")
        self.view.setModel(self.proxy)
        self.view.setItemDelegate(ClaimDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setMouseTracking(True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        layout.addWidget(self.view, 1)
        self.empty = PlainLabel("No claim matches.", self.view)
        self.empty.setObjectName("emptyHint")
        self.empty.hide()
        self.footer = PlainLabel(self)
        self.footer.setObjectName("paneFooter")
        layout.addWidget(self.footer)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(lambda: self.search_changed.emit(self.search.text()))
        self.search.textChanged.connect(lambda _text: self._search_timer.start())
        self.search.returnPressed.connect(self._search_now)
        self.search.installEventFilter(self)  # Esc leaves the field for the list, keeping the search
        self.verdict_filter.currentIndexChanged.connect(lambda _i: self.apply_filters(self.proxy.matching))
        self.disagreement_toggle.toggled.connect(lambda _on: self.apply_filters(self.proxy.matching))
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.proxy.modelReset.connect(self._update_footer)
        self.proxy.rowsInserted.connect(self._update_footer)
        self.proxy.rowsRemoved.connect(self._update_footer)
        self.proxy.dataChanged.connect(self._update_footer)  # a saved verdict changes the counts

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.search
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            self._search_now()
            self.focus_list()
            return True
        return super().eventFilter(watched, event)

    def focus_list(self) -> None:
        """Keys go to the list again (J/K, the verdict keys), on the current claim or the first one shown."""
        if not self.view.currentIndex().isValid() and self.proxy.rowCount():
            self.view.setCurrentIndex(self.proxy.index(0, 0))
        self.view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _search_now(self) -> None:
        self._search_timer.stop()
        self.search_changed.emit(self.search.text())

    def apply_filters(self, matching: set[str] | None) -> None:
        current = self.current_key()
        self.proxy.set_filters(self.verdict_filter.currentData(), self.disagreement_toggle.isChecked(), matching)
        self._update_footer()
        if current is not None and self.select_key(current, quiet=True):
            return
        if self.proxy.rowCount() and current is not None:
            self.view.setCurrentIndex(self.proxy.index(0, 0))

    def clear_filters(self) -> None:
        self.search.clear()
        self.verdict_filter.setCurrentIndex(0)
        self.disagreement_toggle.setChecked(False)
        self._search_now()

    def current_key(self) -> str | None:
        index = self.view.currentIndex()
        return index.data(ClaimRole.KEY) if index.isValid() else None

    def select_key(self, key: str, quiet: bool = False) -> bool:
        row = self.model.row_of(key)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row))
        if not index.isValid():
            return False
        if quiet:
            self.view.selectionModel().blockSignals(True)
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
        if quiet:
            self.view.selectionModel().blockSignals(False)
            self.view.viewport().update()
        return True

    def clear_selection(self) -> None:
        self.view.selectionModel().blockSignals(True)
        self.view.clearSelection()
        self.view.setCurrentIndex(QModelIndex())
        self.view.selectionModel().blockSignals(False)

    def next_unreviewed(self) -> str | None:
        """Select the next claim without the reviewer's verdict after the current one, wrapping at the end; across
        pages and, when the filters hide every such claim, after clearing them. The key selected, or None."""
        keys = self._keys_after_current(self.visible_keys())
        target = next((k for k in keys if k not in self._reviewed()), None)
        if target is None:
            every = [self.model.row_info(r).claim.key for r in range(self.model.rowCount())]
            target = next((k for k in self._keys_after_current(every) if k not in self._reviewed()), None)
            if target is None:
                return None
            self.clear_filters()
        self.select_key(target)
        return target

    def _keys_after_current(self, keys: list[str]) -> list[str]:
        current = self.current_key()
        at = keys.index(current) + 1 if current in keys else 0
        return keys[at:] + keys[:at]

    def _reviewed(self) -> set[str]:
        rows = (self.model.row_info(r) for r in range(self.model.rowCount()))
        return {row.claim.key for row in rows if row.slots.human is not None}

    def reviewed_count(self) -> tuple[int, int]:
        """(claims with the reviewer's verdict, claims)."""
        return len(self._reviewed()), self.model.rowCount()

    def progress_text(self) -> str:
        done, total = self.reviewed_count()
        return f"{done} of {total} reviewed by you" if self.reviewing and total else ""

    def set_reviewing(self, reviewing: bool) -> None:
        """Someone is reviewing: count their verdicts in the title line."""
        self.reviewing = reviewing
        self._update_footer()

    def step(self, delta: int) -> None:
        count = self.proxy.rowCount()
        if count == 0:
            return
        row = self.view.currentIndex().row()
        row = 0 if row < 0 else max(0, min(count - 1, row + delta))
        self.view.setCurrentIndex(self.proxy.index(row, 0))

    def visible_keys(self) -> list[str]:
        return [self.proxy.index(r, 0).data(ClaimRole.KEY) for r in range(self.proxy.rowCount())]

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.claim_selected.emit(current.data(ClaimRole.KEY))

    def _update_footer(self) -> None:
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        disputed = sum(1 for r in range(total) if self.model.row_info(r).slots.disagreement)
        noun = "claim" if total == 1 else "claims"
        text = f"{total} {noun}" if shown == total else f"{shown} of {total} {noun} shown"
        if disputed:
            text += f" · {disputed} disputed"
        self.footer.setText(text)
        self.empty.setVisible(total > 0 and shown == 0)
        self.empty.resize(self.view.viewport().width(), 60)
        self.progress.setText(self.progress_text())
