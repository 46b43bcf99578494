"""The queue window: every logbook of a queue with where you stand on it; open one, go to the next claim you
have not reviewed (crossing logbooks), score a logbook on the rubric, raise or clear a flag, undo either, see the
ranking across judges.

Reading the queue (Hub sources downloaded or taken from the cache), scoring and flagging run off the GUI thread;
logbooks are read through the parse cache, so reopening a big queue does not parse it again.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QSpinBox,
    QTableView,
    QToolBar,
    QWidget,
)

from reviewapp.core.io.child_process import run_in_child
from reviewapp.core.io.collector import collector_paused
from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
from reviewapp.core.queue.adjudication import ADJUDICATOR, adjudicate
from reviewapp.core.queue.blind import Blinder
from reviewapp.core.queue.blind_logbook import listed_row_blinder, row_blinder
from reviewapp.core.queue.disputes import QueueDispute
from reviewapp.core.queue.queue_file import Queue, QueueEntry, read_queue
from reviewapp.core.queue.queue_row import DONE, FLAGGED, IN_PROGRESS, NOT_STARTED, QueueRow
from reviewapp.core.queue.row_cache import shared_row_cache
from reviewapp.core.queue.rubric import DEFAULT_RUBRIC, Rubric
from reviewapp.core.queue.scoring import record_rubric_score, score_payload, set_flag
from reviewapp.core.queue.status import (
    Copy,
    download_entry,
    find_copies,
    mark_copy,
    next_unreviewed,
    queue_status,
    read_ahead,
)
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.qt.queue.queue_model import (
    COLUMNS,
    DISPUTED,
    LOGBOOK,
    READING,
    STATUS,
    Listing,
    QueueFilter,
    QueueTableModel,
)
from reviewapp.qt.queue.score_dialog import ScoreDialog
from reviewapp.qt.workers import TaskRunner, alive
from reviewapp.qt.write_lane import WriteLane

OpenClaim = Callable[[Path, str | None, bool], None]  # folder, claim key, blind
STATUSES = ("", NOT_STARTED, IN_PROGRESS, DONE, FLAGGED)
_Chunk = tuple[list[QueueRow], list[Blinder]]  # rows read, and their blinders (git authors only in blind mode)
# the queue, its rows to fill, their blinders, and the cells and items that show them
_Read = tuple[Queue, "_ReadAhead", list[QueueRow], list[Blinder], Listing]
CHUNK = 8  # rows read per task: the table fills in steps of this many
IN_FLIGHT = 4  # chunks submitted at a time: the pool's two threads, and the next two for them
CHILDREN = 2  # read-ahead processes: one per core of the machines the queue is measured on


class _ReadAhead:
    """The queue's logbooks parsed into the parse cache, and their rows kept in the row cache, by two child
    processes (status.read_ahead; the machine's two cores), which send back the figures of each row they
    computed, so the rows are then made here from those figures or served from the caches; a row waits for its
    logbook, or for its child to stop (then it reads and computes itself)."""

    def __init__(self, entries: list[QueueEntry], me: str, roster: Path | None, token: CancelToken) -> None:
        self._entries = entries
        local = [i for i, entry in enumerate(entries) if not entry.remote]
        self._local = set(local)
        self._done: set[int] = set()
        self._figures: dict[int, dict[str, Any]] = {}
        # every other row to each child, so both go down the queue in the order its rows are filled
        shares = [local[part::CHILDREN] for part in range(CHILDREN)]
        shares = [share for share in shares if share]
        self._running = len(shares)
        self._owner = {row: part for part, share in enumerate(shares) for row in share}
        self._over: set[int] = set()
        self._changed = threading.Condition()
        self._shares, self._me, self._roster, self._token = shares, me, roster, token
        self._started = False

    def start(self) -> None:
        """Start the children (once; from a worker: starting a thread waits for it to run, and each hands its
        entries to its child process with the interpreter held, which must not be while the list is drawn)."""
        with self._changed:
            if self._started:
                return
            self._started = True
        for part, share in enumerate(self._shares):
            args = ([self._entries[i] for i in share], self._me, self._roster)
            threading.Thread(
                target=self._run, args=(part, share, args, self._token), name="queue-read-ahead", daemon=True
            ).start()

    def _run(self, part: int, share: list[int], args: tuple[Any, ...], token: CancelToken) -> None:
        # cancelled, or no child could run: either way the rows then read for themselves
        with contextlib.suppress(Exception):
            # the child names its own positions
            mark = lambda message: self._mark(share[message[0]], message[1])  # noqa: E731
            run_in_child(read_ahead, args, on_message=mark, cancel=token, name=f"reviewapp-queue-{part + 1}")
        with self._changed:
            self._over.add(part)
            self._changed.notify_all()

    def _mark(self, row: int, figures: dict[str, Any] | None) -> None:
        with self._changed:
            self._done.add(row)
            if figures is not None:
                self._figures[row] = figures
            self._changed.notify_all()

    def wait(self, rows: range) -> list[dict[str, Any] | None]:
        """Until each of `rows` is read by its child; the figures the children sent for them, served from the
        row cache or computed (None: the row is read here). A row the caches serve is the children's too: they
        walk its folder and ask the row cache on their own cores, not in this process's interpreter."""
        with self._changed:
            self._changed.wait_for(lambda: not any(self._unread(row) for row in rows))
            return [self._figures.pop(row, None) for row in rows]

    def _unread(self, row: int) -> bool:
        """The row is its child's to read, and the child has neither read it nor stopped."""
        return row in self._local and row not in self._done and self._owner[row] not in self._over


FIT_ROWS = 24
STATUS_WIDTH = 220


class QueueWindow(QMainWindow):
    blind_changed = Signal(bool)
    first_row_read = Signal(object, str, bool)  # folder, first claim to review ("" none), blind: once per reading

    def __init__(
        self,
        queue_path: Path,
        me: str,
        open_claim: OpenClaim,
        *,
        rubric: Rubric = DEFAULT_RUBRIC,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.queue_path = queue_path
        self.me = me
        self.rubric = rubric
        self._open_claim = open_claim
        self.queue: Queue | None = None
        self.last_opened: tuple[int, str] | None = None
        self.runner = TaskRunner(2, self)
        self._token: CancelToken | None = None
        self.download_limits: DownloadLimits | None = None  # the command's; None: the preferences' (as `open`)
        self._undo: list[tuple[int, LogbookReview, str]] = []  # scores and flags made here, newest last
        self.setWindowTitle(f"Queue — {queue_path.name}")
        self.model = QueueTableModel()
        self.proxy = QueueFilter()
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)  # the queue's own order
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)  # the items are read-only
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.verticalHeader().hide()
        # fitting a column measures this many rows, not all of them: a hundred rows measured froze the window
        self.table.horizontalHeader().setResizeContentsPrecision(FIT_ROWS)
        for column in range(len(COLUMNS)):
            # widths are fitted once per read (`_loaded`): fitting them on every changed row measures every row
            mode = QHeaderView.ResizeMode.Stretch if column == LOGBOOK else QHeaderView.ResizeMode.Interactive
            self.table.horizontalHeader().setSectionResizeMode(column, mode)
        self.table.doubleClicked.connect(lambda _index: self.open_selected())
        self.table.setAccessibleName("Logbooks in the queue")
        self.table.setObjectName("queue")
        self.table.setProperty("keyColumns", [LOGBOOK, STATUS])
        self.setCentralWidget(self.table)
        self._build_toolbar()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.summary = QLabel()
        self.statusBar().addWidget(self.summary, 1)
        self.statusBar().addPermanentWidget(self.progress)
        self.resize(1100, 600)
        self.reload()

    # -- building --------------------------------------------------------------------------------------------

    def _build_toolbar(self) -> None:
        bar = QToolBar("Queue")
        bar.setMovable(False)
        self.addToolBar(bar)
        self.status_filter = QComboBox()
        self.status_filter.addItems(["Every status", *STATUSES[1:]])
        self.status_filter.setAccessibleName("Filter by status")
        self.status_filter.currentIndexChanged.connect(lambda i: self.proxy.set_status(STATUSES[i]))
        bar.addWidget(self.status_filter)
        self.paper_filter = QLineEdit()
        self.paper_filter.setPlaceholderText("Filter by paper or logbook (Ctrl+F)")
        self.paper_filter.setClearButtonEnabled(True)
        self.paper_filter.setMaximumWidth(280)
        self.paper_filter.setMinimumWidth(220)
        self.paper_filter.textChanged.connect(self.proxy.set_text)
        bar.addWidget(self.paper_filter)
        self.points_filter = QSpinBox()
        self.points_filter.setRange(0, 999)
        self.points_filter.setPrefix("Points ≥ ")
        self.points_filter.setSpecialValueText("Any points")
        self.points_filter.setToolTip("Only logbooks with at least this many Logbook Judge points")
        self.points_filter.setAccessibleName("Filter by Logbook Judge points")
        self.points_filter.valueChanged.connect(self.proxy.set_min_points)
        bar.addWidget(self.points_filter)
        # a checkable tool button: pressed-in while blind, plain to see in both themes
        self.blind_box = QAction("Blind", self)
        self.blind_box.setCheckable(True)
        self.blind_box.setShortcut(QKeySequence("Ctrl+B"))
        self.blind_box.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.blind_box.setToolTip("Hide who made each logbook: a stable pseudonym stands in (Ctrl+B)")
        self.blind_box.toggled.connect(self._blind_toggled)
        bar.addAction(self.blind_box)
        bar.addSeparator()
        self.actions_by_name: dict[str, QAction] = {}
        for name, text, keys, slot in (
            ("open", "Open", ("Return", "Enter"), self.open_selected),
            ("next", "Next Unreviewed Claim", ("N", "Ctrl+J"), self.next_unreviewed),
            ("score", "Score…", ("S",), self.score_selected),
            ("flag", "Flag…", ("F",), self.flag_selected),
            ("disputed", "Disagreements First", ("D",), self.disagreements_first),
            ("adjudicate", "Disagreements…", ("A",), self.show_disagreements),
            ("undo", "Undo", ("Ctrl+Z",), self.undo),
            ("ranking", "Ranking…", ("R",), self.show_ranking),
            ("reload", "Reload", ("F5",), self.reload),
        ):
            action = QAction(text, self)
            action.setShortcuts([QKeySequence(k) for k in keys])
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setToolTip(f"{text} ({' or '.join(keys)})")
            action.triggered.connect(slot)
            bar.addAction(action)
            self.actions_by_name[name] = action
        find = QAction(self)
        find.setShortcut(QKeySequence("Ctrl+F"))
        find.triggered.connect(lambda: self.paper_filter.setFocus(Qt.FocusReason.ShortcutFocusReason))
        self.addAction(find)

    # -- loading ---------------------------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the queue file, show every entry at once, then fill the rows in chunks as their logbooks are read
        (downloaded, parsed or taken from the parse cache), so a long queue is usable while it fills."""
        if self._token is not None:
            self._token.cancel()
        self._token = token = CancelToken()
        self.progress.setRange(0, 0)
        self.progress.show()
        self.summary.setText("Reading the queue…")
        path, me, blind = self.queue_path, self.me, self.model.blind

        def read(_progress: ProgressCallback) -> _Read:
            queue = read_queue(path)
            # a thousand rows and blinders made at once set off a full pass of the collector over the whole heap,
            # for nothing: they are kept while the queue is open (see core/io/collector.py)
            with collector_paused():
                placeholders = [QueueRow(entry=entry, paper=entry.paper, status=READING) for entry in queue.entries]
                blinders = [Blinder.for_logbook(e.location, ()) for e in queue.entries]
                listing = Listing.make(placeholders, blinders, blind=blind)
            return queue, _ReadAhead(queue.entries, me, queue.roster, token), placeholders, blinders, listing

        def listed(found: _Read) -> None:
            if token is self._token and alive(self):
                self._listed(*found, token)
            else:
                token.cancel()  # read again or closed meanwhile: the children stop

        self.runner.submit(read, listed, lambda exc: self._failed(exc, token))

    def _listed(
        self,
        queue: Queue,
        ahead: _ReadAhead,
        placeholders: list[QueueRow],
        blinders: list[Blinder],
        listing: Listing,
        token: CancelToken,
    ) -> None:
        self.queue = queue
        self._announced = False
        selected = self.selected_row()
        # the bar first: setting its value repaints the window at once, which must not take in the table's
        # thousand new rows too (the event loop paints those in a turn of its own)
        self.progress.setRange(0, max(1, len(queue.entries)))
        self.progress.setValue(0)
        with collector_paused():  # the model's own maps of a thousand rows (see core/io/collector.py)
            self.model.set_rows(placeholders, blinders, listing=listing)
        if self.proxy.rowCount():
            self.table.selectRow(0 if selected is None else self._view_row(min(selected, len(placeholders) - 1)))
        self.table.setFocus()
        me, blind, rows, limits = self.me, self.model.blind, self.model.rows, self.download_limits
        kept = shared_row_cache()
        chunks = [queue.entries[i : i + CHUNK] for i in range(0, len(queue.entries), CHUNK)]
        waiting = iter(enumerate(chunks))
        self._chunks_left = len(chunks)
        if not chunks:
            self._filled(token)

        def submit_next() -> None:
            """The next chunk to the pool: a few are in flight at a time, each read one submitting the next, so
            listing a thousand rows does not also set up a hundred tasks in the same turn."""
            found = next(waiting, None)
            if found is None:
                return
            number, entries = found

            def work(_progress: ProgressCallback) -> _Chunk:
                ahead.start()
                computed = ahead.wait(range(number * CHUNK, number * CHUNK + len(entries)))
                with collector_paused():  # the rows' logbooks stay while the queue is open (core/io/collector.py)
                    part = queue_status(
                        Queue(queue.path, entries, [], queue.roster),
                        me,
                        open_remote=lambda entry: download_entry(entry, token, limits),
                        cancel=token,
                        row_cache=kept,
                        computed=computed,
                    )
                # reading git authors costs a git run a logbook: only when blind mode needs them
                blinders = [row_blinder(r, me) if blind else listed_row_blinder(r) for r in part]
                return part, blinders

            def done(result: _Chunk) -> None:
                if token is self._token and alive(self) and self.model.rows is rows:
                    self.model.replace_rows(number * CHUNK, *result, complete=blind)
                    self._announce_first()
                    gc.freeze()  # what showing them made, too (see core/io/collector.py)
                    self.progress.setValue(self.progress.value() + len(result[0]))
                    self._chunks_left -= 1
                    if self._chunks_left == 0:
                        self._filled(token)
                    submit_next()

            self.runner.submit(work, done, lambda exc: self._failed(exc, token))

        def first_chunks() -> None:
            if token is self._token:
                for _ in range(IN_FLIGHT):
                    submit_next()

        # the first chunks, and with them the read-ahead's children, once the listed rows are drawn
        QTimer.singleShot(0, self, first_chunks)

    def _announce_first(self) -> None:
        """Once the queue's first row is read: where its review starts (a broken first row names no folder)."""
        if self._announced or not self.model.rows or self.model.rows[0].status == READING:
            return
        self._announced = True
        row = next((r for r in self.model.rows if r.root is not None and r.status != READING), None)
        if row is not None and row.root is not None:
            number = self.model.rows.index(row)
            key = row.unreviewed[0] if row.unreviewed else (row.claim_keys[0] if row.claim_keys else "")
            self.first_row_read.emit(row.root, key, self.model.hides(number))

    def _filled(self, token: CancelToken) -> None:
        """Every row read: the copies across chunks are looked for in the pool (comparing a thousand logbooks
        would hold the window a tenth of a second), marked here, and the queue is done loading then."""
        rows = self.model.rows
        self.runner.submit(
            lambda _progress: find_copies(list(rows)),
            lambda copies: self._merged(copies, rows, token),
            lambda exc: self._failed(exc, token),
        )

    def _merged(self, copies: list[Copy], rows: list[QueueRow], token: CancelToken) -> None:
        if token is not self._token or not alive(self) or self.model.rows is not rows:
            return
        self._token = None
        for copy in copies:
            mark_copy(rows, copy)
            self.model.replace_row(copy.number, rows[copy.number])
        for column in range(len(COLUMNS)):
            if column != LOGBOOK:
                self.table.resizeColumnToContents(column)
        # a broken row's status carries its problem: elided (the tool tip has it whole), the logbook keeps its room
        self.table.setColumnWidth(STATUS, min(self.table.columnWidth(STATUS), STATUS_WIDTH))
        self.progress.hide()
        self._summarize()
        self._complete_blinders()  # blind mode was switched on while the rows were read

    @property
    def loading(self) -> bool:
        return self._token is not None

    def _failed(self, exc: BaseException, token: CancelToken) -> None:
        if token is not self._token or not alive(self) or isinstance(exc, Cancelled):
            return
        self._token = None
        token.cancel()
        self.progress.hide()
        self.summary.setText(f"The queue cannot be read: {exc}")

    def _summarize(self) -> None:
        rows = self.model.rows
        claims = sum(r.claims for r in rows)
        mine = sum(r.reviewed_by_me for r in rows)
        done = sum(r.status == DONE for r in rows)
        problems = len(self.queue.problems) if self.queue else 0
        unreadable = sum(1 for r in rows if r.problem)
        text = f"{mine} of {claims} claims reviewed by you · {done} of {len(rows)} logbooks done"
        details = [str(p) for p in self.queue.problems] if self.queue else []
        details += [self._safe(i, f"{r.entry.source}: {r.problem}") for i, r in enumerate(rows) if r.problem]
        if problems or unreadable:
            text += f" · {problems + unreadable} row(s) cannot be used (point here to see why)"
        self.summary.setText(text)
        self.summary.setToolTip("\n".join(details))

    # -- actions ---------------------------------------------------------------------------------------------

    def selected_row(self) -> int | None:
        index = self.table.currentIndex()
        return self.proxy.mapToSource(index).row() if index.isValid() else None

    def _view_row(self, source_row: int) -> int:
        return self.proxy.mapFromSource(self.model.index(source_row, 0)).row()

    def open_selected(self) -> None:
        number = self.selected_row()
        if number is None:
            return
        row = self.model.rows[number]
        if row.root is None:
            QMessageBox.information(self, "Cannot open", self._safe(number, row.problem or "not readable"))
            return
        key = row.unreviewed[0] if row.unreviewed else None
        self.last_opened = (number, key) if key else None
        self._open_claim(row.root, key, self.model.hides(number))

    def next_unreviewed(self) -> None:
        after = self.last_opened
        if after is None:
            number = self.selected_row()
            if number is not None and self.model.rows[number].claim_keys:
                after = (number, self.model.rows[number].claim_keys[0])
                if after[1] in self.model.rows[number].unreviewed:
                    self._go(after)
                    return
        found = next_unreviewed(self.model.rows, after)
        if found is None:
            self.summary.setText("Every claim in the queue has your verdict.")
            return
        self._go(found)

    def _go(self, found: tuple[int, str]) -> None:
        number, key = found
        self.last_opened = found
        self.table.selectRow(self._view_row(number))
        row = self.model.rows[number]
        assert row.root is not None
        self._open_claim(row.root, key, self.model.hides(number))

    def disagreements_first(self) -> None:
        self.table.sortByColumn(DISPUTED, Qt.SortOrder.DescendingOrder)

    def score_dialog(self) -> ScoreDialog | None:
        """The rubric dialog for the selected logbook, with this judge's score so far (None: it cannot be read)."""
        number = self.selected_row()
        if number is None or self.model.rows[number].root is None:
            return None
        current = self.model.rows[number].scores.get(self.me) if self.me else None
        return ScoreDialog(self.rubric, self.model.label(number), current, self)

    def score_selected(self) -> None:
        number = self.selected_row()
        if number is None or self.model.rows[number].root is None:
            return
        if not self.me:
            QMessageBox.information(self, "Who is scoring?", "Set your name first (open a logbook to be asked).")
            return
        dialog = self.score_dialog()
        if dialog is None or dialog.exec() != ScoreDialog.DialogCode.Accepted:
            return
        values, comments = dialog.scores(), dialog.criterion_comments()
        comment = dialog.comment.toPlainText()
        payload = score_payload(self.rubric, values, comments, comment, blind=self.model.hides(number))
        self._write(number, lambda review: record_rubric_score(review, payload), "Score")

    def flag_selected(self) -> None:
        number = self.selected_row()
        if number is None or self.model.rows[number].root is None or not self.me:
            return
        row = self.model.rows[number]
        if row.status == FLAGGED:
            answer = QMessageBox.question(self, "Clear the flag?", f"Flagged: {self._safe(number, row.flag_reason)}")
            if answer != QMessageBox.StandardButton.Yes:
                return
            self._write(number, lambda review: set_flag(review, False, None), "Flag cleared")
            return
        reason, ok = QInputDialog.getText(self, "Flag this logbook", "Why does it need a second look?")
        if ok and reason.strip():
            self._write(number, lambda review: set_flag(review, True, reason), "Flag")

    def refresh(self, root: Path) -> None:
        """Read again the row of the logbook at `root` (its verdicts or score changed in the review window)."""
        wanted = root.resolve()
        for number, row in enumerate(self.model.rows):
            if row.root is not None and row.root.resolve() == wanted:
                self._write(number, lambda _review: None, "", reopen=False)
                return

    def refresh_logbook(self, logbook_id: str) -> bool:
        """Read again the row of the logbook with this id (a change named it); False when no row shows it."""
        for number, row in enumerate(self.model.rows):
            if row.root is not None and row.logbook_id == logbook_id:
                self._write(number, lambda _review: None, "", reopen=False)
                return True
        return False

    def undo(self) -> None:
        """Undo the last score or flag made in this window (the review window undoes its own actions)."""
        if not self._undo:
            self.summary.setText("Nothing to undo in the queue.")
            return
        number, review, what = self._undo.pop()

        def action(_review: LogbookReview) -> Any:
            if review.history.undo() is None:
                raise ValueError(f"the {what.lower()} can no longer be undone")

        self._write(number, action, f"Undo of {what.lower()}", review=review, then=self._refresh_disagreements)

    def _write(
        self,
        number: int,
        action: Callable[[LogbookReview], Any],
        what: str,
        *,
        review: LogbookReview | None = None,
        reopen: bool = True,
        role: str = "judge",
        then: Callable[[], None] | None = None,
    ) -> None:
        """Run `action` on the logbook's review on the application's write lane (after any other window's writes,
        never beside them), then read its row again; without `reopen` only read the row again."""
        row = self.model.rows[number]
        assert row.root is not None
        me, entry = self.me, row.entry
        roster = self.queue.roster if self.queue is not None else None  # rows re-read are checked as before
        used: list[LogbookReview] = []

        def work() -> QueueRow:
            logbook = row.logbook  # read here, off the GUI thread, when the row came from the row cache
            if logbook is None:
                raise ValueError(f"{entry.source}: the logbook can no longer be read")
            if reopen:
                opened = review or LogbookReview.open(logbook, Identity(me, "window"), role)
                action(opened)
                used.append(opened)
            known = lambda _entry: (logbook.root, logbook.logbook_id)  # noqa: E731 - already downloaded
            queue = Queue(self.queue_path, [entry], [], roster)
            fresh = queue_status(queue, me, open_remote=known, row_cache=shared_row_cache())[0]
            fresh.points = row.points  # the Logbook Judge's points do not change with a score or a flag
            return fresh

        def done(fresh: QueueRow) -> None:
            if alive(self):
                self.model.replace_row(number, fresh)
                if review is None and used:
                    self._undo.append((number, used[0], what))
                self._summarize()
                if what:
                    self.summary.setText(f"{what} saved (Ctrl+Z undoes it). " + self.summary.text())
                if then is not None:
                    then()

        def failed(exc: BaseException) -> None:
            if alive(self):
                QMessageBox.warning(self, f"{what} not saved", self._safe(number, str(exc)))

        WriteLane.shared().submit(work, done, failed, initiator=self)

    def _safe(self, number: int, text: str | None) -> str:
        return self.model.shown(number, text or "")

    def _blind_toggled(self, blind: bool) -> None:
        self.model.set_blind(blind)
        self.blind_changed.emit(blind)
        self._complete_blinders()

    def _complete_blinders(self) -> None:
        """In blind mode, blinders that know the git authors' names too (read off the GUI thread)."""
        if self.model.blind and not self.model.complete and self.model.rows and not self.loading:
            rows, me = self.model.rows, self.me
            self.runner.submit(
                lambda _progress: [row_blinder(row, me) for row in rows],
                lambda blinders: self.model.set_blinders(rows, blinders) if alive(self) else None,
                lambda exc: self.summary.setText(f"Blind mode could not read the logbooks' authors: {exc}"),
            )

    def show_disagreements(self) -> None:
        """The Disagreements view (A): conflicting verdicts and rubric spreads between people, and for an
        adjudicator the adjudicated verdict to record."""
        from reviewapp.core.queue.disputes import queue_disputes
        from reviewapp.core.review.preferences import load_preferences
        from reviewapp.qt.queue.disagreements_dialog import DisagreementsDialog

        if self.loading:
            self.summary.setText("The queue is still being read; try again when it is done.")
            return
        adjudicator = bool(self.me) and load_preferences().role == ADJUDICATOR
        rows, blind = list(self.model.rows), self.model.blind

        def shown(disputes: list[QueueDispute]) -> None:
            if not alive(self):
                return
            dialog = getattr(self, "disagreements_dialog", None)
            if dialog is None or not alive(dialog):
                dialog = DisagreementsDialog(disputes, self._adjudicate if adjudicator else None, parent=self)
                dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
                QShortcut(QKeySequence("Ctrl+Z"), dialog, self.undo)  # undoes the adjudication made there
                self.disagreements_dialog = dialog
            else:
                dialog.set_disputes(disputes)
            dialog.show()

        self.runner.submit(
            lambda _progress: queue_disputes(rows, blind=blind),
            shown,
            lambda exc: self.summary.setText(f"Disagreements could not be listed: {exc}"),
        )

    def _adjudicate(self, dispute: QueueDispute, verdict: str, rationale: str) -> None:
        blind = self.model.blind
        self._write(
            dispute.row,
            lambda review: adjudicate(review, dispute.claim_key, verdict, rationale, blind=blind),
            "Adjudicated verdict",
            role=ADJUDICATOR,
            then=self._refresh_disagreements,
        )

    def _refresh_disagreements(self) -> None:
        dialog = getattr(self, "disagreements_dialog", None)
        if dialog is not None and alive(dialog) and dialog.isVisible():
            self.show_disagreements()

    def show_ranking(self) -> None:
        from reviewapp.qt.queue.ranking_dialog import RankingDialog

        dialog = RankingDialog(self.model, self.me, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.ranking_dialog = dialog

    def current_index(self) -> QModelIndex:
        return self.table.currentIndex()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._token is not None:
            self._token.cancel()
        self.runner.wait(5000)
        super().closeEvent(event)
