"""The claim header above the evidence, scrolled on its own when the window is too short for all of it.

The header holds the three verdicts, the Logbook Judge's evidence and the verdict editor: on a short window its
full height would push the evidence off screen, or (as a minimum height) make the window taller than the screen.
It takes the height it needs up to a share of the evidence view, and scrolls inside that.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QWidget

MAX_SHARE = 0.75  # of the evidence view's height; the rest always shows evidence


class HeaderScroll(QScrollArea):
    def __init__(self, header: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("headerScroll")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.setWidget(header)
        self._header = header

    def sizeHint(self) -> QSize:
        header = self._header
        width = self.viewport().width() or header.sizeHint().width()
        height = header.heightForWidth(width) if header.hasHeightForWidth() else -1
        return QSize(
            header.sizeHint().width(), max(height, header.sizeHint().height(), header.minimumSizeHint().height())
        )

    def minimumSizeHint(self) -> QSize:
        # as wide as the header needs (it never scrolls sideways), only its height gives way
        width = self._header.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width()
        return QSize(width, min(self.sizeHint().height(), 120))

    def event(self, event: QEvent) -> bool:
        parent = self.parentWidget()
        if event.type() == QEvent.Type.LayoutRequest and parent is not None:
            self.fit(parent.height())  # the header's content changed height
        return super().event(event)

    def fit(self, available: int) -> None:
        """Called when the evidence view is resized: never more than its share of `available` pixels."""
        most = max(120, int(available * MAX_SHARE))
        least = min(self.sizeHint().height(), most)  # the header first, the evidence below it
        if (self.maximumHeight(), self.minimumHeight()) != (most, least):  # each change asks for another layout
            self.setMaximumHeight(most)
            self.setMinimumHeight(least)
