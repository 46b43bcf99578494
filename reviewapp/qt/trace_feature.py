"""The trace pane's ties to the rest of the window: attached transcripts, pinning, links into the evidence, and
the published traces dataset fetched the first time the timeline is opened.

MainWindow creates one TraceFeature. Slow work (reading and copying a transcript, downloading the dataset)
runs in a worker; records are written on the GUI thread through the review controller, like every annotation.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.progress import ProgressCallback
from reviewapp.core.review.trace_links import (
    excerpt_label,
    link_transcript,
    pin_excerpt,
    pinned_excerpts,
    prepare_transcript,
    transcript_links,
)
from reviewapp.core.trace.excerpts import MAX_PER_CLAIM, Excerpt
from reviewapp.core.trace.sessions import TraceSession, list_sessions, traces_ref
from reviewapp.qt.annotations.review_controller import ActionFailed
from reviewapp.qt.workers import TaskRunner, alive

if TYPE_CHECKING:
    from reviewapp.core.trace.index import JsonlTrace
    from reviewapp.core.trace.transcripts import StoredTranscript
    from reviewapp.qt.main_window import MainWindow

TRANSCRIPT_FILTER = "Agent transcripts (*.jsonl *.json *.ndjson);;All files (*)"


class TraceFeature(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.timeline = window.timeline
        self.review = window.controller.review
        self.runner = TaskRunner(1, self)
        self.logbook: Logbook | None = None
        self.dataset_sessions: list[TraceSession] = []
        self._dataset_state = "none"  # none | wanted | fetching | fetched | failed
        self.attach_action = QAction("Attach a &Transcript…", window)
        self.attach_action.setShortcut(QKeySequence("Ctrl+Shift+T"))
        self.attach_action.setStatusTip("Attach an agent's raw transcript to this logbook (kept outside it)")
        self.attach_action.triggered.connect(lambda: self.attach_transcript())
        window.addAction(self.attach_action)
        self.timeline.attach_requested.connect(lambda: self.attach_transcript())
        self.timeline.pin_requested.connect(self.pin)
        self.timeline.cell_requested.connect(self.show_cell)
        window.controller.loaded.connect(self._loaded)
        window.subject_shown.connect(self.show_pinned)
        window.subject_shown.connect(self.show_linked_events)
        self.timeline.indexed.connect(self.show_linked_events)
        self.review.changed.connect(self.show_pinned)
        window.side_tabs.currentChanged.connect(lambda _i: self._maybe_fetch_dataset())

    # -- sessions ----------------------------------------------------------------------------------------------

    def sessions(self) -> list[TraceSession]:
        if self.logbook is None:
            return []
        review = self.review.logbook_review
        links = transcript_links(review.state) if review is not None else []
        listed = list_sessions(self.logbook, links)
        known = {s.id for s in listed if s.readable}
        extra = [s for s in self.dataset_sessions if s.id not in known]
        listed = [s for s in listed if s.readable or s.id not in {d.id for d in extra}]
        return listed + extra

    def refresh_sessions(self, keep: str | None = None) -> None:
        if self.logbook is not None:
            self.timeline.set_sessions(self.logbook, self.sessions(), keep)

    def _loaded(self, logbook: Logbook) -> None:
        self.logbook = logbook
        self.dataset_sessions = []
        self._dataset_state = "wanted" if traces_ref(logbook) else "none"
        self.refresh_sessions()
        self.show_pinned()
        self._maybe_fetch_dataset()

    # -- the published traces dataset ----------------------------------------------------------------------

    def _maybe_fetch_dataset(self) -> None:
        """Fetch `traces_ref` once, when the timeline is first shown and nothing local can be read."""
        if self._dataset_state != "wanted" or self.logbook is None:
            return
        if self.window.side_tabs.currentWidget() is not self.timeline or not self.timeline.isVisible():
            return
        if any(s.readable for s in self.sessions()):
            return
        repo_id = traces_ref(self.logbook)
        if repo_id is None:
            return
        self._dataset_state = "fetching"
        self.timeline.info.setText(f"Fetching the traces dataset {repo_id} from the Hub…")
        logbook = self.logbook

        def fetch(progress: ProgressCallback) -> list[TraceSession]:
            from reviewapp.core.trace.dataset import fetch_traces_dataset

            return fetch_traces_dataset(repo_id, progress=progress)

        def done(sessions: list[TraceSession]) -> None:
            if not alive(self) or logbook is not self.logbook:
                return
            self._dataset_state = "fetched"
            self.dataset_sessions = sessions
            self.refresh_sessions()

        def failed(exc: BaseException) -> None:
            if alive(self) and logbook is self.logbook:
                self._dataset_state = "failed"
                self.timeline.info.setText(f"The traces dataset could not be fetched: {exc}")

        self.runner.submit(fetch, done, failed)

    # -- attaching -----------------------------------------------------------------------------------------

    def attach_transcript(self, path: Path | None = None, session_id: str | None = None) -> None:
        """Ask for a transcript (unless given), read and copy it in a worker, then link it with one record."""
        if self.logbook is None:
            return
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self.window, "Attach a transcript", "", TRANSCRIPT_FILTER)
            if not name:
                return
            path = Path(name)
        chosen = path
        logbook = self.logbook
        self.window.statusBar().showMessage(f"Reading {chosen.name}…")

        def done(result: tuple[JsonlTrace, StoredTranscript]) -> None:
            if not alive(self) or logbook is not self.logbook:
                return
            index, stored = result
            try:
                attached = self.review.act(lambda s: link_transcript(s, chosen.name, index, stored, session_id))
            except ActionFailed as exc:
                self.window.show_error("Transcript not attached", str(exc))
                return
            how = "fills the listed session" if attached.fills_listed else "added as a new session"
            problems = f"; {len(index.problems)} unreadable lines" if index.problems else ""
            self.window.statusBar().showMessage(
                f"Attached {chosen.name}: {index.format}, {index.count:,} events, {how}{problems}", 10_000
            )
            self.refresh_sessions(keep=attached.record.payload.session)
            self.window.side_tabs.show()
            self.window.side_tabs.setCurrentWidget(self.timeline)

        def failed(exc: BaseException) -> None:
            if alive(self):
                self.window.show_error("Transcript not attached", f"{chosen}: {exc}")

        self.runner.submit(lambda _p: prepare_transcript(chosen), done, failed)

    # -- pinning and links ---------------------------------------------------------------------------------

    def pin(self, first: int, last: int) -> None:
        claim = self.window.current_claim
        index = self.timeline.model.index_
        session = self.timeline.session
        if claim is None or index is None or session is None:
            self.window.statusBar().showMessage("Select the claim to pin these events to first.", 8000)
            return
        try:
            record = self.review.act(lambda s: pin_excerpt(s, claim.key, session.id, index, first, last))
        except ActionFailed as exc:
            self.window.show_error("Excerpt not pinned", str(exc))
            return
        self.window.statusBar().showMessage(f"Pinned to {claim.label}: {excerpt_label(record)}", 10_000)

    def show_pinned(self) -> None:
        claim = self.window.current_claim
        review = self.review.logbook_review
        if claim is None or review is None:
            self.window.excerpts.set_pinned([])
            return
        self.window.excerpts.set_pinned([excerpt_label(r) for r in pinned_excerpts(review.state, claim.key)])

    def show_linked_events(self) -> None:
        """For a transcript (no Trackio chunks to match), the claim's events come from the timeline's links."""
        claim, logbook, links = self.window.current_claim, self.logbook, self.timeline.links
        index, session = self.timeline.model.index_, self.timeline.session
        if claim is None or logbook is None or links is None or index is None or session is None:
            return
        if any(t.available and t.chunks for t in logbook.traces):
            return  # the excerpt index over Trackio's chunks already answers
        wanted = set(claim.cells)
        found: dict[int, list[str]] = {}
        for position, reason in links.events_for(claim.page):
            refs = [ref for ref, _r in links.cells_for(position)]
            if not wanted or any(ref.ordinal is None or ref.ordinal in wanted for ref in refs):
                found.setdefault(position, []).append(reason)
        excerpts = [
            Excerpt(session.id, index.event(p).as_trace_event(), tuple(dict.fromkeys(r)))
            for p, r in sorted(found.items())[:MAX_PER_CLAIM]
        ]
        self.window.excerpts.show_excerpts(claim.label, excerpts, len(found) > MAX_PER_CLAIM)

    def show_cell(self, page: str, ordinal: int) -> None:
        """Show the cell (through its claim when it is evidence of one) that a trace event produced."""
        effective = self.review.effective_claims() or []
        holder = next((c for c in effective if c.page == page and (ordinal < 0 or ordinal in c.cells)), None)
        if holder is not None and self.window.claim_panel.select_key(holder.key):
            return
        self.window.show_page(page)
