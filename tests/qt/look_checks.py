"""What a person sees of a window: action buttons inside it, a table's key columns on screen, text either whole or
cut with an elision mark and a tool tip. Each check returns the problems it finds, in words."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QLabel,
    QPushButton,
    QTableView,
    QToolButton,
    QWidget,
)

ELLIPSIS = "…"
MIN_KEY_COLUMN = 40  # px of a key column that must be on screen


def _name(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, QAbstractButton | QLabel) else ""
    return f"{type(widget).__name__} {widget.objectName() or ''}{f' {text[:40]!r}' if text else ''}".strip()


def shown(widget: QWidget) -> bool:
    return widget.isVisible() and widget.width() > 0 and widget.height() > 0


def visible_rect(widget: QWidget, window: QWidget) -> QRect:
    """The part of `widget` on screen in `window`'s coordinates: clipped by every parent up to the window (a
    scroll area's viewport excepted: what it clips can be scrolled to)."""
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if not isinstance(parent.parentWidget(), QAbstractScrollArea):
            rect = rect.intersected(QRect(parent.mapTo(window, QPoint(0, 0)), parent.size()))
        parent = parent.parentWidget()
    return rect.intersected(window.rect())


def inside_a_scroll_area(widget: QWidget, window: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent.parentWidget(), QAbstractScrollArea) and not isinstance(parent, QTableView):
            return True
        parent = parent.parentWidget()
    return False


def button_problems(window: QWidget) -> list[str]:
    problems = []
    for button in window.findChildren(QAbstractButton):
        if not shown(button) or not button.text() or button.window() is not window:
            continue
        full = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        seen = visible_rect(button, window)
        scrolled = inside_a_scroll_area(button, window)  # can be scrolled to, but never narrower than its text
        if not scrolled and (seen.width() < full.width() - 1 or seen.height() < full.height() - 1):
            problems.append(f"{_name(button)} lies partly outside the visible area ({seen.size().toTuple()} of "
                            f"{full.size().toTuple()})")  # fmt: skip
            continue
        text_only = isinstance(button, QPushButton) or (
            isinstance(button, QToolButton) and button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextOnly
        )
        if text_only:
            needed = button.fontMetrics().horizontalAdvance(button.text().replace("&", ""))
            if needed > button.width() - 4:
                problems.append(f"{_name(button)} is too narrow for its text ({button.width()} < {needed} px)")
    return problems


def key_columns(table: QTableView) -> list[int]:
    """The columns a person needs to read a row: the table's `keyColumns` property, else the first column."""
    declared = table.property("keyColumns")
    return [int(c) for c in declared] if declared else [0]


def table_problems(window: QWidget) -> list[str]:
    problems = []
    for table in window.findChildren(QTableView):
        if not shown(table) or table.model() is None or table.window() is not window:
            continue
        header = table.horizontalHeader()
        viewport = table.viewport().width()
        model = table.model()
        for column in key_columns(table):
            if column >= model.columnCount() or table.isColumnHidden(column):
                continue
            left = header.sectionViewportPosition(column)
            on_screen = min(left + header.sectionSize(column), viewport) - max(left, 0)
            title = model.headerData(column, Qt.Orientation.Horizontal)
            if on_screen < min(MIN_KEY_COLUMN, header.sectionSize(column)):
                problems.append(f"{table.objectName() or 'a table'}: key column {title!r} is off screen")
            elif left + header.sectionSize(column) > viewport + 1:
                problems.append(f"{table.objectName() or 'a table'}: key column {title!r} runs past the right edge")
        for column in range(model.columnCount()):
            if table.isColumnHidden(column):
                continue
            title = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
            font = header.font()
            font.setBold(True)  # headings are bold in both themes
            needed = QFontMetrics(font).horizontalAdvance(title) + 12
            tip = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
            if title and needed > header.sectionSize(column) and not (ELLIPSIS in title and tip):
                problems.append(f"{table.objectName() or 'a table'}: header {title!r} is cut without an elision mark "
                                "and a tool tip")  # fmt: skip
    return problems


def label_problems(window: QWidget) -> list[str]:
    problems = []
    for label in window.findChildren(QLabel):
        if not shown(label) or label.window() is not window:
            continue
        text = label.text()
        if not text or label.textFormat() == Qt.TextFormat.RichText or "<" in text or not label.pixmap().isNull():
            continue
        painted = getattr(label, "shown_text", None)  # a label that elides itself says what it painted
        if callable(painted):
            drawn = str(painted())
            if drawn != text and not (ELLIPSIS in drawn and label.toolTip()):
                problems.append(f"{_name(label)} is cut without an elision mark and a tool tip")
            continue
        # in a scroll area what lies outside the viewport can be scrolled to: only the label's own width counts
        seen = label.rect() if inside_a_scroll_area(label, window) else visible_rect(label, window)
        room = seen.width() - label.contentsMargins().left() - label.contentsMargins().right()
        if label.wordWrap():
            needed_height = label.heightForWidth(label.width())
            if needed_height > label.height() + 2:
                problems.append(f"{_name(label)} is cut at the bottom ({label.height()} < {needed_height} px)")
            continue
        widest = max(label.fontMetrics().horizontalAdvance(line) for line in text.splitlines() or [text])
        if widest > room + 1 and not (ELLIPSIS in text and label.toolTip()):
            problems.append(f"{_name(label)} is cut without an elision mark and a tool tip ({room} < {widest} px)")
    return problems


def look_problems(window: QWidget) -> list[str]:
    return button_problems(window) + table_problems(window) + label_problems(window)
