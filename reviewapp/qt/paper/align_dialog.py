"""Aligning a logbook's claim by hand: which of the paper's claims it is about, or a row of its own."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QVBoxLayout, QWidget

from reviewapp.core.paper.view import PaperView
from reviewapp.qt.paper.matrix_model import claim_caption
from reviewapp.qt.plain import PlainLabel

OWN_ROW = "__own__"


class AlignDialog(QDialog):
    def __init__(self, view: PaperView, logbook_id: str, claim_key: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("alignClaim")
        self.setWindowTitle("Align a claim by hand")
        self.view = view
        layout = QVBoxLayout(self)
        intro = PlainLabel(
            "Say which of the paper's claims this logbook's claim is about. A hand alignment wins over the "
            "automatic one, is saved as a paper record under your name and can be undone (Ctrl+Z).",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.logbook = QComboBox(self)
        for lb in view.logbooks:
            self.logbook.addItem(lb.label, lb.logbook_id)
        self.logbook.setCurrentIndex(max(0, self.logbook.findData(logbook_id)))
        form.addRow("Logbook", self.logbook)
        self.claim = QComboBox(self)
        self.claim.setAccessibleName("The logbook's claim")
        form.addRow("Its claim", self.claim)
        self.row = QComboBox(self)
        self.row.setAccessibleName("The paper's claim it is about")
        for row in view.rows:
            self.row.addItem(f"{row.number}. {' '.join(row.text.split())[:90]}", row.id)
        self.row.addItem("A claim of its own (a new row)", OWN_ROW)
        form.addRow("Is about", self.row)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.logbook.currentIndexChanged.connect(lambda _i: self._fill_claims(None))
        self.claim.currentIndexChanged.connect(lambda _i: self._current_row())
        self._fill_claims(claim_key)
        self.resize(640, 220)

    def chosen(self) -> tuple[str, str, str | None] | None:
        """(logbook id, claim key, row id or None for a row of its own)."""
        key = self.claim.currentData()
        if not key:
            return None
        row = self.row.currentData()
        return str(self.logbook.currentData()), str(key), None if row == OWN_ROW else str(row)

    def _fill_claims(self, claim_key: str | None) -> None:
        self.claim.clear()
        logbook = next(lb for lb in self.view.logbooks if lb.logbook_id == self.logbook.currentData())
        for claim in logbook.claims():
            self.claim.addItem(claim_caption(claim)[:90], claim.key)
        if claim_key is not None:
            self.claim.setCurrentIndex(max(0, self.claim.findData(claim_key)))
        self._current_row()

    def _current_row(self) -> None:
        logbook_id, key = self.logbook.currentData(), self.claim.currentData()
        row = next(
            (r.id for r in self.view.rows if (c := self.view.cell(r.id, logbook_id)).claim and c.claim.key == key),
            None,
        )
        if row is not None:
            self.row.setCurrentIndex(max(0, self.row.findData(row)))
