"""The notes on the claim or page shown (or on the whole logbook): each with what it is anchored to, its text and
tags, who wrote it and when, and Edit / Delete for the reviewer's own."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.review.records import NoteRecord
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.card_column import card_column

SCOPES = (("claim", "This claim"), ("page", "This page"), ("all", "All notes"))


@dataclass(frozen=True)
class ShownNote:
    record: NoteRecord
    anchor: str  # "lines 4–9 of cell 2 of claim 2"
    mine: bool


class NoteCard(QFrame):
    def __init__(self, note: ShownNote, panel: NotesPanel) -> None:
        super().__init__(panel)
        self.setObjectName("noteCard")
        self.note = note
        record = note.record
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        self.anchor = PlainLabel(note.anchor[:1].upper() + note.anchor[1:], self)
        self.anchor.setObjectName("noteAnchor")
        self.anchor.setWordWrap(True)
        layout.addWidget(self.anchor)
        self.text = PlainLabel(record.payload.text, self)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setVisible(bool(record.payload.text))
        layout.addWidget(self.text)
        self.tags = PlainLabel("  ".join(f"#{t}" for t in record.payload.tags), self)
        self.tags.setObjectName("noteTags")
        self.tags.setWordWrap(True)
        self.tags.setVisible(bool(record.payload.tags))
        layout.addWidget(self.tags)
        row = QHBoxLayout()
        when = record.created_at.astimezone().strftime("%Y-%m-%d %H:%M")
        meta = PlainLabel(f"{record.annotator} · {when}", self)
        meta.setObjectName("muted")
        row.addWidget(meta, 1)
        self.show_button = self._button("Show", lambda: panel.show_requested.emit(record), row)
        self.edit_button = self._button("Edit…", lambda: panel.edit_requested.emit(record), row)
        self.delete_button = self._button("Delete", lambda: panel.delete_requested.emit(record), row)
        self.edit_button.setVisible(note.mine)
        self.delete_button.setVisible(note.mine)
        layout.addLayout(row)

    def _button(self, text: str, slot: object, row: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName("link")
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.clicked.connect(slot)
        row.addWidget(button)
        return button


class NotesPanel(QWidget):
    show_requested = Signal(object)  # NoteRecord: go to what it is anchored to
    edit_requested = Signal(object)
    delete_requested = Signal(object)
    add_requested = Signal()
    scope_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        top = QHBoxLayout()
        self.scope = QComboBox(self)
        self.scope.setObjectName("noteScope")
        for value, label in SCOPES:
            self.scope.addItem(label, value)
        self.scope.currentIndexChanged.connect(lambda _i: self.scope_changed.emit())
        top.addWidget(self.scope, 1)
        self.add_button = QPushButton("Add note…", self)
        self.add_button.setObjectName("small")
        self.add_button.clicked.connect(self.add_requested)
        top.addWidget(self.add_button)
        layout.addLayout(top)
        self.summary = PlainLabel(self)
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.scroll_area, self.column = card_column(self, "notes", margins=(0, 0, 4, 0), spacing=8)
        layout.addWidget(self.scroll_area, 1)
        self.cards: list[NoteCard] = []

    @property
    def scope_value(self) -> str:
        return str(self.scope.currentData())

    def set_notes(self, summary: str, notes: list[ShownNote]) -> None:
        for card in self.cards:
            card.hide()
            card.deleteLater()
        self.cards = []
        for note in notes:
            card = NoteCard(note, self)
            self.column.insertWidget(self.column.count() - 1, card)
            self.cards.append(card)
        self.summary.setText(summary)
