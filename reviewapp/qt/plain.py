"""Logbook text in widgets, shown as text and nothing else.

QLabel and tool tips decide by themselves whether a string is HTML, and HTML there is rendered by a plain
QTextDocument, which loads `<img src=...>` from any local path. A page title or file name from a logbook must
therefore never reach them as-is: labels here are plain text, tool tips are escaped, and button texts keep their
ampersands (which Qt would otherwise take as keyboard mnemonics).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QStyle, QWidget


class PlainLabel(QLabel):
    def __init__(self, text: str | QWidget | None = "", parent: QWidget | None = None) -> None:
        if isinstance(text, QWidget):
            text, parent = None, text
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(text or "")


class ElidedLabel(PlainLabel):
    """One line that gives way when the window is narrow: a long path in the status bar is shortened in the middle
    (or a sentence at its end) instead of widening the window beyond the screen; while it is shortened, the whole
    text leads its tool tip, above what `setToolTip` gave."""

    def __init__(
        self, text: str = "", parent: QWidget | None = None, mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle
    ) -> None:
        self._mode = mode
        self._details = ""  # the tool tip the caller gave
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # shrinks to nothing

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def shown_text(self) -> str:
        """The text as painted at the current width: whole, or shortened with an elision mark."""
        return self.fontMetrics().elidedText(self.text(), self._mode, self.contentsRect().width())

    def setText(self, text: str) -> None:
        super().setText(text)
        self._refresh_tip()

    def setToolTip(self, tip: str) -> None:
        self._details = tip
        self._refresh_tip()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refresh_tip()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.shown_text())

    def _refresh_tip(self) -> None:
        details = getattr(self, "_details", "")  # QLabel's constructor sets the text before __init__ is done
        if self.text() and self.shown_text() != self.text():
            inner = (
                details.removeprefix("<qt>").removesuffix("</qt>")
                if details.startswith("<qt>")
                else html.escape(details)
            )
            whole = html.escape(self.text())
            super().setToolTip(f"<qt>{whole}<br><br>{inner}</qt>" if inner else f"<qt>{whole}</qt>")
        else:
            super().setToolTip(details)


class ElidedButton(QPushButton):
    """A button whose text gives way when there is no room, elided at its end with the whole text leading its
    tool tip (a link that names a long page title, say). `full_text` is what it says when there is room."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = ""
        self._details = ""

    def set_full_text(self, text: str, details: str = "") -> None:
        """`text` as for setText (ampersands doubled); `details`: the tool tip's own text, plain."""
        self.full_text, self._details = text, details
        self.updateGeometry()
        self._fit()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        room = self.fontMetrics().horizontalAdvance(self.full_text) + hint.width() - self._text_width()
        return QSize(max(hint.width(), room), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _text_width(self) -> int:
        return self.fontMetrics().horizontalAdvance(self.text())

    def _fit(self) -> None:
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, self) * 2 + 8
        shown = self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, self.width() - margin)
        if shown != self.text():
            super().setText(shown)
        cut = shown != self.full_text
        whole = self.full_text.replace("&&", "&")
        super().setToolTip(plain_tooltip("\n\n".join(t for t in (whole if cut else "", self._details) if t)))


def plain_tooltip(text: str) -> str:
    """A tool tip showing `text` literally: escaped, inside an explicit rich-text wrapper so nothing is guessed."""
    return "<qt>" + html.escape(text).replace("\n", "<br>") + "</qt>" if text else ""


def button_text(text: str) -> str:
    return text.replace("&", "&&")
