"""How often the Logbook Judge's verdict lands on the right claim, against a match key a person wrote.

    python benchmarks/judge_matching.py                       # the corpus, with benchmarks/judge_match_keys.json
    python benchmarks/judge_matching.py --generated           # generated logbooks, one per hard case
    python benchmarks/judge_matching.py --folder DIR --verdicts FILE --key FILE [--registry FILE]
    python benchmarks/judge_matching.py --format json         # the same figures as JSON

A match key pairs each registry claim the Logbook Judge judged with the logbook claim a careful reader says it is
about (its number), or with none:

    {"<space_id>": {"logbook": "<folder in DIR>",
                    "matches": [{"registry_position": 1, "logbook_claim": 1 | null}, ...]}}

`logbook_claim` is the claim's number as the logbook writes it (3, or "3a" for a sub-claim). Two rows with one
registry position mean the logbook split that claim; two positions with one logbook claim mean
it merged them. Per logbook and in total it prints: key pairs found right, paired wrong, left unmatched that the
key pairs, and paired where the key leaves the registry claim unpaired. Targets: at least 95% of key pairs found,
0 wrong. It also times one large case (40 claims with 200 KB titles) beside the load average. It measures rather
than tests: exits 0 unless the input is unusable (2).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from reviewapp.core.logbook.locate import NotALogbookError, find_logbooks  # noqa: E402
from reviewapp.core.logbook.model import Logbook  # noqa: E402
from reviewapp.core.logbook.reader import read_logbook  # noqa: E402
from reviewapp.core.logbook_judge.entries import VerdictsFileError, read_verdicts  # noqa: E402
from reviewapp.core.logbook_judge.judged import judge_logbook  # noqa: E402
from reviewapp.core.logbook_judge.linking import entries_for_space  # noqa: E402
from reviewapp.core.logbook_judge.registry import Registry, read_registry  # noqa: E402

CORPUS = REPO / ".." / "shared" / "corpus"
CORPUS_KEY = REPO / "benchmarks" / "judge_match_keys.json"
TARGET_FOUND = 0.95
TARGET_WRONG = 0
SPEED_TARGET_S = 2.0


@dataclass
class Score:
    space_id: str
    logbook: str
    key_pairs: int = 0
    right: int = 0
    wrong: int = 0
    missed: int = 0  # left unmatched although the key pairs it
    extra: int = 0  # paired although the key leaves the registry claim unpaired
    mistakes: list[str] = field(default_factory=list)
    error: str | None = None


def open_logbook(folder: Path) -> Logbook:
    try:
        return read_logbook(folder)
    except NotALogbookError:
        found = find_logbooks(folder, max_depth=2)
        if len(found) != 1:
            raise
        return read_logbook(found[0])


def _number(written: str | None, n: int | None) -> int | str | None:
    """A claim number as the key writes it: 3, or "3a" for a sub-claim."""
    if written is not None:
        return int(written) if written.isdigit() else written
    return n


def load_key(path: Path) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SystemExit(f"{path}: cannot read the match key: {exc}") from exc
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: a match key is an object keyed by Space id")
    for space, value in data.items():
        matches = value.get("matches") if isinstance(value, dict) else None
        if not isinstance(value, dict) or not isinstance(value.get("logbook"), str) or not isinstance(matches, list):
            raise SystemExit(f"{path}: {space}: needs a `logbook` folder name and a `matches` list")
        for row in matches:
            if not isinstance(row, dict) or not isinstance(row.get("registry_position"), int):
                raise SystemExit(f"{path}: {space}: each match needs an integer `registry_position`")
            if row.get("logbook_claim") is not None and not isinstance(row["logbook_claim"], (int, str)):
                raise SystemExit(f'{path}: {space}: `logbook_claim` is a claim number (3, or "3a") or null')
    return data


def score_one(space: str, spec: dict[str, Any], folder: Path, verdicts: Path, registry: Registry | None) -> Score:
    score = Score(space, spec["logbook"])
    wanted: dict[int, set[int | str | None]] = {}
    for row in spec["matches"]:
        claims = wanted.setdefault(row["registry_position"], set())
        if row.get("logbook_claim") is not None:
            claims.add(_number(str(row["logbook_claim"]), None))
    score.key_pairs = sum(len(v) for v in wanted.values())
    try:
        entries = entries_for_space(read_verdicts(verdicts).entries, space)
        exact = [e for e in entries if e.key.lower() == space.lower()] or entries
        if not exact:
            raise VerdictsFileError(f"no entry for {space}")
        entry = exact[0]
        logbook = open_logbook(folder / spec["logbook"])
    except (VerdictsFileError, NotALogbookError, OSError) as exc:
        score.error = str(exc)
        score.missed = score.key_pairs
        return score
    numbers: dict[str, int | str | None] = {c.key: _number(c.number, c.n) for c in logbook.claims}
    judged = judge_logbook(logbook, entry, registry.for_paper(entry.orid) if registry else None)
    found: dict[int, set[int | str | None]] = {}
    for m in judged.result.matches:
        found.setdefault(m.judge.index, set()).update(numbers.get(k) for k in m.claim_keys)
    for position in sorted(set(wanted) | set(found)):
        want = wanted.get(position, set())
        got = found.get(position, set())
        right = want & got
        score.right += len(right)
        stray = got - want
        if not want:
            score.extra += len(stray)
            score.mistakes.extend(
                f"registry {position} paired with claim {n}, key: none" for n in sorted(map(str, stray))
            )
            continue
        for n in sorted(want - got):
            if stray:
                score.wrong += 1
                score.mistakes.append(f"registry {position} paired with claim {sorted(stray, key=str)}, key: {n}")
            else:
                score.missed += 1
                score.mistakes.append(f"registry {position} left unmatched, key: claim {n}")
        if stray and not (want - got):
            score.wrong += len(stray)
            score.mistakes.append(f"registry {position} also paired with claim {sorted(stray, key=str)}")
    return score


def run(folder: Path, verdicts: Path, key: Path, registry_path: Path | None) -> list[Score]:
    spec = load_key(key)
    registry = None
    if registry_path is not None:
        try:
            registry = read_registry(registry_path)
        except VerdictsFileError as exc:
            raise SystemExit(str(exc)) from exc
    return [score_one(space, value, folder, verdicts, registry) for space, value in spec.items()]


def totals(scores: list[Score]) -> dict[str, int]:
    return {f: sum(getattr(s, f) for s in scores) for f in ("key_pairs", "right", "wrong", "missed", "extra")}


def render(title: str, scores: list[Score]) -> list[str]:
    lines = [title, f"{'logbook':58} {'key':>4} {'right':>5} {'wrong':>5} {'missed':>6} {'extra':>5}"]
    for s in scores:
        name = f"{s.logbook[:40]} ({s.space_id.split('/')[0][:14]})"
        lines.append(f"{name:58} {s.key_pairs:>4} {s.right:>5} {s.wrong:>5} {s.missed:>6} {s.extra:>5}")
        if s.error:
            lines.append(f"    error: {s.error}")
        lines.extend(f"    {m}" for m in s.mistakes)
    t = totals(scores)
    share = t["right"] / t["key_pairs"] if t["key_pairs"] else 1.0
    lines.append(f"{'total':58} {t['key_pairs']:>4} {t['right']:>5} {t['wrong']:>5} {t['missed']:>6} {t['extra']:>5}")
    lines.append(
        f"key pairs found {share:.0%} (target {TARGET_FOUND:.0%}: {'met' if share >= TARGET_FOUND else 'missed'}); "
        f"wrong {t['wrong']} (target {TARGET_WRONG}: {'met' if t['wrong'] <= TARGET_WRONG else 'missed'}); "
        f"paired where the key has none {t['extra']}"
    )
    return lines


def speed() -> tuple[float, tuple[float, float, float]]:
    """Match 40 registry claims against 40 logbook claims whose titles are 200 KB each."""
    from tests.core.judge_match_cases import large_case

    judge, logbook = large_case(40, 200_000)
    from reviewapp.core.logbook_judge.matching import match_claims

    start = time.perf_counter()
    match_claims(judge, logbook)
    return time.perf_counter() - start, os.getloadavg()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, help="folder of logbooks (default: the corpus)")
    parser.add_argument("--verdicts", type=Path, help="the Logbook Judge's verdicts file")
    parser.add_argument("--registry", type=Path, help="the claim registry (claims_anchored.json)")
    parser.add_argument("--key", type=Path, help="the match key")
    parser.add_argument("--generated", action="store_true", help="generated logbooks, one per hard case")
    parser.add_argument("--no-speed", action="store_true", help="skip the timed large case")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    runs: list[tuple[str, list[Score]]] = []
    if args.generated:
        from tests.core.judge_match_cases import write_cases

        with tempfile.TemporaryDirectory(prefix="judge-matching-") as tmp:
            paths = write_cases(Path(tmp))
            runs.append(("generated cases", run(paths.folder, paths.verdicts, paths.key, paths.registry)))
    elif args.folder or args.verdicts or args.key:
        if not (args.folder and args.verdicts and args.key):
            parser.error("--folder, --verdicts and --key go together")
        runs.append((str(args.folder), run(args.folder, args.verdicts, args.key, args.registry)))
    else:
        if not (CORPUS / "JUDGE-verdicts.json").is_file():
            print(f"corpus not found at {CORPUS.resolve()}", file=sys.stderr)
            return 2
        runs.append(("corpus", run(CORPUS, CORPUS / "JUDGE-verdicts.json", CORPUS_KEY, args.registry)))
    timing = None if args.no_speed else speed()
    if args.format == "json":
        out: dict[str, Any] = {name: {"logbooks": [asdict(s) for s in sc], "total": totals(sc)} for name, sc in runs}
        if timing:
            out["speed"] = {"seconds": round(timing[0], 3), "load_average": timing[1], "target_s": SPEED_TARGET_S}
        print(json.dumps(out, indent=1))
        return 0
    for name, scores in runs:
        print("\n".join(render(name, scores)))
    if timing:
        seconds, load = timing
        print(
            f"40 x 40 claims with 200 KB titles matched in {seconds:.2f} s (target {SPEED_TARGET_S:.0f} s: "
            f"{'met' if seconds <= SPEED_TARGET_S else 'missed'}); load average {load[0]:.1f} {load[1]:.1f} "
            "on a shared machine"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
