"""One timed read of a logbook, in a fresh process so its memory figures are its own.

Usage: python _measure.py MODE TARGET
  trackio WORKSPACE  trackio.logbook.read_logbook_data (run with trackio's interpreter)
  ours WORKSPACE     reviewapp.core.logbook.reader.read_logbook (run with the project's interpreter)
  probe WORKSPACE    as `ours`, untimed, recording every file the reader opens
  floor LISTFILE     open and read the bytes of each path listed in LISTFILE, one per line

Prints one line `RESULT <json>`. Standard library only, so it runs under either interpreter.
"""

from __future__ import annotations

import builtins
import gc
import io
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def status_kib(field: str, pid: int | str = "self") -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def peak_kib() -> int:
    hwm = status_kib("VmHWM")
    if hwm is not None:
        return hwm
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def wait_with_peak(pid: int, deadline: float, interval: float = 0.01) -> tuple[int, float]:
    """Wait for child `pid` (killing it past `deadline`, a time.perf_counter() value): (wait status, its peak MB).

    The peak is the child's own VmHWM, sampled until it exits: the high-water mark only rises, so the last sample
    holds nearly all of it. Not ru_maxrss: the kernel keeps the forking process's high-water mark across
    fork and exec, so a large parent would be measured instead of the child."""
    peak_kib = 0
    while True:
        hwm = status_kib("VmHWM", pid)  # before the wait: a reaped child has no status
        if hwm is not None:
            peak_kib = max(peak_kib, hwm)
        reaped, status, _usage = os.wait4(pid, os.WNOHANG)
        if reaped:
            return status, peak_kib / 1024
        if time.perf_counter() > deadline:
            os.kill(pid, 9)
            _reaped, status, _usage = os.wait4(pid, 0)
            return status, peak_kib / 1024
        time.sleep(interval)


class ChildPeaks:
    """The peak resident memory of each child process the window starts (indexing a trace, say), sampled while
    they run: a high-water mark, so a sample taken shortly before a child exits has nearly all of it."""

    def __init__(self) -> None:
        self.kib: dict[int, int] = {}

    def sample(self) -> None:
        import multiprocessing

        for child in multiprocessing.active_children():
            if child.pid is not None:
                peak = status_kib("VmHWM", child.pid)
                if peak is not None:
                    self.kib[child.pid] = max(peak, self.kib.get(child.pid, 0))

    def largest_kib(self) -> int:
        return max(self.kib.values(), default=0)


def load_average() -> str:
    """The 1- and 5-minute load average and the CPU count, to print beside a figure measured on a shared machine."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f} / {five:.2f} (1 / 5 min) on {os.cpu_count()} CPUs"


def baseline_kib() -> int:
    """Memory in use now, with the peak reset to it where the kernel allows (so imports do not count)."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")  # resets VmHWM to the current RSS
        return status_kib("VmRSS") or peak_kib()
    except OSError:
        return peak_kib()


def timed(read: Any, target: Path) -> tuple[Any, dict]:
    base = baseline_kib()
    started = time.perf_counter()
    result = read(target)
    seconds = time.perf_counter() - started
    figures = {"seconds": seconds, "base_kib": base, "peak_kib": peak_kib()}
    # A second call in the same process shows what is one-off per process (lazy imports, compiled patterns).
    started = time.perf_counter()
    read(target)
    figures["again_seconds"] = time.perf_counter() - started
    return result, figures


def describe_ours(lb: Any) -> dict:
    """Counts from whatever the reader returned, for a sanity check against trackio's; best effort."""
    info: dict = {}
    pages = getattr(lb, "pages", None)
    if pages is not None:
        pages = list(pages.values()) if isinstance(pages, dict) else list(pages)
        info["pages"] = len(pages)
        info["cells"] = sum(len(getattr(page, "cells", ()) or ()) for page in pages)
    problems = getattr(lb, "problems", None)
    if problems is not None:
        info["problems"] = len(problems)
        info["first_problems"] = [str(problem) for problem in list(problems)[:3]]
    return info


def load_ours() -> Any:
    try:
        from reviewapp.core.logbook.reader import read_logbook
    except ImportError as exc:
        return f"reviewapp reader not available ({exc})"
    return read_logbook


def record_opens() -> list[str]:
    """Wrap every way a file gets opened, appending absolute paths to the returned list."""
    opened: list[str] = []
    real_open, real_os_open = io.open, os.open

    def note(file: Any) -> None:
        if not isinstance(file, int):
            opened.append(os.path.abspath(os.fspath(file)))

    def wrapped_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        note(file)
        return real_open(file, *args, **kwargs)

    def wrapped_os_open(path: Any, *args: Any, **kwargs: Any) -> Any:
        note(path)
        return real_os_open(path, *args, **kwargs)

    builtins.open = io.open = wrapped_open  # Path.open and read_bytes go through io.open
    os.open = wrapped_os_open
    return opened


def main() -> int:
    mode, target = sys.argv[1], Path(sys.argv[2])
    result: dict
    if mode == "trackio":
        from trackio.logbook import read_logbook_data

        data, result = timed(read_logbook_data, target / ".trackio")
        result["pages"] = len(data["pages"])
        result["cells"] = sum(len(page["cells"]) for page in data["pages"])
    elif mode in ("ours", "probe"):
        read = load_ours()
        if isinstance(read, str):
            result = {"missing": read}
        elif mode == "ours":
            lb, result = timed(read, target)
            result.update(describe_ours(lb))
        else:
            opened = record_opens()
            read(target)
            result = {"opened": sorted(set(opened))}
    elif mode == "floor":
        paths = Path(target).read_text(encoding="utf-8").splitlines()

        def read_all(_: Path) -> int:
            total = 0
            for path in paths:
                with open(path, "rb") as handle:
                    total += len(handle.read())
            return total

        total, result = timed(read_all, target)
        result["bytes"] = total
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print("RESULT " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
