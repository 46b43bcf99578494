"""What the review tools share: the host they ask of, the logbook controller, the window's views they hook their
menus into, and one dialog at a time. The feature builds it and hands it to each part (corrections, notes, tools),
so that no part reaches the feature or the window."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QDialog, QWidget

from reviewapp.qt.controller import LogbookController
from reviewapp.qt.host import ReviewHost
from reviewapp.qt.models.page_tree_model import PageTreeModel
from reviewapp.qt.widgets.evidence_view import EvidenceView
from reviewapp.qt.workers import alive

STATUS_MS = 8000


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
    def __init__(self, host: ReviewHost, controller: LogbookController, views: ReviewViews) -> None:
        self.host = host
        self.controller = controller
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
