"""The paper window: every logbook on one paper as a matrix of claims by logbook, the classes that follow, and the
authors' responses; a cell opens that logbook's evidence for the claim, two cells of a row compare side by side.

Gathering (Hub search, downloads, reading through the parse cache) runs off the GUI thread with progress and
cancel; responses and hand alignments are paper records, written at once and undoable.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QFontMetrics, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHeaderView,
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.paper.export import link_text, response_markdown, view_json
from reviewapp.core.paper.gather import (
    GatheredPaper,
    PaperRequest,
    find_on_hub,
    gather_paper,
    rebuild,
    reopen_column,
    reread_responses,
    reread_review,
)
from reviewapp.core.paper.paper_review import PaperCommandError, PaperReview
from reviewapp.core.paper.view import MatrixCell, PaperLogbook, PaperView, blind_text, update_cells
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.queue.blind_logbook import reviewer_rule
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.commands import changes_logbook_judge
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.sources.opened import OpenedSource
from reviewapp.qt.paper.matrix_model import CLAIM, CLASS, FIRST_LOGBOOK, PaperMatrixModel, cell_lines, cell_tooltip
from reviewapp.qt.plain import PlainLabel

if TYPE_CHECKING:
    from reviewapp.qt.paper.response_dialog import ResponseDialog
from reviewapp.qt.workers import TaskRunner, alive
from reviewapp.qt.write_lane import WriteLane

#: open a logbook's evidence: (source as given, logbook folder, claim key)
OpenEvidence = Callable[[str, Path, str | None], None]
_WRITES = ("respond", "align", "undo", "redo", "reload")  # off while a write is on the lane
CLASS_RULE = (
    "Each cell: A agent · J Logbook Judge · H people → the verdict that decides it and its source (a person's "
    "over the Logbook Judge's over the agent's; ⚠ people disagree). Paper classes in order: contested, "
    "falsified, fully verified, partially verified, toy only, nothing established. Authors' responses never "
    "decide a class."
)


class PaperWindow(QMainWindow):
    loaded = Signal()  # the matrix is shown (tests and the benchmark wait for it)
    updated = Signal()  # a change made elsewhere is shown (or found to change nothing shown)
    failed = Signal(str)

    def __init__(
        self,
        request: PaperRequest,
        open_evidence: OpenEvidence | None = None,
        *,
        identity: Callable[[], Identity | None] | None = None,
        blind: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        """`blind`: as the review window in blind review, for the reviewer `identity` names: each logbook under
        its pseudonym, others' verdicts only on claims that reviewer judged, nothing shown that names the team."""
        super().__init__(parent)
        self.setObjectName("paperWindow")
        self.request = request
        self._open_evidence = open_evidence
        self._identity = identity
        self.blind = blind
        self.gathered: GatheredPaper | None = None
        self.review: PaperReview | None = None
        self.dialog: QWidget | None = None
        self.writing = False  # a response, an alignment or an undo is on the write lane
        self._cancel: CancelToken | None = None
        self.runner = TaskRunner(1, self)
        self.updates = TaskRunner(1, self)  # changes made in other windows, read again in the order they came
        self.setWindowTitle("Paper — reviewapp")
        self.model = PaperMatrixModel()
        self.heading = PlainLabel("Gathering the logbooks on the paper…")
        self.heading.setObjectName("paneTitle")
        self.heading.setWordWrap(True)
        rule = PlainLabel(CLASS_RULE)
        rule.setObjectName("muted")
        rule.setWordWrap(True)
        self.table = QTableView()
        self.table.setObjectName("paperMatrix")
        self.table.setAccessibleName("The paper's claims by logbook")
        self.table.setProperty("keyColumns", [CLAIM, CLASS, FIRST_LOGBOOK])
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        # three lines: the slots (wrapped when several people disagree) and the deciding verdict; fixed, so that a
        # paper of many logbooks is not measured cell by cell
        self.table.verticalHeader().setDefaultSectionSize(3 * self.table.fontMetrics().lineSpacing() + 10)
        self.table.horizontalHeader().setDefaultSectionSize(210)
        self.model.fit_header = self._fit_header
        self.table.horizontalHeader().sectionResized.connect(self._header_resized)
        self.table.doubleClicked.connect(lambda _index: self.open_evidence())
        self.details = QTextBrowser()
        self.details.setObjectName("paperDetails")
        self.details.setOpenLinks(False)
        self.details.setOpenExternalLinks(False)
        self.details.setAccessibleName("The selected cell and the authors' responses to its claim")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.details)
        split.setStretchFactor(0, 1)
        split.setSizes([560, 180])
        host = QWidget()
        layout = QVBoxLayout(host)
        layout.setContentsMargins(8, 8, 8, 4)
        layout.addWidget(self.heading)
        layout.addWidget(rule)
        layout.addWidget(split, 1)
        self.setCentralWidget(host)
        self._build_toolbar()
        self.summary = PlainLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.statusBar().addWidget(self.summary, 1)
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.cancel_button)
        self.resize(1400, 860)
        self.reload()

    # -- building --------------------------------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        bar = QToolBar("Paper")
        bar.setObjectName("paperToolbar")
        bar.setMovable(False)
        self.addToolBar(bar)
        self.actions_by_name: dict[str, QAction] = {}
        for name, text, keys, slot, tip in (
            ("open", "Open Evidence", ("Return", "Enter"), self.open_evidence, "This logbook's evidence for the claim"),
            ("compare", "Compare…", ("C",), self.compare, "Two logbooks' evidence for the claim, side by side"),
            ("respond", "Respond…", ("R",), self.respond, "Your answer to the finding, as an author"),
            ("align", "Align…", ("A",), self.align, "Which paper claim this logbook's claim is about, by hand"),
            ("undo", "Undo", ("Ctrl+Z",), self.undo, "Undo your last response or alignment"),
            ("redo", "Redo", ("Ctrl+Shift+Z", "Ctrl+Y"), self.redo, "Redo what was undone"),
            ("export_markdown", "Export Markdown…", ("Ctrl+E",), lambda: self.export("markdown"),
             "The findings, their evidence and the responses, ready to post or commit"),
            ("export_json", "Export JSON…", ("Ctrl+Shift+E",), lambda: self.export("json"), "The matrix as JSON"),
            ("reload", "Reload", ("F5",), self.reload, "Read the logbooks and the paper's records again"),
        ):  # fmt: skip
            action = QAction(text, self)
            action.setObjectName(f"paper_{name}")
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            shown = " or ".join(QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText) for k in keys)
            action.setToolTip(f"{tip} ({shown})")
            action.triggered.connect(slot)
            bar.addAction(action)
            self.actions_by_name[name] = action
        close = QAction(self)
        close.setShortcut(QKeySequence("Ctrl+W"))
        close.triggered.connect(self.close)
        self.addAction(close)
        self._enable(False)

    def _enable(self, ready: bool) -> None:
        for name, action in self.actions_by_name.items():
            action.setEnabled(ready or name == "reload")
        if ready:
            self._update_history_actions()

    # -- loading ---------------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self.runner.pending > 0

    def reload(self) -> None:
        if self.busy:
            return
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self.summary.setText("Gathering the logbooks on the paper…")
        self._enable(False)
        request, token = self.request, CancelToken()
        self._cancel = token
        who = self.identity() if self.blind else None
        me = who.name if who is not None else ""

        def work(progress: ProgressCallback) -> GatheredPaper:
            from reviewapp.core.sources.opener import open_source

            def opener(source: str) -> OpenedSource:
                return open_source(source, cancel=token)

            rules = (lambda logbook: reviewer_rule(logbook, me)) if self.blind else None

            def find(orid: str) -> list[str]:
                return find_on_hub(orid, token)

            return gather_paper(request, opener, find=find, progress=progress, cancel=token, blind=rules)

        self.runner.submit(work, self._loaded, self._failed, self._progressed)

    def cancel(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    def _progressed(self, done: int, total: int, label: str) -> None:
        if alive(self):
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            if label:
                self.summary.setText(f"Reading {label} ({done + 1} of {total})…")

    def _loaded(self, gathered: GatheredPaper) -> None:
        if not alive(self):
            return
        self.progress.hide()
        self.cancel_button.hide()
        self.show_gathered(gathered)
        self.table.setFocus()
        self.loaded.emit()

    def _failed(self, exc: BaseException) -> None:
        if not alive(self):
            return
        from reviewapp.core.progress import Cancelled

        self.progress.hide()
        self.cancel_button.hide()
        self._enable(self.gathered is not None)
        message = "Gathering was cancelled." if isinstance(exc, Cancelled) else f"The paper cannot be shown: {exc}"
        self.summary.setText(message.split("\n", 1)[0])
        if self.gathered is None:
            self.heading.setText(message)
        self.failed.emit(message)

    def show_gathered(self, gathered: GatheredPaper) -> None:
        """Show a gathered paper, keeping the selected cell where it still exists."""
        current = self.table.currentIndex()
        where = (current.row(), current.column()) if current.isValid() else (0, FIRST_LOGBOOK)
        self.gathered = gathered
        view = gathered.view
        self.model.set_view(view)
        self.setWindowTitle(f"{view.title or view.orid or 'Paper'} — reviewapp")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(CLAIM, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(CLAIM, 300)
        self.table.setColumnWidth(CLASS, 140)
        self.table.setColumnWidth(self.model.responses_column(), 160)
        self._show_summary()
        self._enable(True)
        if self.model.rowCount():
            row = min(where[0], self.model.rowCount() - 1)
            column = min(where[1], self.model.columnCount() - 1)
            self.table.setCurrentIndex(self.model.index(row, column))
        self.table.selectionModel().currentChanged.connect(self._show_details, Qt.ConnectionType.UniqueConnection)
        self._show_details()

    def _show_summary(self) -> None:
        """The heading (the paper's class) and the status line (contested claims, disputed cells, notes)."""
        gathered = self.gathered
        assert gathered is not None
        view = gathered.view
        flag = " (every claim falsified)" if view.all_falsified else ""
        rows = "rows from the claim registry" if view.registry_used else "claims aligned across the logbooks"
        self.heading.setText(
            f"{view.title or 'Untitled paper'}  [{view.orid or 'no paper id'}] — paper class: "
            f"{view.paper_class}{flag} · {len(view.logbooks)} logbook(s) · {len(view.rows)} claim(s), {rows}"
            + _mixed_papers(view)
        )
        contested = sum(1 for c in view.claim_classes.values() if c == "contested")
        disputed = sum(1 for c in view.cells.values() if c.decision.disputed)
        problems = [blind_text(view.logbooks)(p) for p in gathered.problems] + view.notes  # sources name teams
        text = f"{len(view.logbooks)} logbooks · {contested} contested claim(s) · {disputed} disputed cell(s)"
        if problems:
            text += f" · {len(problems)} note(s) (point here to read them)"
        self.summary.setText(text)
        self.summary.setToolTip("\n".join(problems))

    def apply_change(self, change: ChangeRecord, initiator: object = None) -> None:
        """A logbook's review changed in another window (a verdict saved in the review window): redraw what the
        change names. People's verdicts change only the cells of the claims named, and their rows' classes; claims
        that came or went, or a change that can move the Logbook Judge's matches, rebuild the view with that
        logbook read again; other records (notes, pins, ratings) show nowhere in the matrix."""
        if initiator is self or self.gathered is None or self.busy:  # a reload under way reads everything anew
            return
        gathered = self.gathered
        column = next((lb for lb in gathered.view.logbooks if lb.logbook_id == change.logbook_id), None)
        if column is None:
            return
        # the review files are read on a thread of the window's own, one change after another, in order
        if change.everything or change.restructures or changes_logbook_judge(change):
            self.updates.submit(
                lambda _progress: rebuild(gathered, reopen_column(column)),
                lambda fresh: self._rebuilt(gathered, fresh),
                self._update_failed,
            )
        elif change.touches("verdict", "adjudicated_verdict"):
            keys = change.claim_keys
            self.updates.submit(
                lambda _progress: reread_review(column),
                lambda state: self._reread(column.logbook_id, state, keys),
                self._update_failed,
            )

    def _rebuilt(self, before: GatheredPaper, fresh: GatheredPaper) -> None:
        if alive(self) and self.gathered is before:  # else a reload showed everything anew meanwhile
            self.show_gathered(fresh)
            self.updated.emit()

    def _reread(self, logbook_id: str, state: AnnotationState, keys: tuple[str, ...]) -> None:
        """The logbook's review as read after the change: newer than what any view shown holds, so it applies to
        the view shown now, whichever it is."""
        if not alive(self) or self.gathered is None:
            return
        view = self.gathered.view
        if any(lb.logbook_id == logbook_id for lb in view.logbooks):
            rows = update_cells(view, logbook_id, state, keys)
            if rows:
                self.model.cells_changed(rows, logbook_id)
                self._show_summary()
                self._show_details()
        self.updated.emit()

    def _update_failed(self, exc: BaseException) -> None:
        if alive(self):
            self.statusBar().showMessage(f"A change could not be shown ({exc}); Reload (F5) reads it again.", 8000)

    def _fit_header(self, heading: str, column: int) -> str:
        header = self.table.horizontalHeader()
        font = header.font()
        font.setBold(True)  # as the style sheet paints headings
        room = header.sectionSize(column) - 24  # the header's margins
        return QFontMetrics(font).elidedText(heading, Qt.TextElideMode.ElideMiddle, max(room, 20))

    def _header_resized(self, column: int, _old: int, _new: int) -> None:
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, column, column)

    # -- selection -------------------------------------------------------------------------------------------

    def select_cell(self, row_id: str, logbook_id: str) -> None:
        view = self._view()
        row = next(i for i, r in enumerate(view.rows) if r.id == row_id)
        index = self.model.index(row, self.model.column_of(logbook_id))
        self.table.setCurrentIndex(index)
        self.table.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def current_row_id(self) -> str | None:
        index = self.table.currentIndex()
        if not index.isValid() or self.gathered is None:
            return None
        return self.gathered.view.rows[index.row()].id

    def current_cell(self) -> MatrixCell | None:
        return self.model.cell_at(self.table.currentIndex())

    def _view(self) -> PaperView:
        assert self.gathered is not None
        return self.gathered.view

    def _column(self, logbook_id: str) -> PaperLogbook:
        return next(lb for lb in self._view().logbooks if lb.logbook_id == logbook_id)

    def _show_details(self, *_args: object) -> None:
        row_id = self.current_row_id()
        if row_id is None:
            self.details.clear()
            return
        view = self._view()
        row = next(r for r in view.rows if r.id == row_id)
        parts = [f"Claim {row.number}: {' '.join(row.text.split())}", f"Finding: {view.claim_classes[row_id]}"]
        attempted = view.attempted_by(row_id)
        parts.append(f"Attempted by {len(attempted)} of {len(view.logbooks)} logbook(s).")
        cell = self.current_cell()
        if cell is not None:
            column = self._column(cell.logbook_id)
            parts += ["", cell_tooltip(cell, column.label, column.rule.text)]
        labels = {lb.logbook_id: lb.label for lb in view.logbooks}
        for response in view.responses.get(row_id, []):
            payload = response.payload
            parts += ["", f"{response.annotator} (author) — {payload.response}: {payload.comment}"]
            parts += [f"  evidence: {link_text(link, labels)}" for link in payload.evidence]
        if not view.responses.get(row_id):
            parts += ["", "No author has responded to this finding yet (R to respond)."]
        self.details.setPlainText("\n".join(parts))

    # -- actions ---------------------------------------------------------------------------------------------

    def open_evidence(self) -> None:
        cell = self.current_cell()
        if cell is None or self._open_evidence is None:
            return
        column = self._column(cell.logbook_id)
        if cell.broken is not None:  # the review window lists every problem with its file
            self._open_evidence(column.source or column.label, column.logbook.root, None)
            return
        if cell.claim is None:
            self.statusBar().showMessage("This logbook did not attempt this claim.", 6000)
            return
        self._open_evidence(column.source or column.label, column.logbook.root, cell.claim.key)

    def compare(self) -> None:
        """The selected cell against another logbook's on the same claim: a second selected cell of the row, the
        only other attempt, or the one the user picks (those that reached another verdict first)."""
        row_id, cell = self.current_row_id(), self.current_cell()
        if self.blind:  # the two pages side by side are shown as written, names and all
            self.statusBar().showMessage("Comparing shows the pages as written: not in blind review.", 6000)
            return
        if row_id is None or cell is None or cell.claim is None:
            self.statusBar().showMessage("Select a logbook's cell on a claim it attempted, then compare.", 6000)
            return
        view = self._view()
        others = [lb for lb in view.attempted_by(row_id) if lb != cell.logbook_id]
        selected = {
            self.model.logbook_at(i.column())
            for i in self.table.selectionModel().selectedIndexes()
            if i.row() == self.table.currentIndex().row()
        }
        chosen = next((lb for lb in others if lb in selected), None)
        if chosen is None and len(others) == 1:
            chosen = others[0]
        if chosen is None and others:
            mine = cell.decision.verdict
            others.sort(key=lambda lb: view.cell(row_id, lb).decision.verdict == mine)
            names = [self._column(lb).label for lb in others]
            name, ok = QInputDialog.getItem(self, "Compare with", "Compare with which logbook?", names, 0, False)
            if not ok:
                return
            chosen = others[names.index(name)]
        if chosen is None:
            self.statusBar().showMessage("No other logbook attempted this claim.", 6000)
            return
        self.open_comparison(row_id, cell.logbook_id, chosen)

    def open_comparison(self, row_id: str, left: str, right: str) -> QWidget:
        from reviewapp.qt.paper.compare_window import ComparisonWindow

        view = self._view()
        row = next(r for r in view.rows if r.id == row_id)
        sides = [(self._column(lb), view.cell(row_id, lb)) for lb in (left, right)]
        opener = self._open_evidence

        def open_side(side: tuple[PaperLogbook, MatrixCell]) -> None:
            column, cell = side
            if opener is not None and cell.claim is not None:
                opener(column.source or column.label, column.logbook.root, cell.claim.key)

        window = ComparisonWindow(
            f"Claim {row.number}: {' '.join(row.text.split())}",
            sides[0],
            sides[1],
            self,
            open_evidence=open_side if opener is not None else None,
        )
        self._show_dialog(window)
        return window

    def response_dialog(self) -> ResponseDialog | None:
        """The dialog answering the selected claim's finding, saying who responds (None: no paper id or name)."""
        from reviewapp.qt.paper.response_dialog import ResponseDialog

        row_id = self.current_row_id()
        review = self._paper_review() if row_id is not None else None
        if row_id is None or review is None:
            return None
        return ResponseDialog(
            self._view(), row_id, review.response(row_id), self, who=review.identity.name, role=review.role
        )

    def respond(self) -> None:
        row_id = self.current_row_id()
        dialog = self.response_dialog()
        if row_id is None or dialog is None:
            return
        review = self.review
        assert review is not None
        if dialog.exec() != dialog.DialogCode.Accepted:
            return
        response = dialog.response()
        assert response is not None
        self._write(lambda: review.respond(row_id, response, dialog.comment.toPlainText(), dialog.evidence()))

    def align(self) -> None:
        from reviewapp.qt.paper.align_dialog import AlignDialog

        cell = self.current_cell()
        view = self._view() if self.gathered is not None else None
        if view is None:
            return
        if self.blind:  # the dialog lists each logbook's claims as written
            self.statusBar().showMessage("Aligning by hand shows the claims as written: not in blind review.", 6000)
            return
        logbook_id = cell.logbook_id if cell is not None else view.logbooks[0].logbook_id
        key = cell.claim.key if cell is not None and cell.claim is not None else None
        review = self._paper_review()
        if review is None:
            return
        dialog = AlignDialog(view, logbook_id, key, self)
        if dialog.exec() != AlignDialog.DialogCode.Accepted:
            return
        chosen = dialog.chosen()
        if chosen is not None:
            self._write(lambda: review.align(*chosen))

    def undo(self) -> None:
        if self.review is not None and self.review.history.can_undo:
            self._write(self.review.history.undo)

    def redo(self) -> None:
        if self.review is not None and self.review.history.can_redo:
            self._write(self.review.history.redo)

    def export(self, fmt: str, path: Path | None = None) -> Path | None:
        if self.gathered is None:
            return None
        view = self._view()
        if path is None:
            suffix = "md" if fmt == "markdown" else "json"
            default = Path.home() / f"{view.orid or 'paper'}-findings.{suffix}"
            chosen, _ = QFileDialog.getSaveFileName(
                self, "Export the findings", str(default), "Markdown (*.md)" if fmt == "markdown" else "JSON (*.json)"
            )
            if not chosen:
                return None
            path = Path(chosen)
        if fmt == "markdown":
            text = response_markdown(view)
        else:
            import json

            text = json.dumps(view_json(view), ensure_ascii=False, indent=2) + "\n"
        try:
            atomic_write(path, text.encode("utf-8"))
        except OSError as exc:
            QMessageBox.warning(self, "Not exported", f"{path}: {exc.strerror or exc}")
            return None
        self.statusBar().showMessage(f"Exported to {path}", 8000)
        return path

    # -- writing ---------------------------------------------------------------------------------------------

    def identity(self) -> Identity | None:
        """Who responds and aligns here, when known without asking."""
        return self._identity() if self._identity is not None else None

    def _paper_review(self) -> PaperReview | None:
        view = self._view()
        if not view.orid:
            QMessageBox.information(
                self, "No paper id", "The logbooks name no paper; open the paper with its id to keep responses."
            )
            return None
        if self.review is not None and self.review.orid == view.orid:
            return self.review
        identity = self.identity()
        if identity is None:
            name, ok = QInputDialog.getText(self, "Who is responding?", "Your name, as written into your records:")
            if not ok or not name.strip():
                return None
            identity = Identity(" ".join(name.split()), "asked")
        try:
            from reviewapp.core.review.preferences import load_preferences

            # hand alignments carry the reviewer's own role; responses are always written as an author's
            self.review = PaperReview.open(view.orid, identity, load_preferences().role)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, "Cannot keep paper records", str(exc))
            return None
        return self.review

    def _write(self, action: Callable[[], object]) -> None:
        """Run `action` on the application's write lane, like every write; "Saved." once it is on disk. The paper
        actions are disabled meanwhile, so that a key pressed during the write is not applied to the state before it
        (Ctrl+Z twice would otherwise undo the same step twice)."""
        assert self.gathered is not None
        self._set_writing(True)

        history = self.review.history if self.review is not None else None

        def done(_: object) -> None:
            if not alive(self):
                return
            self._set_writing(False)
            if self.gathered is not None:
                self._written(history.last_change if history is not None else None)
            self.statusBar().showMessage("Saved.", 4000)

        def failed(exc: BaseException) -> None:
            if not alive(self):
                return
            self._set_writing(False)
            if not isinstance(exc, (PaperCommandError, OSError, ValueError)):
                raise exc
            QMessageBox.warning(self, "Nothing saved", str(exc))

        WriteLane.shared().submit(action, done, failed, initiator=self)

    def _written(self, change: ChangeRecord | None) -> None:
        """Show what a write of this window changed: a response (or its undo) redraws its row's Authors cell; an
        alignment moves claims between rows, so the view is built again."""
        assert self.gathered is not None
        if change is not None and change.record_kinds and set(change.record_kinds) <= {"author_response"}:
            self.model.responses_changed(reread_responses(self.gathered.view))
            self._show_details()
        else:
            self.show_gathered(rebuild(self.gathered))

    def _set_writing(self, writing: bool) -> None:
        self.writing = writing
        for name in _WRITES:
            self.actions_by_name[name].setEnabled(not writing)
        if not writing:
            self._update_history_actions()

    def _update_history_actions(self) -> None:
        history = self.review.history if self.review is not None else None
        self.actions_by_name["undo"].setEnabled(bool(history and history.can_undo))
        self.actions_by_name["redo"].setEnabled(bool(history and history.can_redo))

    def _show_dialog(self, dialog: QWidget) -> None:
        if isinstance(self.dialog, QWidget) and alive(self.dialog):
            self.dialog.close()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.cancel()
        self.runner.wait(5000)
        self.updates.wait(5000)
        super().closeEvent(event)


def _mixed_papers(view: PaperView) -> str:
    """Said in the heading, not only among the notes: logbooks of several papers shown together."""
    papers = sorted({lb.logbook.paper_id for lb in view.logbooks if lb.logbook.paper_id})
    return f"\n⚠ These logbooks name {len(papers)} papers ({', '.join(papers)})." if len(papers) > 1 else ""


def cell_summary(cell: MatrixCell) -> str:
    """One line for a cell (used in tests and status messages)."""
    first, second = cell_lines(cell)
    return f"{first} {second}".strip()
