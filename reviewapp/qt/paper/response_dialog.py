"""An author's answer to one finding: agree, disagree or partly, a comment, and evidence links (a logbook's cell
or figure, a trace event, an outside URL kept as text)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook.model import CellKind
from reviewapp.core.paper.compare import evidence_cells
from reviewapp.core.paper.export import link_text
from reviewapp.core.paper.view import PaperView
from reviewapp.core.review.records import AuthorResponseRecord, EvidenceLink, TraceAnchor
from reviewapp.qt.plain import PlainLabel

ANSWERS = (("agree", "&Agree"), ("disagree", "&Disagree"), ("partly", "&Partly agree"))


class ResponseDialog(QDialog):
    def __init__(
        self,
        view: PaperView,
        row: str,
        current: AuthorResponseRecord | None,
        parent: QWidget | None = None,
        *,
        who: str = "",
        role: str = "author",
    ) -> None:
        """`who` responds; a response is always an author's, so someone whose role is another (a judge) is asked
        to confirm being an author of the paper before it is saved."""
        super().__init__(parent)
        self.setObjectName("authorResponse")
        paper_claim = next(r for r in view.rows if r.id == row)
        self.setWindowTitle(f"Respond to the finding on claim {paper_claim.number}")
        self.labels = {lb.logbook_id: lb.label for lb in view.logbooks}
        layout = QVBoxLayout(self)
        finding = PlainLabel(
            f"Claim {paper_claim.number}: {' '.join(paper_claim.text.split())}\n"
            f"Finding: {view.claim_classes[row]}. Your response is shown beside the finding; it never changes "
            "the class.",
            self,
        )
        finding.setWordWrap(True)
        layout.addWidget(finding)
        self.who = PlainLabel(f"You respond as {who or 'an unnamed person'}, in the role of an author.", self)
        self.who.setObjectName("responder")
        self.who.setWordWrap(True)
        layout.addWidget(self.who)
        self.author_check = QCheckBox(f"I am an author of this paper (your role is set to {role})", self)
        self.author_check.setObjectName("confirmAuthor")
        self.author_check.setVisible(role != "author")
        layout.addWidget(self.author_check)
        self._needs_author = role != "author"
        answers = QHBoxLayout()
        self.answer_group = QButtonGroup(self)
        self.answers: dict[str, QRadioButton] = {}
        for value, text in ANSWERS:
            button = QRadioButton(text, self)
            self.answer_group.addButton(button)
            self.answers[value] = button
            answers.addWidget(button)
        answers.addStretch(1)
        layout.addLayout(answers)
        self.comment = QPlainTextEdit(self)
        self.comment.setObjectName("responseComment")
        self.comment.setPlaceholderText("What you say about the finding (shown and exported as written)")
        self.comment.setTabChangesFocus(True)
        layout.addWidget(self.comment, 1)
        layout.addWidget(PlainLabel("Evidence links", self))
        self.links = QListWidget(self)
        self.links.setObjectName("responseLinks")
        self.links.setAccessibleName("Evidence links of the response")
        layout.addWidget(self.links)
        form = QFormLayout()
        cell_row = QHBoxLayout()
        self.cell_choice = QComboBox(self)
        self.cell_choice.setAccessibleName("A logbook's evidence cell for this claim")
        self.cell_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.cell_choice.setMinimumContentsLength(40)
        for lb in view.logbooks:
            cell = view.cell(row, lb.logbook_id)
            for evidence in evidence_cells(lb.logbook, cell.claim):
                figure = 0 if evidence.kind is CellKind.FIGURE else None
                link = EvidenceLink(logbook=lb.logbook_id, page=evidence.page, cell=evidence.ordinal, figure=figure)
                self.cell_choice.addItem(f"{link_text(link, self.labels)} — {evidence.title or evidence.kind}", link)
        add_cell = QPushButton("Add", self)
        add_cell.clicked.connect(self._add_cell)
        add_cell.setEnabled(self.cell_choice.count() > 0)
        cell_row.addWidget(self.cell_choice, 1)
        cell_row.addWidget(add_cell)
        form.addRow("Logbook cell or figure", cell_row)
        trace_row = QHBoxLayout()
        self.trace_logbook = QComboBox(self)
        for lb in view.logbooks:
            if lb.logbook.traces:
                self.trace_logbook.addItem(lb.label, lb.logbook_id)
        self.trace_logbook.setPlaceholderText("No logbook here has an agent trace")
        self.trace_logbook.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.trace_logbook.setMinimumContentsLength(16)
        self.trace_session = QComboBox(self)
        self.trace_session.setEditable(True)
        self.trace_session.setEnabled(self.trace_logbook.count() > 0)
        self.trace_logbook.currentIndexChanged.connect(lambda _i: self._fill_sessions(view))
        self.trace_sequence = QSpinBox(self)
        self.trace_sequence.setRange(0, 10_000_000)
        self.trace_sequence.setPrefix("event ")
        add_trace = QPushButton("Add", self)
        add_trace.clicked.connect(self._add_trace)
        add_trace.setEnabled(self.trace_logbook.count() > 0)
        for widget in (self.trace_logbook, self.trace_session, self.trace_sequence):
            trace_row.addWidget(widget, 1)
        trace_row.addWidget(add_trace)
        form.addRow("Trace event", trace_row)
        url_row = QHBoxLayout()
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("https://… (kept as text, never opened by the app)")
        self.url.returnPressed.connect(self._add_url)
        add_url = QPushButton("Add", self)
        add_url.clicked.connect(self._add_url)
        url_row.addWidget(self.url, 1)
        url_row.addWidget(add_url)
        form.addRow("Outside address", url_row)
        layout.addLayout(form)
        remove = QPushButton("Remove Selected Link", self)
        remove.clicked.connect(lambda: self.links.takeItem(self.links.currentRow()))
        layout.addWidget(remove, 0, Qt.AlignmentFlag.AlignLeft)
        self.error = PlainLabel(self)
        self.error.setObjectName("inlineError")
        self.error.setWordWrap(True)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._fill_sessions(view)
        if current is not None:
            self.answers[current.payload.response].setChecked(True)
            self.comment.setPlainText(current.payload.comment)
            for link in current.payload.evidence:
                self._add_link(link)
        self.resize(760, 600)

    def response(self) -> str | None:
        return next((value for value, button in self.answers.items() if button.isChecked()), None)

    def evidence(self) -> list[EvidenceLink]:
        return [self.links.item(i).data(Qt.ItemDataRole.UserRole) for i in range(self.links.count())]

    def accept(self) -> None:
        self.error.hide()
        if self.response() is None:
            self._say("Choose agree, disagree or partly.")
            return
        if self._needs_author and not self.author_check.isChecked():
            self._say("Only an author of the paper responds to its findings: confirm that you are one, or cancel.")
            return
        super().accept()

    def _say(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def _add_link(self, link: EvidenceLink) -> None:
        item = QListWidgetItem(link_text(link, self.labels).strip("`"), self.links)
        item.setToolTip("An outside address: kept as text, never opened by the app" if link.url else "")
        item.setData(Qt.ItemDataRole.UserRole, link)

    def _add_cell(self) -> None:
        link = self.cell_choice.currentData()
        if isinstance(link, EvidenceLink):
            self._add_link(link)

    def _fill_sessions(self, view: PaperView) -> None:
        self.trace_session.clear()
        logbook = next((lb for lb in view.logbooks if lb.logbook_id == self.trace_logbook.currentData()), None)
        for trace in logbook.logbook.traces if logbook else []:
            self.trace_session.addItem(trace.id)

    def _add_trace(self) -> None:
        session = self.trace_session.currentText().strip()
        if not session:
            self._say("Name the trace session of the event.")
            return
        anchor = TraceAnchor(session=session, sequence=self.trace_sequence.value())
        self._add_link(EvidenceLink(logbook=self.trace_logbook.currentData(), trace=anchor))

    def _add_url(self) -> None:
        text = self.url.text().strip()
        if not text:
            return
        try:
            link = EvidenceLink(url=text)
        except ValueError as exc:
            self._say(f"Not added: {exc}")
            return
        self._add_link(link)
        self.url.clear()
