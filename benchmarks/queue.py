"""How fast the judges' queue opens, reopens and switches logbooks, and how much memory it takes.

    python benchmarks/queue.py                  # 1,000 generated logbooks (5-20 claims, run cells, figures)
    python benchmarks/queue.py --logbooks 100   # a quicker run (the targets stay those for 1,000)

The real review window and queue window run offscreen. Figures printed next to their targets:

* cold: File > Open Queue until every entry is listed, and until every row is filled, with an empty parse cache
  (every logbook parsed), and the longest event-loop stall meanwhile (a 5 ms timer records when it fires);
* warm: the same queue opened again, every logbook answered from the parse cache;
* switch: Enter on another row until the review window shows that logbook's first claim not yet reviewed (and,
  for information, until the window is idle: figures decoded, the trace indexed);
* peak memory of the process (VmHWM);
* the load average, since the machine these run on is often shared.

With --stalls, where each stall of the cold fill (a gap of 40 ms or more between the probe's ticks) came from:
a watchdog thread samples what every thread was doing every 10 ms of a gap, and the tick that ends a stall files
those samples under its length and the GUI thread's own CPU time meanwhile (which the load inflates less than
the wall clock: little CPU in a long stall means the GUI thread waited, for the interpreter lock or a core).

The generated logbooks are kept under benchmarks/.cache/ and reused. Prints figures only; exits 0 unless
something crashes.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import importlib.util
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import FrameType, ModuleType

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
# This file is named queue.py: with its folder on sys.path it would stand in for the standard library's `queue`.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH_DIR]
sys.path.insert(0, str(REPO))


def _sibling(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH_DIR / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_measure = _sibling("_measure")
peak_kib, load_average = _measure.peak_kib, _measure.load_average
_window_load = _sibling("window_load")
StallProbe, run_until = _window_load.StallProbe, _window_load.run_until

# The challenge's scale: a thousand logbooks in one queue.
TARGET_LISTED_S, TARGET_COLD_S, TARGET_WARM_S = 1.0, 15.0, 2.0
TARGET_SWITCH_MS, TARGET_STALL_MS, TARGET_MEMORY_MB = 150.0, 50.0, 1024.0
VERDICTS = ("VERIFIED", "FALSIFIED", "TOY", "INCONCLUSIVE", "PARTIALLY VERIFIED")


def _figures(rng: random.Random, count: int) -> list[bytes]:
    from PIL import Image, ImageDraw

    from reviewapp.core.logbook.writer import png_bytes

    made = []
    for _ in range(count):
        image = Image.new("RGB", (640, 360), "white")
        draw = ImageDraw.Draw(image)
        draw.line([(x * 6.4, 180 + 120 * rng.uniform(-1, 1)) for x in range(101)], fill=(31, 119, 180), width=2)
        made.append(png_bytes(image))
    return made


def generate_queue(folder: Path, logbooks: int) -> Path:
    """`logbooks` logbooks of 5-20 claims, each claim with run cells (a few hundred lines of output), a figure
    with raw data and a verdict; and a CSV queue naming them with their paper. Kept and reused."""
    from reviewapp.core.logbook.writer import LogbookDraft

    queue = folder / "queue.csv"
    stamp = folder / "generated.txt"
    if stamp.is_file() and stamp.read_text() == str(logbooks) and queue.is_file():
        return queue
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    rng = random.Random(14)
    figures = _figures(rng, 8)
    lines = ["source,paper"]
    for number in range(logbooks):
        name = f"team-{number:03d}"
        paper = f"Paper{number % 12:02d}"
        draft = LogbookDraft(f"Reproduction by {name}", metadata={"space_id": f"{name}/repro", "paper": paper})
        draft.page("Executive summary").markdown("What was checked, at which scale, and what held.")
        for claim in range(1, rng.randint(5, 20) + 1):
            page = draft.page(f"Claim {claim}: generated claim {claim} of {paper}")
            page.markdown(f"## Exact claim\n\n> Claim {claim} holds at scale.", title="Claim")
            for run in range(2):
                output = "\n".join(f"step {s:5d} | loss {rng.random():.4f}" for s in range(rng.randint(50, 300)))
                page.run(["python", f"exp_{claim}.py", "--seed", str(run)], output, duration_s=rng.uniform(1, 600))
            raw = "step,value\n" + "\n".join(f"{i},{rng.random():.4f}" for i in range(100))
            page.figure_png(rng.choice(figures), f"Figure for claim {claim}", raw=raw)
            page.markdown(f"**Verdict: {rng.choice(VERDICTS)}.** Checked at reduced budget.", title="Verdict")
        draft.write(folder / name)
        lines.append(f"{name},{paper}")
    queue.write_text("\n".join(lines) + "\n", encoding="utf-8")
    stamp.write_text(str(logbooks))
    return queue


Sample = tuple[float, dict[int, list[str]], dict[int, float]]  # ms into the gap, stacks, CPU ms since the last


class StallSites:
    """Where the stalls over `threshold_ms` came from (see the module's docstring): hook `tick` to the probe.

    A watchdog thread takes every thread's stack (sys._current_frames) and CPU time each `sample_ms` of a gap
    between ticks; a gap that ends up a stall keeps its samples, each standing for its share of the stall. A
    thread whose CPU time grew since the last sample was running then; the watchdog needs the interpreter lock
    too, so a sample that comes late says the lock was held (a long C call) or the machine busy."""

    def __init__(self, threshold_ms: float = 40.0, sample_ms: float = 10.0) -> None:
        self.threshold_ms, self.sample_s = threshold_ms, sample_ms / 1000
        self.stalls: list[tuple[float, float, float, list[Sample]]] = []  # at s, wall ms, GUI CPU ms, samples
        self.start()
        self._tick = 0
        self._samples: dict[int, list[Sample]] = {}
        self._stop = threading.Event()
        self._watchdog = threading.Thread(target=self._watch, name="stall-watchdog", daemon=True)
        self._watchdog.start()
        self.collections: list[tuple[float, float, int]] = []  # collector passes: start s, ms, thread
        self._collecting: dict[int, float] = {}
        gc.callbacks.append(self._collector)

    def _collector(self, phase: str, _info: dict[str, int]) -> None:
        now, thread = time.perf_counter(), threading.get_ident()
        if phase == "start":
            self._collecting[thread] = now
        elif thread in self._collecting:
            began = self._collecting.pop(thread)
            self.collections.append((began - self._start, (now - began) * 1000, thread))

    def start(self) -> None:
        self._start = self._at = time.perf_counter()
        self._cpu = self._gui_cpu = time.thread_time()
        self._process_cpu = time.process_time()

    def tick(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        samples = self._samples.pop(self._tick, [])
        if (now - self._at) * 1000 >= self.threshold_ms:
            self.stalls.append((self._at - self._start, (now - self._at) * 1000, (cpu - self._cpu) * 1000, samples))
        self._at, self._cpu = now, cpu
        self._tick += 1

    def _watch(self) -> None:
        me, seen, before = threading.get_ident(), -1, _cpu_ms()
        while not self._stop.wait(self.sample_s / 4):
            tick, at = self._tick, self._at
            if tick != seen:  # a new gap: CPU times from here
                seen, before = tick, _cpu_ms()
                continue
            taken = self._samples.get(tick, [])
            if time.perf_counter() - at >= self.sample_s * (len(taken) + 1):
                frames = sys._current_frames()
                now = _cpu_ms()
                spent = {ident: ms - before.get(ident, 0.0) for ident, ms in now.items() if ident != me}
                stacks = {ident: _stack(frame) for ident, frame in frames.items() if ident != me}
                self._samples.setdefault(tick, []).append(((time.perf_counter() - at) * 1000, stacks, spent))
                before = now

    def stop(self) -> None:
        self.gui_cpu_s = time.thread_time() - self._gui_cpu
        self.other_cpu_s = time.process_time() - self._process_cpu - self.gui_cpu_s
        self._stop.set()
        self._watchdog.join()
        gc.callbacks.remove(self._collector)

    def report(self, top: int = 12) -> None:
        """The longest stalls, one line each, and the stall time by cause: each sample stands for its share."""
        gui = threading.main_thread().ident or 0
        print(f"\n{len(self.stalls)} stall(s) over {self.threshold_ms:.0f} ms while filling; the longest, with where")
        print("the GUI thread was at each sample, or the worker that ran instead (CPU ms: GUI / workers):")
        causes: collections.defaultdict[str, float] = collections.defaultdict(float)
        for shown, (at, wall, cpu, samples) in enumerate(sorted(self.stalls, key=lambda s: -s[1])):
            seen: list[str] = []
            for _into, stacks, spent in samples:
                cause = _cause(gui, stacks, spent)
                causes[cause] += wall / len(samples)
                seen.append(cause)
            if not samples:
                causes["no sample (the watchdog did not run: the lock held in C, or the machine's load)"] += wall
            collected = sum(ms for began, ms, _t in self.collections if at <= began <= at + wall / 1000)
            if collected >= 1:
                causes[f"of which the cyclic collector (any thread; {collected:.0f} ms at {at:.2f} s)"] += collected
            if shown < top:
                workers = sum(ms for _i, _s, spent in samples for ident, ms in spent.items() if ident != gui)
                parts = [f"{cause} x{seen.count(cause)}" for cause in dict.fromkeys(seen)]
                gc_note = f", collector {collected:.0f} ms" if collected >= 1 else ""
                print(
                    f"  {wall:6.1f} ms at {at:5.2f} s, CPU {cpu:5.1f} / {workers:5.1f} ms{gc_note}: {'; '.join(parts)}"
                )
        total = sum(wall for _at, wall, _cpu, _samples in self.stalls)
        busiest = max(self.stalls, key=lambda s: s[2], default=None)
        if busiest is not None:
            print(
                f"Most GUI thread CPU in one stall: {busiest[2]:.1f} ms (of {busiest[1]:.1f} ms, at {busiest[0]:.2f} s)"
            )
        print(f"CPU while filling: GUI thread {self.gui_cpu_s:.2f} s, the other threads {self.other_cpu_s:.2f} s")
        passes = sorted(ms for _b, ms, _t in self.collections)
        if passes:
            print(f"Collector passes while filling: {len(passes)}, longest {passes[-1]:.1f} ms")
        print(f"Stall time by cause ({total:.0f} ms in all):")
        for cause, ms in sorted(causes.items(), key=lambda item: -item[1]):
            print(f"  {ms:7.1f} ms  {cause}")


def _cpu_ms() -> dict[int, float]:
    """Each thread's CPU time so far."""
    spent = {}
    for ident in list(sys._current_frames()):
        with contextlib.suppress(OSError, OverflowError):
            spent[ident] = time.clock_gettime(time.pthread_getcpuclockid(ident)) * 1000
    return spent


def _cause(gui: int, stacks: dict[int, list[str]], spent: dict[int, float]) -> str:
    """What a sample says held the GUI thread: its own Python (the project's frame it was in, named by the window
    it belongs to); else a worker that ran Python meanwhile (the lock); else Qt's own work or the machine."""
    own = [f for f in stacks.get(gui, []) if f.startswith("reviewapp/")]
    if own:
        where = "queue window" if any(f.startswith("reviewapp/qt/queue/") for f in own) else "review window"
        return f"{where}: {own[0]}"
    ran = sorted((ms, ident) for ident, ms in spent.items() if ident != gui and ms >= 2)
    if ran:
        frames = stacks.get(ran[-1][1], [])
        roots = [f for f in frames if f.startswith("reviewapp/")]
        inner = frames[0] if frames else "?"
        task = roots[-2] if len(roots) > 1 else roots[-1] if roots else ""  # what the thread was started to do
        return f"GUI in Qt, a worker ran: {inner}, in {task}"
    return "GUI in Qt, no worker ran (Qt's work, or the machine's load)"


def _stack(frame: FrameType | None) -> list[str]:
    """A thread's frames, innermost first, each as `file:line function` (the project's files from reviewapp/)."""
    frames = []
    while frame is not None:
        path = frame.f_code.co_filename
        short = path[path.index("reviewapp/") :] if "reviewapp/" in path else "/".join(path.split("/")[-2:])
        frames.append(f"{short}:{frame.f_lineno} {frame.f_code.co_name}")
        frame = frame.f_back
    return frames


def verdict(value: float, target: float, unit: str) -> str:
    return f"target ≤ {target:g} {unit}   {'PASS' if value <= target else 'MISS'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logbooks", type=int, default=1000, help="logbooks in the queue (default 1,000)")
    parser.add_argument("--switches", type=int, default=10, help="logbook switches to time")
    parser.add_argument("--stalls", action="store_true", help="say where each stall of the cold fill came from")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="reviewapp-queue-bench-"))
    os.environ["REVIEWAPP_DATA_DIR"] = str(scratch / "data")
    os.environ["REVIEWAPP_CONFIG_DIR"] = str(scratch / "config")
    os.environ["REVIEWAPP_CACHE_DIR"] = str(scratch / "cache")  # an empty parse cache: the first open is cold
    target = CACHE / f"queue-{args.logbooks}"
    print(f"Generating {args.logbooks} logbooks into {target.relative_to(REPO)} (cached)...", flush=True)
    queue_file = generate_queue(target, args.logbooks)
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    print(f"Queue: {queue_file}  ({size / 1e6:,.0f} MB on disk)")

    from PySide6.QtWidgets import QApplication

    from reviewapp.core.review.preferences import Preferences, save_preferences
    from reviewapp.qt import theme
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow
    from reviewapp.qt.queue.queue_window import QueueWindow
    from reviewapp.qt.workers import share_interpreter_with_gui

    save_preferences(Preferences(annotator="Benchmark Judge", annotator_source="asked"))
    share_interpreter_with_gui()
    app = QApplication([sys.argv[0]])
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    window = MainWindow(LogbookController(), remember_state=False)
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    probe = StallProbe()
    sites = StallSites() if args.stalls else None
    if sites is not None:
        probe.timer.timeout.connect(sites.tick)

    def open_queue() -> tuple[float, float, list[float], QueueWindow]:
        """Seconds until every entry is listed, until every row is filled, and the stalls meanwhile."""
        probe.start()
        if sites is not None:
            sites.start()
        started = time.perf_counter()
        queue = window.queue.open_queue(queue_file)
        run_until(app, lambda: len(queue.model.rows) == args.logbooks)
        shown = time.perf_counter() - started
        filled = shown + run_until(app, lambda: not queue.loading)
        return shown, filled, probe.stop(), queue

    cold_shown, cold_s, cold_stalls, queue = open_queue()
    if sites is not None:
        sites.stop()
        probe.timer.timeout.disconnect(sites.tick)
    unreadable = sum(1 for r in queue.model.rows if r.problem)
    queue.close()
    _shown, warm_s, _stalls, queue = open_queue()

    switches: list[float] = []  # Enter until the first claim not yet reviewed is on screen
    settled: list[float] = []  # until the window is idle (figures decoded, trace indexed)
    shown: list[float] = []
    window.subject_shown.connect(lambda: shown.append(time.perf_counter()))
    # The queue started the empty review window on its first readable logbook: Enter on that row opens nothing
    # (no `loaded`), so the switches go to the other rows, once that first open has settled.
    run_until(app, lambda: window.is_idle() and not window.controller.loading)
    shown_logbook = window.controller.logbook
    shown_root = shown_logbook.root.resolve() if shown_logbook is not None else None
    readable = [n for n, row in enumerate(queue.model.rows) if row.logbook is not None]
    rows = [n for n in readable if queue.model.rows[n].logbook.root.resolve() != shown_root][: args.switches + 1]
    for position, number in enumerate(rows):
        queue.table.selectRow(queue._view_row(number))
        loaded: list[float] = []
        window.controller.loaded.connect(lambda _lb, mark=loaded: mark.append(time.perf_counter()))
        started = time.perf_counter()
        shown.clear()
        queue.open_selected()
        run_until(app, lambda mark=loaded: bool(mark) and bool(shown))  # shown while `loaded` is handled
        first = max(shown[-1], loaded[0])
        run_until(app, lambda: window.is_idle() and not queue.loading)
        if position:  # the first open also starts the window's own one-off work
            switches.append((first - started) * 1000)
            settled.append((time.perf_counter() - started) * 1000)

    print(f"\n{args.logbooks} logbooks, {unreadable} unreadable; figures (targets for 1,000 logbooks):")
    print(f"  cold, listed  {cold_shown:7.2f} s    {verdict(cold_shown, TARGET_LISTED_S, 's')}  (rows filling in)")
    print(f"  cold, filled  {cold_s:7.2f} s    {verdict(cold_s, TARGET_COLD_S, 's')}")
    worst = max(cold_stalls, default=0.0)
    print(f"  cold stall    {worst:7.1f} ms   {verdict(worst, TARGET_STALL_MS, 'ms')}")
    print(f"  warm, filled  {warm_s:7.2f} s    {verdict(warm_s, TARGET_WARM_S, 's')}")
    if switches:
        median, slowest = statistics.median(switches), max(switches)
        print(
            f"  switch median {median:7.1f} ms   {verdict(median, TARGET_SWITCH_MS, 'ms')}  (slowest {slowest:.0f} ms)"
        )
        print(f"  switch, idle  {statistics.median(settled):7.1f} ms   (figures decoded, trace indexed; no target)")
    peak_mb = peak_kib() / 1024
    print(f"  peak memory   {peak_mb:7.0f} MB   {verdict(peak_mb, TARGET_MEMORY_MB, 'MB')}")
    print(f"  measured with {load_average()}")
    if sites is not None:
        sites.report()
    queue.close()
    window.close()
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
