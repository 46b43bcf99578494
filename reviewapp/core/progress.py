"""Progress reporting and cancellation for long core operations, without Qt."""

from __future__ import annotations

import threading
from collections.abc import Callable

#: progress(done, total, label); total may be 0 when unknown.
ProgressCallback = Callable[[int, int, str], None]


class Cancelled(Exception):
    """The user cancelled; whatever was in progress left nothing half-written."""


class CancelToken:
    """Set from any thread (the GUI's Cancel button), checked by the worker between units of work."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        if self._event.is_set():
            raise Cancelled()
