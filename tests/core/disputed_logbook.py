"""One logbook with everything views used to disagree about, reviewed by two people.

* claim 3 says TOY on its page and FALSIFIED in the conclusion's scorecard: the logbook contradicts itself;
* Ada re-matched the Logbook Judge's registry claim 3 to no claim by hand, so claim 3 has no J verdict;
* Ada split claim 4 into two parts;
* Ada judged claims 2 and 3, Bob judged claims 1 and 2: in blind mode Ada sees Bob's verdict on claim 2 only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.importer import import_verdicts
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_judge_matches import rematch
from reviewapp.core.review.logbook_review import LogbookReview
from tests.core import judge_fixtures

ME, OTHER = "Ada Lovelace", "Bob Byron"


@dataclass(frozen=True)
class Disputed:
    folder: Path  # the workspace folder, as users name it
    contradicted: str  # the key of claim 3
    rematched: str  # the key of claim 3 too: its J verdict is gone by hand
    split: str  # the key of claim 4, replaced by its parts
    parts: tuple[str, str]
    seen_blind: str  # the claim whose other verdicts Ada may see in blind mode (she has a verdict on it)
    hidden_blind: str  # the claim whose other verdicts stay hidden from her in blind mode


def write_disputed_logbook(tmp_path: Path, me: str = ME) -> Disputed:
    """`me`: who plays Ada (the window's tests use their own reviewer's name)."""
    folder = tmp_path / "disputed"
    judge_fixtures.write_logbook(folder, scorecard={1: "VERIFIED", 2: "FALSIFIED", 3: "FALSIFIED"})
    registry = judge_fixtures.write_registry(tmp_path / "registry.json")
    verdicts = judge_fixtures.write_verdicts(
        tmp_path / "verdicts.json",
        {judge_fixtures.SPACE: judge_fixtures.entry(["verified", "verified", "inconclusive", "toy"])},
    )
    logbook = read_logbook(folder)
    assert import_verdicts(verdicts, [logbook], registry_file=registry).all_stored
    keys = [c.key for c in logbook.claims]
    ada = LogbookReview.open(logbook, Identity(me, "test"), "judge")
    ada.set_verdict(2, "falsified", "timed it: 1.02x")
    ada.set_verdict(3, "toy", "severity 3 only")
    rematch(ada, judge_fixtures.SPACE, 3, None)
    ada.split_claim(4, [{"title": "the bound holds"}, {"title": "checked numerically"}], "two findings")
    bob = LogbookReview.open(read_logbook(folder), Identity(OTHER, "test"), "judge")
    bob.set_verdict(1, "toy", "one seed")
    bob.set_verdict(2, "verified", "close enough")
    return Disputed(folder, keys[2], keys[2], keys[3], (f"{keys[3]}.1", f"{keys[3]}.2"), keys[1], keys[0])
