"""The write lane: every command of the application runs on one thread, in order, never on the GUI thread.

Saving a record scans it for secrets, takes the file lock, fsyncs and may ask git for the revision (a subprocess
that takes tens of milliseconds in a big checkout); done on the GUI thread, that froze the window on every save.
There is one lane for the whole application (`WriteLane.shared()`): the review window, the queue window, the pair
rating window, the paper window and trace pins all write through it, so two windows (or two workers of one) can
never write one logbook at once, and writes land in the order they were asked for.

    lane.submit(command, on_done, on_failed, initiator=self)

runs `command` on the lane and hands its result (or exception) back on the GUI thread through a queued signal:
nothing waits, no event loop is nested, and `finished` tells every listener which screen asked for it, so a screen
can skip the change it made itself. A screen decides what keys pressed while its write is in flight do: the review
window queues them until the write is done, the pair rating window holds them back, the paper window disables its
write actions meanwhile.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, Signal

T = TypeVar("T")


@dataclass(frozen=True)
class LaneResult:
    """What one submitted command gave: its result, or the exception it raised; and who asked for it."""

    result: object = None
    error: BaseException | None = None
    initiator: object = None


class _Relay(QObject):
    """Lives on the GUI thread: a job's outcome emitted from the lane arrives here through the event queue."""

    delivered = Signal(object, object)  # (the job's callbacks, its LaneResult)


class WriteLane(QObject):
    finished = Signal(object)  # a LaneResult, on the GUI thread, after each submitted command's own callback

    _shared: ClassVar[WriteLane | None] = None

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lane_thread: int | None = None
        self._executor = ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="reviewapp-writes", initializer=self._started
        )
        self._pending = 0
        self._relay = _Relay(self)
        self._relay.delivered.connect(self._deliver)

    def _started(self) -> None:
        self._lane_thread = threading.get_ident()

    @classmethod
    def shared(cls) -> WriteLane:
        """The application's one lane (made with the application, living as long as it)."""
        app = QCoreApplication.instance()
        lane = cls._shared
        if lane is None or lane.parent() is not app:
            lane = cls._shared = cls(app)
        return lane

    @property
    def busy(self) -> bool:
        """A submitted command is running or waiting, or its result is not yet delivered."""
        return self._pending > 0

    def submit(
        self,
        command: Callable[[], T],
        on_done: Callable[[T], None] | None = None,
        on_failed: Callable[[BaseException], None] | None = None,
        *,
        initiator: object = None,
    ) -> None:
        """Run `command` on the lane after everything submitted before it; `on_done(result)` or
        `on_failed(exception)` is called on the GUI thread when it is done, then `finished` is emitted."""
        self._pending += 1
        callbacks = (on_done, on_failed)

        def job() -> None:
            try:
                outcome = LaneResult(command(), None, initiator)
            except BaseException as exc:  # handed to on_failed on the GUI thread, never lost on the lane
                outcome = LaneResult(None, exc, initiator)
            self._relay.delivered.emit(callbacks, outcome)

        self._executor.submit(job)

    def _deliver(self, callbacks: tuple[Any, Any], outcome: LaneResult) -> None:
        self._pending -= 1
        on_done, on_failed = callbacks
        if outcome.error is None:
            if on_done is not None:
                on_done(outcome.result)
        elif on_failed is not None:
            on_failed(outcome.error)
        self.finished.emit(outcome)

    def wait(self) -> None:
        """Wait until every command asked for so far is written (a window closing, the end of a test); the lane
        stays open for the application's other windows. Blocks without an event loop: a window closing must not
        run other windows' events (their deferred deletions) in the middle of its close."""
        if threading.get_ident() != self._lane_thread:
            self._executor.submit(lambda: None).result()

    shutdown = wait  # a window's shutdown waits for its writes; the application's lane outlives the window
