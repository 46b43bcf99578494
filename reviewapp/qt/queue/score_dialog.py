"""Score a whole logbook on the rubric: one value and an optional comment per criterion, the overall shown live."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.queue.rubric import Rubric, score_text
from reviewapp.core.review.records import RubricScoreRecord


class ScoreDialog(QDialog):
    def __init__(self, rubric: Rubric, title: str, current: RubricScoreRecord | None, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Score — {title}")
        self.rubric = rubric
        low, high = rubric.scale
        layout = QVBoxLayout(self)
        intro = QLabel(f"Rubric “{rubric.name}”, each criterion from {low:g} to {high:g}. Ctrl+Enter saves.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        layout.addLayout(form)
        previous = {c.name: c for c in current.payload.criteria} if current else {}
        self.values: dict[str, QDoubleSpinBox] = {}
        self.comments: dict[str, QLineEdit] = {}
        whole = float(low).is_integer() and float(high).is_integer()  # a 1-5 scale shows 4, not 4.0
        for criterion in rubric.criteria:
            spin = QDoubleSpinBox()
            spin.setRange(low, high)
            spin.setDecimals(0 if whole else 1)
            spin.setSingleStep(1.0)
            spin.setValue(previous[criterion.name].value if criterion.name in previous else (low + high) / 2)
            spin.setAccessibleName(criterion.label)
            spin.valueChanged.connect(self._update_overall)
            comment = QLineEdit(previous[criterion.name].comment or "" if criterion.name in previous else "")
            comment.setPlaceholderText("comment (optional)")
            row = QHBoxLayout()
            row.addWidget(spin)
            row.addWidget(comment, 1)
            holder = QWidget()
            holder.setLayout(row)
            holder.setToolTip(criterion.description)
            weight = f" ×{criterion.weight:g}" if criterion.weight != 1 else ""
            form.addRow(f"{criterion.label}{weight}", holder)
            if criterion.description:
                about = QLabel(criterion.description)
                about.setObjectName("muted")
                about.setWordWrap(True)
                about.setTextFormat(Qt.TextFormat.PlainText)  # a team's rubric file is not markup
                form.addRow("", about)
            self.values[criterion.name] = spin
            self.comments[criterion.name] = comment
        self.overall = QLabel()
        form.addRow("Overall", self.overall)
        self.comment = QPlainTextEdit(current.payload.comment or "" if current else "")
        self.comment.setPlaceholderText("A comment on the whole logbook (optional)")
        self.comment.setFixedHeight(70)
        layout.addWidget(self.comment)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.accept)
        self._update_overall()
        self.resize(620, self.sizeHint().height())  # room for a comment beside each value

    def scores(self) -> dict[str, float]:
        return {name: spin.value() for name, spin in self.values.items()}

    def criterion_comments(self) -> dict[str, str]:
        return {name: edit.text().strip() for name, edit in self.comments.items() if edit.text().strip()}

    def _update_overall(self) -> None:
        self.overall.setText(f"<b>{score_text(self.rubric.overall(self.scores()), self.rubric.scale)}</b>")
