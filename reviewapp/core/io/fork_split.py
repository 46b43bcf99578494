"""Share a long pure-Python pass over many items with a second CPU, where that is safe and worth it.

Finding what each claim states is most of what reading a large logbook costs, it is one independent pass per
claim, and Python runs it on one CPU at a time. Where the process can fork safely (Linux, and this process runs
a single thread: a fork copies only the calling thread, so a lock another thread held would stay locked in the
child) and has a second CPU, a forked child takes items from the end while this process takes them from the start,
each marking an item in a shared map before computing it, until they meet: neither waits for the other longer
than one item, however the items' costs or the machine's load fall. The child sends its results back pickled.
The child sees the same memory as it was at the fork, so the results are those of the plain loop (an item both
took where they met is computed twice, to the same result). Anywhere else, or when the child fails in any way,
the plain loop runs here: the answer is the same, only slower.
"""

from __future__ import annotations

import contextlib
import mmap
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
_CHILD_FAILED = 70
# An item's mark in the shared map: not taken yet, taken here, taken by the child.
_FREE, _HERE, _THERE = 0, 1, 2


def split_map(
    function: Callable[[T], R],
    items: Sequence[T],
    weight: Callable[[T], int],
    *,
    min_weight: int | None = None,
    first: Callable[[], None] | None = None,
) -> list[R]:
    """`[function(item) for item in items]`, shared with a forked child when that is safe and worth it
    (`min_weight`: the least total weight worth a fork; MIN_WEIGHT when None). `first`, the caller's own work
    that needs none of the results, runs here before this process takes an item: with a child, while it starts on
    the items from the end."""
    total = sum(max(0, weight(item)) for item in items)
    worth = len(items) >= 2 and total >= (MIN_WEIGHT if min_weight is None else min_weight)
    marks = _shared_marks(len(items)) if worth and can_fork() else None
    child = _start_child(function, items, marks) if marks is not None else None
    if child is None or marks is None:
        if marks is not None:
            marks.close()
        if first is not None:
            first()
        return [function(item) for item in items]
    pid, source = child
    try:
        if first is not None:
            first()
        results: list[R] = []
        for index, item in enumerate(items):
            if marks[index] == _THERE:
                break
            marks[index] = _HERE
            results.append(function(item))
        taken = len(results)
        if taken == len(items):  # the child took nothing this process still needs
            source.close()
            _stop_child(pid)
            return results
        sent = _finish_child(pid, source)
    except BaseException:
        source.close()
        _stop_child(pid)
        raise
    finally:
        marks.close()
    if sent is None or not (sent[0] <= taken and len(sent[1]) == len(items) - sent[0]):
        return results + [function(item) for item in items[taken:]]  # the child failed: what it took, done here
    start, tail = sent
    return results + tail[taken - start :]


def _shared_marks(count: int) -> mmap.mmap | None:
    """A map of one byte per item that this process and a child forked after it both see (anonymous, shared)."""
    try:
        return mmap.mmap(-1, count)
    except (OSError, ValueError):
        return None


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


def _start_child(function: Callable[[T], R], items: Sequence[T], marks: mmap.mmap) -> tuple[int, BinaryIO] | None:
    """(pid, the pipe the child writes its results to), or None when no child started. The child takes items from
    the end until it meets one this process took, and sends (the index of its first item, their results)."""
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
            found: list[R] = []
            index = len(items) - 1
            while index >= 0 and marks[index] == _FREE:
                marks[index] = _THERE
                found.append(function(items[index]))
                index -= 1
            found.reverse()
            data = pickle.dumps((index + 1, found), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, os.fdopen(read_end, "rb")


def _finish_child(pid: int, source: BinaryIO) -> tuple[int, list[Any]] | None:
    """(the index of the child's first item, its results), or None when it failed (its exit status, or what it
    sent, is not what was asked)."""
    with source:
        data = source.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        sent = pickle.loads(data)  # written by a fork of this very process, from the same code
    except Exception:
        return None
    if not (isinstance(sent, tuple) and len(sent) == 2 and isinstance(sent[0], int) and isinstance(sent[1], list)):
        return None
    return sent[0], sent[1]


def _stop_child(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)
