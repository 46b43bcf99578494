"""What a feature of the review window may ask of the window: the narrow host every feature is built against.

A feature (the Logbook Judge, the queue, the paper view, the trace pane's ties) takes a `WindowHost` and the
`LogbookController`, never the `MainWindow`, so a change to the window's layout touches no feature and a feature's
test builds a small window of its own (tests/qt/host_window.py) instead of the whole one. The review tools take the
`ReviewHost`, the same host with the few things only they ask (the page shown, the claim list).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QWidget

from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict


class ClaimHeaderSlots(Protocol):
    """The places of the claim header above the evidence that features fill."""

    def set_reviewer_widget(self, widget: QWidget) -> None: ...

    def set_logbook_judge_widget(self, widget: QWidget) -> None: ...

    def set_other_verdicts(self, verdicts: list[tuple[str, Verdict, str]]) -> None: ...

    def set_corrections(self, lines: list[str]) -> None: ...

    def set_slots(self, slots: VerdictSlots) -> None: ...


class WindowHost(Protocol):
    @property
    def subject_shown(self) -> SignalInstance:
        """Emitted when a claim or a page is now on screen."""
        ...

    @property
    def side_tab_changed(self) -> SignalInstance:
        """Emitted when another side tab comes to the front."""
        ...

    @property
    def current_key(self) -> str | None:
        """The key of the claim on screen, if a claim (not a page) is shown; kept while reviewers split or merge it
        away, so that what shows next can follow it."""
        ...

    @property
    def current_claim(self) -> Claim | None:
        """The claim on screen as the workspace has it now; None for a page, or once the claim is gone."""
        ...

    @property
    def actions_by_name(self) -> Mapping[str, QAction]:
        """Every menu entry and shortcut of the window, by the name in qt/actions.py."""
        ...

    @property
    def claim_header(self) -> ClaimHeaderSlots: ...

    def widget(self) -> QMainWindow:
        """The window itself: the parent of a feature's dialogs, actions and event filters."""
        ...

    def select_claim(self, ref: str | int) -> bool:
        """Show a claim (by key or number); False when the logbook shown has no such claim."""
        ...

    def show_page(self, slug: str) -> None: ...

    def say(self, text: str, timeout_ms: int = 0) -> None:
        """A message in the status bar (0: until the next one)."""
        ...

    def show_error(self, title: str, message: str) -> None: ...

    def open_dialog(self, dialog: QWidget) -> None:
        """Show a non-modal dialog, closing the one opened before; it is deleted when closed."""
        ...

    def add_side_tab(self, widget: QWidget, title: str) -> None: ...

    def set_side_tab_title(self, widget: QWidget, title: str) -> None: ...

    def current_side_tab(self) -> QWidget | None: ...

    def side_pane_shown(self) -> bool: ...

    def set_side_pane_visible(self, visible: bool) -> None:
        """Show or hide the side pane without changing the reviewer's View menu choice."""
        ...

    def show_tab(self, widget: QWidget) -> None:
        """Bring a side tab to the front, showing the side pane if it was hidden."""
        ...

    def add_status_widget(self, widget: QWidget) -> None:
        """A permanent widget at the right of the status bar."""
        ...

    def bring_to_front(self) -> None:
        """Show and activate the window, so that its shortcuts work again after another window had the focus."""
        ...


class ReviewHost(WindowHost, Protocol):
    """What the review tools ask of the window beyond any feature: the page shown, the claim list,
    the problems line, and the trace event a note is on."""

    @property
    def logbook_shown(self) -> bool:
        """A logbook is open and on screen (not only being loaded)."""
        ...

    @property
    def page_shown(self) -> str | None:
        """The slug of the page on screen: the claim's page, or the page chosen in the page list."""
        ...

    @property
    def trace_shown(self) -> str | None:
        """The id of the agent trace the timeline shows, if any."""
        ...

    def reveal_claim(self, key: str) -> bool:
        """Show a claim, clearing the claim list's filters only if they hide it; False when there is no such claim."""
        ...

    def relist_claims(self) -> None:
        """List the open logbook's claims again as the workspace has them (reviewers added, split or merged some;
        each row's mark says how), keeping the search."""
        ...

    def focus_claim_list(self) -> None:
        """The keys are on the claim list again."""
        ...

    def next_unreviewed(self) -> None:
        """Show the next claim without the reviewer's verdict (or say that every claim has one)."""
        ...

    def update_problems(self) -> None:
        """Count again the problems met while reading the logbook and its review files."""
        ...

    def show_trace_event(self, trace_id: str, sequence: int) -> None:
        """Bring the timeline to the front at one event of one agent trace."""
        ...
