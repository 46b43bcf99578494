"""How well the reader finds a logbook's claims and the agent's verdicts, against a careful human reading.

    python benchmarks/reader_accuracy.py                      # ../shared/corpus and corpus-more, facts from the tests
    python benchmarks/reader_accuracy.py --folder DIR         # any folder of logbooks with DIR/expected.json
    python benchmarks/reader_accuracy.py --write-expected F   # write the corpus facts as an expected.json
    python benchmarks/reader_accuracy.py --format json        # the same figures as JSON
    python benchmarks/reader_accuracy.py --cross-validate     # in-sample beside leave-one-owner-out

expected.json maps each logbook folder name (a folder beside it) to the facts a careful reader wrote down:

    {"<folder>": {"title": str, "paper_id": str | null, "pages": int | [slug, ...], "cells": {type: count},
                  "logbook_root": ".trackio/logbook" | "space" | "logbook" | ...,
                  "claims": [{"n": int | null, "page": slug, "title": str, "verdict_raw": str | null,
                              "verdict": "verified" | "partial" | "falsified" | "toy" | "inconclusive" | "unstated",
                              "where": str, "ambiguous": bool (optional), "key": str (optional)}]}}

Expected claims are matched to found ones by key (when given, aliases count), else by page and number, else by
page. "where" (where the verdict is written) and "title" are for the person reading the file; they are not scored.

Per logbook and in total it prints: claims found against expected (and whether the set is exact), claim
numbers right, agent verdicts right, wrong and missed ("unstated" where one was stated), ambiguous claims
(a careful reader could map them two ways) apart, facts that differ, and a confusion matrix of expected
against found verdicts. Targets: the exact claim set in at least 9 logbooks of 10, at least 90% of the
clear-cut verdicts right and 85% of all, at most 5% wrong. It measures rather than tests: exits 0 unless the input
is unusable (2).

--cross-validate measures how far that generalizes. The decision's tunables (`verdict_decision.Weights`) are
fitted by coordinate search on every logbook but one owner's, then scored on that owner's logbooks; each owner
in turn. In-sample (fitted on all, scored on all) is printed beside it: the gap is the overfitting. Claims and
their candidates are found once per logbook (`claim_finder.gather`); only the decision is repeated.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from reviewapp.core.logbook import claim_finder  # noqa: E402
from reviewapp.core.logbook.locate import NotALogbookError  # noqa: E402
from reviewapp.core.logbook.model import Claim, Logbook  # noqa: E402
from reviewapp.core.logbook.reader import read_logbook  # noqa: E402
from reviewapp.core.logbook.verdict_decision import DEFAULT_WEIGHTS, Weights  # noqa: E402
from reviewapp.core.verdicts import Verdict, parse_verdict  # noqa: E402

CORPUS = REPO / ".." / "shared" / "corpus"
CORPUS_MORE = REPO / ".." / "shared" / "corpus-more"
VERDICTS = [v.value for v in Verdict]
TARGET_EXACT_SETS = 0.9
TARGET_RIGHT = 0.9
TARGET_WRONG = 0.05
TARGET_RIGHT_ALL = 0.85
# The tunables the cross-validation fits, and the values it tries for each.
GRID: dict[str, tuple[float, ...]] = {
    "candidate_only": (0.25, 0.3, 0.35, 0.4, 0.45),
    "weak": (0.5, 0.6, 0.7),
    "rival_gap": (0.05, 0.1, 0.15, 0.2),
    "agreement": (0.0, 0.05, 0.1),
    "offset:names the claim": (0.0, 0.05, 0.1, 0.15),
    "offset:mention": (-0.1, 0.0, 0.05),
    "offset:code output": (-0.1, 0.0, 0.1),
    "offset:upper-case": (-0.1, 0.0, 0.1),
    "offset:bold": (-0.1, 0.0, 0.1),
    "offset:first cell": (0.0, 0.05, 0.1),
    "offset:last cell": (0.0, 0.05, 0.1),
    "offset:near the claim heading": (0.0, 0.05, 0.1),
}


@dataclass
class Score:
    name: str
    expected: int = 0
    found: int = 0
    paired: int = 0
    exact_set: bool = False
    numbers_right: int = 0
    right: int = 0
    wrong: int = 0
    missed: int = 0
    ambiguous: int = 0
    ambiguous_agree: int = 0
    extra: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    mistakes: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    error: str | None = None
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def judged(self) -> int:
        return self.right + self.wrong + self.missed


def corpus_facts(more: bool = False) -> dict[str, dict[str, Any]]:
    """The corpus (or corpus-more) expectations the tests hold, in expected.json's shape."""
    from tests.core.corpus_expectations import EXPECTED
    from tests.core.corpus_more_expectations import EXPECTED_MORE

    facts: dict[str, dict[str, Any]] = {}
    for name, book in (EXPECTED_MORE if more else EXPECTED).items():
        facts[name] = {
            "title": book.title,
            "paper_id": book.paper_id,
            "pages": list(book.page_slugs),
            "cells": dict(book.cell_counts),
            "logbook_root": book.root,
            "claims": [
                {
                    "n": c.n,
                    "page": c.page,
                    "title": "",
                    "key": c.key,
                    "verdict_raw": c.raw,
                    "verdict": c.verdict,
                    "where": "",
                    "ambiguous": c.ambiguous,
                }
                for c in book.claims
            ],
        }
    return facts


class UnusableExpected(Exception):
    """expected.json cannot be scored: the message names the file and the problem."""


def load_expected(folder: Path) -> dict[str, dict[str, Any]]:
    path = folder / "expected.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UnusableExpected(f"{path}: cannot read expected facts ({exc})") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) for v in data.values()):
        raise UnusableExpected(f"{path}: expected an object of logbook folder name -> facts")
    for name, facts in data.items():
        claims = facts.get("claims", [])
        if not isinstance(claims, list) or not all(isinstance(c, dict) for c in claims):
            raise UnusableExpected(f"{path}: {name}: 'claims' must be a list of objects")
        for index, claim in enumerate(claims, 1):
            try:  # written forms ("PARTIALLY VERIFIED") are accepted and stored as the vocabulary's word
                claim["verdict"] = parse_verdict(str(claim.get("verdict", "unstated"))).value
            except ValueError as exc:
                raise UnusableExpected(f"{path}: {name}: claim {claim.get('n', index)}: {exc}") from None
    return data


def pair(expected: list[dict[str, Any]], found: list[Claim]) -> list[tuple[dict[str, Any], Claim | None]]:
    """Match expected claims to found ones: by key when given, else by page and number, else by page in order."""
    left = list(found)
    pairs: list[tuple[dict[str, Any], Claim | None]] = []
    for want in expected:
        match = next((c for c in left if want.get("key") and want["key"] in (c.key, *c.aliases)), None)
        if match is None:
            match = next((c for c in left if c.page == want.get("page") and c.n == want.get("n")), None)
        if match is None:
            match = next((c for c in left if c.page == want.get("page")), None)
        if match is not None:
            left.remove(match)
        pairs.append((want, match))
    return pairs


def score(name: str, folder: Path, facts: dict[str, Any]) -> Score:
    root = folder / name / str(facts.get("logbook_root") or "")
    try:
        logbook = read_logbook(root)
    except (NotALogbookError, OSError) as exc:
        return unreadable(name, facts, str(exc))
    return score_claims(name, facts, logbook, logbook.claims)


def unreadable(name: str, facts: dict[str, Any], error: str) -> Score:
    result = Score(name)
    expected_claims = [c for c in facts.get("claims", []) if isinstance(c, dict)]
    result.expected = len(expected_claims)
    result.error = error
    result.missed = sum(1 for c in expected_claims if c.get("verdict") != "unstated")
    return result


def score_claims(name: str, facts: dict[str, Any], logbook: Logbook, claims: list[Claim]) -> Score:
    """How the claims found (the logbook's own, or decided again with other tunables) compare with the facts."""
    result = Score(name)
    expected_claims = [c for c in facts.get("claims", []) if isinstance(c, dict)]
    result.expected = len(expected_claims)
    check_facts(logbook, facts, result)
    result.found = len(claims)
    pairs = pair(expected_claims, claims)
    paired = {id(c) for _, c in pairs if c is not None}
    result.extra = [c.key for c in claims if id(c) not in paired]
    result.paired = len(paired)
    for want, claim in pairs:
        label = want.get("key") or f"{want.get('page')}#{want.get('n')}"
        wanted = str(want.get("verdict", "unstated"))
        got = claim.verdict.value if claim is not None else "unstated"
        if claim is None:
            result.unmatched.append(label)
        elif claim.n == want.get("n"):
            result.numbers_right += 1
        result.confusion[(wanted, got)] += 1
        if want.get("ambiguous"):
            result.ambiguous += 1
            result.ambiguous_agree += wanted == got
        elif wanted == got:
            result.right += 1
        elif got == "unstated":
            result.missed += 1
            result.mistakes.append(f"{label}: missed ({wanted})")
        else:
            result.wrong += 1
            result.mistakes.append(f"{label}: {got}, expected {wanted}")
    result.exact_set = not result.extra and not result.unmatched
    return result


def check_facts(logbook: Logbook, facts: dict[str, Any], result: Score) -> None:
    if "title" in facts and facts["title"] != logbook.title:
        result.facts.append(f"title {logbook.title!r}")
    if "paper_id" in facts and facts["paper_id"] != logbook.paper_id:
        result.facts.append(f"paper_id {logbook.paper_id!r}")
    pages = facts.get("pages")
    slugs = [p.slug for p in logbook.pages]
    if isinstance(pages, list) and pages != slugs:
        result.facts.append("pages differ")
    elif isinstance(pages, int) and pages != len(slugs):
        result.facts.append(f"{len(slugs)} pages")
    cells = facts.get("cells")
    if isinstance(cells, dict) and cells != logbook.cell_counts():
        result.facts.append("cell counts differ")


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def render_text(scores: list[Score]) -> str:
    lines = [
        f"{'logbook':<58} {'claims':>9} {'set':>5} {'numbers':>8} {'right':>6} {'wrong':>6} {'missed':>7} {'ambig':>6}"
    ]
    for s in scores:
        name = s.name if len(s.name) <= 58 else s.name[:57] + "…"
        claims = f"{s.found}/{s.expected}"
        ambiguous = f"{s.ambiguous_agree}/{s.ambiguous}" if s.ambiguous else "-"
        lines.append(
            f"{name:<58} {claims:>9} {'yes' if s.exact_set else 'NO':>5} {s.numbers_right:>4}/{s.paired:<3}"
            f" {s.right:>6} {s.wrong:>6} {s.missed:>7} {ambiguous:>6}"
        )
        for note in ([s.error] if s.error else []) + s.mistakes + [f"extra claim {k}" for k in s.extra]:
            lines.append(f"    {note}")
        for key in s.unmatched:
            lines.append(f"    not found: {key}")
        if s.facts:
            lines.append(f"    facts: {'; '.join(s.facts)}")
    t = totals(scores)
    lines += [
        "",
        f"Exact claim set: {t['exact_sets']}/{t['logbooks']} logbooks ({percent(t['exact_sets'], t['logbooks'])},"
        f" target {TARGET_EXACT_SETS:.0%}) {'PASS' if t['exact_set_share'] >= TARGET_EXACT_SETS else 'MISS'}",
        f"Claim numbers right: {t['numbers_right']}/{t['paired']} ({percent(t['numbers_right'], t['paired'])})",
        f"Agent verdicts (unambiguous, {t['judged']}): right {t['right']} ({percent(t['right'], t['judged'])},"
        f" target {TARGET_RIGHT:.0%}) {'PASS' if t['right_share'] >= TARGET_RIGHT else 'MISS'};"
        f" wrong {t['wrong']} ({percent(t['wrong'], t['judged'])}, target at most {TARGET_WRONG:.0%})"
        f" {'PASS' if t['wrong_share'] <= TARGET_WRONG else 'MISS'}; missed {t['missed']}"
        f" ({percent(t['missed'], t['judged'])})",
        f"Ambiguous claims: {t['ambiguous']}, of which the reader agrees with the written reading on"
        f" {t['ambiguous_agree']}",
        "",
        "Confusion matrix (rows: expected, columns: found; all claims):",
    ]
    lines.append(f"{'':<14}" + "".join(f"{v:>14}" for v in VERDICTS))
    confusion: Counter[tuple[str, str]] = sum((s.confusion for s in scores), Counter())
    for wanted in VERDICTS:
        lines.append(f"{wanted:<14}" + "".join(f"{confusion[(wanted, got)]:>14}" for got in VERDICTS))
    return "\n".join(lines)


def totals(scores: list[Score]) -> dict[str, Any]:
    logbooks = len(scores)
    judged = sum(s.judged for s in scores)
    t: dict[str, Any] = {
        "logbooks": logbooks,
        "exact_sets": sum(s.exact_set for s in scores),
        "paired": sum(s.paired for s in scores),
        "numbers_right": sum(s.numbers_right for s in scores),
        "judged": judged,
        "right": sum(s.right for s in scores),
        "wrong": sum(s.wrong for s in scores),
        "missed": sum(s.missed for s in scores),
        "ambiguous": sum(s.ambiguous for s in scores),
        "ambiguous_agree": sum(s.ambiguous_agree for s in scores),
    }
    t["exact_set_share"] = t["exact_sets"] / logbooks if logbooks else 0.0
    t["right_share"] = t["right"] / judged if judged else 0.0
    t["wrong_share"] = t["wrong"] / judged if judged else 0.0
    return t


def render_json(scores: list[Score]) -> str:
    confusion: Counter[tuple[str, str]] = sum((s.confusion for s in scores), Counter())
    return json.dumps(
        {
            "logbooks": [
                {
                    "name": s.name,
                    "claims_found": s.found,
                    "claims_expected": s.expected,
                    "exact_set": s.exact_set,
                    "numbers_right": s.numbers_right,
                    "right": s.right,
                    "wrong": s.wrong,
                    "missed": s.missed,
                    "ambiguous": s.ambiguous,
                    "ambiguous_agree": s.ambiguous_agree,
                    "mistakes": s.mistakes,
                    "extra_claims": s.extra,
                    "not_found": s.unmatched,
                    "facts_differ": s.facts,
                    "error": s.error,
                }
                for s in scores
            ],
            "totals": totals(scores),
            "confusion": {w: {g: confusion[(w, g)] for g in VERDICTS} for w in VERDICTS},
            "targets": {"exact_set_share": TARGET_EXACT_SETS, "right_share": TARGET_RIGHT, "wrong_share": TARGET_WRONG},
        },
        indent=2,
    )


@dataclass
class Gathered:
    """One logbook read once: what the cross-validation decides again and again."""

    name: str
    owner: str
    facts: dict[str, Any]
    logbook: Logbook | None
    gathered: claim_finder.Gathered | None
    error: str | None = None

    def scored(self, weights: Weights) -> Score:
        if self.logbook is None or self.gathered is None:
            return unreadable(self.name, self.facts, self.error or "not read")
        return score_claims(self.name, self.facts, self.logbook, claim_finder.decide(self.gathered, weights))


def gather_all(sets: list[tuple[Path, dict[str, dict[str, Any]]]]) -> list[Gathered]:
    out: list[Gathered] = []
    for folder, facts in sets:
        for name in sorted(facts):
            owner = name.split("__", 1)[0]
            try:
                logbook = read_logbook(folder / name / str(facts[name].get("logbook_root") or ""))
            except (NotALogbookError, OSError) as exc:
                out.append(Gathered(name, owner, facts[name], None, None, str(exc)))
                continue
            out.append(Gathered(name, owner, facts[name], logbook, claim_finder.gather(logbook.pages)))
    return out


def objective(scores: list[Score]) -> float:
    """What fitting maximizes: right verdicts, a wrong one costing three (a wrong badge misleads, an honest
    "unstated" sends the reviewer to read), ambiguous agreements at half."""
    t = totals(scores)
    return t["right"] - 3 * t["wrong"] + 0.5 * t["ambiguous_agree"]


# Where every fit starts: no feature offsets, the thresholds at their middle values. Not the shipped values, which
# were chosen seeing every logbook, left-out ones included.
NEUTRAL = Weights(offsets={})


def fit(books: list[Gathered], start: Weights = NEUTRAL, rounds: int = 2) -> Weights:
    """Coordinate search over GRID from `start`; a tie keeps the current value."""
    weights = start
    best = objective([b.scored(weights) for b in books])
    for _ in range(rounds):
        changed = False
        for name, values in GRID.items():
            for value in values:
                if value == weights.value(name):
                    continue
                trial = weights.with_value(name, value)
                result = objective([b.scored(trial) for b in books])
                if result > best:
                    best, weights, changed = result, trial, True
        if not changed:
            break
    return weights


def cross_validate(books: list[Gathered]) -> dict[str, Any]:
    """In-sample and leave-one-owner-out figures, and the tunables each fold chose."""
    in_weights = fit(books)
    in_sample = [b.scored(in_weights) for b in books]
    out_of_sample: list[Score] = []
    folds: dict[str, dict[str, float]] = {}
    for owner in sorted({b.owner for b in books}):
        training = [b for b in books if b.owner != owner]
        weights = fit(training)
        folds[owner] = {k: v for k, v in weights.describe().items() if v != NEUTRAL.value(k)}
        out_of_sample += [b.scored(weights) for b in books if b.owner == owner]
    return {
        "in_sample": in_sample,
        "out_of_sample": out_of_sample,
        "fitted": in_weights.describe(),
        "folds": folds,
        "defaults": [b.scored(DEFAULT_WEIGHTS) for b in books],
    }


def shares(scores: list[Score]) -> dict[str, float]:
    t = totals(scores)
    every = t["judged"] + t["ambiguous"]
    return {
        "exact_sets": t["exact_set_share"],
        "right_clear_cut": t["right_share"],
        "right_all": (t["right"] + t["ambiguous_agree"]) / every if every else 0.0,
        "wrong": t["wrong_share"],
    }


def render_cross_validation(result: dict[str, Any]) -> str:
    rows = (
        ("exact claim set (logbooks)", "exact_sets", f">= {TARGET_EXACT_SETS:.0%}"),
        ("verdicts right, clear-cut", "right_clear_cut", f">= {TARGET_RIGHT:.0%}"),
        ("verdicts right, all claims", "right_all", f">= {TARGET_RIGHT_ALL:.0%}"),
        ("verdicts wrong, clear-cut", "wrong", f"<= {TARGET_WRONG:.0%}"),
    )
    columns = {k: shares(result[k]) for k in ("defaults", "in_sample", "out_of_sample")}
    owners = len(result["folds"])
    logbooks = len(result["in_sample"])
    lines = [
        f"Leave-one-owner-out over {logbooks} logbooks of {owners} owners: the tunables are fitted without an"
        " owner's logbooks, then scored on them.",
        "",
        f"{'':<30} {'shipped':>9} {'in-sample':>10} {'left out':>9} {'target':>8}",
    ]
    for label, key, target in rows:
        lines.append(
            f"{label:<30} {columns['defaults'][key]:>9.0%} {columns['in_sample'][key]:>10.0%}"
            f" {columns['out_of_sample'][key]:>9.0%} {target:>8}"
        )
    gap = columns["in_sample"]["right_clear_cut"] - columns["out_of_sample"]["right_clear_cut"]
    lines += ["", f"Overfitting (in-sample minus left out, clear-cut right): {gap * 100:.1f} points"]
    missed = [m for s in result["out_of_sample"] for m in s.mistakes]
    if missed:
        lines += ["", "Left-out mistakes:"] + [f"  {m}" for m in missed]
    lines += ["", "Tunables fitted on all: " + ", ".join(f"{k}={v:g}" for k, v in result["fitted"].items())]
    for owner, changed in result["folds"].items():
        moved = ", ".join(f"{k}={v:g}" for k, v in changed.items()) or "the neutral start"
        lines.append(f"  without {owner}: {moved}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, help="a folder of logbooks with an expected.json beside them")
    parser.add_argument("--write-expected", type=Path, metavar="FILE", help="write the corpus facts and stop")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--cross-validate", action="store_true", help="in-sample beside leave-one-owner-out")
    args = parser.parse_args(argv)
    if args.write_expected is not None:
        args.write_expected.write_text(json.dumps(corpus_facts(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.write_expected}")
        return 0
    if args.folder is not None:
        try:
            sets = [(args.folder, load_expected(args.folder))]
        except UnusableExpected as exc:
            print(exc, file=sys.stderr)
            return 2
    else:
        sets = [(CORPUS.resolve(), corpus_facts()), (CORPUS_MORE.resolve(), corpus_facts(more=True))]
        for folder, _ in sets:
            if not folder.is_dir():
                print(f"corpus not found at {folder}; pass --folder", file=sys.stderr)
                return 2
    if args.cross_validate:
        result = cross_validate(gather_all(sets))
        if args.format == "json":
            summary = {k: shares(result[k]) for k in ("defaults", "in_sample", "out_of_sample")}
            print(json.dumps(summary | {"fitted": result["fitted"], "folds": result["folds"]}, indent=2))
        else:
            print(render_cross_validation(result))
        return 0
    scores = [score(name, folder, facts[name]) for folder, facts in sets for name in sorted(facts)]
    print(render_json(scores) if args.format == "json" else render_text(scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
