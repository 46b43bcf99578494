"""File > Open Queue: the queue window beside the review window, which opens each logbook at the claim asked for.

The rubric is the one given (`reviewapp queue LIST --window --rubric FILE`), else `rubric.toml` or
`<queue name>.rubric.toml` beside the queue file, else the built-in one. Blind mode is shared: switching it in the
queue switches the review window too, and a logbook opened from the queue is blind until this judge has scored it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog

from reviewapp.core.queue.rubric import DEFAULT_RUBRIC, Rubric, RubricError, load_rubric
from reviewapp.core.queue.status import queue_trust
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.qt.queue.queue_window import QueueWindow
from reviewapp.qt.workers import alive

REFRESH_DELAY_MS = 400

if TYPE_CHECKING:
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.host import WindowHost


def rubric_beside(queue: Path) -> Path | None:
    """The team's rubric kept next to the queue file, when there is one."""
    folder = queue if queue.is_dir() else queue.parent
    for candidate in (folder / f"{queue.stem}.rubric.toml", folder / "rubric.toml"):
        if candidate.is_file():
            return candidate
    return None


# records a queue row never shows (its counts are of verdicts, scores, flags, claims and Logbook Judge matches)
NOT_IN_QUEUE_ROW = frozenset(
    {"note", "pair_session", "pair_rating", "transcript_link", "trace_excerpt", "author_response", "claim_alignment",
     "decision"}
)  # fmt: skip


def shows_in_queue_row(change: ChangeRecord) -> bool:
    """Whether a change can alter what its logbook's queue row shows; a change naming no kind is read again."""
    if change.everything or change.restructures or not change.record_kinds:
        return True
    return any(kind not in NOT_IN_QUEUE_ROW for kind in change.record_kinds)


class QueueFeature(QObject):
    def __init__(self, host: WindowHost, controller: LogbookController) -> None:
        super().__init__(host.widget())
        self.host = host
        self.controller = controller
        self.queue_window: QueueWindow | None = None
        self._pending: tuple[Path, str | None] | None = None
        host.actions_by_name["open_queue"].triggered.connect(self.choose_queue)
        controller.loaded.connect(self._loaded)
        host.actions_by_name["blind_review"].toggled.connect(self._window_blind)
        self._shown_root: Path | None = None  # the logbook the review window shows
        self._refresh_timer = QTimer(self)  # a burst of verdicts reads the row once
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(400)
        self._refresh_timer.timeout.connect(self._refresh_changed)
        self._changed_logbooks: set[str] = set()  # logbook ids a change named since the last refresh
        controller.changed.connect(self._review_changed)  # only the row the change names is read again

    def choose_queue(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.host.widget(), "Open a queue", str(Path.home()), "Queues (*.txt *.csv *.tsv);;All files (*)"
        )
        if path:
            self.open_queue(Path(path))

    def open_queue(self, path: Path, rubric_file: Path | None = None, me: str | None = None) -> QueueWindow:
        """The queue window on `path`, showing the progress of `me` (default: the reviewer's identity)."""
        if self.queue_window is not None:
            self.queue_window.close()
        rubric = self._rubric(rubric_file or rubric_beside(path))
        self.queue_window = QueueWindow(path, me or self._me(), self.open_claim, rubric=rubric)
        self.queue_window.download_limits = self.controller.download_limits  # `queue --window --max-download-mb`
        self.queue_window.first_row_read.connect(self._open_first)
        self.queue_window.blind_changed.connect(self._set_blind)
        if self.controller.blind_mode:
            self.queue_window.blind_box.setChecked(True)
        self.queue_window.show()
        return self.queue_window

    def _open_first(self, folder: Path, key: str, blind: bool) -> None:
        """A queue opened with an empty review window shows its first readable logbook there at once."""
        if self.controller.logbook is None and not self.controller.loading:
            self.open_claim(folder, key or None, blind)

    def _rubric(self, path: Path | None) -> Rubric:
        if path is None:
            return DEFAULT_RUBRIC
        try:
            return load_rubric(path)
        except RubricError as exc:
            self.host.show_error("The rubric cannot be used", f"{exc}\n\nScoring uses the built-in rubric.")
            return DEFAULT_RUBRIC

    def open_claim(self, folder: Path, key: str | None, blind: bool = False) -> None:
        """Show `key` of the logbook in `folder`, opening the logbook first unless it is the one shown as asked."""
        controller = self.controller
        logbook = controller.logbook
        shown_blind = controller.blinder is not None
        if logbook is not None and logbook.root.resolve() == folder.resolve() and shown_blind == blind:
            if key:
                self.host.select_claim(key)
            self.host.bring_to_front()
            return
        self._pending = (folder.resolve(), key)
        queue = self.queue_window.queue if self.queue_window is not None else None
        trust = queue_trust(queue) if queue is not None else None  # its records are checked as the queue's rows
        controller.open(folder, blind=blind, trust=trust)  # read already by the queue: from the parse cache
        self.host.bring_to_front()

    def _set_blind(self, blind: bool) -> None:
        """Blind mode switched in the queue switches the review window too (through its menu entry)."""
        self.host.actions_by_name["blind_review"].setChecked(blind)

    def _window_blind(self, blind: bool) -> None:
        if self.queue_window is not None and self.queue_window.blind_box.isChecked() != blind:
            self.queue_window.blind_box.setChecked(blind)

    def _loaded(self, logbook: object) -> None:
        pending, self._pending = self._pending, None
        root = getattr(logbook, "root", None)
        if pending is not None and root is not None and Path(root).resolve() == pending[0] and pending[1]:
            self.host.select_claim(pending[1])
        left, self._shown_root = self._shown_root, Path(root).resolve() if root is not None else None
        if self.queue_window is not None and left is not None and left != self._shown_root:
            # verdicts given there show in the queue; only that row is read, once the new logbook is on screen
            queue_window = self.queue_window
            QTimer.singleShot(REFRESH_DELAY_MS, lambda: queue_window.refresh(left) if alive(queue_window) else None)

    def _review_changed(self, change: ChangeRecord, _initiator: object) -> None:
        if shows_in_queue_row(change):
            self._changed_logbooks.add(change.logbook_id)
            self._refresh_timer.start()

    def _refresh_changed(self) -> None:
        changed, self._changed_logbooks = self._changed_logbooks, set()
        if self.queue_window is not None:
            for logbook_id in sorted(changed):
                self.queue_window.refresh_logbook(logbook_id)

    def _me(self) -> str:
        identity = self.controller.identity
        if identity is not None:
            return identity.name
        from reviewapp.core.review.preferences import load_preferences

        return load_preferences().annotator or ""
