"""Logbook text in widgets, shown as text and nothing else.

QLabel and tool tips decide by themselves whether a string is HTML, and HTML there is rendered by a plain
QTextDocument, which loads `<img src=...>` from any local path. A page title or file name from a logbook must
therefore never reach them as-is: labels here are plain text, tool tips are escaped, and button texts keep their
ampersands (which Qt would otherwise take as keyboard mnemonics).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class PlainLabel(QLabel):
    def __init__(self, text: str | QWidget | None = "", parent: QWidget | None = None) -> None:
        if isinstance(text, QWidget):
            text, parent = None, text
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text or "")


class ElidedLabel(PlainLabel):
    """One line that gives way when the window is narrow: a long path in the status bar is shortened in the middle
    (the whole text in the tool tip) instead of widening the window beyond the screen."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # shrinks to nothing

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, self.contentsRect().width())
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), shown)


def plain_tooltip(text: str) -> str:
    """A tool tip showing `text` literally: escaped, inside an explicit rich-text wrapper so nothing is guessed."""
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>" if text else ""


def button_text(text: str) -> str:
    return text.replace("&", "&&")
