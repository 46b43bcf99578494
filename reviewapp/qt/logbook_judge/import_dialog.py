"""File > Import Logbook Judge Verdicts…: the verdicts file, and optionally the claim registry and the paper index,
as `reviewapp verdicts import FILE --registry FILE --paper-index FILE` takes them.

The registry gives claim texts to entries that carry none (most published entries), so their claims can be matched
by text instead of staying unmatched; the paper index resolves registry papers keyed by numeric ICML ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.qt.plain import PlainLabel

EXPLAIN = (
    "The verdicts are stored in your data folder for this logbook, never in the logbook itself. The claim registry "
    "(claims_anchored.json) gives claim texts to entries that have none, so claims can be matched by text; the "
    "paper index (index.json) is needed when the registry names papers by numeric ICML id."
)


@dataclass(frozen=True)
class ImportChoice:
    verdicts: Path
    registry: Path | None
    paper_index: Path | None


class ImportVerdictsDialog(QDialog):
    chosen = Signal(object)  # ImportChoice

    def __init__(self, parent: QWidget | None = None, start: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import Logbook Judge Verdicts")
        self.setMinimumWidth(620)
        self._start = start or Path.home()
        self.verdicts = self._path_field("verdicts.json, or the CSV / JSON Lines row form")
        self.registry = self._path_field("optional: claims_anchored.json")
        self.paper_index = self._path_field("optional: index.json, for numeric paper ids")
        form = QFormLayout()
        form.addRow("&Verdicts file:", self._with_browse(self.verdicts, "Verdicts (*.json *.jsonl *.csv)"))
        form.addRow("Claim &registry:", self._with_browse(self.registry, "Claim registry (*.json)"))
        form.addRow("&Paper index:", self._with_browse(self.paper_index, "Paper index (*.json)"))
        explain = PlainLabel(EXPLAIN)
        explain.setObjectName("muted")
        explain.setWordWrap(True)
        self.problem = PlainLabel()
        self.problem.setObjectName("disagreement")
        self.problem.setWordWrap(True)
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = self.buttons.addButton("&Import", QDialogButtonBox.ButtonRole.AcceptRole)
        self.import_button.setDefault(True)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(explain)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        for field in (self.verdicts, self.registry, self.paper_index):
            field.returnPressed.connect(self.submit)
            field.textChanged.connect(self.problem.hide)
        self.verdicts.setFocus()

    def submit(self) -> None:
        """Check the files named exist (the import itself says what is wrong inside them), then hand them on."""
        verdicts = self._path(self.verdicts)
        registry = self._path(self.registry)
        index = self._path(self.paper_index)
        problem = None
        if verdicts is None:
            problem = "Name the verdicts file first."
        elif index is not None and registry is None:
            problem = "A paper index resolves the ids of a claim registry: name the registry too."
        else:
            missing = [str(p) for p in (verdicts, registry, index) if p is not None and not p.is_file()]
            problem = f"No such file: {', '.join(missing)}" if missing else None
        if problem is not None or verdicts is None:
            self.problem.setText(problem or "")
            self.problem.show()
            return
        self.chosen.emit(ImportChoice(verdicts, registry, index))
        self.accept()

    def _path_field(self, placeholder: str) -> QLineEdit:
        field = QLineEdit()
        field.setPlaceholderText(placeholder)
        field.setClearButtonEnabled(True)
        return field

    def _with_browse(self, field: QLineEdit, filters: str) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(field, 1)
        browse = QPushButton("Browse…")
        browse.setAutoDefault(False)
        browse.clicked.connect(lambda: self._browse(field, filters))
        layout.addWidget(browse)
        return row

    def _browse(self, field: QLineEdit, filters: str) -> None:
        start = self._path(field) or self._path(self.verdicts) or self._start
        folder = start.parent if start.suffix else start
        path, _ = QFileDialog.getOpenFileName(self, self.windowTitle(), str(folder), filters)
        if path:
            field.setText(path)

    @staticmethod
    def _path(field: QLineEdit) -> Path | None:
        text = field.text().strip()
        return Path(text).expanduser() if text else None
