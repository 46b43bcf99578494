"""Agent, judge and reviewer verdicts side by side, and when they count as a disagreement."""

from __future__ import annotations

from reviewapp.core.logbook.model import Claim, VerdictMention
from reviewapp.core.review.slots import VerdictSlots, slots_for
from reviewapp.core.verdicts import Verdict


def test_unstated_or_missing_verdicts_never_disagree() -> None:
    assert not VerdictSlots(Verdict.VERIFIED).disagreement
    assert not VerdictSlots(Verdict.UNSTATED, logbook_judge=Verdict.FALSIFIED).disagreement
    assert not VerdictSlots(Verdict.TOY, logbook_judge=Verdict.TOY, human=Verdict.TOY).disagreement


def test_a_clash_is_explained_naming_each_side_once() -> None:
    slots = VerdictSlots(Verdict.VERIFIED, logbook_judge=Verdict.FALSIFIED, human=Verdict.VERIFIED)
    assert slots.disagreements() == ["Agent and Reviewer say verified; Logbook Judge says falsified."]
    three = VerdictSlots(Verdict.TOY, logbook_judge=Verdict.FALSIFIED, human=Verdict.VERIFIED)
    assert three.disagreements() == ["Agent says toy; Logbook Judge says falsified; Reviewer says verified."]


def test_the_logbook_contradicting_itself_is_a_disagreement() -> None:
    mention = VerdictMention(Verdict.PARTIAL, "PARTIAL", "| 3 | PARTIAL |", "conclusion", 12, 0, "summary table", 0.7)
    claim = Claim("p#3", 3, "Robust", "p", [0], verdict=Verdict.TOY, other_mentions=[mention])
    slots = slots_for(claim, {}, {})
    assert slots.agent_contradicted and slots.disagreement
    assert slots.disagreements()[0].startswith("The logbook states a different verdict")


def test_slots_come_from_the_maps_by_claim_key() -> None:
    claim = Claim("p#1", 1, "T", "p", [], verdict=Verdict.VERIFIED)
    slots = slots_for(claim, {"p#1": Verdict.TOY}, {"other#1": Verdict.FALSIFIED})
    assert (slots.agent, slots.logbook_judge, slots.human) == (Verdict.VERIFIED, Verdict.TOY, None)


def test_verdict_filter_matches_any_slot() -> None:
    slots = VerdictSlots(Verdict.VERIFIED, logbook_judge=Verdict.TOY)
    assert slots.has(Verdict.VERIFIED) and slots.has(Verdict.TOY) and not slots.has(Verdict.FALSIFIED)
    assert VerdictSlots(Verdict.UNSTATED).has(Verdict.UNSTATED) and not slots.has(Verdict.UNSTATED)
