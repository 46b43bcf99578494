"""Hostile logbooks against normal ones of the same size: time and peak memory of `inspect` and of opening the
window, at sizes n, 2n and 4n, so that growth can be read off (linear: the time doubles with the size).

    python benchmarks/hostile.py                       # every case, n = the case's default size
    python benchmarks/hostile.py --scale 0.25          # a quick run at a quarter of the sizes
    python benchmarks/hostile.py --cases backticks,table --no-window
    python benchmarks/hostile.py --sources             # hostile servers and transcripts instead (hostile_sources.py)

Each hostile page comes with a normal page of the same byte size (plain prose and run output), in a logbook of
the same shape. Every measurement is a fresh process (`python -m reviewapp inspect --json`, and `reviewapp open
--screenshot` offscreen, which returns once the chosen claim's evidence is painted); peak memory is that child's
own high-water mark (VmHWM). Target: no case more than 4x the normal logbook's time at the same size, and every case
growing at most linearly (4n within 5x of n). Prints figures and PASS/MISS; exits 0 unless something crashes.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH_DIR))

from _measure import wait_with_peak  # noqa: E402

from reviewapp.core.logbook.writer import LogbookDraft, cell_text  # noqa: E402

TARGET_RATIO = 4.0  # hostile time / normal time at the same size
TARGET_GROWTH = 5.0  # time at 4n / time at n (linear would be 4)
DEADLINE = 300.0  # a child still running then is killed and reported (exit -9)


def _table(n: int) -> str:
    rows = ["|" + "|".join(f"c{j}" for j in range(50)) + "|", "|" + "|".join("-" for _ in range(50)) + "|"]
    return "\n".join(rows + ["|" + "|".join(str(i) for _ in range(50)) + "|" for i in range(n)])


# name -> (default n, page body at size n, index text at size n or None)
CASES: dict[str, tuple[int, Callable[[int], str], Callable[[int], str] | None]] = {
    "heading-blanks": (100_000, lambda n: "# x" + " " * n + "y", None),
    "heading-blanks-hash": (100_000, lambda n: "# x" + " " * n + "#y", None),
    "bare-markers": (100_000, lambda n: "<!-- trackio-cell\n" * n, None),
    "toc-links-missing": (20_000, lambda n: "ok", lambda n: "".join(f"- [p{i}](#/missing-{i})\n" for i in range(n))),
    "backticks-after-math": (100_000, lambda n: "$x$" + "`" * n, None),
    "svg-openers": (60_000, lambda n: "<svg " * n, None),
    "table-2000x50": (1_000, _table, None),
    "brackets": (100_000, lambda n: "[" * n + "\n" + "](" * n, None),
    "page-over-budget": (6_000_000, lambda n: "word " * n, None),
}


def write_logbook(folder: Path, body: str, index: str | None) -> Path:
    draft = LogbookDraft("Benchmark: hostile text")
    page = draft.page("Claim 1: the claim", slug="claim-1")
    page.markdown("**Verdict: VERIFIED**")
    root = draft.write(folder)
    text = "# Claim 1: the claim\n\n**Verdict: VERIFIED**\n" + cell_text({"type": "markdown", "id": "c1"}, body)
    (root / "pages" / "claim-1" / "page.md").write_text(text, encoding="utf-8")
    if index is not None:
        (root / "pages" / "index.md").write_text(index, encoding="utf-8")
    return folder


def normal_body(size: int) -> str:
    line = "The run reproduced the table within 0.3 points; see `train.py --seed 3` and $\\alpha = 0.1$.\n"
    return (line * (size // len(line) + 1))[:size]


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(seconds, peak MB, exit code) of one child; a failing child's last line of stderr is printed."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        status, peak_mb = wait_with_peak(child.pid, started + DEADLINE)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
        seconds = time.perf_counter() - started
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            errors.seek(0)
            lines = errors.read().decode("utf-8", "replace").strip().splitlines()
            print(f"    exit {code}: {lines[-1] if lines else 'no message'}", flush=True)
    return seconds, peak_mb, code


def child_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "GIT_"))}
    env.update(
        REVIEWAPP_DATA_DIR=str(home / "data"), REVIEWAPP_CONFIG_DIR=str(home / "config"), HF_HUB_OFFLINE="1",
        QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO), HOME=str(home),
    )  # fmt: skip
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every case's n (default 1)")
    parser.add_argument("--cases", help="comma-separated case names (default all): " + ", ".join(CASES))
    parser.add_argument("--no-window", action="store_true", help="measure inspect only")
    parser.add_argument("--sources", action="store_true", help="hostile servers and transcripts instead")
    options, rest = parser.parse_known_args()
    if options.sources:  # time and peak memory of each hostile source class beside its bound
        from hostile_sources import main as sources_main

        given = ["--scale", str(options.scale), *(["--cases", options.cases] if options.cases else [])]
        return sources_main([*rest, *given])
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    names = options.cases.split(",") if options.cases else list(CASES)
    misses = 0
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = child_env(base)
        modes = ["inspect"] + ([] if options.no_window else ["window"])
        print(
            f"{'case':24} {'size':>5} {'bytes':>11}  {'mode':7} {'hostile s':>9} {'MB':>6}  {'normal s':>8} {'MB':>6}"
        )
        for name in names:
            default, body_at, index_at = CASES[name]
            times: dict[str, list[float]] = {mode: [] for mode in modes}
            for factor in (1, 2, 4):
                n = max(1, int(default * options.scale * factor))
                body, index = body_at(n), index_at(n) if index_at else None
                hostile = write_logbook(base / f"{name}-{factor}-h", body, index)
                size = len(body.encode()) + len((index or "").encode())
                normal = write_logbook(base / f"{name}-{factor}-n", normal_body(size), None)
                for mode in modes:
                    figures = []
                    for folder in (hostile, normal):
                        if mode == "inspect":
                            command = [sys.executable, "-m", "reviewapp", "inspect", str(folder), "--json"]
                        else:
                            shot = base / f"{folder.name}.png"
                            command = [sys.executable, "-m", "reviewapp", "open", str(folder), "--screenshot",
                                       str(shot), "--claim", "1"]  # fmt: skip
                        figures.append(measure(command, env))
                    (h_s, h_mb, h_rc), (n_s, n_mb, _) = figures
                    times[mode].append(h_s)
                    ratio = h_s / max(n_s, 1e-3)
                    verdict = "PASS" if ratio <= TARGET_RATIO and h_rc == 0 else "MISS"
                    misses += verdict == "MISS"
                    print(f"{name:24} {factor:>4}n {size:>11,}  {mode:7} {h_s:>9.2f} {h_mb:>6.0f}  {n_s:>8.2f} "
                          f"{n_mb:>6.0f}  x{ratio:.1f} {verdict}{'' if h_rc == 0 else f' (exit {h_rc})'}",
                          flush=True)  # fmt: skip
            for mode, series in times.items():
                growth = series[-1] / max(series[0], 1e-3)
                verdict = "PASS" if growth <= TARGET_GROWTH else "MISS"
                misses += verdict == "MISS"
                print(f"{name:24} growth {mode}: 4n/n = {growth:.1f} (target <= {TARGET_GROWTH:.0f}) {verdict}")
    print(f"{misses} figures missed their target" if misses else "every figure met its target")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
