"""Tags as chips that wrap onto several lines: the default list and the reviewer's own, plus a field for a new one."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLayout, QLayoutItem, QLineEdit, QSizePolicy, QToolButton, QWidget

from reviewapp.core.review.tags import MAX_TAG_LENGTH, normalize_tag, unique_tags
from reviewapp.qt.plain import button_text, plain_tooltip


class FlowLayout(QLayout):
    """Left to right, wrapping to the next line when the width runs out (Qt has no such layout built in)."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 5) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self._heights: dict[int, int] = {}
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)
        self._heights.clear()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        self._heights.clear()
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        # Asked many times per layout pass (and once more per parent): remembered until the items change.
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height

    def invalidate(self) -> None:
        self._heights.clear()
        super().invalidate()

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QSize:
        return self.minimumSize()

    def minimumSize(self) -> QSize:
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        margins: QMargins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _arrange(self, rect: QRect, move: bool) -> int:
        margins = self.contentsMargins()
        area = rect.marginsRemoved(margins)
        x, y, line_height = area.x(), area.y(), 0
        for item in self._items:
            widget = item.widget()
            if widget is not None and widget.isHidden():
                continue
            hint = item.sizeHint()
            if x + hint.width() > area.right() + 1 and line_height > 0:
                x, y = area.x(), y + line_height + self._spacing
                line_height = 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + self._spacing
            line_height = max(line_height, hint.height())
        return y + line_height - rect.y() + margins.bottom()


class FlowWidget(QWidget):
    """A widget whose children flow and wrap (FlowLayout), as tall as its width needs."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 5) -> None:
        super().__init__(parent)
        sizing = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        sizing.setHeightForWidth(True)
        self.setSizePolicy(sizing)
        self.flow = FlowLayout(self, spacing)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self.flow.heightForWidth(width)

    def sizeHint(self) -> QSize:
        width = max(300, self.width())
        return QSize(width, self.flow.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        # Layouts inside scroll areas and frames do not all ask heightForWidth: the minimum height is that of the
        # lines at the width the widget has now, so that wrapped lines never slide under the widgets below.
        return QSize(self.flow.minimumSize().width(), self.flow.heightForWidth(max(self.width(), 1)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # the lines wrap differently: the parent lays out again with the new height


class TagChips(FlowWidget):
    """Checkable chips; `changed` fires when the selection changes. Typing a new tag adds and selects it."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("tagChips")
        self.chips: dict[str, QToolButton] = {}
        self.new_tag = QLineEdit(self)
        self.new_tag.setObjectName("newTag")
        self.new_tag.setPlaceholderText("+ new tag")
        self.new_tag.setMaxLength(MAX_TAG_LENGTH)
        self.new_tag.setFixedWidth(130)
        self.new_tag.setToolTip("Type a tag of your own and press Enter; it is offered again next time")
        self.new_tag.returnPressed.connect(self._add_typed)
        self.flow.addWidget(self.new_tag)

    def set_choices(self, choices: list[str]) -> None:
        """The tags offered; the current selection is kept (a selected tag missing from `choices` stays)."""
        selected = self.selected()
        if list(self.chips) == unique_tags([*choices, *selected]):
            return  # the same chips: rebuilding them on every claim shown costs a relayout for nothing
        for chip in self.chips.values():
            self.flow.removeWidget(chip)
            chip.deleteLater()
        self.chips = {}
        self.flow.removeWidget(self.new_tag)
        for tag in unique_tags([*choices, *selected]):
            self._chip(tag)
        self.flow.addWidget(self.new_tag)
        self.set_selected(selected)

    def _chip(self, tag: str) -> QToolButton:
        chip = QToolButton(self)
        chip.setObjectName("tagChip")
        chip.setText(button_text(tag))
        chip.setToolTip(plain_tooltip(tag))
        chip.setCheckable(True)
        chip.setCursor(Qt.CursorShape.PointingHandCursor)
        chip.toggled.connect(lambda _on: self.changed.emit())
        self.chips[tag] = chip
        self.flow.addWidget(chip)
        return chip

    def selected(self) -> list[str]:
        return [tag for tag, chip in self.chips.items() if chip.isChecked()]

    def set_selected(self, tags: list[str]) -> None:
        wanted = {t.casefold() for t in tags}
        for tag in tags:
            if tag.casefold() not in {t.casefold() for t in self.chips}:
                self.flow.removeWidget(self.new_tag)
                self._chip(tag)
                self.flow.addWidget(self.new_tag)
        for tag, chip in self.chips.items():
            chip.blockSignals(True)
            chip.setChecked(tag.casefold() in wanted)
            chip.blockSignals(False)
        self.updateGeometry()

    def add(self, text: str) -> str:
        """Add and select a tag the reviewer typed; returns it as normalized. Raises ValueError for a bad tag."""
        tag = normalize_tag(text)
        existing = next((t for t in self.chips if t.casefold() == tag.casefold()), None)
        if existing is None:
            self.flow.removeWidget(self.new_tag)
            self._chip(tag)
            self.flow.addWidget(self.new_tag)
            existing = tag
        self.chips[existing].setChecked(True)
        self.updateGeometry()
        return existing

    def _add_typed(self) -> None:
        text = self.new_tag.text()
        if not text.strip():
            return
        try:
            self.add(text)
        except ValueError as exc:
            self.new_tag.setToolTip(plain_tooltip(str(exc)))
            return
        self.new_tag.clear()
