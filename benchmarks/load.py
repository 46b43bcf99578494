"""Load time and memory of our logbook reader against trackio's own, on a large logbook trackio wrote itself.

    python benchmarks/load.py            # 200 claim pages, 2,000 run cells, 200 figures, 50,000 trace events
    python benchmarks/load.py --small    # a quick smoke run
    python benchmarks/load.py --whole-process   # `reviewapp inspect --json` against `trackio logbook read --json`

trackio pins older dependencies than ours, so it lives in its own virtual environment under
benchmarks/.cache/ (created on first use with pip). The logbook is generated there by benchmarks/_trackio_gen.py
with trackio's real API and cached, keyed by the generator's source and the sizes asked for. Each timing runs in a
fresh process (benchmarks/_measure.py) so its memory figures are its own; all reads are with a warm page cache.

The read floor is the time to just open and read every file our reader needs (metadata, manifest, pages, trace
and workspace indexes; not the trace event chunks, which are read lazily). Prints figures and PASS/MISS per
target; exits 0 unless something crashes, as it measures rather than tests.

--whole-process times what a user waits for at a terminal instead: `reviewapp inspect WORKSPACE --json` against
`trackio logbook read --path WORKSPACE --json`, each a fresh process with its output discarded, run alternately
(trackio, ours with an empty parse cache, ours again with the cache it left) so that a busy machine slows them
alike; medians. Both interpreters write and reuse their bytecode as an installed program does (one untimed run
each first).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CACHE = BENCH_DIR / ".cache"
GENERATOR = BENCH_DIR / "_trackio_gen.py"
MEASURE = BENCH_DIR / "_measure.py"
TRACKIO_SPEC = "trackio==0.43.0"

FULL = {"pages": 200, "runs": 2000, "figures": 200, "events": 50_000}
SMALL = {"pages": 10, "runs": 100, "figures": 10, "events": 2_000}

TARGET_SPEEDUP = 5.0  # ours at least this many times faster than trackio
TARGET_FLOOR = 3.0  # ours within this factor of the read floor
TARGET_MEMORY = 2.0  # peak RSS above baseline under this factor of the bytes read
TARGET_WHOLE_RATIO = 0.2  # whole process: inspect --json at most this fraction of trackio's logbook read --json
TARGET_SECOND_OPEN_S = 0.15  # whole process: inspect --json of an unchanged logbook, served by the parse cache


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")


def trackio_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    # Keep trackio's own state out of the user's home and make sure it never reaches the network.
    env.update(TRACKIO_DIR=str(CACHE / "trackio-home"), HF_HUB_OFFLINE="1", HF_HUB_DISABLE_TELEMETRY="1")
    return env


def our_command() -> list[str]:
    """`reviewapp` as a user types it: the installed command beside this interpreter, like trackio's; `python -m
    reviewapp` where the project is not installed."""
    script = Path(sys.executable).parent / ("reviewapp.exe" if os.name == "nt" else "reviewapp")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "reviewapp"]


def ours_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


def ensure_trackio() -> Path:
    """trackio's interpreter, creating its virtual environment on first use."""
    venv = CACHE / ("venv-" + TRACKIO_SPEC.replace("==", "-"))
    python = venv_python(venv)
    marker = venv / ".installed"
    if marker.is_file() and marker.read_text(encoding="utf-8") == TRACKIO_SPEC and python.exists():
        return python
    print(f"Creating {venv.relative_to(REPO)} with {TRACKIO_SPEC} (once)...", flush=True)
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", TRACKIO_SPEC],
        check=True,
        env=trackio_env(),
    )
    marker.write_text(TRACKIO_SPEC, encoding="utf-8")
    return python


def cache_key(sizes: dict[str, int]) -> str:
    digest = hashlib.sha256(GENERATOR.read_bytes())
    digest.update(json.dumps([TRACKIO_SPEC, sizes], sort_keys=True).encode())
    return digest.hexdigest()[:12]


def ensure_logbook(python: Path, sizes: dict[str, int], out: Path | None, regenerate: bool) -> tuple[Path, dict]:
    """The generated logbook's folder and its generated.json, generating it unless a matching one exists."""
    key = cache_key(sizes)
    if out is None:
        out = CACHE / "logbooks" / ("p{pages}-r{runs}-f{figures}-e{events}-".format(**sizes) + key)
    out = out.resolve()
    stamp = out / "generated.json"
    if stamp.is_file() and not regenerate:
        stats = json.loads(stamp.read_text(encoding="utf-8"))
        if stats.get("key") == key:
            print(f"Reusing the logbook generated earlier in {stats['generation_seconds']:.1f}s: {out}")
            stats["reused"] = True
            return out, stats
    if out.exists() and any(out.iterdir()):
        if not stamp.is_file() and not out.is_relative_to(CACHE):
            raise SystemExit(f"{out}: exists and is not a logbook this benchmark generated; choose another --out")
        shutil.rmtree(out)
    print(
        "Generating the logbook with {spec}: {pages} claim pages, {runs} run cells, {figures} figures, "
        "{events:,} trace events...".format(spec=TRACKIO_SPEC, **sizes),
        flush=True,
    )
    # -P: the script's folder stays off sys.path, where queue.py would stand in for the standard module
    command = [str(python), "-P", str(GENERATOR), str(out)]
    for name, value in sizes.items():
        command += [f"--{name}", str(value)]
    subprocess.run(command, check=True, env=trackio_env(), cwd=CACHE)
    stats = json.loads(stamp.read_text(encoding="utf-8"))
    stats["key"] = key
    stamp.write_text(json.dumps(stats, indent=2), encoding="utf-8")
    stats["reused"] = False
    return out, stats


def read_set(workspace: Path) -> list[Path]:
    """Every file our reader needs to show the logbook; trace event chunks are left for when they are viewed."""
    trackio_dir = workspace / ".trackio"
    root = trackio_dir / "logbook"
    files = [
        trackio_dir / "metadata.json",
        root / "logbook.json",
        root / "pages" / "index.md",
        *sorted(root.glob("pages/*/page.md")),
        root / "traces" / "index.json",
        *sorted(root.glob("traces/*/index.json")),
        root / "workspace.json",
    ]
    return [path for path in files if path.is_file()]


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def warm_cache(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file():
            path.read_bytes()


@dataclass
class Row:
    label: str
    seconds: list[float] = field(default_factory=list)
    again: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    info: dict = field(default_factory=dict)
    missing: str | None = None

    @property
    def ok(self) -> bool:
        return self.missing is None and bool(self.seconds)

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def run_measure(python: Path, mode: str, target: Path, env: dict[str, str]) -> dict:
    proc = subprocess.run(
        [str(python), "-P", str(MEASURE), mode, str(target)], capture_output=True, text=True, env=env, cwd=CACHE
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-6:]
        return {"missing": f"{mode} run failed (exit {proc.returncode}):\n      " + "\n      ".join(tail)}
    return json.loads(lines[-1][len("RESULT ") :])


def measure(label: str, python: Path, mode: str, target: Path, env: dict[str, str], repeat: int) -> Row:
    row = Row(label)
    for _ in range(repeat):
        result = run_measure(python, mode, target, env)
        if "missing" in result:
            row.missing = result["missing"]
            return row
        row.seconds.append(result["seconds"])
        row.again.append(result["again_seconds"])
        row.rss_kib.append(result["peak_kib"] - result["base_kib"])
        row.info = result
    return row


def whole_process(trackio_python: Path, workspace: Path, repeat: int) -> None:
    """Alternating fresh-process runs of both command lines; prints medians beside the targets."""
    import tempfile

    sys.path.insert(0, str(BENCH_DIR))
    from _measure import load_average

    scratch = Path(tempfile.mkdtemp(prefix="reviewapp-whole-"))
    warm_cache_dir = scratch / "warm"
    trackio_cli = trackio_python.parent / ("trackio.exe" if os.name == "nt" else "trackio")
    trackio_cmd = [str(trackio_cli), "logbook", "read", "--path", str(workspace), "--json"]
    ours_cmd = [*our_command(), "inspect", str(workspace), "--json"]

    def env_of(base: dict[str, str], cache_dir: Path | None = None) -> dict[str, str]:
        env = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
        if cache_dir is not None:
            env["REVIEWAPP_CACHE_DIR"] = str(cache_dir)
        return env

    def run(command: list[str], env: dict[str, str]) -> float:
        started = time.perf_counter()
        subprocess.run(command, env=env, cwd=CACHE, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return time.perf_counter() - started

    print(f"Whole process, {repeat} alternating runs each ({load_average()} before)...", flush=True)
    run(trackio_cmd, env_of(trackio_env()))  # bytecode written, page cache warm
    run(ours_cmd, env_of(ours_env(), warm_cache_dir))  # and the parse cache the warm runs use
    times: dict[str, list[float]] = {"trackio": [], "cold": [], "warm": []}
    for n in range(repeat):
        times["trackio"].append(run(trackio_cmd, env_of(trackio_env())))
        times["cold"].append(run(ours_cmd, env_of(ours_env(), scratch / f"cold-{n}")))
        times["warm"].append(run(ours_cmd, env_of(ours_env(), warm_cache_dir)))
    shutil.rmtree(scratch, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in times.items()}
    spread = {name: f"{min(values):.3f}–{max(values):.3f}" for name, values in times.items()}
    ratio = median["cold"] / median["trackio"]
    print()
    print(f"{'':46}{'median':>9}  {'range':>13}")
    print(f"{'trackio logbook read --json':46}{median['trackio']:>8.3f}s  {spread['trackio']:>13}")
    print(f"{'reviewapp inspect --json (empty parse cache)':46}{median['cold']:>8.3f}s  {spread['cold']:>13}")
    print(f"{'reviewapp inspect --json (second open)':46}{median['warm']:>8.3f}s  {spread['warm']:>13}")
    print()
    print(
        f"{'first open ≤ ' + format(TARGET_WHOLE_RATIO, 'g') + 'x trackio':40}{ratio:>12.2f}x  "
        f"{verdict(ratio <= TARGET_WHOLE_RATIO)}"
    )
    print(
        f"{'second open ≤ ' + format(TARGET_SECOND_OPEN_S, 'g') + ' s':40}{median['warm']:>12.3f}s  "
        f"{verdict(median['warm'] <= TARGET_SECOND_OPEN_S)}"
    )
    print(f"measured with {load_average()} after")


def mb(n_bytes: float) -> str:
    return f"{n_bytes / 1e6:,.1f} MB"


def verdict(passed: bool | None) -> str:
    return "n/a" if passed is None else ("PASS" if passed else "MISS")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="quick smoke: {pages} pages".format(**SMALL))
    for name in FULL:
        parser.add_argument(f"--{name}", type=int, help=f"default {FULL[name]} ({SMALL[name]} with --small)")
    parser.add_argument("--out", type=Path, help="where the logbook lives (default: under benchmarks/.cache/)")
    parser.add_argument("--regenerate", action="store_true", help="build the logbook again even if cached")
    parser.add_argument("--repeat", type=int, default=3, help="fresh-process runs per reader (default 3)")
    parser.add_argument(
        "--whole-process", action="store_true", help="time the two command lines, start to exit, instead"
    )
    args = parser.parse_args()
    profile = SMALL if args.small else FULL
    sizes = {name: getattr(args, name) or profile[name] for name in FULL}
    CACHE.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    trackio_python = ensure_trackio()
    out, stats = ensure_logbook(trackio_python, sizes, args.out, args.regenerate)
    if not stats["reused"]:
        print(f"Generated in {time.perf_counter() - started:.1f}s (trackio's part {stats['generation_seconds']:.1f}s)")
    workspace = Path(stats["workspace"])
    logbook_dir = workspace / ".trackio" / "logbook"
    if args.whole_process:
        warm_cache(workspace / ".trackio")
        whole_process(trackio_python, workspace, max(args.repeat, 5) if args.repeat == 3 else args.repeat)
        return 0

    files = read_set(workspace)
    read_bytes = sum(path.stat().st_size for path in files)
    total_bytes = folder_bytes(logbook_dir)
    chunk_bytes = sum(path.stat().st_size for path in logbook_dir.glob("traces/*/events-*.json"))
    list_file = out / "read-set.txt"
    list_file.write_text("".join(f"{path}\n" for path in files), encoding="utf-8")
    warm_cache(workspace / ".trackio")

    print(f"Timing, {args.repeat} fresh process{'es' if args.repeat != 1 else ''} per reader...", flush=True)
    floor = measure("read floor (warm cache)", Path(sys.executable), "floor", list_file, ours_env(), args.repeat)
    trackio_row = measure("trackio read_logbook_data", trackio_python, "trackio", workspace, trackio_env(), args.repeat)
    probe = run_measure(Path(sys.executable), "probe", workspace, ours_env())
    ours = Row("reviewapp read_logbook", missing=probe["missing"]) if "missing" in probe else None
    if ours is None:
        ours = measure("reviewapp read_logbook", Path(sys.executable), "ours", workspace, ours_env(), args.repeat)

    by_type = ", ".join(f"{n:,} {kind}" for kind, n in sorted(stats["cells_by_type"].items()))
    print()
    print(f"logbook    {workspace}")
    print(
        f"on disk    {mb(total_bytes)} in .trackio/logbook ({mb(chunk_bytes)} of it trace event chunks); "
        f"{mb(read_bytes)} in the {len(files)} files a reader opens"
    )
    print(
        f"content    {stats['pages']:,} pages, {stats['cells']:,} cells ({by_type}), "
        f"{stats['trace_events']:,} trace events"
    )
    origin = "reused from cache" if stats["reused"] else "just generated"
    print(f"generation {stats['generation_seconds']:.1f}s with trackio {stats['trackio_version']} ({origin})")
    print()
    print(f"{'':28}{'best':>10}{'median':>10}{'2nd call':>10}{'peak RSS Δ':>13}")
    for row in (trackio_row, ours, floor):
        if row.ok:
            print(
                f"{row.label:28}{row.best:>9.3f}s{row.median:>9.3f}s{min(row.again):>9.3f}s"
                f"{mb(max(row.rss_kib) * 1024):>13}"
            )
        else:
            print(f"{row.label:28}{'—':>10}{'—':>10}{'—':>10}{'—':>13}")
            print(f"    {row.missing}")

    checks: list[tuple[str, str, bool | None]] = []
    both = ours.ok and trackio_row.ok
    speedup = trackio_row.best / ours.best if both else None
    checks.append(
        (
            f"ours ≥ {TARGET_SPEEDUP:g}x faster than trackio",
            f"{speedup:.1f}x" if speedup else "—",
            None if speedup is None else speedup >= TARGET_SPEEDUP,
        )
    )
    over_floor = ours.best / floor.best if ours.ok and floor.ok else None
    checks.append(
        (
            f"ours within {TARGET_FLOOR:g}x of the read floor",
            f"{over_floor:.1f}x" if over_floor else "—",
            None if over_floor is None else over_floor <= TARGET_FLOOR,
        )
    )
    if "opened" in probe:
        inside = [Path(p) for p in probe["opened"] if Path(p).is_relative_to(workspace)]
        chunks = [p for p in inside if p.name.startswith("events-") and p.parent.parent.name == "traces"]
        checks.append(("trace events read lazily", f"{len(chunks)} event chunks opened", not chunks))
    else:
        inside = []
        checks.append(("trace events read lazily", "—", None))
    rss = max(ours.rss_kib) * 1024 if ours.ok else None
    checks.append(
        (
            f"peak RSS Δ < {TARGET_MEMORY:g}x bytes read",
            f"{rss / read_bytes:.2f}x ({rss / total_bytes:.2f}x the folder)" if rss else "—",
            None if rss is None else rss < TARGET_MEMORY * read_bytes,
        )
    )
    print()
    for name, figure, passed in checks:
        print(f"{name:40}{figure:>36}  {verdict(passed)}")

    if inside:
        expected = {path.resolve() for path in files}
        extra = sorted(str(p.relative_to(workspace)) for p in inside if p.resolve() not in expected)
        unread = sorted(str(p.relative_to(workspace)) for p in expected - {p.resolve() for p in inside})
        print(f"\nours opened {len(inside)} files in the workspace", end="")
        print(f"; beyond the read set: {', '.join(extra[:8])}" if extra else "", end="")
        print(f"; left unread from it: {', '.join(unread[:8])}" if unread else "")
    if ours.ok and "pages" in ours.info:
        print(f"ours found {ours.info['pages']:,} pages, {ours.info.get('cells', 0):,} cells", end="")
        problems = ours.info.get("problems")
        print(f", {problems} problems {ours.info.get('first_problems')}" if problems else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
