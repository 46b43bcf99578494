"""The trace timeline on a 100,000-event agent session that trackio itself converted, next to trackio's own read.

    python benchmarks/trace.py                  # 100,000 events
    python benchmarks/trace.py --events 20000   # a quicker run

The session is made the way a real one is: benchmarks/_trackio_gen.py, run in trackio's own virtual environment
(created under benchmarks/.cache/ on first use, as for load.py), writes a Claude Code transcript and attaches it
with `trackio.logbook.attach_trace`, trackio's converter, which writes Trackio's normalized trace (a session
index and 200-event chunk files) into a small logbook. The logbook is cached, keyed by the generator's source.

The real review window then opens that logbook offscreen with the Timeline tab showing, and this prints:
  - first rows: from the logbook being read to the first timeline rows painted, while the worker still indexes;
  - search: Enter in the search field to the hit count shown, for a string in two events out of all of them;
  - jump to the last event: Enter in the Go-to field to that row painted and its detail shown;
  - peak memory: the window process's peak resident memory above what the empty window used, plus the whole peak
    of the largest child process (the trace is indexed in one), against the trace's size on disk (all reads are
    with a warm page cache, which is not counted as resident memory of a process);
  - event-loop stalls while the trace is indexed (a 5 ms timer; each gap beyond it is time the window froze),
    counted from the first claim shown; the stalls of opening the logbook before that are printed beside them;
next to `trackio.logbook.read_traces` on the same logbook (best of three, each in a fresh process), and the
target for each. Prints figures and PASS/MISS; exits 0 unless something crashes, as it measures, not tests.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).resolve().parent
# A script's folder comes first on sys.path; a benchmark module there named like a standard module (queue.py)
# would then replace it for everything imported later.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH_DIR]


def sibling(name: str) -> ModuleType:
    """Another script of benchmarks/ (not a package), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH_DIR / f"{name}.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"benchmarks/{name}.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


load = sibling("load")
measure = sibling("_measure")
window_load = sibling("window_load")

EVENTS = 100_000
SIZES = {"pages": 5, "runs": 10, "figures": 2}  # a small logbook around a long session
TARGET_FIRST_ROWS_S = 0.3
TARGET_MEMORY = 3.0  # peak resident memory above the empty window, as a multiple of the trace's size on disk
TARGET_STALL_MS = 50.0
IDLE_S = 5.0  # seconds of the empty window's own stalls, measured first for comparison

TRACKIO_READ = """
import json, sys, time
from pathlib import Path
from trackio.logbook import read_traces
proj = Path(sys.argv[1])
manifest = json.loads((proj / "logbook" / "logbook.json").read_text(encoding="utf-8"))
started = time.perf_counter()
text = read_traces(proj, manifest)
print("RESULT " + json.dumps({"seconds": time.perf_counter() - started, "lines": text.count(chr(10))}))
"""


def trackio_read_seconds(python: Path, workspace: Path, repeat: int) -> list[float]:
    """trackio's own read of every trace event, each run in a fresh process."""
    seconds = []
    for _ in range(repeat):
        proc = subprocess.run(
            [str(python), "-c", TRACKIO_READ, str(workspace / ".trackio")],
            capture_output=True,
            text=True,
            env=load.trackio_env(),
            cwd=load.CACHE,
        )
        lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
        if proc.returncode != 0 or not lines:
            raise SystemExit(f"trackio's read_traces failed:\n{proc.stderr[-2000:]}")
        seconds.append(json.loads(lines[-1][len("RESULT ") :])["seconds"])
    return seconds


def trace_bytes(logbook_dir: Path) -> int:
    return sum(p.stat().st_size for p in (logbook_dir / "traces").rglob("*.json") if p.is_file())


def rare_call_id(logbook_dir: Path) -> str:
    """The id of a tool call in the middle of the session: in that call and its result, nowhere else."""
    sessions = json.loads((logbook_dir / "traces" / "index.json").read_text(encoding="utf-8"))["sessions"]
    index = json.loads((logbook_dir / sessions[0]["index_file"]).read_text(encoding="utf-8"))
    chunk = index["chunks"][len(index["chunks"]) // 2]
    events = json.loads((logbook_dir / chunk["file"]).read_text(encoding="utf-8"))["events"]
    return next(e["call_id"] for e in events if e.get("kind") == "tool_call" and e.get("call_id"))


def verdict(passed: bool) -> str:
    return "PASS" if passed else "MISS"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=EVENTS, help=f"trace events (default {EVENTS:,})")
    parser.add_argument("--regenerate", action="store_true", help="convert the session again even if cached")
    parser.add_argument("--repeat", type=int, default=3, help="fresh-process runs of trackio's read (default 3)")
    args = parser.parse_args()
    load.CACHE.mkdir(parents=True, exist_ok=True)
    trackio_python = load.ensure_trackio()
    _out, stats = load.ensure_logbook(trackio_python, {**SIZES, "events": args.events}, None, args.regenerate)
    workspace = Path(stats["workspace"])
    logbook_dir = workspace / ".trackio" / "logbook"
    on_disk = trace_bytes(logbook_dir)
    load.warm_cache(logbook_dir)
    needle = rare_call_id(logbook_dir)
    print(f"Trace: {stats['trace_events']:,} events converted by trackio {stats['trackio_version']}, "
          f"{on_disk / 1e6:,.1f} MB on disk ({workspace})")  # fmt: skip

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="reviewapp-trace-bench-"))
    os.environ["REVIEWAPP_DATA_DIR"] = str(scratch / "data")
    os.environ["REVIEWAPP_CONFIG_DIR"] = str(scratch / "config")
    from PySide6.QtCore import QEvent, QObject, Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reviewapp.qt import theme
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow
    from reviewapp.qt.workers import share_interpreter_with_gui

    share_interpreter_with_gui()  # as reviewapp.qt.app.run does
    app = QApplication([sys.argv[0]])
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    controller = LogbookController()
    window = MainWindow(controller, remember_state=False)
    window.review.ask_on_load = False
    window.resize(1600, 1000)
    window.show()
    window.side_tabs.setCurrentWidget(window.timeline)
    for _ in range(10):
        app.processEvents()
    base_kib = measure.baseline_kib()
    timeline = window.timeline
    view, model = timeline.view, timeline.model

    class Paints(QObject):
        """When the timeline's rows were last painted, and the first time any row was."""

        def __init__(self) -> None:
            super().__init__()
            self.first_rows: float | None = None
            self.last: float = 0.0

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and model.rowCount() > 0:
                self.last = time.perf_counter()
                if self.first_rows is None:
                    self.first_rows = self.last
            return False

    paints = Paints()
    view.viewport().installEventFilter(paints)
    loaded_at: list[float] = []
    controller.loaded.connect(lambda _lb: loaded_at.append(time.perf_counter()))

    probe = window_load.StallProbe()
    # the same probe over the empty window first: on a busy machine the scheduler alone delays the loop
    probe.start()
    window_load.run_until(app, lambda: False, timeout_s=IDLE_S)
    idle_stalls = probe.stop()
    children = measure.ChildPeaks()  # sampled every 10 ms while the trace is read
    sampler = QTimer()
    sampler.setInterval(10)
    sampler.timeout.connect(children.sample)
    sampler.start()
    probe.start()
    started = time.perf_counter()
    controller.open(workspace)
    window_load.run_until(app, lambda: paints.first_rows is not None, timeout_s=120)
    index = model.index_
    indexed_when_shown = index.count if index is not None else 0
    # opening: until the first claim is shown, as window_load.py counts it (a logbook without a trace pays it too)
    window_load.run_until(app, lambda: window.context is not None and not window.evidence.busy, timeout_s=120)
    opening_stalls = probe.stop()
    indexed_at_open = model.index_.count if model.index_ is not None else 0
    probe.start()
    window_load.run_until(
        app, lambda: model.index_ is not None and model.index_.complete and window.is_idle(), timeout_s=600
    )
    index_done = time.perf_counter()
    stalls = probe.stop()
    sampler.stop()
    if not loaded_at or paints.first_rows is None or model.index_ is None:
        print("The trace did not open.")
        return 1
    index = model.index_
    read_s = loaded_at[0] - started
    first_rows_s = paints.first_rows - loaded_at[0]
    index_s = index_done - loaded_at[0]

    # search: type the rare string and press Enter; the hit count says "1 of 2" when done
    timeline.search.setFocus()
    QTest.keyClicks(timeline.search, needle)
    search_started = time.perf_counter()
    QTest.keyClick(timeline.search, Qt.Key.Key_Return)
    window_load.run_until(app, lambda: timeline.hit_count.text() not in ("", "searching…"), timeout_s=600)
    search_s = time.perf_counter() - search_started
    hits = len(timeline._hits)

    # jump to the last event: its sequence number in the Go-to field, Enter, until that row is painted
    last_sequence = index.sequence(index.count - 1)
    QTest.keyClicks(timeline.jump, f"#{last_sequence}")
    painted_before = paints.last
    jump_started = time.perf_counter()
    QTest.keyClick(timeline.jump, Qt.Key.Key_Return)
    window_load.run_until(app, lambda: paints.last > painted_before, timeout_s=60)
    jump_s = paints.last - jump_started
    current = view.currentIndex()
    landed = current.isValid() and model.position_at(current.row()) == index.count - 1
    detail_ok = f"#{last_sequence}" in timeline.detail.toPlainText()
    peak = (measure.peak_kib() - base_kib) * 1024
    child_peak = children.largest_kib() * 1024  # the largest child process counts in full, interpreter and all
    print(f"trackio read_traces, {args.repeat} fresh process{'es' if args.repeat != 1 else ''}...", flush=True)
    trackio_seconds = trackio_read_seconds(trackio_python, workspace, args.repeat)

    trackio_best, trackio_median = min(trackio_seconds), statistics.median(trackio_seconds)
    longest = max(stalls, default=0.0)
    over = sum(1 for s in stalls if s > TARGET_STALL_MS)
    opening_longest = max(opening_stalls, default=0.0)
    print()
    print(f"logbook read {read_s:.2f} s; trace indexed {index_s:.2f} s after ({index.count:,} events, "
          f"{indexed_when_shown:,} indexed when the first rows were painted)")  # fmt: skip
    print(f"trackio read_traces       best {trackio_best:.3f} s, median {trackio_median:.3f} s")
    print()
    rows = [
        ("first rows shown", f"{first_rows_s:.3f} s", f"< {TARGET_FIRST_ROWS_S} s", first_rows_s < TARGET_FIRST_ROWS_S),
        (f"search all ({hits} hits)", f"{search_s:.3f} s", f"< trackio {trackio_best:.3f} s",
         search_s < trackio_best and hits == 2),
        ("jump to the last event", f"{jump_s:.3f} s", "(no target; landed)" if landed and detail_ok else "(MISSED)",
         landed and detail_ok),
        ("peak memory above empty",
         f"{peak / 1e6:,.0f}+{child_peak / 1e6:,.0f} MB = {(peak + child_peak) / on_disk:.2f}x",
         f"< {TARGET_MEMORY:.0f}x {on_disk / 1e6:,.1f} MB", peak + child_peak < TARGET_MEMORY * on_disk),
        ("longest stall indexing", f"{longest:.1f} ms ({over} > {TARGET_STALL_MS:.0f} ms)",
         f"<= {TARGET_STALL_MS:.0f} ms", longest <= TARGET_STALL_MS),
    ]  # fmt: skip
    for name, value, target, passed in rows:
        print(f"  {name:<26}{value:>30}   target {target:<24}{verdict(passed)}")
    idle_longest = max(idle_stalls, default=0.0)
    idle_over = sum(1 for s in idle_stalls if s > TARGET_STALL_MS)
    print(f"  {'(empty window, same probe)':<26}{f'{idle_longest:.1f} ms ({idle_over} > {TARGET_STALL_MS:.0f} ms)':>30}"
          f"   over {IDLE_S:.0f} s before opening: the machine's own delay")  # fmt: skip
    print(f"  {'(opening the logbook)':<26}{f'{opening_longest:.1f} ms':>30}   until the first claim showed, "
          f"{indexed_at_open:,} events indexed by then")  # fmt: skip
    window.close()
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
