"""LogbookController: owns the loaded logbook and everything derived from it; the only object widgets call.

Loading, indexing the trace and building the search index run on worker threads with a CancelToken, so the
window keeps painting. A newer request always wins: results of a superseded load are dropped.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from reviewapp.core.io.collector import collector_paused
from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_errors import SourceAccessDenied, SourceUnavailable
from reviewapp.core.io.source_ref import SourceError, SourceRef, parse_source
from reviewapp.core.logbook.artifacts import ArtifactEntry, list_artifacts
from reviewapp.core.logbook.demo import demo_workspace
from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Claim, Logbook, Problem
from reviewapp.core.logbook.parse_cache import read_logbook_cached
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.recent import recent_logbooks, remember_logbook
from reviewapp.core.logbook.search import SearchIndex, query_terms
from reviewapp.core.logbook_judge.judged import JudgedLogbook
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
from reviewapp.core.queue.blind import Blinder
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.trust import Trust
from reviewapp.core.review.workspace import ReviewedClaim, ReviewWorkspace, RowUpdate
from reviewapp.core.sources.opened import OpenedSource
from reviewapp.core.trace.excerpts import Excerpt, ExcerptIndex, index_excerpts_elsewhere
from reviewapp.qt.image_loader import ImageLoader
from reviewapp.qt.review.opening import ReviewOpening, prepare_review
from reviewapp.qt.review.review_controller import ReviewController
from reviewapp.qt.workers import TaskRunner

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


@dataclass(frozen=True)
class _Loaded:
    logbook: Logbook
    artifacts: list[ArtifactEntry]
    review: ReviewOpening
    blinder: Blinder | None = None
    trust: Trust | None = None


class LogbookController(QObject):
    loading_started = Signal(str)  # a name for what is being opened
    loading_progress = Signal(int, int, str)  # pages done, pages total, current page
    loaded = Signal(object)  # Logbook
    load_failed = Signal(str)  # one line for the user
    load_cancelled = Signal()
    excerpts_ready = Signal()  # the trace index for the loaded logbook is complete
    verdicts_changed = Signal()  # judge or human verdicts were replaced
    claims_changed = Signal()  # reviewers added, split or merged claims (or undid that), or the review was re-read
    rows_changed = Signal(object)  # a tuple of claim keys whose verdicts, marks or agent verdict changed
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = TaskRunner(2, self)
        self.images = ImageLoader(parent=self)
        self.logbook: Logbook | None = None
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
        self.review = ReviewController(self)
        self.review.workspace = self.workspace
        self.review.changed.connect(self._change_made)
        self.review.reviewer_changed.connect(self._reviewer_changed)
        # the workspace hears changes where the action runs (the write lane); the window hears of them after it
        self.workspace.listeners.append(lambda update: self.review.deliver(lambda: self._rows_updated(update)))
        self.blind = False  # blind mode: the next logbooks opened hide who made them (View > Blind Review)
        self.blinder: Blinder | None = None  # the open logbook's, while it is shown blind
        self._blind_next = False
        self._trust_next: Trust | None = None

    def shown(self, text: str) -> str:
        """`text` as the judge may see it: scrubbed of the participant's identity while the logbook is blind."""
        return self.blinder.scrub(text) if self.blinder is not None and text else text

    # --- opening ------------------------------------------------------------------------------------------------

    def open(self, source: Path | str, *, blind: bool | None = None, trust: Trust | None = None) -> None:
        """Open a folder, or any other SOURCE form (a Space, dataset or URL: downloaded, or its cached copy).

        Every logbook is read through the parse cache, which the command line and the queue share; `blind`
        overrides the window's blind mode for this logbook (a queue reveals a logbook once the judge has scored
        it); `trust` says which records count (the roster of the queue it came from; None: the settings')."""
        self._blind_next = self.blind if blind is None else blind
        self._trust_next = trust
        ref = None if isinstance(source, Path) else _remote_ref(source)
        self.failed_source = None if ref is None else str(source)
        if ref is None:
            path = Path(source).expanduser()
            label = "a logbook" if self._blind_next else path.name or str(path)
            self._start(label, lambda progress, token: read_logbook_cached(path, progress, token), path)
            return

        def load(progress: ProgressCallback, token: CancelToken) -> Logbook:
            from reviewapp.core.review.preferences import load_preferences
            from reviewapp.core.sources.opener import open_source

            limits = self.download_limits or load_preferences().download_limits()
            opened = open_source(ref, limits=limits, progress=progress, cancel=token)
            self._pending_sources[id(token)] = opened
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
        self._blind_next = self.blind

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

    def _progress(self, token: CancelToken, done: int, total: int, page: str) -> None:
        if token is self._load_token:
            self.loading_progress.emit(done, total, page)

    def _loaded(self, token: CancelToken, result: _Loaded) -> None:
        if token is not self._load_token:
            return  # superseded by a newer open
        self._load_token = None
        if self._index_token is not None:
            self._index_token.cancel()
        self.opened_source = self._pending_sources.pop(id(token), None)
        self._pending_sources.clear()
        self.blinder = result.blinder
        self.review.blinder = result.blinder
        self.review.trust = result.trust
        self.logbook = result.logbook
        self._search = None
        self.artifacts = result.artifacts
        self.excerpt_index = None
        self.review.attach(result.logbook, result.review)
        if self.logbook_id is not None:
            self.workspace.close(self.logbook_id)
        self.logbook_id = self.workspace.add(result.logbook, self.review.logbook_review)
        self.review.logbook_id = self.logbook_id
        self._index_pending = True
        gc.freeze()  # what attaching it made, too (see core/io/collector.py)
        self.loaded.emit(result.logbook)
        self._index_search(result.logbook)
        # The window starts the trace index once the first claim is on screen (index_traces); this is the fallback.
        QTimer.singleShot(INDEX_FALLBACK_MS, self.index_traces)
        self.busy_changed.emit(self.busy)

    def _load_error(self, token: CancelToken, exc: BaseException) -> None:
        if token is not self._load_token:
            return
        self._load_token = None
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
        identity = self.review.identity
        if identity is not None:
            return identity.name
        from reviewapp.core.review.preferences import load_preferences

        return load_preferences().annotator or ""

    def index_traces(self) -> None:
        """Tie trace events to claims in the background; once per load. Deferred so that it does not compete
        with drawing the first claim for the interpreter."""
        if not self._index_pending or self.logbook is None:
            return
        self._index_pending = False
        logbook = self.logbook
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

        self._runner.submit(
            lambda progress: index_excerpts_elsewhere(logbook, cancel=token, progress=progress), done, failed
        )

    # --- derived state ------------------------------------------------------------------------------------------

    def recent(self) -> list[Path]:
        return recent_logbooks()

    def rows(self) -> list[ReviewedClaim]:
        """The open logbook's claims as the workspace derived them, in claim-list order: the one list of claims
        (nothing in the window keeps one of its own)."""
        return self.workspace.rows(self.logbook_id) if self.logbook_id is not None else []

    def row(self, ref: str | int) -> ReviewedClaim | None:
        """A claim's row by key, an earlier key of it, or its number."""
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
        return [*(self.logbook.problems if self.logbook else []), *self.review.problems()]

    def _index_search(self, logbook: Logbook) -> None:
        """Build the claim search after the first claim is on screen; a search typed before it is ready builds it
        there and then (see search)."""

        def done(index: SearchIndex) -> None:
            if self.logbook is logbook and self._search is None:
                self._search = index

        self._runner.submit(lambda _progress: SearchIndex(logbook), done, lambda exc: log.warning("search: %s", exc))

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
            self.workspace.set_review(self.logbook_id, self.review.logbook_review)
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
        self.review.lane.shutdown()
