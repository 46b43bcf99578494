"""The write lane: every review action runs on one thread, in order, never on the GUI thread.

Saving a record scans it for secrets, takes the file lock, fsyncs and may ask git for the revision (a subprocess
that takes tens of milliseconds in a big checkout); done on the GUI thread, that froze the window on every save.

`run` hands the action to the lane's thread and waits for it in a local event loop that keeps painting and
firing timers but holds back the user's input until the action is done: callers keep a plain call-and-return
(the saved record, or the exception, comes back to them), the window never stalls, and a key pressed meanwhile
acts on the state after the save, as the user expects. Actions run one at a time in the order given, so two
quick saves of one claim supersede each other correctly.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from PySide6.QtCore import QEventLoop, QObject, QThread, Signal

T = TypeVar("T")


class _Finished(QObject):
    """Lives on the GUI thread; emitted from the lane, so its delivery is queued to the GUI thread's loop."""

    finished = Signal()


class WriteLane(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reviewapp-writes")
        self._depth = 0

    @property
    def busy(self) -> bool:
        return self._depth > 0

    def run(self, action: Callable[[], T]) -> T:
        """Do `action` on the lane and return its result (or raise its exception) once it is done."""
        if QThread.currentThread() is not self.thread():
            return action()  # already off the GUI thread (a worker): nothing to keep responsive
        future: Future[T] = self._executor.submit(action)
        if not future.done():
            signal = _Finished()
            loop = QEventLoop()
            signal.finished.connect(loop.quit)
            future.add_done_callback(lambda _: signal.finished.emit())
            self._depth += 1
            try:
                while not future.done():
                    loop.exec(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
            finally:
                self._depth -= 1
        return future.result()

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True)
