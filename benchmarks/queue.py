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

The generated logbooks are kept under benchmarks/.cache/ and reused. Prints figures only; exits 0 unless
something crashes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

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


def verdict(value: float, target: float, unit: str) -> str:
    return f"target ≤ {target:g} {unit}   {'PASS' if value <= target else 'MISS'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logbooks", type=int, default=1000, help="logbooks in the queue (default 1,000)")
    parser.add_argument("--switches", type=int, default=10, help="logbook switches to time")
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

    def open_queue() -> tuple[float, float, list[float], QueueWindow]:
        """Seconds until every entry is listed, until every row is filled, and the stalls meanwhile."""
        probe.start()
        started = time.perf_counter()
        queue = window.queue.open_queue(queue_file)
        run_until(app, lambda: len(queue.model.rows) == args.logbooks)
        shown = time.perf_counter() - started
        filled = shown + run_until(app, lambda: not queue.loading)
        return shown, filled, probe.stop(), queue

    cold_shown, cold_s, cold_stalls, queue = open_queue()
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
    queue.close()
    window.close()
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
