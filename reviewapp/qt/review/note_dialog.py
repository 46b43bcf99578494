"""The note editor: what the note is anchored to (and the text pointed at), the note, and tags."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.review.tag_chips import TagChips

QUOTE_CHARS = 400
# Starts saving the note, then calls the reply with None once it is saved, or with why it could not be (nothing was).
Reply = Callable[[str | None], None]
Submit = Callable[[str, list[str], Reply], None]


class NoteDialog(QDialog):
    def __init__(
        self,
        title: str,
        anchor: str,
        quote: str,
        tag_choices: list[str],
        submit: Submit,
        *,
        text: str = "",
        tags: list[str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("noteDialog")
        self.setWindowTitle(title)
        self._submit = submit
        layout = QVBoxLayout(self)
        layout.setSpacing(8)
        self.anchor = PlainLabel(f"On {anchor}", self)
        self.anchor.setObjectName("noteAnchor")
        self.anchor.setWordWrap(True)
        layout.addWidget(self.anchor)
        quote = " ".join(quote.split()) if "\n" not in quote else quote.strip("\n")
        self.quote = PlainLabel(quote if len(quote) <= QUOTE_CHARS else quote[: QUOTE_CHARS - 1] + "…", self)
        self.quote.setObjectName("noteQuote")
        self.quote.setWordWrap(True)
        self.quote.setVisible(bool(quote))
        layout.addWidget(self.quote)
        self.text = QPlainTextEdit(self)
        self.text.setObjectName("noteText")
        self.text.setPlaceholderText("Your note (a note needs text or at least one tag)")
        self.text.setPlainText(text)
        self.text.setTabChangesFocus(True)
        layout.addWidget(self.text, 1)
        tags_title = PlainLabel("TAGS", self)
        tags_title.setObjectName("paneTitle")
        layout.addWidget(tags_title)
        self.tags = TagChips(self)
        self.tags.set_choices(tag_choices)
        self.tags.set_selected(tags or [])
        layout.addWidget(self.tags)
        self.error = PlainLabel(self)
        self.error.setObjectName("inlineError")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(self)
        self.save_button = QPushButton("Save  (Ctrl+Enter)", self)
        self.save_button.setObjectName("primary")
        self.save_button.setDefault(False)
        self.save_button.setAutoDefault(False)
        self.buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.save_button.clicked.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.save)
        self.text.textChanged.connect(self._changed)
        self.tags.changed.connect(self._changed)
        self._changed()
        self.resize(620, 420)
        self.text.setFocus()

    def _changed(self) -> None:
        self.error.hide()
        self.save_button.setEnabled(bool(self.text.toPlainText().strip() or self.tags.selected()))

    def save(self) -> bool:
        """Start saving; the dialog closes once the note is on disk, or shows why not and stays open."""
        if not self.save_button.isEnabled():
            return False
        self.save_button.setEnabled(False)  # until the save is done: a second click would record the note twice
        self._submit(self.text.toPlainText().strip(), self.tags.selected(), self._replied)
        return True

    def _replied(self, problem: str | None) -> None:
        if problem:
            self.error.setText(problem)
            self.error.show()
            self.save_button.setEnabled(True)
            return
        self.accept()
