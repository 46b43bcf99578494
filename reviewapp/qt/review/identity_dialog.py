"""“Who is reviewing?”: the name written into every record and the role, asked once and kept in the preferences."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QVBoxLayout, QWidget

from reviewapp.core.review.identity import MAX_NAME, check_name
from reviewapp.core.review.roles import ROLES
from reviewapp.qt.plain import PlainLabel

ROLE_TEXT = {
    "judge": "Judge: review claims and record verdicts",
    "participant": "Participant: rate image pairs",
    "author": "Author: inspect findings on your paper",
    "adjudicator": "Adjudicator: settle disagreements between people, record the decision",
}


class IdentityDialog(QDialog):
    def __init__(self, name: str = "", role: str = "judge", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("identityDialog")
        self.setWindowTitle("Who is reviewing?")
        layout = QVBoxLayout(self)
        intro = PlainLabel(
            "Your name is written into every verdict and note you record, and names your review file. "
            "It is asked once and kept in your preferences; use the name you want to appear in the repository.",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.name = QLineEdit(name, self)
        self.name.setObjectName("reviewerName")
        self.name.setMaxLength(MAX_NAME)
        self.name.setPlaceholderText("e.g. Ada Lovelace")
        form.addRow("Name", self.name)
        self.role = QComboBox(self)
        self.role.setObjectName("reviewerRole")
        for value in ROLES:
            self.role.addItem(ROLE_TEXT.get(value, value), value)
        self.role.setCurrentIndex(max(0, self.role.findData(role)))
        form.addRow("Role", self.role)
        layout.addLayout(form)
        self.error = PlainLabel(self)
        self.error.setObjectName("inlineError")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.name.textChanged.connect(lambda _t: self.error.hide())
        self.resize(480, 220)

    @property
    def chosen_name(self) -> str:
        return " ".join(self.name.text().split())

    @property
    def chosen_role(self) -> str:
        return str(self.role.currentData())

    def accept(self) -> None:
        try:
            check_name(self.name.text())
        except ValueError as exc:
            text = str(exc)
            self.error.setText(text[:1].upper() + text[1:] + ".")
            self.error.show()
            return
        super().accept()
