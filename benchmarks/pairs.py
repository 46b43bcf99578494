"""Pair rating speed: key press to the next pair fully painted, against a plain Pillow decode of one pair.

    python benchmarks/pairs.py                 # 128 photo-like 1024x1024 PNG pairs (generated once, cached)
    python benchmarks/pairs.py --pairs 16      # a quick smoke run
    python benchmarks/pairs.py --think 0.2     # seconds the simulated rater looks at each pair (default 0.5)

The pairs (gradients, soft shapes and grain, so they compress like photographs) are written once into
benchmarks/.cache/. The real rating window runs offscreen and is driven by key presses; each switch is timed
from the key press until the canvas has painted the next pair. The rater "looks" at every pair for --think
seconds first, as a person would, which is the time the window has to prefetch. Memory (RSS) is sampled after
every trial. Target: median switch time under a quarter of the median decode time of a pair, and memory that
stays flat over the whole set. Prints figures and PASS/MISS; exits 0 unless something crashes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path.insert(0, str(REPO))
CACHE = BENCH_DIR / ".cache"
SIZE = 1024
GENERATOR_VERSION = 1
TARGET_RATIO = 0.25


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def generate(count: int) -> Path:
    """The workspace with `count` pairs (reused when already there)."""
    from reviewapp.core.logbook.demo import degrade, photo_like_image
    from reviewapp.core.logbook.writer import LogbookDraft

    workspace = CACHE / f"pairs-v{GENERATOR_VERSION}-{SIZE}-{count}"
    manifest = workspace / "samples" / "bench-pairs.json"
    if manifest.is_file():
        return workspace
    staging = workspace.with_name(workspace.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    draft = LogbookDraft("Benchmark: image pairs")
    draft.page("Claim 1: Quantized images stay usable").markdown("Status: **INCONCLUSIVE**.", title="Verdict")
    draft.write(staging)
    rng = random.Random(20261130)
    rows = []
    started = time.perf_counter()
    for index in range(1, count + 1):
        base = photo_like_image(rng, SIZE)
        for condition, image in (("baseline", base), ("quantized", degrade(base, rng))):
            path = staging / "samples" / condition / f"p{index:03d}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path, format="PNG")
        rows.append(
            {"id": f"p{index:03d}", "left": f"baseline/p{index:03d}.png", "right": f"quantized/p{index:03d}.png"}
        )
        if index % 16 == 0:
            print(f"  generated {index}/{count} pairs ({time.perf_counter() - started:.0f} s)", flush=True)
    spec = {"claim": "1", "question": "Which image is more usable?", "controls": {"rate": 0.1}, "pairs": rows}
    (staging / "samples" / "bench-pairs.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    shutil.rmtree(workspace, ignore_errors=True)
    staging.rename(workspace)
    return workspace


def pillow_decode_times(workspace: Path, count: int) -> list[float]:
    """Seconds to open and fully decode both images of a pair with plain Pillow (warm page cache)."""
    from PIL import Image

    times = []
    for index in range(1, count + 1):
        paths = [workspace / "samples" / c / f"p{index:03d}.png" for c in ("baseline", "quantized")]
        for path in paths:
            path.read_bytes()  # warm the page cache, as the window's reads are
        started = time.perf_counter()
        for path in paths:
            with Image.open(path) as image:
                image.load()
        times.append(time.perf_counter() - started)
    return times


def run_window(workspace: Path, think: float, size: tuple[int, int]) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reviewapp.core.logbook.reader import read_logbook
    from reviewapp.core.review.identity import Identity
    from reviewapp.core.review.logbook_review import LogbookReview
    from reviewapp.qt.pairs import PairRatingWindow

    app = QApplication.instance() or QApplication([])
    shutil.rmtree(workspace / ".trackio" / "logbook" / "reviews", ignore_errors=True)  # a fresh session each run
    logbook = read_logbook(workspace)
    annotations = LogbookReview.open(logbook, Identity("Benchmark Rater", "command line"), "participant")
    load_started = time.perf_counter()
    window = PairRatingWindow.for_set(annotations, "bench")
    set_load = time.perf_counter() - load_started
    window.resize(*size)
    window.show()
    painted: list[tuple[int, float]] = []
    window.canvas.painted.connect(lambda token: painted.append((token, time.perf_counter())))

    def spin(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.001)

    def wait_until(condition, limit: float = 30.0) -> None:
        end = time.perf_counter() + limit
        while not condition():
            if time.perf_counter() > end:
                raise TimeoutError("the window did not show the pair in time")
            app.processEvents()
            time.sleep(0.0005)

    wait_until(lambda: window.can_answer)
    switches: list[float] = []
    not_ready = 0
    rss: list[float] = []
    trials = len(window.rating.trials)
    while not window.rating.complete:
        spin(think)
        trial = window.rating.current
        assert trial is not None
        key = Qt.Key.Key_Left if trial.left == "a" else Qt.Key.Key_Right
        pressed = time.perf_counter()
        QTest.keyClick(window, key)
        wait_until(lambda: not window.writing)  # the rating is on the write lane; the next pair follows it
        if window.rating.complete:
            break
        token = window._token
        if not window.canvas.has_images:
            not_ready += 1  # the next pair was not decoded yet: "Loading…" first
        wait_until(lambda token=token: window.can_answer and any(t == token for t, _ in painted))
        shown = next(at for t, at in painted if t == token)
        switches.append(shown - pressed)
        painted.clear()
        rss.append(rss_mib())
    cache_mib = window.cache.nbytes / 2**20
    window.close()
    return {
        "trials": trials,
        "switches": switches,
        "not_ready": not_ready,
        "rss": rss,
        "cache_mib": cache_mib,
        "set_load_s": set_load,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=128)
    parser.add_argument("--think", type=float, default=0.5, help="seconds spent looking at each pair")
    parser.add_argument("--size", default="1400x900", help="window size")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    with tempfile.TemporaryDirectory() as home:  # our own preferences and data folder, not the user's
        os.environ["REVIEWAPP_DATA_DIR"] = str(Path(home) / "data")
        os.environ["REVIEWAPP_CONFIG_DIR"] = str(Path(home) / "config")
        print(f"pairs: {args.pairs} photo-like {SIZE}x{SIZE} PNG pairs, think time {args.think} s, window {args.size}")
        workspace = generate(args.pairs)
        decode = pillow_decode_times(workspace, min(args.pairs, 32))
        result = run_window(workspace, args.think, (width, height))
    decode_ms = [d * 1000 for d in decode]
    switch_ms = [s * 1000 for s in result["switches"]]
    decode_median = statistics.median(decode_ms)
    switch_median = statistics.median(switch_ms)
    ratio = switch_median / decode_median
    rss = result["rss"]
    quarter = max(1, len(rss) // 4)
    early, late = statistics.median(rss[:quarter]), statistics.median(rss[-quarter:])
    print(f"set load and check (read, verify, hash every image): {result['set_load_s']:.2f} s")
    print(f"Pillow decode of a pair:   median {decode_median:6.1f} ms   p95 {percentile(decode_ms, 0.95):6.1f} ms")
    print(
        f"key press -> next painted: median {switch_median:6.1f} ms   p95 {percentile(switch_ms, 0.95):6.1f} ms"
        f"   ({len(switch_ms)} switches over {result['trials']} trials, {result['not_ready']} not prefetched)"
    )
    verdict = "PASS" if ratio < TARGET_RATIO else "MISS"
    print(f"switch / decode: {ratio:.3f} (target < {TARGET_RATIO}) {verdict}")
    grew = late - early
    steady = "PASS" if grew < 64 else "MISS"
    print(
        f"RSS: first quarter {early:.0f} MiB, last quarter {late:.0f} MiB, max {max(rss):.0f} MiB "
        f"(image cache {result['cache_mib']:.0f} MiB at the end); growth {grew:+.0f} MiB (target < 64) {steady}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
