"""Share a long pure-Python pass over many items with a second CPU, where that is safe and worth it.

Finding what each claim states is most of what reading a large logbook costs, it is one independent pass per
claim, and Python runs it on one CPU at a time. Where the process can fork safely (Linux, and this process runs
a single thread: a fork copies only the calling thread, so a lock another thread held would stay locked in the
child) and has a second CPU, a forked child takes the items at the end, a little under half the total weight, and
sends its results back pickled; this process does the rest meanwhile. The child sees the same memory as it was at
the fork, so the results are those of the plain loop. Anywhere else, or when the child fails in any way, the
plain loop runs here: the answer is the same, only slower.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, BinaryIO, TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this much work (in the caller's unit of weight) a fork costs more than it saves.
MIN_WEIGHT = 4_000_000
# The child's share of the weight: under half, since it also pays for the fork (its first writes copy pages of
# this process's heap) and for pickling its results; with half, this process waited a fifth of its own time.
CHILD_SHARE = 0.45
_CHILD_FAILED = 70


def split_map(
    function: Callable[[T], R],
    items: Sequence[T],
    weight: Callable[[T], int],
    *,
    min_weight: int | None = None,
) -> list[R]:
    """`[function(item) for item in items]`, the tail computed in a forked child when that is safe and worth it
    (`min_weight`: the least total weight worth a fork; MIN_WEIGHT when None)."""
    weights = [max(0, weight(item)) for item in items]
    total = sum(weights)
    if len(items) < 2 or total < (MIN_WEIGHT if min_weight is None else min_weight) or not can_fork():
        return [function(item) for item in items]
    cut, tail = len(items), 0
    while cut > 1 and tail + weights[cut - 1] <= total * CHILD_SHARE:
        cut -= 1
        tail += weights[cut]
    if cut == len(items):
        return [function(item) for item in items]
    head = items[:cut]
    rest = items[cut:]
    child = _start_child(function, rest)
    if child is None:
        return [function(item) for item in items]
    pid, source = child
    try:
        results = [function(item) for item in head]
        tail_results: list[R] | None = _finish_child(pid, source, expected=len(rest))
    except BaseException:
        source.close()
        _stop_child(pid)
        raise
    if tail_results is None:  # the child failed: do its share here
        tail_results = [function(item) for item in rest]
    return results + tail_results


def can_fork() -> bool:
    """Linux, more than one CPU for this process, and no thread but this one (counted by the kernel, so threads
    that Qt or a library started count too)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    try:
        if len(os.sched_getaffinity(0)) < 2:
            return False
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _start_child(function: Callable[[T], R], items: Sequence[T]) -> tuple[int, BinaryIO] | None:
    """(pid, the pipe the child writes its pickled results to), or None when no child started."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: never returns into the caller's code
        status = _CHILD_FAILED
        try:
            os.close(read_end)
            data = pickle.dumps([function(item) for item in items], protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, os.fdopen(read_end, "rb")


def _finish_child(pid: int, source: BinaryIO, *, expected: int) -> list[Any] | None:
    """The child's results, or None when it failed (its exit status, or what it sent, is not what was asked)."""
    with source:
        data = source.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        results = pickle.loads(data)  # written by a fork of this very process, from the same code
    except Exception:
        return None
    if not isinstance(results, list) or len(results) != expected:
        return None
    return results


def _stop_child(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)
