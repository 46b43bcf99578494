"""Keep Python's cyclic garbage collector off a heap that is only growing, for the window's sake.

A full pass of the collector walks every object the process holds, on whichever thread happened to allocate, and
holds the interpreter meanwhile: reading a 200-claim logbook, or a queue's rows, it stalled the window for up to
half a second at a time. What those reads build is kept until it is replaced and is freed then by reference counts
(the reader's objects hold no cycles), so while they run the collector is off, and what they built is then frozen
out of its reach (gc.freeze) before it is switched on again. Nested and concurrent uses count: the collector is on
again when the last one ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_paused = 0


@contextmanager
def collector_paused() -> Iterator[None]:
    global _paused
    with _lock:
        _paused += 1
        gc.disable()
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if _paused == 0:
                gc.freeze()
                gc.enable()
