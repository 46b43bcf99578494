"""The Disagreements view of a queue: every claim where people's verdicts conflict (and every logbook whose rubric
scores spread too far), each reviewer's verdict, confidence and rationale side by side with the claim's evidence,
and, for an adjudicator, the adjudicated verdict to record. It shows what `queue_disputes` found and hands the
adjudication back to whoever opened it (the queue window writes it off the GUI thread, undoable with Ctrl+Z), so
it can be built and shown without a queue window (screenshots, tests)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.queue.disputes import QueueDispute
from reviewapp.core.verdicts import HUMAN_VERDICTS
from reviewapp.qt.plain import PlainLabel

Adjudicate = Callable[[QueueDispute, str, str], None]  # dispute, verdict, rationale

STATUS_TEXT = {"open": "open", "settled": "settled", "reopened": "reopened: a verdict changed since"}


class DisagreementsDialog(QDialog):
    def __init__(
        self,
        disputes: Sequence[QueueDispute],
        adjudicate: Adjudicate | None = None,
        *,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Disagreements")
        self.resize(1100, 640)
        self._adjudicate = adjudicate
        self.disputes: list[QueueDispute] = []
        layout = QVBoxLayout(self)
        self.summary = PlainLabel(self)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.list = QListWidget(splitter)
        self.list.setAccessibleName("Disagreements")
        self.list.currentRowChanged.connect(self._show)
        detail = QWidget(splitter)
        self.detail = QVBoxLayout(detail)
        self.heading = PlainLabel(detail)
        self.heading.setWordWrap(True)
        _bold(self.heading)
        self.detail.addWidget(self.heading)
        self.people = QHBoxLayout()
        self.detail.addLayout(self.people, 1)
        self.evidence = PlainLabel(detail)
        self.evidence.setWordWrap(True)
        self.evidence.setObjectName("muted")
        self.detail.addWidget(self.evidence)
        self.settled = PlainLabel(detail)
        self.settled.setWordWrap(True)
        self.detail.addWidget(self.settled)
        form = QHBoxLayout()
        self.verdict = QComboBox(detail)
        self.verdict.addItems([v.value for v in HUMAN_VERDICTS])
        self.verdict.setAccessibleName("Adjudicated verdict")
        form.addWidget(self.verdict)
        self.rationale = QPlainTextEdit(detail)
        self.rationale.setPlaceholderText("Why this verdict settles it (required)")
        self.rationale.setMaximumHeight(90)
        form.addWidget(self.rationale, 1)
        self.record = QPushButton("Record adjudicated verdict", detail)
        self.record.setToolTip("Ctrl+Enter")
        self.record.clicked.connect(self._record)
        form.addWidget(self.record)
        self.detail.addLayout(form)
        splitter.setSizes([320, 780])
        layout.addWidget(splitter, 1)
        QShortcut(QKeySequence("Ctrl+Return"), self, self._record)
        self.set_disputes(disputes)

    def set_disputes(self, disputes: Sequence[QueueDispute]) -> None:
        """Show these disputes, keeping the selected one selected when it is still there."""
        keep = self.current()
        chosen = (keep.source, keep.claim_key, keep.kind) if keep else None
        self.disputes = list(disputes)
        self.list.blockSignals(True)
        self.list.clear()
        row = 0
        for index, dispute in enumerate(self.disputes):
            label = f"{dispute.source} — {dispute.label}: {STATUS_TEXT[dispute.status]}"
            item = QListWidgetItem(label)
            item.setToolTip(dispute.title)
            self.list.addItem(item)
            if chosen == (dispute.source, dispute.claim_key, dispute.kind):
                row = index
        self.list.blockSignals(False)
        open_count = sum(d.status != "settled" for d in self.disputes)
        found = f"{len(self.disputes)} disagreement{'' if len(self.disputes) == 1 else 's'}"
        self.summary.setText(
            f"{found}, {open_count} not settled. Verdicts conflict when they fall in "
            "different classes (supported: verified, partial; refuted: falsified; undetermined: toy, inconclusive)."
            + ("" if self._adjudicate else " Only an adjudicator records an adjudicated verdict.")
        )
        if self.disputes:
            self.list.setCurrentRow(row)
            self._show(row)
        else:
            self._show(-1)

    def current(self) -> QueueDispute | None:
        row = self.list.currentRow()
        return self.disputes[row] if 0 <= row < len(self.disputes) else None

    def _show(self, row: int) -> None:
        while self.people.count():
            item = self.people.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        dispute = self.disputes[row] if 0 <= row < len(self.disputes) else None
        if dispute is None:
            self.heading.setText("People agree everywhere in this queue.")
            for widget in (self.evidence, self.settled):
                widget.setText("")
            self._form_enabled(False)
            return
        title = f" “{dispute.title}”" if dispute.title else ""
        self.heading.setText(f"{dispute.source}, {dispute.label}{title}")
        for person in dispute.people:
            self.people.addWidget(_person_card(person.name, person.verdict, person.confidence, person.rationale, self))
        self.evidence.setText("Evidence: " + (", ".join(dispute.evidence) or "the logbook as a whole"))
        if dispute.adjudicated:
            self.settled.setText(
                f"Adjudicated {dispute.adjudicated} by {dispute.adjudicator}: {dispute.adjudication_rationale}"
                + ("" if dispute.status == "settled" else " (a reviewer changed their verdict since)")
            )
        else:
            self.settled.setText(
                "Not adjudicated yet." if dispute.kind == "verdicts" else f"Spread {dispute.spread:g} (normalized)."
            )
        self._form_enabled(dispute.kind == "verdicts" and self._adjudicate is not None)

    def _form_enabled(self, on: bool) -> None:
        for widget in (self.verdict, self.rationale, self.record):
            widget.setEnabled(on)

    def _record(self) -> None:
        dispute = self.current()
        if dispute is None or self._adjudicate is None or dispute.kind != "verdicts":
            return
        rationale = self.rationale.toPlainText().strip()
        if not rationale:
            self.settled.setText("Write why this verdict settles it first: the rationale is required.")
            self.rationale.setFocus()
            return
        self._adjudicate(dispute, self.verdict.currentText(), rationale)
        self.rationale.clear()


def _person_card(name: str, verdict: str, confidence: int | None, rationale: str, parent: QWidget) -> QFrame:
    card = QFrame(parent)
    card.setFrameShape(QFrame.Shape.StyledPanel)
    layout = QVBoxLayout(card)
    layout.addWidget(PlainLabel(name, card))
    sure = f", confidence {confidence} of 3" if confidence else ""
    shown = PlainLabel(f"{verdict.upper()}{sure}", card)
    _bold(shown)
    layout.addWidget(shown)
    text = PlainLabel(rationale or "(no rationale)", card)
    text.setWordWrap(True)
    text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    layout.addWidget(text, 1, Qt.AlignmentFlag.AlignTop)
    return card


def _bold(label: PlainLabel) -> None:
    font = label.font()
    font.setBold(True)
    label.setFont(font)
