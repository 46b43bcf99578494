"""LogbookController: the window's one adapter over the core: it opens a logbook and holds its review, and keeps no
copy of the claims (rows are the ReviewWorkspace's). Features are handed it, and nothing else of the window.

Loading, indexing the trace and building the search index run on worker threads with a CancelToken, so the
window keeps painting. A newer request always wins: results of a superseded load are dropped.

Every review action goes through `submit`, which runs it on the write lane and hands back, on the GUI thread once
it is done, its result or the core's refusal (a secret in the text, a disk that cannot be written, an annotation
changed elsewhere) as CommandFailed with a message for the user. Nothing waits for it: no event loop is nested.
`changed` carries the ChangeRecord of anything that can change what is shown (a command, an undo or redo, a
reload, a rating) and who asked for it.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal

from reviewapp.core.io.collector import collector_paused
from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_errors import SourceAccessDenied, SourceUnavailable
from reviewapp.core.io.source_ref import SourceError, SourceRef, parse_source

# Imported with the window: the reader imports the claim finder when it first finds claims, which here is a worker's
# first open, where compiling its patterns would keep the interpreter from the window.
from reviewapp.core.logbook import claim_finder as _claim_finder  # noqa: F401
from reviewapp.core.logbook.artifacts import ArtifactEntry, list_artifacts
from reviewapp.core.logbook.demo import demo_workspace
from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Claim, Logbook, Problem
from reviewapp.core.logbook.parse_apart import is_large, parse_apart
from reviewapp.core.logbook.parse_cache import read_logbook_cached
from reviewapp.core.logbook.reader import read_logbook, read_preview
from reviewapp.core.logbook.recent import recent_logbooks, remember_logbook
from reviewapp.core.logbook.search import SearchIndex, query_terms
from reviewapp.core.logbook_judge.judged import JudgedLogbook
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
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
from reviewapp.core.review.workspace import ReviewedClaim, ReviewWorkspace, RowUpdate
from reviewapp.core.review.write_errors import StoreError
from reviewapp.core.sources.opened import OpenedSource
from reviewapp.core.trace.excerpts import Excerpt, ExcerptIndex, index_excerpts_elsewhere
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.image_loader import ImageLoader
from reviewapp.qt.opening import ReviewOpening, open_review, prepare_review
from reviewapp.qt.workers import TaskRunner, release_on
from reviewapp.qt.write_lane import WriteLane

log = logging.getLogger(__name__)


def _remote_ref(source: str) -> SourceRef | None:
    """The source as a Hub or URL reference, or None for a folder (or text that names nothing: the reader says)."""
    try:
        ref = parse_source(source)
    except SourceError:
        return None
    return None if ref.kind == "path" else ref


INDEX_FALLBACK_MS = 1500
_PATHS = re.compile(r"(?:[A-Za-z]:)?[/\\][^\s:'\"]+")  # a path in an error message, hidden in blind mode
_Load = Callable[[ProgressCallback, CancelToken], Logbook]
T = TypeVar("T")


class CommandFailed(Exception):
    """A review action that did not happen; the message says why, for the user."""


@dataclass(frozen=True)
class _Loaded:
    logbook: Logbook
    artifacts: list[ArtifactEntry]
    review: ReviewOpening
    blinder: Blinder | None = None
    trust: Trust | None = None


READING = "Still reading the logbook: verdicts can be given once all of it is read."


@dataclass(frozen=True)
class _Preview:
    logbook: Logbook  # read_preview's: the pages up to the first claim page
    rows: list[ReviewedClaim]  # its claims' rows, no review attached


def _preview_rows(logbook: Logbook) -> list[ReviewedClaim]:
    """(load worker) The preview's rows, derived by a workspace of its own: the window's keeps the logbook shown."""
    workspace = ReviewWorkspace()
    return workspace.rows(workspace.add(logbook))


class LogbookController(QObject):
    loading_started = Signal(str)  # a name for what is being opened
    loading_progress = Signal(int, int, str)  # pages done, pages total, current page
    # The start of the logbook being read (read_preview), shown while the rest is read: its claims are provisional,
    # and no review is attached until `loaded` (verdicts wait for it). Not for a blind or a remote logbook.
    previewed = Signal(object)  # Logbook
    loaded = Signal(object)  # Logbook
    load_failed = Signal(str)  # one line for the user
    load_cancelled = Signal()
    excerpts_ready = Signal()  # the trace index for the loaded logbook is complete
    verdicts_changed = Signal()  # judge or human verdicts were replaced
    claims_changed = Signal()  # reviewers added, split or merged claims (or undid that), or the review was re-read
    rows_changed = Signal(object)  # a tuple of claim keys whose verdicts, marks or agent verdict changed
    busy_changed = Signal(bool)
    # The review changed (a command, undo/redo, reload, a pair rating): its ChangeRecord, which names the claims and
    # record kinds it touched, and the screen that asked for it (None: another window or a reload), so that each
    # listener does only what the change names and a screen can skip its own.
    changed = Signal(object, object)
    reviewer_changed = Signal()  # the review was opened for another reviewer (after asking who is reviewing)
    _lane_told = Signal()  # emitted from the lane: what it heard waits in `_pending` for the GUI thread
    _preview_ready = Signal(object, object)  # emitted from the load worker: its CancelToken, the _Preview

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = TaskRunner(2, self)
        self.images = ImageLoader(parent=self)
        self.logbook: Logbook | None = None
        self.preview: Logbook | None = None  # the start of the logbook being read, while it is shown (`previewed`)
        self._preview_rows: list[ReviewedClaim] = []
        self.artifacts: list[ArtifactEntry] = []
        self.excerpt_index: ExcerptIndex | None = None
        self._search: SearchIndex | None = None
        self.workspace = ReviewWorkspace()  # the open logbook's rows and review state, derived in the core
        self.logbook_id: str | None = None
        self._load_token: CancelToken | None = None
        self._index_token: CancelToken | None = None
        self._index_pending = False
        self.source_label = ""
        self.opened_source: OpenedSource | None = None  # where a remote logbook came from (None: a folder)
        self._pending_sources: dict[int, OpenedSource] = {}  # by load token: set on the worker, taken when loaded
        self.failure: BaseException | None = None  # why the last open failed (the window offers a login for some)
        self.failed_source: str | None = None
        self.download_limits: DownloadLimits | None = None  # None: the preferences' (the Open dialog sets them)
        self.blind_mode = False  # the next logbooks opened hide who made them (View > Blind Review)
        self.blinder: Blinder | None = None  # the open logbook's, while it is shown blind
        self._blind_next = False
        self._trust_next: Trust | None = None
        self.trust: Trust | None = None  # which records count for the open logbook (a queue's roster); None: settings
        # the open logbook's review: None until the reviewer is known (`reason` says why, `ask`: ask who it is)
        self.logbook_review: LogbookReview | None = None
        self.reason: str | None = "Open a logbook to review it."
        self.ask = False
        self.pair_sets: dict[str, str | None] = {}  # set name -> key of the claim it belongs to
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
        self._preview_ready.connect(self._previewed, Qt.ConnectionType.QueuedConnection)
        self.changed.connect(self._change_made)
        # the workspace hears changes where the action runs (the write lane); the window hears of them after it
        self.workspace.listeners.append(lambda update: self.deliver(lambda: self._rows_updated(update)))

    def shown(self, text: str) -> str:
        """`text` as the judge may see it: scrubbed of the participant's identity while the logbook is blind."""
        return self.blinder.scrub(text) if self.blinder is not None and text else text

    # --- opening ------------------------------------------------------------------------------------------------------

    def open(self, source: Path | str, *, blind: bool | None = None, trust: Trust | None = None) -> None:
        """Open a folder, or any other SOURCE form (a Space, dataset or URL: downloaded, or its cached copy).

        Every logbook is read through the parse cache, which the command line and the queue share; `blind`
        overrides the window's blind mode for this logbook (a queue reveals a logbook once the judge has scored
        it); `trust` says which records count (the roster of the queue it came from; None: the settings')."""
        self._blind_next = self.blind_mode if blind is None else blind
        self._trust_next = trust
        ref = None if isinstance(source, Path) else _remote_ref(source)
        self.failed_source = None if ref is None else str(source)
        if ref is None:
            path = Path(source).expanduser()
            label = "a logbook" if self._blind_next else path.name or str(path)
            blind = self._blind_next

            def whole(progress: ProgressCallback, token: CancelToken) -> Logbook:
                large = is_large(path)
                if large and not blind:  # blind: the names it hides are only known once all of it is read
                    self._read_preview(path, token)
                parse_apart(path, progress, token, large=large)  # by a child, with its own interpreter
                return read_logbook_cached(path, progress, token)

            self._start(label, whole, path)
            return

        def load(progress: ProgressCallback, token: CancelToken) -> Logbook:
            from reviewapp.core.review.preferences import load_preferences
            from reviewapp.core.sources.opener import open_source

            limits = self.download_limits or load_preferences().download_limits()
            opened = open_source(ref, limits=limits, progress=progress, cancel=token)
            self._pending_sources[id(token)] = opened
            parse_apart(opened.folder, progress, token, logbook_id=opened.logbook_id)  # as a folder's (see `whole`)
            return read_logbook_cached(opened.folder, progress, token, logbook_id=opened.logbook_id)

        self._start("a logbook" if self._blind_next else ref.describe(), load, None)

    def source_banner(self) -> str | None:
        """What copy is shown, for a logbook from the Hub or a URL (`Showing a cached copy of … at revision …`)."""
        if self.opened_source is None:
            return None
        notes = [f"Note: {note[:1].upper()}{note[1:]}." for note in self.opened_source.notes]
        lines = [self.opened_source.banner(), self.opened_source.proposals_line(), *notes]
        return "\n".join(line for line in lines if line) or None

    def login_needed(self) -> bool:
        """The last open failed because the Hub wants a login (private or gated), so the window offers one."""
        return isinstance(self.failure, SourceAccessDenied) and self.failed_source is not None

    def open_demo(self) -> None:
        self._blind_next = self.blind_mode

        def load(progress: ProgressCallback, token: CancelToken) -> Logbook:
            return read_logbook(demo_workspace(), progress, token)

        self._start("the demo logbook", load, None)

    def cancel_loading(self) -> None:
        if self._load_token is not None:
            self._load_token.cancel()

    @property
    def loading(self) -> bool:
        return self._load_token is not None

    @property
    def indexing(self) -> bool:
        return self._index_token is not None or self._index_pending

    @property
    def busy(self) -> bool:
        return self.loading or self.indexing or self.images.pending > 0

    def _start(self, label: str, load: _Load, remember: Path | None) -> None:
        """Read on a worker (`load` may show the start of a large folder first: see `_read_preview`)."""
        self.cancel_loading()
        token = CancelToken()
        self._load_token = token
        self.source_label = label
        blind, judge = self._blind_next, self._judge_name()
        trust, self._trust_next = self._trust_next, None  # only the open it was given for

        def work(progress: ProgressCallback) -> _Loaded:
            with collector_paused():  # the heap only grows while a logbook is read (see core/io/collector.py)
                logbook = load(progress, token)
                if remember is not None:  # here, not on the GUI thread: a file written while the window waits
                    try:
                        remember_logbook(remember)
                    except OSError as exc:
                        log.warning("could not update the recent logbooks list: %s", exc)
                blinder = None
                if blind:
                    from reviewapp.core.queue.blind_logbook import blind_logbook, blinder_of

                    blinder = blinder_of(logbook, judge)
                    logbook = blind_logbook(logbook, blinder)
                # the search index reads every cell: built once the first claim is shown (_index_search)
                return _Loaded(logbook, list_artifacts(logbook), prepare_review(logbook, trust), blinder, trust)

        self.loading_started.emit(label)
        self.busy_changed.emit(True)
        self._runner.submit(
            work,
            lambda result: self._loaded(token, result),
            lambda exc: self._load_error(token, exc),
            lambda done, total, page: self._progress(token, done, total, page),
        )

    def _read_preview(self, source: Path, token: CancelToken) -> None:
        """(load worker) Read the start of a large logbook the parse cache does not serve (`is_large`) and post it
        to the GUI thread; nothing when the start names no claim. A preview that fails is only logged: the whole
        reading says what is wrong."""
        try:
            logbook = read_preview(source, token)
            if logbook is None:
                return
            rows = _preview_rows(logbook)
        except Cancelled:
            raise
        except Exception as exc:  # the whole reading follows, and says what is wrong
            log.warning("no preview of %s: %s", source, exc)
            return
        self._preview_ready.emit(token, _Preview(logbook, rows))

    def _previewed(self, token: CancelToken, preview: _Preview) -> None:
        """Show the start of the logbook being read. The logbook shown before is let go: its review no longer
        takes verdicts, and none is attached until the whole logbook is (`submit` says to wait)."""
        if token is not self._load_token:
            return
        if self._index_token is not None:
            self._index_token.cancel()
            self._index_token = None
        self._index_pending = False
        self._detach()
        if self.logbook_id is not None:
            self.workspace.close(self.logbook_id)
        self.logbook, self.logbook_id, self.blinder = None, None, None
        release_on(self._runner, self._search)
        release_on(self._runner, self.excerpt_index)
        self._search, self.excerpt_index, self.artifacts = None, None, []
        self.reason, self.ask = READING, False
        self.preview, self._preview_rows = preview.logbook, preview.rows
        self.previewed.emit(preview.logbook)

    @property
    def previewing(self) -> bool:
        """The start of a logbook is shown while the rest is read: its claims are provisional, verdicts wait."""
        return self.preview is not None

    def _end_preview(self) -> None:
        self.preview, self._preview_rows = None, []

    def _progress(self, token: CancelToken, done: int, total: int, page: str) -> None:
        if token is self._load_token:
            self.loading_progress.emit(done, total, page)

    def _loaded(self, token: CancelToken, result: _Loaded) -> None:
        if token is not self._load_token:
            return  # superseded by a newer open
        self._load_token = None
        self._end_preview()
        if self._index_token is not None:
            self._index_token.cancel()
        self.opened_source = self._pending_sources.pop(id(token), None)
        self._pending_sources.clear()
        self.blinder = result.blinder
        self.trust = result.trust
        self.logbook = result.logbook
        release_on(self._runner, self._search)  # the last logbook's indexes, let go of off this turn
        release_on(self._runner, self.excerpt_index)
        self._search = None
        self.artifacts = result.artifacts
        self.excerpt_index = None
        self._attach(result.review)
        if self.logbook_id is not None:
            self.workspace.close(self.logbook_id)
        self.logbook_id = self.workspace.add(result.logbook, self.logbook_review)
        self._index_pending = True
        gc.freeze()  # what attaching it made, too (see core/io/collector.py)
        self.loaded.emit(result.logbook)
        # The window starts the search and trace indexes once the first claim is on screen (index_traces); this is
        # the fallback.
        QTimer.singleShot(INDEX_FALLBACK_MS, self.index_traces)
        self.busy_changed.emit(self.busy)

    def _load_error(self, token: CancelToken, exc: BaseException) -> None:
        if token is not self._load_token:
            return
        self._load_token = None
        if self.preview is not None:  # the start shown goes with it: nothing is open
            self._end_preview()
            self.reason = "Open a logbook to review it."
        self.failure = exc
        if isinstance(exc, Cancelled):
            self.load_cancelled.emit()
        elif isinstance(exc, NotALogbookError | SourceUnavailable):
            self.load_failed.emit(self._failure_text(str(exc)))  # names the source and what to do
        else:
            log.error("loading failed", exc_info=(type(exc), exc, exc.__traceback__))
            self.load_failed.emit(
                self._failure_text(f"{self.source_label}: could not be opened ({type(exc).__name__}: {exc})")
            )
        self.busy_changed.emit(self.busy)

    def _failure_text(self, text: str) -> str:
        """A blind load's error names no path: the names that would scrub it are only known once it is read."""
        if not self._blind_next:
            return text
        return Blinder.for_logbook("", ()).scrub(_PATHS.sub("…", text))

    def _judge_name(self) -> str:
        identity = self.identity
        if identity is not None:
            return identity.name
        from reviewapp.core.review.preferences import load_preferences

        return load_preferences().annotator or ""

    def index_traces(self) -> None:
        """Build the claim search and tie trace events to claims in the background; once per load. Deferred so
        that neither competes with drawing the first claim for the interpreter."""
        if not self._index_pending or self.logbook is None:
            return
        self._index_pending = False
        logbook = self.logbook
        self._index_search(logbook)
        if not any(t.chunks for t in logbook.traces):
            self.excerpt_index = ExcerptIndex()
            self.excerpts_ready.emit()
            return
        token = CancelToken()
        self._index_token = token

        def done(index: ExcerptIndex) -> None:
            if token is self._index_token:
                self._index_token = None
                self.excerpt_index = index
                self.excerpts_ready.emit()
                self.busy_changed.emit(self.busy)

        def failed(exc: BaseException) -> None:
            if token is self._index_token:
                self._index_token = None
                if not isinstance(exc, Cancelled):
                    log.error("trace indexing failed", exc_info=(type(exc), exc, exc.__traceback__))
                    self.excerpt_index = ExcerptIndex()
                    self.excerpts_ready.emit()
                self.busy_changed.emit(self.busy)

        def work(progress: ProgressCallback) -> ExcerptIndex:
            with collector_paused():  # a collector pass over what it builds would hold the interpreter (collector.py)
                return index_excerpts_elsewhere(logbook, cancel=token, progress=progress)

        self._runner.submit(work, done, failed)

    # --- derived state ------------------------------------------------------------------------------------------------

    def recent(self) -> list[Path]:
        return recent_logbooks()

    def rows(self) -> list[ReviewedClaim]:
        """The open logbook's claims as the workspace derived them, in claim-list order: the one list of claims
        (nothing in the window keeps one of its own). While a preview is shown, its provisional rows."""
        if self.preview is not None:
            return list(self._preview_rows)
        return self.workspace.rows(self.logbook_id) if self.logbook_id is not None else []

    def row(self, ref: str | int) -> ReviewedClaim | None:
        """A claim's row by key, an earlier key of it, or its number."""
        if self.preview is not None:
            claim = self.preview.claim(ref)
            return next((row for row in self._preview_rows if claim is not None and row.key == claim.key), None)
        return self.workspace.find(self.logbook_id, ref) if self.logbook_id is not None else None

    @property
    def claims(self) -> list[Claim]:
        """The claims as reviewers corrected them (the reader's claims while nobody has)."""
        return [row.claim for row in self.rows()]

    def claim(self, ref: str | int) -> Claim | None:
        row = self.row(ref)
        return row.claim if row is not None else None

    def problems(self) -> list[Problem]:
        """What could not be read: the logbook's problems, then the review files'."""
        return [*(self.logbook.problems if self.logbook else []), *self._review_problems()]

    def _index_search(self, logbook: Logbook) -> None:
        """Build the claim search after the first claim is on screen; a search typed before it is ready builds it
        there and then (see search)."""

        def done(index: SearchIndex) -> None:
            if self.logbook is logbook and self._search is None:
                self._search = index

        def work(_progress: ProgressCallback) -> SearchIndex:
            with collector_paused():  # as for the excerpts: no collector pass on this worker while it builds
                return SearchIndex(logbook)

        self._runner.submit(work, done, lambda exc: log.warning("search: %s", exc))

    def search(self, query: str) -> set[str] | None:
        """Claim keys matching the query in title or evidence; None when the query is empty."""
        if self._search is None and self.logbook is not None and query_terms(query):
            self._search = SearchIndex(self.logbook)  # asked for before the background build was done
        matching = self._search.matching(query) if self._search is not None else None
        if matching is None or self.logbook_id is None:
            return matching
        return self.workspace.search(self.logbook_id, matching, query)

    def excerpts(self, claim: Claim) -> list[Excerpt] | None:
        """Trace events tied to the claim; None while the trace is still being indexed."""
        if self.excerpt_index is None:
            return None
        keys = self.workspace.stands_for(self.logbook_id, claim.key) if self.logbook_id is not None else (claim.key,)
        found: list[Excerpt] = []
        seen: set[tuple[str, int]] = set()  # by address: comparing thousands of events field by field froze the window
        for key in keys:  # a split or merged claim is tied to what the claims it replaces were tied to
            for excerpt in self.excerpt_index.for_claim(key):
                if (excerpt.trace_id, excerpt.sequence) not in seen:
                    seen.add((excerpt.trace_id, excerpt.sequence))
                    found.append(excerpt)
        if self.blinder is not None:
            from reviewapp.core.queue.blind_logbook import blind_event

            blinder = self.blinder
            found = [dataclasses.replace(e, event=blind_event(e.event, blinder)) for e in found]
        return found

    def logbook_judge(self) -> JudgedLogbook | None:
        """The open logbook's Logbook Judge slot, as the workspace matched it (re-matches by hand applied)."""
        return self.workspace.logbook_judge(self.logbook_id) if self.logbook_id is not None else None

    def reload_logbook_judge(self) -> None:
        """Read the stored Logbook Judge import again (after importing a verdicts file); redraw the rows it changes."""
        if self.logbook_id is not None:
            self.workspace.reload_logbook_judge(self.logbook_id)

    def _reviewer_changed(self) -> None:
        if self.logbook_id is not None:
            self.workspace.set_review(self.logbook_id, self.logbook_review)
            self._rows_updated(RowUpdate(self.logbook_id, restructured=True))

    def _change_made(self, change: ChangeRecord, _initiator: object) -> None:
        if change.everything and self.logbook_id is not None and change.logbook_id == self.logbook_id:
            self.workspace.refresh(self.logbook_id)  # the files were read again

    def _rows_updated(self, update: RowUpdate) -> None:
        """Rows changed: redraw those named, or list the claims again when claims may have come or gone (the
        views compare what they list with the workspace's rows: nothing here keeps a list to compare with)."""
        if update.logbook_id != self.logbook_id or self.logbook is None:
            return
        if update.restructured:
            self.claims_changed.emit()
            self.verdicts_changed.emit()
        elif update.keys:
            self.rows_changed.emit(update.keys)

    def shutdown(self, msecs: int = 10_000) -> None:
        """Cancel what runs and wait for the workers (window close, end of a test)."""
        self.cancel_loading()
        if self._index_token is not None:
            self._index_token.cancel()
        self._runner.wait(msecs)
        self.images.wait(msecs)
        self.lane.shutdown()

    # --- the review ---------------------------------------------------------------------------------------------------

    def _attach(self, opening: ReviewOpening) -> None:
        """The worker's preparation for a newly loaded logbook (no signal: the window is about to show it)."""
        self._detach()
        self.logbook_review = opening.logbook_review
        self.reason, self.ask = opening.reason, opening.ask
        self.pair_sets, self.pair_problems = opening.pair_sets, opening.problems
        self._listen()

    def open_as(self, identity: Identity, role: str) -> None:
        """Open the logbook_review for `identity` (the first time, or after the reviewer changed their name)."""
        if self.logbook is None:
            raise CommandFailed(READING if self.preview is not None else "Open a logbook first.")
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

    # --- reading the review -------------------------------------------------------------------------------------------

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
        if self.logbook_review is None or self.logbook_id is None:
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

    def _review_problems(self) -> list[Problem]:
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

    # --- acting on the review -----------------------------------------------------------------------------------------

    @property
    def writing(self) -> bool:
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
        if review is None or self.preview is not None:
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
