"""The verdict vocabulary and its phrase finder."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewapp.core.paper.classify import decide
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import (
    PHRASE_RE,
    Verdict,
    disagree,
    dispute,
    find_phrases,
    normalize,
    parse_verdict,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("VERIFIED", Verdict.VERIFIED),
        ("Reproduced", Verdict.VERIFIED),
        ("**CONFIRMED**", Verdict.VERIFIED),
        ("supported", Verdict.VERIFIED),
        ("holds", Verdict.VERIFIED),
        ("PARTIAL", Verdict.PARTIAL),
        ("partially verified", Verdict.PARTIAL),
        ("PARTIALLY REPRODUCED", Verdict.PARTIAL),
        ("mixed", Verdict.PARTIAL),
        ("weakly supported", Verdict.PARTIAL),
        ("FALSIFIED", Verdict.FALSIFIED),
        ("contradicted", Verdict.FALSIFIED),
        ("refuted", Verdict.FALSIFIED),
        ("NOT REPRODUCED", Verdict.FALSIFIED),
        ("failed to reproduce", Verdict.FALSIFIED),
        ("does not hold", Verdict.FALSIFIED),
        ("TOY", Verdict.TOY),
        ("toy-scale", Verdict.TOY),
        ("proxy-only", Verdict.TOY),
        ("INCONCLUSIVE", Verdict.INCONCLUSIVE),
        ("unverified", Verdict.INCONCLUSIVE),
        ("NOT VERIFIED", Verdict.INCONCLUSIVE),
        ("not attempted", Verdict.INCONCLUSIVE),
        ("BLOCKED", Verdict.INCONCLUSIVE),
        ("undetermined", Verdict.INCONCLUSIVE),
        ("NOT INDEPENDENTLY VERIFIED", Verdict.INCONCLUSIVE),
        ("could not be confirmed", Verdict.INCONCLUSIVE),
        ("cannot be verified", Verdict.INCONCLUSIVE),
        ("unable to reproduce", Verdict.INCONCLUSIVE),
        ("NOT EXECUTED", Verdict.INCONCLUSIVE),
        ("NOT_EXECUTED", Verdict.INCONCLUSIVE),
        ("deferred", Verdict.INCONCLUSIVE),
        ("not fully reproduced", Verdict.PARTIAL),
        ("matches the paper", Verdict.VERIFIED),
        ("at reduced scale", Verdict.TOY),
        ("on a proxy", Verdict.TOY),
        ("small-scale", Verdict.TOY),
        ("", Verdict.UNSTATED),
        (None, Verdict.UNSTATED),
        ("property holds at scale", Verdict.UNSTATED),
    ],
)
def test_normalize(text, expected) -> None:
    assert normalize(text) is expected


def test_parse_verdict_rejects_unknown_words() -> None:
    assert parse_verdict("Partial") is Verdict.PARTIAL
    assert parse_verdict("unstated") is Verdict.UNSTATED
    with pytest.raises(ValueError, match="unknown verdict 'great'"):
        parse_verdict("great")


def test_verified_against_partial_is_a_difference_of_degree_in_every_view() -> None:
    # an agent's verified against a person's partial: no disagreement mark, no row in the disagreement list
    assert not disagree(Verdict.VERIFIED, Verdict.PARTIAL) and not disagree(Verdict.PARTIAL, Verdict.VERIFIED)
    assert not VerdictSlots(Verdict.VERIFIED, Verdict.PARTIAL, Verdict.PARTIAL).disagreement
    assert VerdictSlots(Verdict.VERIFIED, None, Verdict.FALSIFIED).disagreement
    # two people: not a dispute, in the queue's rule or in the paper's cell, where the cautious verdict decides
    assert not dispute(Verdict.VERIFIED, Verdict.PARTIAL) and dispute(Verdict.PARTIAL, Verdict.TOY)
    cell = decide({"ada": Verdict.VERIFIED, "ben": Verdict.PARTIAL}, None, Verdict.VERIFIED)
    assert (cell.verdict, cell.disputed) == (Verdict.PARTIAL, False)
    cell = decide({"ada": Verdict.VERIFIED, "ben": Verdict.TOY}, None, None)
    assert (cell.verdict, cell.disputed) == (Verdict.TOY, True)
    # toy against inconclusive found different things (1 and 0 Logbook Judge points): the slots disagree
    assert disagree(Verdict.TOY, Verdict.INCONCLUSIVE)


def test_disagreement_ignores_unstated() -> None:
    assert disagree(Verdict.VERIFIED, Verdict.FALSIFIED)
    assert not disagree(Verdict.TOY, Verdict.TOY)
    assert not disagree(Verdict.UNSTATED, Verdict.FALSIFIED)
    assert not disagree(Verdict.VERIFIED, None)


WORDS = st.sampled_from(
    "not verified failed to reproduce does hold holds partially partial toy scale proxy only weakly "
    "supported mixed refuted the a x- unverified NOT VERIFIED Toy-Scale . , ; ( ) could cannot be independently "
    "unable to verify executed reduced small scale at on proxy matches paper deferred fully verifiable".split()
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(WORDS, st.sampled_from([" ", "  ", "-", "\n", ", ", "_"])), max_size=14))
def test_fast_phrase_finder_agrees_with_the_regex(parts) -> None:
    text = "".join(word + sep for word, sep in parts)
    assert [m.span() for m in find_phrases(text)] == [m.span() for m in PHRASE_RE.finditer(text)]


def test_phrases_found_a_window_at_a_time_are_the_phrases_of_the_whole_text() -> None:
    from reviewapp.core.verdicts import find_phrases, iter_phrases

    sentence = "Claim {n} was not reproduced. The bound holds at reduced scale. Verdict: PARTIALLY VERIFIED. "
    text = "".join(sentence.format(n=n) for n in range(300))  # many windows, each ending at a sentence end
    whole = [(m.start(), m.end(), m.group(0)) for m in find_phrases(text)]
    windowed = [(start, end, match.group(0)) for start, end, match in iter_phrases(text, window=500)]
    assert windowed == whole and len(whole) == 4 * 300
