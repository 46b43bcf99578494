"""The frame every evidence cell is shown in: a header (type chip, title, facts) and a body."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from reviewapp.core.io.pixel_budget import PixelBudget
from reviewapp.core.logbook.model import Cell, Logbook
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.qt.image_loader import ImageLoader
from reviewapp.qt.plain import PlainLabel


@dataclass(frozen=True)
class CardContext:
    """What cards need besides their cell: where local references resolve, and the shared image decoder."""

    logbook: Logbook
    images: ImageLoader
    pixels: PixelBudget = field(default_factory=PixelBudget)  # decoded pixels per page, across all its cards
    rule: BlindRule = BlindRule.SEEING_ALL  # blind review: how paths and names are shown

    @property
    def root(self) -> Path:
        return self.logbook.root

    @property
    def page_slugs(self) -> frozenset[str]:
        return frozenset(p.slug for p in self.logbook.pages)


class Card(QFrame):
    link_clicked = Signal(object)  # LinkTarget from content
    url_requested = Signal(QUrl)  # an explicit user action: open a folder, a web page, a figure in the browser
    zoom_requested = Signal(QImage, str)
    copy_requested = Signal(str)

    def __init__(self, chip: str, kind: str, title: str, meta: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("card")
        self.cell: Cell | None = None  # the cell shown, when the card shows one (notes anchor to it)
        self.page_slug = ""  # the page the card belongs to
        # What finishes the card once it is in its column, each step in an event-loop turn of its own: a costly
        # part (a figure's data table) then never lengthens the turn that built the card.
        self.later: list[Callable[[], None]] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(1, 1, 1, 1)
        outer.setSpacing(0)
        header = QFrame(self)
        header.setObjectName("cardHeader")
        self.header_layout = QHBoxLayout(header)
        self.header_layout.setContentsMargins(10, 6, 10, 6)
        self.header_layout.setSpacing(8)
        self.chip = PlainLabel(chip, header)
        self.chip.setObjectName("chip")
        self.chip.setProperty("kind", kind)
        self.header_layout.addWidget(self.chip, 0, Qt.AlignmentFlag.AlignVCenter)
        self.title = PlainLabel(title, header)
        self.title.setObjectName("cardTitle")
        self.title.setWordWrap(True)
        self.title.setTextFormat(self.title.textFormat().PlainText)
        self.title.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.header_layout.addWidget(self.title, 1)
        self.meta = PlainLabel(meta, header)
        self.meta.setObjectName("cardMeta")
        self.header_layout.addWidget(self.meta)
        outer.addWidget(header)
        # The body is a widget, not a nested layout: a child whose height changes (a markdown view fitting its
        # text) then invalidates the body's own layout; a nested layout would keep its stale size hint.
        self.body_widget = QWidget(self)
        self.body = QVBoxLayout(self.body_widget)
        self.body.setContentsMargins(12, 10, 12, 12)
        self.body.setSpacing(8)
        outer.addWidget(self.body_widget)

    def mark_verdict(self, in_title: bool) -> None:
        """This card holds the statement the claim's verdict was read from."""
        self.setProperty("verdict", True)
        verdict_chip = PlainLabel("VERDICT", self)
        verdict_chip.setObjectName("chip")
        verdict_chip.setProperty("kind", "verdict")
        verdict_chip.setToolTip("The agent's verdict for this claim was read from this cell")
        self.header_layout.insertWidget(1, verdict_chip, 0, Qt.AlignmentFlag.AlignVCenter)
        if in_title:
            self.title.setProperty("verdict", True)
        for widget in (self, self.title):
            widget.style().unpolish(widget)
            widget.style().polish(widget)

    def add_button(self, text: str, layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName("small")
        layout.addWidget(button)
        return button
