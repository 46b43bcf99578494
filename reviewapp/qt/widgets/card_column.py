"""A vertically scrolling column of cards, the shape of the evidence view and the notes list."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QVBoxLayout, QWidget


def card_column(
    parent: QWidget, name: str, *, margins: tuple[int, int, int, int], spacing: int
) -> tuple[QScrollArea, QVBoxLayout]:
    """A frameless scroll area holding a column that ends in a stretch; insert cards before the stretch.

    `name` prefixes the object names (`<name>Scroll`, `<name>Canvas`) that the style sheet targets.
    """
    scroll = QScrollArea(parent)
    scroll.setObjectName(f"{name}Scroll")
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    canvas = QWidget()
    canvas.setObjectName(f"{name}Canvas")
    column = QVBoxLayout(canvas)
    column.setContentsMargins(*margins)
    column.setSpacing(spacing)
    column.addStretch(1)
    scroll.setWidget(canvas)
    return scroll, column
