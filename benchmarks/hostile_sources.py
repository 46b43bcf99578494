"""Hostile servers and transcripts: time and peak memory of each class beside its bound.

    python benchmarks/hostile.py --sources                  # every class (writes a 600 MB file for one of them)
    python benchmarks/hostile.py --sources --scale 0.1      # the transcript sizes at a tenth
    python benchmarks/hostile_sources.py --cases hub-file-trickle,listing-32000

The servers are the loopback ones of tests/support/hostile_server.py, run here; each measurement is a fresh
child process opening the source (or attaching the transcript) with the real client, so its peak resident
memory is its own. Bounds: a hang stops at its time limit (LIMIT_S) plus a little; listings and manifests are
read in seconds; a lying server leaves nothing outside the cache and at most the per-file cap in it; attaching
any transcript peaks at 300 MB or less. The machine is shared: the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(BENCH_DIR))

from _measure import load_average, wait_with_peak  # noqa: E402

from tests.core.commit_helpers import published_files  # noqa: E402
from tests.support.hostile_server import HostileHub, HostileWeb, Misbehaviour  # noqa: E402

LIMIT_S = 10.0  # the open's time limit in the hanging cases
SLACK_S = 5.0  # what a stopped open may take beyond it (the child's start and imports included)
QUICK_S = 15.0  # bound for the cases that must not depend on a limit at all (start and imports included)
PEAK_MB = 300.0
SPACE = "mallory/repro-hostile"
MB = 1024 * 1024

OPEN = """
import json, sys
from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.sources.opener import open_source
try:
    open_source(sys.argv[1], limits=DownloadLimits(max_seconds=float(sys.argv[2]), max_bytes=int(sys.argv[3])))
    said = "opened"
except Exception as exc:
    said = f"{type(exc).__name__}: {exc}"
print("RESULT " + json.dumps(said))
"""
ATTACH = """
import json, sys
from pathlib import Path
from reviewapp.core.review.trace_links import prepare_transcript
try:
    index, _ = prepare_transcript(Path(sys.argv[1]))
    said = f"attached: {index.readable} events, {len(index.problems)} problems listed"
except Exception as exc:
    said = f"{type(exc).__name__}: {exc}"
print("RESULT " + json.dumps(said))
"""


@dataclass
class Figure:
    seconds: float
    peak_mb: float
    said: str


def run_child(code: str, args: list[str], env: dict[str, str], timeout: float = 600.0) -> Figure:
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=out, stderr=subprocess.DEVNULL)
        status, peak_mb = wait_with_peak(child.pid, started + timeout, interval=0.02)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
        seconds = time.perf_counter() - started
        out.seek(0)
        lines = [ln for ln in out.read().decode("utf-8", "replace").splitlines() if ln.startswith("RESULT ")]
    said = json.loads(lines[-1][7:]) if lines else f"no result (killed after {seconds:.0f} s?)"
    return Figure(seconds, peak_mb, said)


def env_for(home: Path, endpoint: str = "http://127.0.0.1:9") -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    env.update(
        REVIEWAPP_DATA_DIR=str(home / "data"), REVIEWAPP_CONFIG_DIR=str(home / "config"), HF_HOME=str(home / "hf"),
        HF_ENDPOINT=endpoint, HF_HUB_OFFLINE="0", HF_HUB_DISABLE_XET="1", HF_HUB_DISABLE_TELEMETRY="1",
        PYTHONPATH=str(REPO), HOME=str(home),
    )  # fmt: skip
    return env


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


# -- the classes -------------------------------------------------------------------------------------------------

Case = Callable[[Path, float], tuple[Figure, str, bool]]  # (figure, bound shown, met)


def _hub(
    home: Path, match: str, rule: Misbehaviour | None, *, max_bytes: int = 500 * MB, tree: bytes | None = None
) -> Figure:
    with HostileHub() as hub:
        files = dict(published_files(home / "draft", SPACE))
        hub.create_repo(SPACE, repo_type="space", files=files)
        if rule is not None:
            hub.misbehave(match, rule)
        if tree is not None:
            hub.misbehave("/tree/", Misbehaviour(body=tree))
        return run_child(OPEN, [SPACE, str(LIMIT_S), str(max_bytes)], env_for(home, hub.endpoint))


def _web(home: Path, match: str, rule: Misbehaviour | None, pages: int = 0) -> Figure:
    site = home / "site"
    for path, content in published_files(home / "draft", SPACE).items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_bytes(content)
    if pages:
        manifest = json.loads((site / "logbook.json").read_text())
        manifest["root"]["children"] = [{"title": f"p{i}", "file": f"pages/p{i}.md"} for i in range(pages)]
        (site / "logbook.json").write_text(json.dumps(manifest))
    with HostileWeb(site) as web:
        if rule is not None:
            web.misbehave(match, rule)
        return run_child(OPEN, [web.url, str(LIMIT_S), str(500 * MB)], env_for(home))


def hanging(figure: Figure) -> tuple[Figure, str, bool]:
    bound = LIMIT_S + SLACK_S
    return figure, f"<= {bound:.0f} s (limit {LIMIT_S:.0f} s)", figure.seconds <= bound and "TimedOut" in figure.said


def quick(figure: Figure, expected: str) -> tuple[Figure, str, bool]:
    return figure, f"<= {QUICK_S:.0f} s", figure.seconds <= QUICK_S and expected in figure.said


def hub_file_trickle(home: Path, scale: float) -> tuple[Figure, str, bool]:
    return hanging(_hub(home, "/resolve/", Misbehaviour(pace=2.0, method="GET")))


def repo_info_trickle(home: Path, scale: float) -> tuple[Figure, str, bool]:
    return hanging(_hub(home, f"/api/spaces/{SPACE}$", Misbehaviour(pace=2.0)))


def hub_file_endless(home: Path, scale: float) -> tuple[Figure, str, bool]:
    return hanging(_hub(home, "pages/index.md", Misbehaviour(endless=True, pace=0.01, chunk=64, method="GET")))


def web_manifest_trickle(home: Path, scale: float) -> tuple[Figure, str, bool]:
    return hanging(_web(home, "/logbook.json", Misbehaviour(pace=2.0)))


def web_page_endless(home: Path, scale: float) -> tuple[Figure, str, bool]:
    return hanging(_web(home, "/pages/index.md", Misbehaviour(endless=True, pace=0.01, chunk=64)))


def oversized_file(home: Path, scale: float) -> tuple[Figure, str, bool]:
    extra = int(300 * MB * scale)
    figure = _hub(home, "pages/index.md", Misbehaviour(extra=extra, method="GET"), max_bytes=1 * MB)
    kept = folder_bytes(home / "hf")
    figure.said += f" | {kept / MB:.2f} MB kept in the cache of {extra / MB:.0f} MB sent"
    return figure, "<= 1 MB kept", kept <= 1 * MB and "TooLarge" in figure.said


def lying_ids(home: Path, scale: float) -> tuple[Figure, str, bool]:
    figure = _hub(home, "/resolve/", Misbehaviour(headers={"ETag": '"../../../../../../../escaped"'}))
    outside = [p for p in home.rglob("escaped*")]
    figure.said += f" | {len(outside)} files written outside the cache"
    return figure, "0 outside", not outside and "Refused" in figure.said


def listing_32000(home: Path, scale: float) -> tuple[Figure, str, bool]:
    entries = [{"type": "file", "path": f"run{i}/logbook.json", "size": 10, "oid": "0" * 40} for i in range(32_000)]
    figure = _hub(home, "", None, tree=json.dumps(entries).encode())
    return quick(figure, "NotALogbook")


def manifest_100000(home: Path, scale: float) -> tuple[Figure, str, bool]:
    return quick(_web(home, "", None, pages=100_000), "TooLarge")


def _attach(home: Path, path: Path) -> tuple[Figure, str, bool]:
    figure = run_child(ATTACH, [str(path)], env_for(home))
    path.unlink()
    return figure, f"<= {PEAK_MB:.0f} MB", figure.peak_mb <= PEAK_MB and "Traceback" not in figure.said


def transcript_junk_lines(home: Path, scale: float) -> tuple[Figure, str, bool]:
    path = home / "junk.jsonl"
    path.write_bytes(b"x\n" * int(5 * MB * max(scale, 0.01)))  # 10 MB of two-byte lines at scale 1
    return _attach(home, path)


def transcript_one_huge_line(home: Path, scale: float) -> tuple[Figure, str, bool]:
    path = home / "huge.jsonl"
    with path.open("wb") as out:
        out.write(b'{"type": "user", "message": {"role": "user", "content": "')
        for _ in range(int(600 * scale) or 1):
            out.write(b"a" * MB)
        out.write(b'"}}\n')
        out.write(b'{"type": "user", "message": {"role": "user", "content": "and one ordinary line"}}\n')
    return _attach(home, path)


def transcript_random_bytes(home: Path, scale: float) -> tuple[Figure, str, bool]:
    path = home / "random.jsonl"
    path.write_bytes(os.urandom(int(20 * MB * max(scale, 0.05))))
    figure, bound, met = _attach(home, path)
    return figure, bound + ", refused", met and "no event could be read" in figure.said


ORDINARY_LINE = b'{"type": "user", "message": {"role": "user", "content": "and one ordinary line"}}\n'


def _record_line(values: int, per_value: bytes) -> bytes:
    """A closed record whose content is `values` copies of `per_value` (each ending in a comma)."""
    body = (per_value * values).rstrip(b",")
    return b'{"type": "user", "message": {"role": "user", "content": [' + body + b"]}}\n"


def transcript_brace_junk(home: Path, scale: float) -> tuple[Figure, str, bool]:
    """Lines under the 32 MB line cap that are all brackets: '[{},{},...]' (ten million values a line) and
    brackets nested deeper than the parser goes, at and under the million-value budget."""
    path = home / "braces.jsonl"
    lines = max(int(4 * scale), 1)
    with path.open("wb") as out:
        for _ in range(lines):
            out.write(b"[" + b"{}," * (10 * MB) + b"{}]\n")  # 30 MB, ten million values
            out.write(b"[" * (15 * MB) + b"]" * (15 * MB) + b"\n")  # 30 MB nested fifteen million deep
            out.write(b"[" * 400_000 + b"]" * 400_000 + b"\n")  # under the value budget, deeper than the parser
        out.write(ORDINARY_LINE)
    return _attach(home, path)


def container_bomb(home: Path, scale: float) -> tuple[Figure, str, bool]:
    """Well-formed records just under the million-value budget, as many as the format is told from: each parses
    into half a million containers (telling the format used to keep all of them at once)."""
    path = home / "bomb.jsonl"
    with path.open("wb") as out:
        for _ in range(max(int(100 * scale), 1)):
            out.write(_record_line(490_000, b"{},"))  # 1.5 MB a line, 980,000 values
        out.write(ORDINARY_LINE)
    return _attach(home, path)


CASES: dict[str, Case] = {
    "hub-file-trickle": hub_file_trickle,
    "repo-info-trickle": repo_info_trickle,
    "hub-file-endless": hub_file_endless,
    "web-manifest-trickle": web_manifest_trickle,
    "web-page-endless": web_page_endless,
    "oversized-file": oversized_file,
    "lying-etag": lying_ids,
    "listing-32000": listing_32000,
    "manifest-100000": manifest_100000,
    "transcript-junk-lines": transcript_junk_lines,
    "transcript-600mb-line": transcript_one_huge_line,
    "transcript-random": transcript_random_bytes,
    "transcript-brace-junk": transcript_brace_junk,
    "container-bomb": container_bomb,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the byte sizes (default 1)")
    parser.add_argument("--cases", help="comma-separated classes (default all): " + ", ".join(CASES))
    options = parser.parse_args(argv)
    names = options.cases.split(",") if options.cases else list(CASES)
    print(load_average(), "(a shared machine: times include waiting for a CPU)")
    print(f"{'class':24} {'seconds':>8} {'peak MB':>8}  {'bound':28} result")
    misses = 0
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            figure, bound, met = CASES[name](Path(tmp), options.scale)
        misses += not met
        said = figure.said if len(figure.said) <= 160 else figure.said[:159] + "…"
        verdict = "PASS" if met else "MISS"
        print(f"{name:24} {figure.seconds:>8.1f} {figure.peak_mb:>8.0f}  {bound:28} {verdict}: {said}", flush=True)
    print(load_average())
    print(f"{misses} classes missed their bound" if misses else "every class met its bound")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
