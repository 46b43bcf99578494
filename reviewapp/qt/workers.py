"""Run core functions off the GUI thread and deliver their results, errors and progress on it.

A task's callbacks run on the GUI thread through a relay QObject that lives there; the relay is kept alive by the
runner until the task ends, so a worker never emits on a deleted object. Callbacks that touch a widget should
check that the widget still exists (`alive`), since the user may have moved on.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal, Slot

from reviewapp.core.io.release import take_apart
from reviewapp.core.progress import ProgressCallback

PROGRESS_INTERVAL_S = 0.04  # at most 25 progress updates a second reach the GUI thread
SWITCH_INTERVAL_S = 0.0005
RELEASE_AFTER_MS = 1000  # what a newly opened logbook replaced is let go of once the window has drawn it


def share_interpreter_with_gui() -> None:
    """Make worker threads hand the interpreter back to the GUI thread sooner.

    Painting a Python-backed view calls into Python once per visible row; with the default 5 ms switch interval
    each call can wait that long for a busy worker, turning a 5 ms repaint into 200 ms.
    """
    sys.setswitchinterval(SWITCH_INTERVAL_S)


class _Relay(QObject):
    """Lives on the GUI thread; its own slots receive the worker's signals, so delivery is always queued there."""

    done = Signal(object)
    failed = Signal(object)
    progress = Signal(int, int, str)

    def __init__(
        self,
        finish: Callable[[_Relay], None],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        on_progress: Callable[[int, int, str], None] | None,
    ) -> None:
        super().__init__()
        self._finish = finish
        self._on_done = on_done
        self._on_error = on_error
        self._on_progress = on_progress
        self.done.connect(self._deliver_done)
        self.failed.connect(self._deliver_error)
        self.progress.connect(self._deliver_progress)

    @Slot(object)
    def _deliver_done(self, value: Any) -> None:
        self._finish(self)
        self._on_done(value)

    @Slot(object)
    def _deliver_error(self, exc: BaseException) -> None:
        self._finish(self)
        self._on_error(exc)

    @Slot(int, int, str)
    def _deliver_progress(self, done: int, total: int, label: str) -> None:
        if self._on_progress is not None:
            self._on_progress(done, total, label)


class _Task(QRunnable):
    def __init__(self, fn: Callable[[ProgressCallback], Any], relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self._fn = fn
        self._relay = relay
        self._last = 0.0

    def _progress(self, done: int, total: int, label: str) -> None:
        now = time.monotonic()
        if now - self._last >= PROGRESS_INTERVAL_S or (total and done >= total):
            self._last = now
            if shiboken6.isValid(self._relay):
                self._relay.progress.emit(done, total, label)

    def run(self) -> None:
        try:
            result = self._fn(self._progress)
        except BaseException as exc:  # delivered to the GUI thread, which decides what it means
            self._emit("failed", exc)
        else:
            self._emit("done", result)

    def _emit(self, name: str, value: object) -> None:
        # When the application is quitting (a screenshot that stopped on an error, the last window closed) the
        # relay can be torn down while the task still runs; nobody is left to tell, which is not an error.
        if not shiboken6.isValid(self._relay):
            return
        try:
            getattr(self._relay, name).emit(value)
        except RuntimeError:
            return


class TaskRunner(QObject):
    """A small thread pool whose tasks report back on the GUI thread."""

    def __init__(self, threads: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(threads)
        self._running: dict[_Relay, _Task] = {}

    def submit(
        self,
        fn: Callable[[ProgressCallback], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        on_progress: Callable[[int, int, str], None] | None = None,
    ) -> None:
        """Run fn(progress) in the pool; exactly one of on_done / on_error is called later on the GUI thread."""
        relay = _Relay(self._finish, on_done, on_error, on_progress)
        task = _Task(fn, relay)
        self._running[relay] = task
        self._pool.start(task)

    def _finish(self, relay: _Relay) -> None:
        self._running.pop(relay, None)
        relay.deleteLater()

    @property
    def pending(self) -> int:
        return len(self._running)

    def wait(self, msecs: int = 10_000) -> bool:
        return self._pool.waitForDone(msecs)


def alive(obj: QObject | None) -> bool:
    """The Qt object behind `obj` still exists (a widget can be deleted while a task for it runs)."""
    return obj is not None and shiboken6.isValid(obj)


def release_on(runner: TaskRunner, big: object) -> None:
    """Let go of `big` (a trace's links, a search index) on one of `runner`'s threads, a piece at a time
    (core/io/release.py) instead of freeing it whole in the turn that replaces it. Pass a reference the caller is
    about to drop: the task is handed it one event-loop turn later, once the caller's own variables are gone, and
    anything another holder still refers to is left whole."""
    if big is None:
        return
    holder = [big]
    del big
    # Later than the turn that replaces it: taking it apart runs Python on a worker, and while the window draws what
    # replaced it, each of drawing's many calls into Python would wait its turn for the interpreter.
    # Tied to the runner: when it is gone first, the timer is too, and the structure is freed whole.
    QTimer.singleShot(
        RELEASE_AFTER_MS, runner, lambda: runner.submit(lambda _progress: take_apart(holder), _ignore, _ignore)
    )


def _ignore(_result: object) -> None:
    """Nothing to report when a structure is let go (a failure only leaves it to be freed whole)."""
