"""Small dialogs: the keyboard shortcuts (read from the action table) and the reader's problem list."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook.model import Problem
from reviewapp.qt.actions import shortcut_rows
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.about_dialog import AboutDialog


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        rows = shortcut_rows()
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Menu", "Action", "Keys"])
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(560, 480)


class ProblemsDialog(QDialog):
    """What the reader could not load, beside what it did: informational, never an error."""

    def __init__(self, problems: list[Problem], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("problemsDialog")
        self.setWindowTitle("Problems found while reading")
        intro = PlainLabel(
            "The logbook opened; these parts could not be read as expected. Nothing here stops the review.", self
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(len(problems), 3, self)
        self.table.setHorizontalHeaderLabels(["File", "Line", "Problem"])
        for row, problem in enumerate(problems):
            for column, value in enumerate((problem.file, str(problem.line or ""), problem.message)):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(860, 420)


def about_box(parent: QWidget | None = None) -> QDialog:
    return AboutDialog(parent)
