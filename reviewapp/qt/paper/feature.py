"""File > Open Paper: the paper window beside the review window, which opens a logbook at the claim asked for."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from reviewapp.core.paper.gather import PaperRequest
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.identity import Identity
from reviewapp.qt.paper.open_paper_dialog import OpenPaperDialog, list_sources
from reviewapp.qt.paper.paper_window import PaperWindow
from reviewapp.qt.workers import alive

if TYPE_CHECKING:
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.host import WindowHost


class PaperFeature(QObject):
    def __init__(self, host: WindowHost, controller: LogbookController) -> None:
        super().__init__(host.widget())
        self.host = host
        self.controller = controller
        self.paper_window: PaperWindow | None = None
        self._pending: tuple[Path, str | None] | None = None
        host.actions_by_name["open_paper"].triggered.connect(self.choose_paper)
        controller.loaded.connect(self._loaded)
        controller.changed.connect(self._review_changed)  # a verdict saved here shows in the paper's cell

    def choose_paper(self) -> None:
        dialog = OpenPaperDialog(self.host.widget())
        if dialog.exec() != OpenPaperDialog.DialogCode.Accepted:
            return
        request = dialog.request()
        if dialog.list_file is not None:
            try:
                sources, problems = list_sources(dialog.list_file)
            except ValueError as exc:
                QMessageBox.warning(self.host.widget(), "The list cannot be read", str(exc))
                return
            request.sources += sources
            if problems:
                QMessageBox.information(self.host.widget(), "Some rows of the list are left out", "\n".join(problems))
        self.open_paper(request)

    def open_paper(self, request: PaperRequest, who: str | None = None) -> PaperWindow:
        """The paper window on `request`; responses are written under `who` (default: the reviewer's identity)."""
        if self.paper_window is not None:
            self.paper_window.close()
        me = (lambda: Identity(who, "command line")) if who else self._me
        # blind review goes on in the paper window: the same rule, for the same reviewer
        self.paper_window = PaperWindow(request, self.open_evidence, identity=me, blind=self.controller.blind_mode)
        self.paper_window.show()
        return self.paper_window

    def open_evidence(self, source: str, folder: Path, key: str | None) -> None:
        """Show claim `key` of the logbook in `folder` in the review window, opening it first unless it is shown."""
        logbook = self.controller.logbook
        if logbook is not None and logbook.root.resolve() == folder.resolve():
            if key:
                self.host.select_claim(key)
        else:
            self._pending = (folder.resolve(), key)
            local = Path(source).expanduser().exists()
            self.controller.open(Path(source) if local else source)
        self.host.bring_to_front()

    def _loaded(self, logbook: object) -> None:
        pending, self._pending = self._pending, None
        root = getattr(logbook, "root", None)
        if pending is not None and root is not None and Path(root).resolve() == pending[0] and pending[1]:
            self.host.select_claim(pending[1])

    def _review_changed(self, change: ChangeRecord, initiator: object) -> None:
        if self.paper_window is not None and alive(self.paper_window):
            self.paper_window.apply_change(change, initiator)

    def _me(self) -> Identity | None:
        identity = self.controller.identity
        if identity is not None:
            return identity
        from reviewapp.core.review.preferences import load_preferences

        name = load_preferences().annotator
        return Identity(name, "preferences") if name else None
