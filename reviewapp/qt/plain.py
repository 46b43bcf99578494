"""Logbook text in widgets, shown as text and nothing else.

QLabel and tool tips decide by themselves whether a string is HTML, and HTML there is rendered by a plain
QTextDocument, which loads `<img src=...>` from any local path. A page title or file name from a logbook must
therefore never reach them as-is: labels here are plain text, tool tips are escaped, and button texts keep their
ampersands (which Qt would otherwise take as keyboard mnemonics).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget


class PlainLabel(QLabel):
    def __init__(self, text: str | QWidget | None = "", parent: QWidget | None = None) -> None:
        if isinstance(text, QWidget):
            text, parent = None, text
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text or "")


def plain_tooltip(text: str) -> str:
    """A tool tip showing `text` literally: escaped, inside an explicit rich-text wrapper so nothing is guessed."""
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>" if text else ""


def button_text(text: str) -> str:
    return text.replace("&", "&&")
