"""Two logbooks' evidence for one paper claim, side by side: both claim pages, scrolled together so that paired
runs and figures stay level, and the list of pairs to jump between them."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollBar,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook.model import Cell
from reviewapp.core.paper.compare import EvidencePair, evidence_cells, pair_evidence
from reviewapp.core.paper.view import MatrixCell, PaperLogbook
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.image_loader import ImageLoader
from reviewapp.qt.paper.matrix_model import cell_lines
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.card import Card, CardContext
from reviewapp.qt.widgets.evidence_view import EvidenceView

Side = tuple[PaperLogbook, MatrixCell]


class ComparisonWindow(QDialog):
    """Non-modal: the matrix stays usable while comparing."""

    synced = Signal()  # one pane followed the other (tests wait for it)

    def __init__(
        self,
        row_text: str,
        left: Side,
        right: Side,
        parent: QWidget | None = None,
        *,
        open_evidence: Callable[[Side], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("paperComparison")
        self.setWindowTitle(f"Compare evidence — {row_text[:80]}")
        self.images = ImageLoader(parent=self)
        self.sides = (left, right)
        self.pairs: list[EvidencePair] = pair_evidence(
            evidence_cells(left[0].logbook, left[1].claim), evidence_cells(right[0].logbook, right[1].claim)
        )
        self._following = False
        layout = QVBoxLayout(self)
        title = PlainLabel(row_text, self)
        title.setObjectName("paneTitle")
        title.setWordWrap(True)
        layout.addWidget(title)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.pair_list = QListWidget(split)
        self.pair_list.setObjectName("evidencePairs")
        self.pair_list.setAccessibleName("Runs and figures paired across the two logbooks")
        self.pair_list.setMinimumWidth(220)
        self.pair_list.setWordWrap(True)
        self.pair_list.currentRowChanged.connect(self.jump_to_pair)
        for pair in self.pairs:
            item = QListWidgetItem(_pair_text(pair), self.pair_list)
            item.setToolTip(_pair_tip(pair))
        views: list[EvidenceView] = []
        self.open_buttons: list[QPushButton] = []  # left, right (a side that did not attempt the claim has none)
        for side in self.sides:  # each logbook's heading above its own pane
            column, cell = side
            pane = QWidget(split)
            pane_layout = QVBoxLayout(pane)
            pane_layout.setContentsMargins(0, 0, 0, 0)
            heading = QHBoxLayout()
            first, second = cell_lines(cell)
            claim = f"{cell.claim.label} · " if cell.claim is not None else ""
            head = PlainLabel(f"{column.label}\n{claim}{first}  {second}", pane)
            head.setWordWrap(True)
            head.setToolTip(column.logbook_id)
            heading.addWidget(head, 1)
            if open_evidence is not None and cell.claim is not None:
                button = QPushButton("Open in the Review Window", pane)
                button.setObjectName("small")
                button.setToolTip("Review this logbook at this claim")
                button.clicked.connect(lambda _=False, s=side: open_evidence(s))
                heading.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
                self.open_buttons.append(button)
            pane_layout.addLayout(heading)
            view = EvidenceView(pane)
            pane_layout.addWidget(view, 1)
            _show(view, CardContext(column.logbook, self.images), cell)
            views.append(view)
        self.views = (views[0], views[1])
        split.setStretchFactor(1, 1)
        split.setStretchFactor(2, 1)
        split.setSizes([240, 600, 600])
        split.setChildrenCollapsible(False)
        layout.addWidget(split, 1)
        bottom = QHBoxLayout()
        self.linked = QCheckBox("Scroll together (L)", self)
        self.linked.setChecked(True)
        self.linked.setToolTip("Scrolling one page scrolls the other so that paired cells stay level")
        bottom.addWidget(self.linked)
        paired = sum(1 for p in self.pairs if p.left is not None and p.right is not None)
        self.summary = PlainLabel(
            f"{paired} paired cell(s) · {len(self.pairs) - paired} on one side only · ↑/↓ in the list jumps both",
            self,
        )
        self.summary.setObjectName("muted")
        bottom.addWidget(self.summary, 1)
        layout.addLayout(bottom)
        toggle = QAction(self)
        toggle.setShortcut(QKeySequence("L"))
        toggle.triggered.connect(self.linked.toggle)
        self.addAction(toggle)
        close = QAction(self)
        close.setShortcut(QKeySequence("Ctrl+W"))
        close.triggered.connect(self.close)
        self.addAction(close)
        bars = (self.views[0].scroll_area.verticalScrollBar(), self.views[1].scroll_area.verticalScrollBar())
        bars[0].valueChanged.connect(lambda _v: self._follow(0))
        bars[1].valueChanged.connect(lambda _v: self._follow(1))
        self.resize(1500, 900)

    @property
    def busy(self) -> bool:
        return any(v.busy for v in self.views) or self.images.pending > 0

    def scroll_bar(self, side: int) -> QScrollBar:
        return self.views[side].scroll_area.verticalScrollBar()

    def card_for(self, side: int, cell: Cell | None) -> Card | None:
        if cell is None:
            return None
        return next((c for c in self.views[side].cards if c.cell is cell), None)

    def jump_to_pair(self, number: int) -> None:
        """Bring a pair's cells to the top of both panes (a cell on one side only: that side, the other follows)."""
        if not 0 <= number < len(self.pairs):
            return
        pair = self.pairs[number]
        for side, cell in ((0, pair.left), (1, pair.right)):
            card = self.card_for(side, cell)
            if card is not None:
                self._following = True
                try:
                    self.scroll_bar(side).setValue(card.y())
                finally:
                    self._following = False
        lead = 0 if pair.left is not None else 1
        if pair.left is None or pair.right is None:
            self._follow(lead)
        self.synced.emit()

    def _follow(self, side: int) -> None:
        """The other pane scrolls so that the pair nearest above the top of this one sits level with it."""
        if self._following or not self.linked.isChecked():
            return
        other = 1 - side
        value = self.scroll_bar(side).value()
        target = self._partner_offset(side, value)
        if target is None:  # nothing paired above: keep the same share of the page
            bar, other_bar = self.scroll_bar(side), self.scroll_bar(other)
            share = value / bar.maximum() if bar.maximum() else 0.0
            target = round(share * other_bar.maximum())
        self._following = True
        try:
            self.scroll_bar(other).setValue(target)
        finally:
            self._following = False
        self.synced.emit()

    def _partner_offset(self, side: int, value: int) -> int | None:
        anchor: tuple[int, int] | None = None  # (y of this side's card, y of its partner)
        for pair in self.pairs:
            mine, theirs = (pair.left, pair.right) if side == 0 else (pair.right, pair.left)
            card, partner = self.card_for(side, mine), self.card_for(1 - side, theirs)
            if card is None or partner is None:
                continue
            if card.y() > value and anchor is not None:
                break
            anchor = (card.y(), partner.y())
            if card.y() > value:
                break
        if anchor is None:
            return None
        return max(0, anchor[1] + (value - anchor[0]))


def _show(view: EvidenceView, context: CardContext, cell: MatrixCell) -> None:
    claim = cell.claim
    if claim is None:
        view.show_message("This logbook did not attempt this claim.")
        return
    human = next(iter({v for v in cell.people.values() if v is not Verdict.UNSTATED}), None)
    slots = VerdictSlots(cell.agent or Verdict.UNSTATED, cell.logbook_judge, human if len(cell.people) == 1 else None)
    if claim.claim is not None:
        view.show_claim(context, claim.claim, slots)
        return
    page = context.logbook.page(claim.page)
    if page is None:
        view.show_message(f"The page '{claim.page}' could not be read.")
    else:
        view.show_page(context, page)


def _pair_text(pair: EvidencePair) -> str:
    if pair.left is not None and pair.right is not None:
        return f"⇄ {pair.kind}: {pair.label}"
    side = "only left" if pair.left is not None else "only right"
    return f"{'◧' if pair.left is not None else '◨'} {pair.kind}, {side}: {pair.label}"


def _pair_tip(pair: EvidencePair) -> str:
    parts = []
    for name, cell in (("Left", pair.left), ("Right", pair.right)):
        parts.append(f"{name}: cell {cell.ordinal + 1}, line {cell.line}" if cell is not None else f"{name}: none")
    if pair.left is not None and pair.right is not None:
        parts.append(f"Alike: {pair.similarity:.2f}")
    return "\n".join(parts)
