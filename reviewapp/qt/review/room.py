"""What the review tools share: the host they ask of, the review controller, the window's views they hook their
menus into, and one dialog at a time. The feature builds it and hands it to each part (corrections, notes, tools),
so that no part reaches the feature or the window."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtWidgets import QAbstractItemView, QDialog, QWidget

from reviewapp.core.logbook.model import Claim, Logbook
from reviewapp.core.queue.blind import Blinder
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.trace.excerpts import Excerpt
from reviewapp.qt.host import ReviewHost
from reviewapp.qt.models.page_tree_model import PageTreeModel
from reviewapp.qt.review.review_controller import ReviewController
from reviewapp.qt.widgets.evidence_view import EvidenceView
from reviewapp.qt.workers import alive

STATUS_MS = 8000


class LogbookLoading(Protocol):
    """What the review tools ask of the loading controller (qt/controller.py): the open logbook, its review and
    workspace rows, and the signals that say a logbook was opened or its claims were listed anew."""

    @property
    def loaded(self) -> SignalInstance: ...

    @property
    def claims_changed(self) -> SignalInstance: ...

    @property
    def review(self) -> ReviewController: ...

    @property
    def logbook(self) -> Logbook | None: ...

    @property
    def logbook_id(self) -> str | None: ...

    @property
    def workspace(self) -> ReviewWorkspace: ...

    @property
    def blinder(self) -> Blinder | None:
        """Blind review: the open logbook's pseudonym and scrubbing, while it is shown blind."""
        ...

    def excerpts(self, claim: Claim) -> list[Excerpt] | None: ...


@dataclass(frozen=True)
class ReviewViews:
    """The window's views whose context menus and cards the review tools fill (the window keeps owning them)."""

    claim_list: QAbstractItemView
    pages: QAbstractItemView
    page_model: PageTreeModel
    evidence: EvidenceView
    excerpts: QAbstractItemView
    timeline: QAbstractItemView


class ReviewRoom:
    def __init__(self, host: ReviewHost, controller: LogbookLoading, views: ReviewViews) -> None:
        self.host = host
        self.controller = controller
        self.review: ReviewController = controller.review
        self.views = views
        self.dialog: QWidget | None = None  # the last dialog the review tools opened

    @property
    def claim_key(self) -> str | None:
        return self.host.current_key

    @property
    def page_slug(self) -> str | None:
        return self.host.page_shown

    def say(self, text: str) -> None:
        self.host.say(text, STATUS_MS)

    def open_dialog(self, dialog: QDialog) -> None:
        """Open a review dialog over the window (one at a time); it deletes itself when closed."""
        if isinstance(self.dialog, QWidget) and alive(self.dialog):
            self.dialog.close()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
