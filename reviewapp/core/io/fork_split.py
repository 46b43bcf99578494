"""Share a long pure-Python pass over many items with a second CPU, where that is safe and worth it.

Reading a large logbook's pages and finding what each claim states are most of what reading it costs; each is one
independent pass per item, and Python runs it on one CPU at a time. Where the process can fork safely (Linux, and
this process runs a single thread: a fork copies only the calling thread, so a lock another thread held would stay
locked in the child) and has a second CPU, a forked child takes items from the end while this process takes them
from the start, each marking an item in a shared map before computing it, until they meet: neither waits for the
other longer than one item, however the items' costs or the machine's load fall.

The child writes each result, pickled, to a file both share as soon as it has it, and then says how far the file
is complete. This process unpickles what is complete between its own items, so that taking the child's results in
costs no time at the end, and the meeting point falls where both are done together. The child sees the same memory
as it was at the fork, so the results are those of the plain loop (an item both took where they met is computed
twice, to the same result). Anywhere else, or when the child fails in any way, the plain loop runs here for what
the child did not finish: the answer is the same, only slower.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

# Below this much work (in the caller's unit of weight) a fork costs more than it saves.
MIN_WEIGHT = 4_000_000
_CHILD_FAILED = 70
# An item's mark in the shared map: not taken yet, taken here, taken by the child.
_FREE, _HERE, _THERE = 0, 1, 2
# Before the marks: how many bytes of the results file are complete (written by the child only).
_COMPLETE = struct.Struct("<Q")
# Before each result in the file: its item's index and the length of its pickle.
_RECORD = struct.Struct("<QQ")


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
    child = _Child.start(function, items) if worth and can_fork() else None
    if child is None:
        if first is not None:
            first()
        return [function(item) for item in items]
    with child:
        if first is not None:
            first()
        results: dict[int, R] = {}
        for index, item in enumerate(items):
            child.take_results(results)
            if child.marks[_COMPLETE.size + index] == _THERE:
                break
            child.marks[_COMPLETE.size + index] = _HERE
            results[index] = function(item)
        child.finish(results)
    return [results[index] if index in results else function(item) for index, item in enumerate(items)]


class _Child:
    """A forked child computing items from the end, and what this process has taken of its results."""

    def __init__(self, pid: int, marks: mmap.mmap, file: int) -> None:
        self.pid, self.marks, self.file = pid, marks, file
        self.read = 0  # how far this process has taken results from the file
        self.running = True
        self.broken = False  # what the child wrote could not be taken: the rest of its share is computed here

    @classmethod
    def start(cls, function: Callable[[T], R], items: Sequence[T]) -> _Child | None:
        """The child, started; None when it could not be (no shared memory, no file, no fork)."""
        try:
            marks = mmap.mmap(-1, _COMPLETE.size + len(items))
        except (OSError, ValueError):
            return None
        try:
            file = _results_file()
        except OSError:
            marks.close()
            return None
        pid = _fork(lambda: _compute_from_the_end(function, items, marks, file))
        if pid < 0:
            marks.close()
            os.close(file)
            return None
        return cls(pid, marks, file)

    def take_results(self, results: dict[int, R]) -> None:
        """Unpickle every result the child has completed since last asked."""
        complete = _COMPLETE.unpack_from(self.marks, 0)[0]
        try:
            while self.read < complete and not self.broken:
                index, length = _RECORD.unpack(os.pread(self.file, _RECORD.size, self.read))
                data = os.pread(self.file, length, self.read + _RECORD.size)
                if len(data) != length:
                    raise OSError("a result shorter than its record says")
                results[index] = pickle.loads(data)  # written by a fork of this very process, from the same code
                self.read += _RECORD.size + length
        except Exception:
            self.broken = True

    def finish(self, results: dict[int, R]) -> None:
        """Wait for the child (it ends at the first item this process took) and take the rest of its results."""
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        self.running = False
        self.take_results(results)  # what the child did not complete is computed here

    def __enter__(self) -> _Child:
        return self

    def __exit__(self, *_: object) -> None:
        if self.running:  # this process failed, or took every item itself: the child's work is not needed
            _stop(self.pid)
        self.marks.close()
        os.close(self.file)


def _compute_from_the_end(function: Callable[[T], R], items: Sequence[T], marks: mmap.mmap, file: int) -> None:
    """The child's work: items from the last back to the first one this process took, each result written whole
    before the file is said to be complete up to its end."""
    written = 0
    index = len(items) - 1
    while index >= 0 and marks[_COMPLETE.size + index] == _FREE:
        marks[_COMPLETE.size + index] = _THERE
        data = pickle.dumps(function(items[index]), protocol=pickle.HIGHEST_PROTOCOL)
        _write_all(file, _RECORD.pack(index, len(data)), written)
        _write_all(file, data, written + _RECORD.size)
        written += _RECORD.size + len(data)
        _COMPLETE.pack_into(marks, 0, written)
        index -= 1


def _write_all(file: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        done = os.pwrite(file, view, offset)
        view, offset = view[done:], offset + done


def _results_file() -> int:
    """An anonymous file both processes share (a memory file where the kernel has them, else a temporary one)."""
    if hasattr(os, "memfd_create"):
        with contextlib.suppress(OSError):
            return os.memfd_create("split_map", os.MFD_CLOEXEC)
    import tempfile  # rarely needed, and slow to import

    with tempfile.TemporaryFile() as handle:
        return os.dup(handle.fileno())


_APART: list[int] = []  # children run_apart started and nobody has waited for yet


def run_apart(work: Callable[[], None]) -> None:
    """`work()` in a forked child where that is safe (see can_fork), while this process goes on; here otherwise.
    For work that handles its own errors and whose result is only a file (a cache's entry, written whole or not at
    all): the child's errors end it quietly. `wait_apart` waits for every child started so."""
    pid = _fork(work) if can_fork() else -1
    if pid > 0:
        _APART.append(pid)
    else:
        work()


def _fork(work: Callable[[], None]) -> int:
    """A forked child that runs `work` and exits (with _CHILD_FAILED when it raises): its pid, or -1 when no child
    started. The child never returns into the caller's code."""
    try:
        pid = os.fork()
    except OSError:
        return -1
    if pid == 0:
        status = _CHILD_FAILED
        try:
            work()
            status = 0
        finally:
            os._exit(status)
    return pid


def wait_apart() -> None:
    """Wait until every child run_apart started has ended."""
    while _APART:
        pid = _APART.pop()
        with contextlib.suppress(OSError):
            os.waitpid(pid, 0)


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


def _stop(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)
