"""File > Open Queue: the queue window beside the review window, which opens each logbook at the claim asked for."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QFileDialog

from reviewapp.qt.queue.queue_window import QueueWindow

if TYPE_CHECKING:
    from reviewapp.qt.main_window import MainWindow


class QueueFeature(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.queue_window: QueueWindow | None = None
        self._pending: tuple[Path, str | None] | None = None
        window.actions_by_name["open_queue"].triggered.connect(self.choose_queue)
        window.controller.loaded.connect(self._loaded)

    def choose_queue(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open a queue", str(Path.home()), "Queues (*.txt *.csv *.tsv);;All files (*)"
        )
        if path:
            self.open_queue(Path(path))

    def open_queue(self, path: Path) -> QueueWindow:
        if self.queue_window is not None:
            self.queue_window.close()
        self.queue_window = QueueWindow(path, self._me(), self.open_claim)
        self.queue_window.show()
        return self.queue_window

    def open_claim(self, folder: Path, key: str | None) -> None:
        """Show `key` of the logbook in `folder`, opening the logbook first unless it is the one shown."""
        logbook = self.window.controller.logbook
        if logbook is not None and logbook.root.resolve() == folder.resolve():
            if key:
                self.window.select_claim(key)
            self.window.activateWindow()
            return
        self._pending = (folder.resolve(), key)
        self.window.controller.open(folder)
        self.window.activateWindow()

    def _loaded(self, logbook: object) -> None:
        pending, self._pending = self._pending, None
        root = getattr(logbook, "root", None)
        if pending is not None and root is not None and Path(root).resolve() == pending[0] and pending[1]:
            self.window.select_claim(pending[1])
        if self.queue_window is not None and pending is not None:
            self.queue_window.reload()  # a new verdict or score shows up when the reviewer comes back

    def _me(self) -> str:
        identity = self.window.controller.review.identity
        if identity is not None:
            return identity.name
        from reviewapp.core.review.preferences import load_preferences

        return load_preferences().annotator or ""
