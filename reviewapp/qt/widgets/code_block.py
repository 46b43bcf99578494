"""Monospace code and run output: syntax colours, and long text folded to its first lines until expanded."""

from __future__ import annotations

import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QResizeEvent,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from reviewapp.qt import theme

FOLDED_LINES = 14
EXPANDED_MAX_LINES = 40  # an expanded block scrolls inside itself past this
_PY_KEYWORDS = (
    "and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|"
    "lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield|None|True|False|self"
)
_SH_KEYWORDS = "if|then|else|fi|for|do|done|while|case|esac|function|export|cd|echo|source|sudo"


def monospace_font() -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setPointSizeF(max(8.5, QFont().pointSizeF() * 0.92))
    return font


class CodeHighlighter(QSyntaxHighlighter):
    """A few regex rules per language; enough to tell code, strings, numbers and errors apart at a glance."""

    def __init__(self, document: QTextDocument, language: str) -> None:
        super().__init__(document)
        colors = theme.colors()
        self._rules: list[tuple[re.Pattern[str], QTextCharFormat]] = []
        lang = language.lower()

        def rule(pattern: str, color: str, bold: bool = False, italic: bool = False) -> None:
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(color))
            if bold:
                fmt.setFontWeight(QFont.Weight.Bold)
            fmt.setFontItalic(italic)
            self._rules.append((re.compile(pattern), fmt))

        if lang in ("python", "py"):
            rule(r"\b(?:" + _PY_KEYWORDS + r")\b", colors.kw, bold=True)
            rule(r"\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b", colors.number)
            rule(r"@\w+", colors.kw)
            rule(r"(?:\"[^\"\n]*\"|'[^'\n]*')", colors.string)
            rule(r"#[^\n]*", colors.comment, italic=True)
        elif lang in ("bash", "sh", "shell", "console", "zsh"):
            rule(r"(?:^|\s)--?[\w-]+", colors.kw)
            rule(r"\b(?:" + _SH_KEYWORDS + r")\b", colors.kw, bold=True)
            rule(r"(?:\"[^\"\n]*\"|'[^'\n]*')", colors.string)
            rule(r"^\$", colors.muted)
            rule(r"(?:^|\s)#[^\n]*", colors.comment, italic=True)
        elif lang in ("json", "jsonl"):
            rule(r"\b-?\d+(?:\.\d+)?(?:e[-+]?\d+)?\b", colors.number)
            rule(r"\b(?:true|false|null)\b", colors.kw)
            rule(r"\"[^\"\n]*\"(?=\s*:)", colors.kw)
            rule(r"(?<=:)\s*\"[^\"\n]*\"", colors.string)
        else:  # run output, logs
            rule(r"\b-?\d+(?:\.\d+)?(?:e[-+]?\d+)?%?", colors.number)
            rule(r"(?i)^.*\bwarn(?:ing)?\b.*$", colors.warning)
            rule(
                r"(?i)^.*(?:traceback|\berror\b|exception|\bfailed\b|\bfatal\b|assertionerror|killed|out of memory).*$",
                colors.error,
                bold=True,
            )

    def highlightBlock(self, text: str) -> None:
        for pattern, fmt in self._rules:
            for match in pattern.finditer(text):
                self.setFormat(match.start(), match.end() - match.start(), fmt)


class _Editor(QPlainTextEdit):
    """A plain text editor whose layout hint is the height it was fixed to (the default hint is 256x192)."""

    fitted = 24

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.fitted)

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self.fitted)


class CodeBlock(QWidget):
    """Read-only monospace text. Over FOLDED_LINES lines it shows the head and a button to show everything."""

    def __init__(self, text: str, language: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = text
        self.lines = text.split("\n")
        self.expanded = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.editor = _Editor(self)
        self.editor.setObjectName("code")
        self.editor.setReadOnly(True)
        self.editor.setFont(monospace_font())
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setFrameShape(QFrame.Shape.NoFrame)
        self.editor.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.editor.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.editor.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.highlighter = CodeHighlighter(self.editor.document(), language)
        layout.addWidget(self.editor)
        self.toggle = QPushButton(self)
        self.toggle.setObjectName("link")
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.toggle.clicked.connect(self.set_expanded_toggle)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.foldable = len(self.lines) > FOLDED_LINES + 2
        self._rows = 0
        self._content_width = 0
        self.toggle.setVisible(self.foldable)
        self._show()

    def _fit(self) -> None:
        line = self.editor.fontMetrics().lineSpacing()
        height = self._rows * line + 2 * int(self.editor.document().documentMargin()) + 6
        if self._content_width > self.width() - 2 * self.editor.frameWidth() - 4:
            height += self.editor.horizontalScrollBar().sizeHint().height()
        if height != self.editor.fitted:
            self.editor.fitted = height
            self.editor.setFixedHeight(height)
            self.editor.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    @property
    def visible_text(self) -> str:
        return self.editor.toPlainText()

    def set_expanded_toggle(self) -> None:
        self.set_expanded(not self.expanded)

    def set_expanded(self, expanded: bool) -> None:
        if self.foldable and expanded != self.expanded:
            self.expanded = expanded
            self._show()

    def _show(self) -> None:
        folded = self.foldable and not self.expanded
        shown = self.lines[:FOLDED_LINES] if folded else self.lines
        self.editor.setPlainText("\n".join(shown))
        longest = max(shown, key=len, default="")[:2000]
        self._content_width = self.editor.fontMetrics().horizontalAdvance(longest) + 16
        self._rows = min(len(shown), EXPANDED_MAX_LINES)
        self._fit()
        if folded:
            hidden = len(self.lines) - FOLDED_LINES
            self.toggle.setText(f"▸ Show all {len(self.lines):,} lines ({hidden:,} more)")
        else:
            self.toggle.setText("▾ Fold to the first lines")
