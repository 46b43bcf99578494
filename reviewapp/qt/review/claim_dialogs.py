"""Small forms for claim corrections: correct the agent's verdict, add a claim, split one, merge several.

Each calls `submit` with what was entered and a reply; `submit` starts recording it and the reply is called with
None once it is recorded, or with why it could not be (then nothing was recorded and the form stays open with the
reason shown).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook.model import Cell
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.plain import PlainLabel

Reply = Callable[[str | None], None]
Submit = Callable[[dict[str, Any], Reply], None]
_NUMBERS = re.compile(r"\d+")


class FormDialog(QDialog):
    """Intro text, a form, a required rationale, an inline error and OK/Cancel."""

    def __init__(self, title: str, intro: str, ok_text: str, submit: Submit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("claimDialog")
        self.setWindowTitle(title)
        self._submit = submit
        self.layout_ = QVBoxLayout(self)
        self.layout_.setSpacing(8)
        self.intro = PlainLabel(intro, self)
        self.intro.setWordWrap(True)
        self.layout_.addWidget(self.intro)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.layout_.addLayout(self.form)
        self.rationale = QPlainTextEdit(self)
        self.rationale.setObjectName("rationale")
        self.rationale.setPlaceholderText("Rationale (required): why the claims should read this way")
        self.rationale.setTabChangesFocus(True)
        self.rationale.setFixedHeight(70)
        self.error = PlainLabel(self)
        self.error.setObjectName("inlineError")
        self.error.setWordWrap(True)
        self.error.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = QPushButton(ok_text, self)
        self.ok_button.setObjectName("primary")
        self.buttons.addButton(self.ok_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.ok_button.clicked.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        self.rationale.textChanged.connect(self._changed)

    def finish(self) -> None:
        """Add the rationale, error and buttons below whatever the subclass put in the form."""
        self.form.addRow("Rationale", self.rationale)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(self.buttons)
        self._changed()
        self.resize(560, self.sizeHint().height())

    def values(self) -> dict[str, Any]:
        return {"rationale": self.rationale.toPlainText().strip()}

    def ready(self) -> bool:
        return bool(self.rationale.toPlainText().strip())

    def _changed(self) -> None:
        self.error.hide()
        self.ok_button.setEnabled(self.ready())

    def submit(self) -> bool:
        """Start recording; the form closes once it is recorded, or shows why not and stays open."""
        if not self.ready() or not self.ok_button.isEnabled():
            return False
        try:
            values = self.values()
        except ValueError as exc:
            self._replied(str(exc))
            return False
        self.ok_button.setEnabled(False)  # until it is recorded: a second click would record it twice
        self._submit(values, self._replied)
        return True

    def _replied(self, problem: str | None) -> None:
        if problem:
            self.error.setText(problem)
            self.error.show()
            self.ok_button.setEnabled(self.ready())
            return
        self.accept()


def verdict_combo(parent: QWidget, current: Verdict) -> QComboBox:
    combo = QComboBox(parent)
    for verdict in Verdict:
        combo.addItem("no verdict stated" if verdict is Verdict.UNSTATED else verdict.value, verdict)
    combo.setCurrentIndex(combo.findData(current))
    return combo


class CorrectVerdictDialog(FormDialog):
    def __init__(self, claim: str, read: Verdict, quote: str, submit: Submit, parent: QWidget | None = None) -> None:
        intro = f"The reader took the agent's verdict on {claim} to be {read.value.upper()}"
        intro += f", from: “{quote}”." if quote else "."
        intro += " If the agent actually said something else, record what it said; the reader's reading stays visible."
        super().__init__("Correct the agent's verdict", intro, "Record correction", submit, parent)
        self.verdict = verdict_combo(self, read)
        self.verdict.setObjectName("agentVerdict")
        self.form.addRow("The agent said", self.verdict)
        self.verdict.currentIndexChanged.connect(lambda _i: self._changed())
        self._read = read
        self.finish()

    def values(self) -> dict[str, Any]:
        return {**super().values(), "verdict": self.verdict.currentData()}


class AddClaimDialog(FormDialog):
    def __init__(self, page: str, cells: list[Cell], submit: Submit, parent: QWidget | None = None) -> None:
        intro = f"A claim the reader missed on “{page}”. Tick the cells that are its evidence."
        super().__init__("Add a claim", intro, "Add claim", submit, parent)
        self.title = QLineEdit(self)
        self.title.setObjectName("newClaimTitle")
        self.title.setPlaceholderText("The claim, as the paper states it")
        self.form.addRow("Claim", self.title)
        self.number = QSpinBox(self)
        self.number.setRange(0, 999)
        self.number.setSpecialValueText("none")
        self.form.addRow("Number", self.number)
        self.cells = cell_list(self, cells)
        self.form.addRow("Evidence", self.cells)
        self.verdict = verdict_combo(self, Verdict.UNSTATED)
        self.form.addRow("The agent said", self.verdict)
        self.title.textChanged.connect(lambda _t: self._changed())
        self.finish()

    def ready(self) -> bool:
        return super().ready() and bool(self.title.text().strip())

    def values(self) -> dict[str, Any]:
        return {
            **super().values(),
            "title": self.title.text().strip(),
            "n": self.number.value() or None,
            "cells": checked_cells(self.cells),
            "agent_verdict": self.verdict.currentData(),
        }


class SplitClaimDialog(FormDialog):
    """One row per part: its title and its evidence cells, numbered as the cards show them (cell 1 is the first)."""

    def __init__(self, claim: str, title: str, cells: list[int], submit: Submit, parent: QWidget | None = None) -> None:
        numbers = ", ".join(str(c + 1) for c in cells) or "none"
        intro = f"Split {claim} into the claims it really makes. Its evidence cells are {numbers}."
        super().__init__("Split a claim", intro, "Split claim", submit, parent)
        self.parts = QTableWidget(0, 2, self)
        self.parts.setObjectName("splitParts")
        self.parts.setHorizontalHeaderLabels(["Claim", "Evidence cells"])
        self.parts.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.parts.verticalHeader().hide()
        self.parts.setMinimumHeight(120)
        half = (len(cells) + 1) // 2
        self.add_part(title, cells[:half])
        self.add_part("", cells[half:])
        buttons = QHBoxLayout()
        add = QPushButton("Add part", self)
        add.setObjectName("small")
        add.clicked.connect(lambda: self.add_part("", []))
        remove = QPushButton("Remove part", self)
        remove.setObjectName("small")
        remove.clicked.connect(self._remove_part)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        column = QVBoxLayout()
        column.addWidget(self.parts)
        column.addLayout(buttons)
        self.form.addRow("Parts", column)
        self.parts.itemChanged.connect(lambda _i: self._changed())
        self.finish()

    def add_part(self, title: str, cells: list[int]) -> None:
        row = self.parts.rowCount()
        self.parts.insertRow(row)
        self.parts.setItem(row, 0, QTableWidgetItem(title))
        self.parts.setItem(row, 1, QTableWidgetItem(", ".join(str(c + 1) for c in cells)))

    def _remove_part(self) -> None:
        if self.parts.rowCount() > 2:
            self.parts.removeRow(self.parts.currentRow() if self.parts.currentRow() >= 0 else self.parts.rowCount() - 1)

    def ready(self) -> bool:
        titles = [self._text(r, 0) for r in range(self.parts.rowCount())]
        return super().ready() and sum(1 for t in titles if t) >= 2

    def values(self) -> dict[str, Any]:
        parts = []
        for row in range(self.parts.rowCount()):
            title = self._text(row, 0)
            if title:
                cells = [int(n) - 1 for n in _NUMBERS.findall(self._text(row, 1)) if int(n) > 0]
                parts.append({"title": title, "cells": cells})
        return {**super().values(), "parts": parts}

    def _text(self, row: int, column: int) -> str:
        item = self.parts.item(row, column)
        return item.text().strip() if item is not None else ""


class MergeClaimsDialog(FormDialog):
    def __init__(self, claims: list[str], title: str, submit: Submit, parent: QWidget | None = None) -> None:
        listed = ", ".join(claims[:-1]) + " and " + claims[-1]
        intro = f"Merge {listed} into one claim: the reader split what the paper states as one claim."
        super().__init__("Merge claims", intro, "Merge claims", submit, parent)
        self.title = QLineEdit(title, self)
        self.title.setObjectName("newClaimTitle")
        self.form.addRow("Merged claim", self.title)
        self.title.textChanged.connect(lambda _t: self._changed())
        self.finish()

    def ready(self) -> bool:
        return super().ready() and bool(self.title.text().strip())

    def values(self) -> dict[str, Any]:
        return {**super().values(), "title": self.title.text().strip()}


def cell_list(parent: QWidget, cells: list[Cell]) -> QListWidget:
    view = QListWidget(parent)
    view.setObjectName("evidenceCells")
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    for cell in cells:
        item = QListWidgetItem(f"Cell {cell.ordinal + 1}: {cell.title or cell.type_name}")
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Unchecked)
        item.setData(Qt.ItemDataRole.UserRole, cell.ordinal)
        view.addItem(item)
    view.setMaximumHeight(140)
    return view


def checked_cells(view: QListWidget) -> list[int]:
    return [
        int(view.item(r).data(Qt.ItemDataRole.UserRole))
        for r in range(view.count())
        if view.item(r).checkState() == Qt.CheckState.Checked
    ]
