"""The trace pane's ties to the rest of the window: attached transcripts, pinning, links into the evidence, and
the published traces dataset fetched the first time the timeline is opened.

MainWindow creates one TraceFeature. Slow work (reading and copying a transcript, downloading the dataset)
runs in a worker; records are written on the GUI thread through the logbook controller, like every annotation.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.trace_links import (
    Attachment,
    excerpt_label,
    link_transcript,
    pin_excerpt,
    pinned_excerpts,
    prepare_transcript,
    transcript_links,
)
from reviewapp.core.trace.excerpts import MAX_PER_CLAIM, Excerpt
from reviewapp.core.trace.sessions import TraceSession, list_sessions, traces_ref
from reviewapp.qt.workers import TaskRunner, alive

if TYPE_CHECKING:
    from reviewapp.core.trace.index import JsonlTrace
    from reviewapp.core.trace.transcripts import StoredTranscript
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.host import WindowHost
    from reviewapp.qt.trace.trace_view import ExcerptPanel, TimelinePanel

TRANSCRIPT_FILTER = "Agent transcripts (*.jsonl *.json *.ndjson);;All files (*)"


class TraceFeature(QObject):
    def __init__(
        self, host: WindowHost, controller: LogbookController, timeline: TimelinePanel, excerpts: ExcerptPanel
    ) -> None:
        super().__init__(host.widget())
        self.host = host
        self.controller = controller
        self.timeline = timeline
        self.excerpts = excerpts
        self.runner = TaskRunner(1, self)
        self.logbook: Logbook | None = None
        self.dataset_sessions: list[TraceSession] = []
        self._dataset_state = "none"  # none | wanted | fetching | fetched | failed
        self._dataset_cancel: CancelToken | None = None
        self._collapsed = False  # the right pane was collapsed because this logbook has no trace
        self.attach_action = QAction("Attach a &Transcript…", host.widget())
        self.attach_action.setShortcut(QKeySequence("Ctrl+Shift+T"))
        self.attach_action.setStatusTip("Attach an agent's raw transcript to this logbook (kept outside it)")
        self.attach_action.triggered.connect(lambda: self.attach_transcript())
        host.widget().addAction(self.attach_action)
        self.timeline.attach_requested.connect(lambda: self.attach_transcript())
        self.timeline.pin_requested.connect(self.pin)
        self.timeline.cell_requested.connect(self.show_cell)
        controller.loaded.connect(self._loaded)
        host.subject_shown.connect(self.show_pinned)
        host.subject_shown.connect(self.show_linked_events)
        self.timeline.indexed.connect(self.show_linked_events)
        self.controller.changed.connect(self._changed)
        host.side_tab_changed.connect(self._maybe_fetch_dataset)
        host.actions_by_name["toggle_side_pane"].toggled.connect(self._pane_toggled)
        host.actions_by_name["toggle_side_pane"].toggled.connect(lambda _on: self._maybe_fetch_dataset())
        host.widget().installEventFilter(self)
        self._offer_in_view_menu()

    def _offer_in_view_menu(self) -> None:
        """ "Attach a Transcript…" right after View > Full Trace Timeline, where a reviewer looks for the trace."""
        timeline_action = self.host.actions_by_name["show_timeline"]
        for menu in timeline_action.associatedObjects():
            if isinstance(menu, QMenu):
                actions = menu.actions()
                at = actions.index(timeline_action) + 1 if timeline_action in actions else len(actions)
                if at < len(actions):
                    menu.insertAction(actions[at], self.attach_action)
                else:
                    menu.addAction(self.attach_action)

    # -- sessions ----------------------------------------------------------------------------------------------

    def sessions(self) -> list[TraceSession]:
        if self.logbook is None:
            return []
        review = self.controller.logbook_review
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
        if self._dataset_cancel is not None:
            self._dataset_cancel.cancel()
        self.refresh_sessions()
        repo_id = traces_ref(logbook)
        if repo_id is not None and not self.sessions():
            self.timeline.say(
                f"This logbook's agent sessions are published in the traces dataset {repo_id}. "
                "They are fetched from the Hub when this tab is shown."
            )
        self.show_pinned()
        self._fit_pane()
        self._maybe_fetch_dataset()

    # -- the right pane ------------------------------------------------------------------------------------------

    def _fit_pane(self) -> None:
        """Collapse the right pane for a logbook that lists no trace, names no traces dataset and has no attached
        transcript; bring it back for the next logbook that has one, unless the reviewer closed it meanwhile.

        View > Full Trace Timeline (or Ctrl+2) shows the pane again, with "Attach a transcript…" in it.
        """
        if self.logbook is None:
            return
        toggle = self.host.actions_by_name["toggle_side_pane"]
        nothing = not self.sessions() and traces_ref(self.logbook) is None
        if nothing and self.host.side_pane_shown():
            toggle.setChecked(False)
            self._collapsed = True  # after the toggle: its handler clears the mark on any other change
        elif not nothing and self._collapsed:
            toggle.setChecked(True)

    def _pane_toggled(self, _shown: bool) -> None:
        self._collapsed = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # A collapse made for one logbook is not the reviewer's choice: the layout saved on close keeps the pane.
        if watched is self.host.widget() and event.type() == QEvent.Type.Close and self._collapsed:
            self.host.set_side_pane_visible(True)
        return super().eventFilter(watched, event)

    # -- the published traces dataset ----------------------------------------------------------------------

    def _maybe_fetch_dataset(self) -> None:
        """Fetch `traces_ref` once, when the timeline is first shown and nothing local can be read."""
        if self._dataset_state != "wanted" or self.logbook is None:
            return
        if self.host.current_side_tab() is not self.timeline or not self.timeline.isVisible():
            return
        if any(s.readable for s in self.sessions()):
            return
        repo_id = traces_ref(self.logbook)
        if repo_id is None:
            return
        self._dataset_state = "fetching"
        self.timeline.say(f"Fetching the traces dataset {repo_id} from the Hub…")
        logbook = self.logbook
        reference = (logbook.manifest or {}).get("traces_ref") or repo_id
        cancel = self._dataset_cancel = CancelToken()

        def fetch(progress: ProgressCallback) -> list[TraceSession]:
            from reviewapp.core.trace.dataset import fetch_traces_dataset

            return fetch_traces_dataset(reference, progress=progress, cancel=cancel)

        def fetching(_done: int, _total: int, label: str) -> None:
            if alive(self) and logbook is self.logbook and label:
                self.timeline.say(f"Fetching the traces dataset {repo_id} from the Hub… {label}")

        def done(sessions: list[TraceSession]) -> None:
            if not alive(self) or logbook is not self.logbook:
                return
            self._dataset_state = "fetched"
            self.dataset_sessions = sessions
            self.refresh_sessions()

        def failed(exc: BaseException) -> None:
            if alive(self) and logbook is self.logbook and not isinstance(exc, Cancelled):
                self._dataset_state = "failed"
                self.timeline.say(f"The traces dataset could not be fetched. {exc}")

        self.runner.submit(fetch, done, failed, fetching)

    # -- attaching -----------------------------------------------------------------------------------------

    def attach_transcript(self, path: Path | None = None, session_id: str | None = None) -> None:
        """Ask for a transcript (unless given), read and copy it in a worker, then link it with one record."""
        if self.logbook is None:
            return
        if path is None:
            name, _ = QFileDialog.getOpenFileName(self.host.widget(), "Attach a transcript", "", TRANSCRIPT_FILTER)
            if not name:
                return
            path = Path(name)
        chosen = path
        logbook = self.logbook
        self.host.say(f"Reading {chosen.name}…")

        def done(result: tuple[JsonlTrace, StoredTranscript]) -> None:
            if not alive(self) or logbook is not self.logbook:
                return
            index, stored = result
            self.controller.submit(
                lambda s: link_transcript(s, chosen.name, index, stored, session_id),
                lambda attached: linked(index, attached) if alive(self) and logbook is self.logbook else None,
                lambda exc: self.host.show_error("Transcript not attached", str(exc)) if alive(self) else None,
            )

        def linked(index: JsonlTrace, attached: Attachment) -> None:
            how = "fills the listed session" if attached.fills_listed else "added as a new session"
            problems = ""
            if index.problems:
                where = ", ".join(f"{p.file}:{p.line}" for p in index.problems[:3])
                problems = f"; {len(index.problems)} unreadable ({where}{', …' if len(index.problems) > 3 else ''})"
            self.host.say(f"Attached {chosen.name}: {index.format}, {index.readable:,} events, {how}{problems}", 10_000)
            self.refresh_sessions(keep=attached.record.payload.session)
            self.host.show_tab(self.timeline)

        def failed(exc: BaseException) -> None:
            if alive(self):
                said = str(exc)  # a TranscriptError names the file already
                named = said if said.startswith(str(chosen)) else f"{chosen}: {said}"
                self.host.show_error("Transcript not attached", named)

        self.runner.submit(lambda _p: prepare_transcript(chosen), done, failed)

    # -- pinning and links ---------------------------------------------------------------------------------

    def pin(self, first: int, last: int) -> None:
        claim = self.host.current_claim
        index = self.timeline.model.index_
        session = self.timeline.session
        if claim is None or index is None or session is None:
            self.host.say("Select the claim to pin these events to first.", 8000)
            return
        self.controller.submit(
            lambda s: pin_excerpt(s, claim.key, session.id, index, first, last),
            lambda record: self.host.say(f"Pinned to {claim.label}: {excerpt_label(record)}", 10_000),
            lambda exc: self.host.show_error("Excerpt not pinned", str(exc)),
        )

    def _changed(self, change: ChangeRecord, _initiator: object) -> None:
        if change.touches("trace_excerpt", "verdict"):  # blind: others' pins show once my verdict is in
            self.show_pinned()

    def show_pinned(self) -> None:
        claim = self.host.current_claim
        review = self.controller.logbook_review
        if claim is None or review is None:
            self.excerpts.set_pinned([])
            return
        pinned = self.controller.rule.shown(review.state, pinned_excerpts(review.state, claim.key))  # blind: mine first
        self.excerpts.set_pinned([excerpt_label(r) for r in pinned])

    def show_linked_events(self) -> None:
        """For a transcript (no Trackio chunks to match), the claim's events come from the timeline's links."""
        claim, logbook, links = self.host.current_claim, self.logbook, self.timeline.links
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
        self.excerpts.show_excerpts(claim.label, excerpts, len(found) > MAX_PER_CLAIM)

    def show_cell(self, page: str, ordinal: int) -> None:
        """Show the cell (through its claim when it is evidence of one) that a trace event produced."""
        effective = self.controller.effective_claims() or []
        holder = next((c for c in effective if c.page == page and (ordinal < 0 or ordinal in c.cells)), None)
        if holder is not None and self.host.select_claim(holder.key):
            return
        self.host.show_page(page)
