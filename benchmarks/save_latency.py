"""Saving a verdict in a big git checkout: key press to "Saved", and whether the window stalls meanwhile.

    python benchmarks/save_latency.py               # 200 saves, one every 100 ms, in a checkout of 20,000 files
    python benchmarks/save_latency.py --saves 20    # a quick run

A git repository with 20,000 small tracked files and a generated logbook inside it is written once into
benchmarks/.cache/ and committed, so that the revision lookup a save makes (`git rev-parse`, `git ls-files`) has
real work to do. The real window runs offscreen and is driven by key presses as a reviewer would: a claim is
selected, a verdict key (1-5) chosen, a rationale typed once (V opens the editor); then every 100 ms a verdict
key picks the next verdict (so each save writes a record) and Ctrl+Enter saves it 30 ms later; a save that takes
longer than that holds the next one back until it shows "Saved", as a reviewer would wait. Each save is timed from the
Ctrl+Enter press until the editor shows "Saved at …", polled from the event loop. The 5 ms timer probe of
window_load.py runs throughout: its longest gap is the longest the window was frozen. Target: no stall over 50 ms
on an idle machine. Prints figures and PASS/MISS; exits 0 unless something crashes.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import itertools
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
TARGET_STALL_MS = 50.0
INTERVAL_S = 0.1
CHOOSE_TO_SAVE_MS = 30  # from the verdict key to Ctrl+Enter
RATIONALE = "Ran the benchmark script; the numbers match the table within noise."
GENERATOR_VERSION = 1

# benchmarks/queue.py would stand in for the standard library's `queue` with this folder on sys.path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH_DIR]
sys.path.insert(0, str(REPO))


def window_load() -> ModuleType:
    """benchmarks/window_load.py: its logbook generator and its stall probe."""
    spec = importlib.util.spec_from_file_location("_bench_window_load", BENCH_DIR / "window_load.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def git(checkout: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    }
    done = subprocess.run(
        ["git", "-c", "commit.gpgsign=false", *args], cwd=checkout, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def make_checkout(files: int, pages: int) -> Path:
    """A committed git checkout with `files` small source files and a logbook of `pages` claims (reused)."""
    checkout = CACHE / f"save-checkout-v{GENERATOR_VERSION}-f{files}-p{pages}"
    if (checkout / ".git").is_dir() and git(checkout, "status", "--porcelain", "--untracked-files=no") == "":
        git(checkout, "clean", "-fdxq")  # the reviews of an earlier run
        return checkout
    shutil.rmtree(checkout, ignore_errors=True)
    checkout.mkdir(parents=True)
    per_folder = 100
    for n in range(files):
        folder = checkout / "src" / f"pkg{n // per_folder:03d}"
        if n % per_folder == 0:
            folder.mkdir(parents=True)
        (folder / f"mod{n:05d}.py").write_text(
            f'"""Module {n}."""\n\nVALUE = {n}\n\n\ndef f{n}() -> int:\n    return VALUE\n'
        )
    window_load().generate_logbook(checkout / "logbook", pages, runs=2 * pages, figures=0, events=50 * pages)
    git(checkout, "init", "-q")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-qm", "Generated checkout")
    return checkout


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def verdict_line(name: str, value_ms: float, target_ms: float | None) -> str:
    if target_ms is None:
        return f"  {name:<34} {value_ms:8.1f} ms"
    return (
        f"  {name:<34} {value_ms:8.1f} ms   target < {target_ms:.0f} ms   {'PASS' if value_ms < target_ms else 'MISS'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=200, help="saves to time (default 200)")
    parser.add_argument("--files", type=int, default=20_000, help="tracked files in the checkout (default 20,000)")
    parser.add_argument("--pages", type=int, default=30, help="claim pages in the generated logbook (default 30)")
    parser.add_argument(
        "--logbooks", type=int, default=10, help="logbooks in the imported Logbook Judge verdicts file (default 10)"
    )
    parser.add_argument("--profile", action="store_true", help="profile the GUI thread while saving (cProfile)")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    scratch = Path(tempfile.mkdtemp(prefix="reviewapp-bench-"))
    os.environ["REVIEWAPP_DATA_DIR"] = str(scratch / "data")
    os.environ["REVIEWAPP_CONFIG_DIR"] = str(scratch / "config")

    print(f"Preparing a git checkout with {args.files:,} tracked files and a logbook (cached)...", flush=True)
    checkout = make_checkout(args.files, args.pages)
    tracked = git(checkout, "ls-files", "-z").count("\0")
    print(f"Checkout: {checkout.relative_to(REPO)}  ({tracked:,} tracked files)")

    from PySide6.QtCore import Qt, QTimer, qInstallMessageHandler
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reviewapp.core.review.preferences import Preferences, save_preferences
    from reviewapp.qt import theme
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow
    from reviewapp.qt.workers import share_interpreter_with_gui

    probes = window_load()
    PROBE_MS, StallProbe, run_until = probes.PROBE_MS, probes.StallProbe, probes.run_until

    def qt_message(_mode: object, _context: object, message: str) -> None:
        if "propagateSizeHints" not in message:  # the offscreen platform's own notice
            print(message, file=sys.stderr)

    qInstallMessageHandler(qt_message)
    save_preferences(Preferences(annotator="Bench Reviewer", annotator_source="asked"))
    share_interpreter_with_gui()  # as reviewapp.qt.app.run does
    app = QApplication([sys.argv[0]])
    theme.manager().apply(theme.ThemeChoice.LIGHT)

    def run_pass(label: str) -> float | None:
        """Open the logbook in a new window and time the saves; the longest stall, None when the run failed."""
        controller = LogbookController()
        window = MainWindow(controller, remember_state=False)
        window.resize(1600, 1000)
        window.show()
        window.activateWindow()
        controller.open(checkout / "logbook")
        run_until(app, lambda: window.context is not None and window.is_idle())
        editor = window.review.editor
        if window.context is None or not window.controller.active:
            print("The logbook did not open for review.")
            return None

        def press(key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
            QTest.keyClick(QApplication.focusWidget() or window, key, modifiers)

        # Select a claim, choose a verdict, type the rationale once and save it (not timed: the first save opens files).
        assert window.select_claim(1)
        run_until(app, window.is_idle)
        window.claim_panel.focus_list()
        press(Qt.Key.Key_1)
        press(Qt.Key.Key_V)
        QTest.keyClicks(editor.rationale, RATIONALE)
        press(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        run_until(app, lambda: editor.state.text().startswith("Saved at"), timeout_s=60)
        if not editor.state.text().startswith("Saved at"):
            print(f"The first save did not complete: {editor.state.text()!r} {editor.error.text()!r}")
            return None
        review_file = window.controller.file()
        assert review_file is not None
        lines_before = len(review_file.read_bytes().splitlines())

        digits = [Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4, Qt.Key.Key_5, Qt.Key.Key_1]  # each unlike the one before
        latencies: list[float] = []  # seconds from Ctrl+Enter to "Saved"
        spans: list[tuple[float, float]] = []  # (pressed, saved) per save, to place the stalls
        problems: list[str] = []
        pressed: list[float] = []  # when Ctrl+Enter of the save in flight was pressed

        def choose_next() -> None:
            """A verdict key, then Ctrl+Enter a moment later, as a quick reviewer presses them."""
            if problems or len(latencies) >= args.saves:
                return
            press(digits[len(latencies) % len(digits)])
            if editor.state.text() != "Not saved yet.":
                problems.append(f"after the verdict key the editor said {editor.state.text()!r}")
                return
            QTimer.singleShot(CHOOSE_TO_SAVE_MS, save_now)

        def save_now() -> None:
            pressed.append(time.perf_counter())
            press(Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

        def poll() -> None:
            if pressed and editor.state.text().startswith("Saved at"):
                now = time.perf_counter()
                latencies.append(now - pressed[0])
                spans.append((pressed[0], now))
                cycle_ends = pressed[0] - CHOOSE_TO_SAVE_MS / 1000 + INTERVAL_S
                pressed.clear()
                QTimer.singleShot(max(1, round((cycle_ends - now) * 1000)), choose_next)
            elif pressed and editor.error.isVisible():
                problems.append(f"save {len(latencies) + 1} failed: {editor.error.text()}")
                pressed.clear()

        print(f"Saving {args.saves} verdicts, one every {INTERVAL_S * 1000:.0f} ms...", flush=True)
        poller = QTimer()
        poller.setTimerType(Qt.TimerType.PreciseTimer)
        poller.setInterval(1)
        poller.timeout.connect(poll)
        probe = StallProbe()
        # The GUI thread's own CPU time at each tick: a gap's share of it is work the window did, the rest is waiting
        # (for the CPU on a busy machine, or for the interpreter lock held by the write lane).
        cpu: list[float] = []
        probe.timer.timeout.connect(lambda: cpu.append(time.thread_time()))
        probe.start()
        cpu.append(time.thread_time())
        profiler = cProfile.Profile() if args.profile else None  # profiles this thread only: the GUI thread
        if profiler is not None:
            profiler.enable()
        started = time.perf_counter()
        poller.start()
        QTimer.singleShot(0, choose_next)
        run_until(app, lambda: len(latencies) >= args.saves or bool(problems), timeout_s=60 + args.saves * 5)
        poller.stop()
        if profiler is not None:
            profiler.disable()
        seconds = time.perf_counter() - started
        ticks = list(probe.ticks)
        stalls = probe.stop()
        cpu.append(time.thread_time())
        worked = [(b - a) * 1000 for a, b in itertools.pairwise(cpu)]
        written = len(review_file.read_bytes().splitlines()) - lines_before
        logbook_id = controller.logbook_id or ""
        filled = sum(1 for row in controller.workspace.rows(logbook_id) if row.slots.logbook_judge is not None)
        matched = controller.workspace.logbook_judge_matches_made(logbook_id)
        window.close()
        if problems or len(latencies) < args.saves:
            print(f"Stopped after {len(latencies)} saves: {problems[0] if problems else 'timed out'}")
            return None

        # Where the longest stall fell: during a save (between the key press and "Saved") or between saves.
        worst = max(range(len(stalls)), key=stalls.__getitem__) if stalls else 0
        worst_end = ticks[worst + 1] if stalls else 0.0
        during = any(a <= worst_end <= b + PROBE_MS / 1000 for a, b in spans)
        ms = [s * 1000 for s in latencies]
        load1, load5, _ = os.getloadavg()
        print(f"\n{label}:")
        print(
            f"{len(latencies)} saves in {seconds:.1f} s ({written} records written), "
            f"{tracked:,} tracked files; load average {load1:.2f} / {load5:.2f} (1 / 5 min) on {os.cpu_count()} CPUs"
        )
        print("Targets are for an idle machine; on a busy one the figures are upper bounds.")
        print(f"Logbook Judge slot: {filled} claims with a J verdict; the claims were matched {matched} time(s) in all")
        print("Ctrl+Enter to “Saved”:")
        print(verdict_line("median", statistics.median(ms), None))
        print(verdict_line("95th percentile", percentile(ms, 0.95), None))
        print(verdict_line("worst", max(ms), None))
        print(f"Event-loop stalls over the whole run (probe every {PROBE_MS} ms):")
        print(verdict_line("longest stall", max(stalls, default=0.0), TARGET_STALL_MS))
        print(verdict_line("99th percentile stall", percentile(stalls, 0.99), None))
        print(verdict_line("GUI thread's CPU time in it", worked[worst] if worked else 0.0, None))
        print(verdict_line("most GUI CPU time between two ticks", max(worked, default=0.0), None))
        over = sum(1 for s in stalls if s >= TARGET_STALL_MS)
        where = "during" if during else "between"
        print(f"  stalls of {TARGET_STALL_MS:.0f} ms or more: {over}; the longest came {where} saves")
        if profiler is not None:
            print("\nGUI thread, by own time (the event loop's own time is mostly waiting):")
            pstats.Stats(profiler).sort_stats("cumtime").print_stats(40)
        return max(stalls, default=0.0)

    without = run_pass("Without a Logbook Judge import")
    print(f"\nImporting Logbook Judge verdicts and a registry: {args.logbooks} logbooks of {args.pages} claims...")
    imported = import_logbook_judge(checkout / "logbook", scratch, args.logbooks, args.pages)
    print(f"  {imported}")
    with_import = run_pass("With the Logbook Judge import and its registry")
    shutil.rmtree(scratch, ignore_errors=True)
    if without is None or with_import is None:
        return 1
    print(
        f"\nLongest stall ({load_average_text()}): without the import {without:.1f} ms, with it {with_import:.1f} ms "
        f"(target < {TARGET_STALL_MS:.0f} ms at idle: {'PASS' if with_import < TARGET_STALL_MS else 'MISS'})"
    )
    return 0


def import_logbook_judge(logbook: Path, scratch: Path, logbooks: int, claims: int) -> str:
    """A verdicts file with `logbooks` entries of `claims` claims each and their claim registry, the first entry
    about the benchmark's logbook, imported as `reviewapp verdicts import` does."""
    import json

    from reviewapp.core.logbook.reader import read_logbook
    from reviewapp.core.logbook_judge.importer import import_verdicts

    verdicts = ["verified", "falsified", "toy", "inconclusive"]
    entries, registry = {}, {}
    for team in range(logbooks):
        orid = f"BenchPaper{team:02d}"
        texts = [f"Claim {n} holds at scale, with alpha = {n} (Table {n})" for n in range(1, claims + 1)]
        registry[orid] = [{"text": text, "status": "unverified"} for text in texts]
        entries[f"bench/team-{team:02d}"] = {
            "space_id": f"bench/team-{team:02d}",
            "orid": orid,
            "claims": [
                {"claim": text, "verdict": verdicts[(n + team) % len(verdicts)], "evidence": f"Checked claim {n}."}
                for n, text in enumerate(texts, start=1)
            ],
        }
    verdicts_file, registry_file = scratch / "verdicts.json", scratch / "registry.json"
    verdicts_file.write_text(json.dumps(entries), "utf-8")
    registry_file.write_text(json.dumps(registry), "utf-8")
    result = import_verdicts(verdicts_file, [read_logbook(logbook)], registry_file=registry_file, space="bench/team-00")
    if not result.all_stored:
        raise SystemExit(f"the Logbook Judge verdicts were not imported: {result.reports}")
    return f"{len(entries)} entries of {claims} claims and a registry of {logbooks * claims} claims imported"


def load_average_text() -> str:
    load1, load5, _ = os.getloadavg()
    return f"load average {load1:.2f} / {load5:.2f}"


if __name__ == "__main__":
    raise SystemExit(main())
