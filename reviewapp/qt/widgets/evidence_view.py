"""The selected claim (or page) and its evidence: the page's cells, in order, as cards.

Cards are built a few at a time between event-loop turns, so a page with a thousand cells or megabytes of
output never freezes the window; `rendered` fires when the last card is in place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QImage, QResizeEvent
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from reviewapp.core.logbook.model import Cell, CellKind, Claim, Page, Problem, VerdictMention
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.card import Card, CardContext
from reviewapp.qt.widgets.card_column import card_column
from reviewapp.qt.widgets.cell_cards import ArtifactCard, CodeCard, DashboardCard, GenericCard, MarkdownCard
from reviewapp.qt.widgets.evidence_header import EvidenceHeader
from reviewapp.qt.widgets.figure_card import FigureCard
from reviewapp.qt.widgets.header_scroll import HeaderScroll

BATCH_SECONDS = 0.008  # build cards for at most this long per event-loop turn (its layout and paint follow)


def make_card(context: CardContext, cell: Cell) -> Card:
    meta = f"line {cell.line}"
    if cell.kind in (CellKind.MARKDOWN,):
        return MarkdownCard(context, cell.body, cell.title, meta, page=cell.page)
    if cell.kind is CellKind.CODE:
        return CodeCard(context, cell, meta)
    if cell.kind is CellKind.FIGURE:
        return FigureCard(context, cell, meta)
    if cell.kind is CellKind.ARTIFACT:
        return ArtifactCard(context, cell, meta)
    if cell.kind is CellKind.DASHBOARD:
        return DashboardCard(context, cell, meta)
    return GenericCard(cell, meta)


class EvidenceView(QWidget):
    link_clicked = Signal(object)
    url_requested = Signal(QUrl)
    zoom_requested = Signal(QImage, str)
    copy_requested = Signal(str)
    page_requested = Signal(str)
    rendered = Signal()
    card_added = Signal(object)  # a Card now in the column (its `cell` and `page_slug` say what it shows)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        self.header = EvidenceHeader(self)
        self.header.page_requested.connect(self.page_requested)
        self.header.verdict_requested.connect(self.scroll_to_verdict)
        self.header_scroll = HeaderScroll(self.header, self)
        self.header_scroll.hide()
        layout.addWidget(self.header_scroll)
        self.scroll_area, self.column = card_column(self, "evidence", margins=(0, 0, 6, 12), spacing=10)
        layout.addWidget(self.scroll_area, 1)
        self.cards: list[Card] = []
        self.verdict_card: Card | None = None
        self._queue: list[Callable[[], Card | None]] = []
        # A real timer, not a chain of zero-delay posted calls: those would starve input and timers meanwhile.
        self._batch_timer = QTimer(self)
        self._batch_timer.setSingleShot(True)
        self._batch_timer.setInterval(1)
        self._batch_timer.timeout.connect(self._build_batch)
        self.hint = PlainLabel(self)
        self.hint.setObjectName("emptyHint")
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setWordWrap(True)
        self.column.insertWidget(0, self.hint)
        self.show_message("Open a logbook to review its claims.")

    @property
    def busy(self) -> bool:
        return bool(self._queue)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.header_scroll.fit(event.size().height())

    def show_message(self, text: str) -> None:
        self._reset()
        self.header_scroll.hide()
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setText(text)
        self.hint.show()
        self.rendered.emit()

    def show_broken(self, problems: Sequence[Problem]) -> None:
        """A logbook read with problems and no claims: broken, and each problem with its file, in place of the
        review (never "open a logbook", never an empty page)."""
        self._reset()
        self.header_scroll.hide()
        self.hint.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        lines = [f"This logbook is broken: none of its claims could be read ({len(problems)} problems).", ""]
        lines += [f"• {problem}" for problem in problems]
        self.hint.setText("\n".join(lines))
        self.hint.setAccessibleName("Problems of this logbook")
        self.hint.show()
        self.rendered.emit()

    def show_claim(self, context: CardContext, claim: Claim, slots: VerdictSlots) -> None:
        self._reset()
        page = context.logbook.page(claim.page)
        self.header.show_claim(context.logbook, claim, slots)
        self.header_scroll.show()
        self.header_scroll.ensureVisible(0, 0)
        if page is None:
            self.hint.setText(f"The page '{claim.page}' could not be read.")
            self.hint.show()
            self.rendered.emit()
            return
        wanted = set(claim.cells)
        if claim.section_line is not None:
            self._queue.append(lambda: self._section_note(page))
        elif page.preamble.strip():
            self._queue.append(lambda: self._preamble(context, page, claim.verdict_mention))
        for cell in page.cells:
            if cell.ordinal in wanted:
                self._queue.append(partial(self._cell, context, cell, claim.verdict_mention))
        if not self._queue:
            self.hint.setText("This claim has no evidence cells.")
            self.hint.show()
        self._start()

    def show_page(self, context: CardContext, page: Page) -> None:
        self._reset()
        self.header.show_page(context.logbook, page)
        self.header_scroll.show()
        self.header_scroll.ensureVisible(0, 0)
        if page.preamble.strip():
            self._queue.append(lambda: self._preamble(context, page, None))
        for cell in page.cells:
            self._queue.append(partial(self._cell, context, cell, None))
        if not self._queue:
            self.hint.setText("This page is empty.")
            self.hint.show()
        self._start()

    def scroll_to_verdict(self) -> None:
        if self.verdict_card is not None:
            self.scroll_area.ensureWidgetVisible(self.verdict_card, 0, 40)

    # --- building ---------------------------------------------------------------------------------------------

    def _reset(self) -> None:
        self._batch_timer.stop()
        self._queue = []
        for card in self.cards:
            card.hide()
            card.deleteLater()
        self.cards = []
        self.verdict_card = None
        self.hint.hide()
        self.scroll_area.verticalScrollBar().setValue(0)

    def _start(self) -> None:
        self._batch_timer.start()

    def _build_batch(self) -> None:
        started = time.perf_counter()
        longest = 0.0  # the slowest card of this turn so far: a next one like it must still fit in the budget
        while self._queue:
            began = time.perf_counter()
            if began - started + longest > BATCH_SECONDS:
                break
            card = self._queue.pop(0)()
            if card is not None:
                self._add(card)
            longest = max(longest, time.perf_counter() - began)
            if card is not None and card.later:
                break  # its steps start the next turn
        if self._queue:
            self._batch_timer.start()
        else:
            self.rendered.emit()

    def _add(self, card: Card) -> None:
        card.link_clicked.connect(self.link_clicked)
        card.url_requested.connect(self.url_requested)
        card.zoom_requested.connect(self.zoom_requested)
        card.copy_requested.connect(self.copy_requested)
        self.column.insertWidget(self.column.count() - 1, card)
        self.cards.append(card)
        self.card_added.emit(card)
        self._queue[:0] = card.later  # steps that finish it, next; like a card that builds nothing, they return None

    def _cell(self, context: CardContext, cell: Cell, mention: VerdictMention | None) -> Card:
        card = make_card(context, cell)
        card.cell, card.page_slug = cell, cell.page
        if mention is not None and mention.page == cell.page and mention.cell == cell.ordinal:
            self._mark(card, mention)
        return card

    def _preamble(self, context: CardContext, page: Page, mention: VerdictMention | None) -> Card:
        title = "Introduction" if page.cells else "Page text"
        card = MarkdownCard(context, page.preamble, title, f"line {page.preamble_line}", page=page.slug)
        card.chip.setText("PAGE")
        card.page_slug = page.slug
        if (
            mention is not None
            and mention.page == page.slug
            and mention.cell is None
            and mention.source != "page title"
        ):
            self._mark(card, mention)
        return card

    def _mark(self, card: Card, mention: VerdictMention) -> None:
        card.mark_verdict(in_title=mention.source == "cell title")
        if isinstance(card, MarkdownCard) and mention.source != "cell title":
            card.highlight(mention.text)
        self.verdict_card = card

    def _section_note(self, page: Page) -> Card:
        card = Card("PAGE", "markdown", f"This claim is one section of “{page.title}”", "")
        button = QPushButton("Show the whole page", card)
        button.setObjectName("small")
        button.clicked.connect(lambda: self.page_requested.emit(page.slug))
        card.body.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
        return card
