"""The disagreement list over the three verdict slots."""

from __future__ import annotations

from reviewapp.core.review.disagreements import disagreements, ordinal_distance
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict as V


def test_one_row_per_clashing_pair_with_distance_and_match_confidence():
    claims = [("a#1", "Claim 1", "One"), ("a#2", "Claim 2", "Two"), ("a#3", "Claim 3", "Three")]
    slots = {
        "a#1": VerdictSlots(V.VERIFIED, V.TOY, V.FALSIFIED),  # all three clash
        "a#2": VerdictSlots(V.VERIFIED, V.VERIFIED, None),  # agree
        "a#3": VerdictSlots(V.UNSTATED, V.INCONCLUSIVE, V.PARTIAL),  # unstated never counts
    }
    rows = disagreements(claims, slots, {"a#1": 0.3, "a#3": 0.9})
    assert [(r.claim_key, r.pair) for r in rows] == [
        ("a#1", "Agent vs Logbook Judge"),
        ("a#1", "Logbook Judge vs reviewer"),
        ("a#1", "Agent vs reviewer"),
        ("a#3", "Logbook Judge vs reviewer"),
    ]
    assert [r.distance for r in rows] == [2, 2, 4, 2]
    assert [r.match_confidence for r in rows] == [0.3, 0.3, None, 0.9]
    assert ordinal_distance(V.UNSTATED, V.TOY) == 0
