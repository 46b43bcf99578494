"""ReviewController: the open LogbookReview of the loaded logbook, as the window sees it.

Every action goes through `submit`, which runs it on the write lane and hands back, on the GUI thread once it is
done, its result or the core's refusal (a secret in the text, a disk that cannot be written, an annotation changed
elsewhere) as CommandFailed with a message for the user. Nothing waits for it: no event loop is nested. `changed`
carries the ChangeRecord of anything that can change what is shown (a command, an undo or redo, a reload, a
rating) and who asked for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Qt, QThread, Signal

from reviewapp.core.logbook.model import Logbook, Problem
from reviewapp.core.queue.blind import Blinder
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.history import Command, HistoryConflict
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
from reviewapp.core.review.records import NoteRecord, VerdictRecord
from reviewapp.core.review.state import EffectiveClaim
from reviewapp.core.review.store import ReviewsLocation, SecretInRecord, TailRepair
from reviewapp.core.review.targets import TargetError
from reviewapp.core.review.trust import Trust
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.review.write_errors import StoreError
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.review.opening import ReviewOpening, open_review
from reviewapp.qt.write_lane import WriteLane

T = TypeVar("T")


class CommandFailed(Exception):
    """An annotation action that did not happen; the message says why, for the user."""


class ReviewController(QObject):
    # The annotations changed (a command, undo/redo, reload, a pair rating): its ChangeRecord, which names the claims
    # and record kinds it touched, and the screen that asked for it (None: another window or a reload), so that each
    # listener does only what the change names and a screen can skip its own.
    changed = Signal(object, object)
    _lane_told = Signal()  # emitted from the lane: what it heard waits in `_pending` for the GUI thread
    reviewer_changed = Signal()  # a logbook_review was opened for another reviewer (after asking who is reviewing)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.logbook: Logbook | None = None
        self.logbook_review: LogbookReview | None = None
        self.reason: str | None = "Open a logbook to review it."
        self.ask = False
        self.pair_sets: dict[str, str | None] = {}
        self.pair_problems: list[Problem] = []
        self._location: ReviewsLocation | None = None
        self._repairs_reported = 0
        self.lane = WriteLane.shared()  # the application's: appends, fsync and git stay off the GUI thread
        self._pending: list[Callable[[], None]] = []  # what the lane heard, told on the GUI thread after it
        self._pending_lock = threading.Lock()
        self._acting = 0  # submitted commands under way: they tell what the lane heard once they return
        self._in_flight = 0  # (GUI thread) commands submitted and not yet delivered back
        self._idle_waiters: list[Callable[[], None]] = []  # what waits for them (`when_idle`)
        self._initiator: object = None  # (lane thread) the screen whose submitted command is running
        self._lane_told.connect(self._flush, Qt.ConnectionType.QueuedConnection)
        self.blinder: Blinder | None = None  # the open logbook's, while it is reviewed blind
        self.workspace: ReviewWorkspace | None = None  # the window's, which holds the open logbook's review state
        self.trust: Trust | None = None  # which records count for the open logbook (a queue's roster); None: settings
        self.logbook_id: str | None = None

    # -- opening ----------------------------------------------------------------------------------------------

    def attach(self, logbook: Logbook, opening: ReviewOpening) -> None:
        """The worker's preparation for a newly loaded logbook (no signal: the window is about to show it)."""
        self._detach()
        self.logbook = logbook
        self.logbook_review = opening.logbook_review
        self.reason, self.ask = opening.reason, opening.ask
        self.pair_sets, self.pair_problems = opening.pair_sets, opening.problems
        self._listen()

    def open_as(self, identity: Identity, role: str) -> None:
        """Open the logbook_review for `identity` (the first time, or after the reviewer changed their name)."""
        if self.logbook is None:
            raise CommandFailed("Open a logbook first.")
        try:
            logbook_review = open_review(self.logbook, identity, role, self.trust)
        except Exception as exc:  # unreadable folder: say so, keep the window usable
            raise CommandFailed(f"The review files could not be read ({type(exc).__name__}: {exc})") from exc
        self._detach()
        self.logbook_review = logbook_review
        self.reason, self.ask = None, False
        self._listen()
        self.reviewer_changed.emit()
        self.changed.emit(ChangeRecord.reload(logbook_review.history.logbook_id), None)

    def _listen(self) -> None:
        self._location = None
        self._repairs_reported = 0
        if self.logbook_review is not None:
            self.logbook_review.blind = self.blinder is not None
            self.logbook_review.history.listeners.append(self._history_changed)

    def _detach(self) -> None:
        if self.logbook_review is not None and self._history_changed in self.logbook_review.history.listeners:
            self.logbook_review.history.listeners.remove(self._history_changed)
        self.logbook_review = None

    def _history_changed(self, change: ChangeRecord) -> None:
        initiator = self._initiator  # set on the lane while a submitted command runs
        self.deliver(lambda: self.changed.emit(change, initiator))

    def deliver(self, told: Callable[[], None]) -> None:
        """Call `told` on the GUI thread: now when this is the GUI thread, else once the lane's action returns
        (history listeners run where the action runs; widgets must only hear of it on the GUI thread). A command
        another window ran on the lane (a pair rating) is told through the GUI thread's event queue."""
        if QThread.currentThread() is self.thread():
            told()
            return
        with self._pending_lock:
            self._pending.append(told)
            acting = self._acting > 0
        if not acting:  # no submitted command will flush it when it returns
            self._lane_told.emit()

    def _flush(self) -> None:
        while True:
            with self._pending_lock:
                if not self._pending:
                    return
                told = self._pending.pop(0)
            told()

    # -- reading ----------------------------------------------------------------------------------------------

    @property
    def active(self) -> bool:
        return self.logbook_review is not None

    @property
    def identity(self) -> Identity | None:
        return self.logbook_review.identity if self.logbook_review is not None else None

    def effective_claims(self) -> list[EffectiveClaim] | None:
        return self.logbook_review.claims() if self.logbook_review is not None else None

    def effective(self, key: str) -> EffectiveClaim | None:
        return self.logbook_review.state.effective_claim(key) if self.logbook_review is not None else None

    def human_verdicts(self) -> dict[str, Verdict]:
        """This reviewer's verdict per claim key (the H badge)."""
        logbook_review = self.logbook_review
        if logbook_review is None:
            return {}
        found: dict[str, Verdict] = {}
        for key in logbook_review.state.verdict_claims():
            record = logbook_review.state.verdict(key, logbook_review.identity.name)
            if record is not None:
                found[key] = record.payload.verdict
        return found

    def my_verdict(self, claim_key: str) -> VerdictRecord | None:
        logbook_review = self.logbook_review
        return (
            logbook_review.state.verdict(claim_key, logbook_review.identity.name)
            if logbook_review is not None
            else None
        )

    @property
    def blind(self) -> bool:
        return self.blinder is not None

    @property
    def rule(self) -> BlindRule:
        """The blind rule every view of the open logbook applies (everything shown when not blind)."""
        me = self.logbook_review.identity.name if self.logbook_review is not None else ""
        if self.blinder is None:
            return BlindRule(me=me)
        logbook = self.logbook
        base = None if logbook is None else (logbook.workspace or logbook.root)
        return self.blinder.rule(me, base)

    def _shown_path(self, path: Path) -> str:
        logbook = self.logbook
        if self.blinder is not None:
            return self.rule.path(path)
        if logbook is not None and path.is_relative_to(logbook.root):
            return path.relative_to(logbook.root).as_posix()
        return str(path)

    def other_verdicts(self, claim_key: str) -> list[VerdictRecord]:
        """Other reviewers' verdicts on the claim, by the workspace's blind rule."""
        if self.logbook_review is None or self.workspace is None or self.logbook_id is None:
            return []
        return self.workspace.visible_verdicts(self.logbook_id, claim_key, self.rule)  # blind: none until mine

    def notes(self, *, claim: str | None = None, page: str | None = None) -> list[NoteRecord]:
        if self.logbook_review is None:
            return []
        state = self.logbook_review.state
        return self.rule.shown(state, state.notes(claim=claim, page=page))  # blind: others' once my verdict is in

    def label(self, record: NoteRecord) -> str:
        return self.logbook_review.label(record.target) if self.logbook_review is not None else ""

    def is_mine(self, record: object) -> bool:
        return (
            self.logbook_review is not None and getattr(record, "annotator", None) == self.logbook_review.identity.name
        )

    def sets_for(self, claim_key: str | None) -> list[str]:
        """Pair sets belonging to the claim (all sets when `claim_key` is None)."""
        if claim_key is None:
            return sorted(self.pair_sets)
        effective = self.effective(claim_key)
        keys = set(effective.stands_for if effective is not None else (claim_key,))
        return sorted(name for name, key in self.pair_sets.items() if key in keys)

    def tag_choices(self) -> list[str]:
        return self.logbook_review.tag_choices() if self.logbook_review is not None else []

    def location(self) -> ReviewsLocation | None:
        """Where this reviewer's records go (probed by writing once per logbook_review)."""
        if self.logbook_review is None:
            return None
        if self._location is None:
            self._location = self.logbook_review.store.location
        return self._location

    def file(self) -> Path | None:
        logbook_review = self.logbook_review
        return logbook_review.store.file_for(logbook_review.identity.slug) if logbook_review is not None else None

    def problems(self) -> list[Problem]:
        """Review files' invalid lines, lines set aside, records that cannot apply, unreadable pair sets."""
        found = list(self.pair_problems)
        logbook_review = self.logbook_review
        if logbook_review is None:
            return found
        for issue in logbook_review.loaded.issues:
            found.append(Problem(self._shown_path(issue.file), issue.line, issue.message))
        for repair in logbook_review.repairs:
            issue = repair.issue
            found.append(Problem(self._shown_path(issue.file), issue.line, issue.message))
        for problem in [*logbook_review.state.problems, *logbook_review.state.claim_problems()]:
            file, _, line = problem.where.rpartition(":")
            found.append(Problem(file or "reviews", int(line) if line.isdigit() else None, problem.message))
        return found

    def new_repairs(self) -> list[TailRepair]:
        """Torn lines set aside by appends since the last call (another writer died mid-line)."""
        if self.logbook_review is None:
            return []
        fresh = self.logbook_review.repairs[self._repairs_reported :]
        self._repairs_reported = len(self.logbook_review.repairs)
        return fresh

    # -- acting -----------------------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A command this controller submitted is still on the lane."""
        return self._in_flight > 0

    def when_idle(self, then: Callable[[], None]) -> None:
        """Call `then` now, or once every command submitted so far is done. A key pressed while a save is in flight
        is queued here, not dropped and not applied to the state before the save (a second Ctrl+Enter would
        otherwise save the same verdict twice)."""
        if self._in_flight == 0:
            then()
        else:
            self._idle_waiters.append(then)

    def submit(
        self,
        do: Callable[[LogbookReview], T],
        on_done: Callable[[T], None] | None = None,
        on_failed: Callable[[CommandFailed], None] | None = None,
        *,
        initiator: object = None,
    ) -> None:
        """Run one logbook_review action on the write lane; `on_done(result)` on the GUI thread once it is on disk,
        or `on_failed(CommandFailed)` (nothing saved) when it cannot be done. Listeners hear of the change first."""
        review = self.logbook_review
        if review is None:
            refusal = CommandFailed(self.reason or "Nobody is reviewing: set your name first (Review > Reviewer Name).")
            if on_failed is not None:
                on_failed(refusal)
            return
        with self._pending_lock:
            self._acting += 1
        self._in_flight += 1

        def done(result: T) -> None:
            self._settle()
            if on_done is not None:
                on_done(result)
            self._wake()

        def failed(exc: BaseException) -> None:
            self._settle()
            try:
                refusal = self._refusal(exc)
            finally:
                self._wake()
            if on_failed is not None:
                on_failed(refusal)

        def run() -> T:
            self._initiator = initiator
            try:
                return do(review)
            finally:
                self._initiator = None

        self.lane.submit(run, done, failed, initiator=initiator)

    def _settle(self) -> None:
        with self._pending_lock:
            self._acting -= 1
        self._in_flight -= 1
        self._flush()  # what the lane heard during the command, told before the caller goes on

    def _wake(self) -> None:
        while self._in_flight == 0 and self._idle_waiters:
            self._idle_waiters.pop(0)()

    def _refusal(self, exc: BaseException) -> CommandFailed:
        """The user's sentence for why an action did not happen; anything else is a fault and raised."""
        if isinstance(exc, CommandFailed):
            return exc
        if isinstance(exc, (SecretInRecord, StoreError)):
            return CommandFailed(f"Not saved: {exc}")
        if isinstance(exc, HistoryConflict):
            self.reload()
            return CommandFailed(f"{_sentence(str(exc))} The review was reloaded.")
        if isinstance(exc, (AnnotationError, TargetError)):
            return CommandFailed(_sentence(str(exc)))
        raise exc

    def undo(self, on_done: Callable[[str | None], None], on_failed: Callable[[CommandFailed], None]) -> None:
        """Undo the last action; `on_done` gets the label of what was undone (None when nothing was).

        The files are read again first, so that a change made elsewhere since (another window, the command
        line) is seen and refused as a conflict instead of being silently superseded.
        """
        self.submit(lambda s: (s.reload(), _label(s.history.undo()))[1], on_done, on_failed)

    def redo(self, on_done: Callable[[str | None], None], on_failed: Callable[[CommandFailed], None]) -> None:
        self.submit(lambda s: (s.reload(), _label(s.history.redo()))[1], on_done, on_failed)

    def reload(self) -> None:
        """Read the files again (after a commit, a pull, another window's writes)."""
        if self.logbook_review is not None:
            self.logbook_review.reload()
            self.logbook_review.refresh_revision()
            self._location = None
            self.changed.emit(ChangeRecord.reload(self.logbook_review.history.logbook_id), None)


def _label(command: Command | None) -> str | None:
    return command.label if command is not None else None


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
