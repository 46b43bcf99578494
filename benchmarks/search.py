"""How fast the claim search answers over the challenge's scale: every claim of 6,816 logbooks (35,908 claims).

    python benchmarks/search.py                 # 35,908 generated claims in 6,816 logbooks
    python benchmarks/search.py --claims 5000   # a quicker run (the targets stay those for 35,908)

The claims are generated (seeded): titles and text drawn from a vocabulary of research words with a long tail of
rare ones, as real logbooks have, and indexed into a fresh database by reviewapp.core.logbook.claim_index, the
index the app keeps in its cache folder. Printed beside their targets: the time to build the index, and per
query the median, 95th percentile and slowest of a mix of searches (a common word, two or three words, a rare
word, a word's start, a word no claim has), each run in full with its hits fetched. Prints the load average;
exits 0 unless something crashes, as it measures rather than tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
# The folder holds queue.py, which would stand in for the standard library's queue module.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH_DIR]
sys.path.insert(0, str(REPO))

LOGBOOKS, CLAIMS = 6_816, 35_908
TARGET_QUERY_MS, TARGET_BUILD_S = 100.0, 60.0
VERDICTS = ("verified", "partial", "falsified", "toy", "inconclusive", "unstated")
COMMON = [
    "model",
    "accuracy",
    "training",
    "loss",
    "dataset",
    "baseline",
    "benchmark",
    "scale",
    "reproduce",
    "result",
    "table",
    "figure",
    "attention",
    "transformer",
    "layer",
    "token",
    "learning",
    "rate",
    "batch",
    "evaluation",
    "score",
    "improvement",
    "parameter",
    "gradient",
    "optimizer",
    "convergence",
    "ablation",
    "fine",
    "tuning",
    "pretraining",
    "inference",
    "latency",
    "memory",
    "throughput",
    "robustness",
    "generalization",
    "distribution",
    "shift",
    "calibration",
    "uncertainty",
    "sample",
    "efficiency",
    "reward",
    "policy",
    "agent",
    "environment",
    "language",
    "vision",
    "image",
    "text",
    "retrieval",
    "embedding",
    "contrastive",
    "diffusion",
    "noise",
    "schedule",
    "sampling",
    "temperature",
    "prompt",
]


def vocabulary(rng: random.Random, rare: int) -> list[str]:
    """Common words first, then a long tail of made-up rare ones (dataset and method names)."""
    syllables = ["ka", "ro", "ven", "tis", "lum", "qua", "dex", "mo", "zer", "pli", "nor", "sa", "tek", "vi"]
    tail = {
        "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) + str(rng.randint(0, 99)) for _ in range(rare)
    }
    return [*COMMON, *sorted(tail)]


def sentence(rng: random.Random, words: list[str], length: int) -> str:
    # Zipf-like: low ranks (common words) far more often than the tail
    return " ".join(words[min(len(words) - 1, int(rng.paretovariate(1.1)) - 1)] for _ in range(length))


def generate(claims: int, logbooks: int):  # type: ignore[no-untyped-def]
    from reviewapp.core.logbook.claim_index import ClaimEntry

    rng = random.Random(27)
    words = vocabulary(rng, 20_000)
    per_logbook = [claims // logbooks] * logbooks
    for i in range(claims - sum(per_logbook)):
        per_logbook[i] += 1
    for number, count in enumerate(per_logbook):
        logbook_id = f"hf:space/team-{number:05d}/repro"
        title = f"Reproduction {number}: " + sentence(rng, words, 6)
        paper = f"paper-{number % 900:03d}"
        entries = []
        for claim in range(1, count + 1):
            text = "\n\n".join(sentence(rng, words, rng.randint(20, 80)) for _ in range(rng.randint(2, 6)))
            entries.append(
                ClaimEntry(
                    logbook_id,
                    title,
                    paper,
                    f"claim-{claim}#{claim}",
                    f"Claim {claim}: " + sentence(rng, words, rng.randint(6, 14)),
                    rng.choice(VERDICTS),
                    f"**Verdict: {rng.choice(VERDICTS).upper()}.** " + text,
                )
            )
        yield entries


def _load_average() -> str:
    import importlib.util

    spec = importlib.util.spec_from_file_location("_bench_measure", BENCH_DIR / "_measure.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return str(module.load_average())


def queries(rng: random.Random, words: list[str], count: int) -> list[str]:
    """A mix of what reviewers type: a common word, two or three words, a rare name, a word's start, no match."""
    made: list[str] = []
    for n in range(count):
        kind = n % 5
        if kind == 0:
            made.append(rng.choice(COMMON))
        elif kind == 1:
            made.append(" ".join(rng.sample(COMMON, rng.randint(2, 3))))
        elif kind == 2:
            made.append(rng.choice(words[len(COMMON) :]))
        elif kind == 3:
            made.append(rng.choice(words)[:3])
        else:
            made.append(f"nosuchword{n}")
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=CLAIMS, help=f"claims to index (default {CLAIMS:,})")
    parser.add_argument("--queries", type=int, default=200, help="searches to time (default 200)")
    args = parser.parse_args()
    logbooks = max(1, round(args.claims * LOGBOOKS / CLAIMS))

    from reviewapp.core.logbook.claim_index import ClaimIndex

    print(f"Generating {args.claims:,} claims in {logbooks:,} logbooks...", flush=True)
    generated = list(generate(args.claims, logbooks))
    total_chars = sum(len(e.title) + len(e.text) for batch in generated for e in batch)
    with tempfile.TemporaryDirectory(prefix="reviewapp-search-bench-") as scratch:
        path = Path(scratch) / "claims.sqlite3"
        print(f"Indexing ({total_chars / 1e6:,.0f} M characters), one transaction per logbook as the app adds them...")
        started = time.perf_counter()
        with ClaimIndex(path) as index:
            for entries in generated:
                index.replace(entries)
            build_s = time.perf_counter() - started
            indexed = index.count()
        size = sum(p.stat().st_size for p in Path(scratch).iterdir())
        rng = random.Random(5)
        words = vocabulary(random.Random(27), 20_000)
        asked = queries(rng, words, args.queries)
        timings: list[float] = []
        hits: list[int] = []
        with ClaimIndex(path) as index:  # a fresh connection, as a new run of the app would have
            index.search("warm up")
            for text in asked:
                started = time.perf_counter()
                found = index.search(text)
                timings.append((time.perf_counter() - started) * 1000)
                hits.append(len(found.hits))
    ordered = sorted(timings)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    median, slowest = statistics.median(timings), max(timings)
    print(f"\n{indexed:,} claims indexed, database {size / 1e6:,.1f} MB; {len(asked)} searches, {sum(hits):,} hits")
    verdict_build = "PASS" if build_s <= TARGET_BUILD_S else "MISS"
    verdict_query = "PASS" if slowest <= TARGET_QUERY_MS else "MISS"
    print(f"  build the index   {build_s:8.2f} s    target ≤ {TARGET_BUILD_S:g} s     {verdict_build}")
    print(
        f"  one search        median {median:6.1f} ms, p95 {p95:6.1f} ms, slowest {slowest:6.1f} ms"
        f"    target ≤ {TARGET_QUERY_MS:g} ms   {verdict_query}"
    )
    print(f"  measured with {_load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
