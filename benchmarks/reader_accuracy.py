"""How well the reader finds a logbook's claims and the agent's verdicts, against a careful human reading.

    python benchmarks/reader_accuracy.py                      # ../shared/corpus and corpus-more, facts from the tests
    python benchmarks/reader_accuracy.py --folder DIR         # any folder of logbooks with DIR/expected.json
    python benchmarks/reader_accuracy.py --write-expected F   # write the corpus facts as an expected.json
    python benchmarks/reader_accuracy.py --format json        # the same figures as JSON

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
against found verdicts. Targets: the exact claim set in at least 9 logbooks of 10, at least 90% of verdicts
right, at most 5% wrong. It measures rather than tests: exits 0 unless the input is unusable (2).
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

from reviewapp.core.logbook.locate import NotALogbookError  # noqa: E402
from reviewapp.core.logbook.model import Claim, Logbook  # noqa: E402
from reviewapp.core.logbook.reader import read_logbook  # noqa: E402
from reviewapp.core.verdicts import Verdict, parse_verdict  # noqa: E402

CORPUS = REPO / ".." / "shared" / "corpus"
CORPUS_MORE = REPO / ".." / "shared" / "corpus-more"
VERDICTS = [v.value for v in Verdict]
TARGET_EXACT_SETS = 0.9
TARGET_RIGHT = 0.9
TARGET_WRONG = 0.05


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
    result = Score(name)
    root = folder / name / str(facts.get("logbook_root") or "")
    expected_claims = [c for c in facts.get("claims", []) if isinstance(c, dict)]
    result.expected = len(expected_claims)
    try:
        logbook = read_logbook(root)
    except (NotALogbookError, OSError) as exc:
        result.error = str(exc)
        result.missed = sum(1 for c in expected_claims if c.get("verdict") != "unstated")
        return result
    check_facts(logbook, facts, result)
    result.found = len(logbook.claims)
    pairs = pair(expected_claims, logbook.claims)
    paired = {id(c) for _, c in pairs if c is not None}
    result.extra = [c.key for c in logbook.claims if id(c) not in paired]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, help="a folder of logbooks with an expected.json beside them")
    parser.add_argument("--write-expected", type=Path, metavar="FILE", help="write the corpus facts and stop")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    if args.write_expected is not None:
        args.write_expected.write_text(json.dumps(corpus_facts(), indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.write_expected}")
        return 0
    if args.folder is not None:
        try:
            folder, facts = args.folder, load_expected(args.folder)
        except UnusableExpected as exc:
            print(exc, file=sys.stderr)
            return 2
        scores = [score(name, folder, facts[name]) for name in sorted(facts)]
    else:
        scores = []
        for folder, facts in ((CORPUS.resolve(), corpus_facts()), (CORPUS_MORE.resolve(), corpus_facts(more=True))):
            if not folder.is_dir():
                print(f"corpus not found at {folder}; pass --folder", file=sys.stderr)
                return 2
            scores += [score(name, folder, facts[name]) for name in sorted(facts)]
    print(render_json(scores) if args.format == "json" else render_text(scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
