"""The one blind rule every view applies: others' records on a claim only once mine is on it, names scrubbed,
paths relative to the logbook, pseudonymous file names; verdicts given blind say so."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.queue.blind import Blinder, folder_pseudonym, pseudonym
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.export import default_export_path, export_rows
from reviewapp.core.review.records import Target
from tests.core.annotation_helpers import open_review, small_logbook

ME, OTHER = "Ada Lovelace", "Bea Judge"


def rule_for(workspace: Path, me: str = ME) -> BlindRule:
    logbook = read_logbook(workspace)
    return Blinder.for_logbook(logbook.logbook_id, ["someone", "small-widgets"]).rule(me, workspace)


def test_others_records_wait_until_mine_is_on_that_claim(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    other = open_review(workspace, OTHER)
    other.set_verdict(1, "falsified", "someone got it wrong")
    other.set_verdict(2, "toy", "tiny")
    other.add_note(other.claim_target(1), "seeds differ")
    other.add_note(Target(), "a note on the logbook")
    mine = open_review(workspace)
    rule = rule_for(workspace)
    assert rule.blind and not rule.reveals(mine.state, mine.claims()[0].key)
    before = export_rows(mine.state, rule=rule)
    assert all(row["annotator"] in (None, ME) for row in before)
    assert not any("seeds differ" in note for row in before for note in row["notes"])

    mine.set_verdict(1, "partial", "half of it")
    after = export_rows(mine.state, rule=rule)
    by_claim = {(row["n"], row["annotator"]) for row in after}
    assert {(1, ME), (1, OTHER)} <= by_claim and (2, OTHER) not in by_claim  # revealed on claim 1 only
    assert "Participant" in next(r["rationale"] for r in after if r["annotator"] == OTHER)  # names scrubbed
    assert not any(row["origin"] == "note" for row in after)  # a page note is on no claim: hidden while blind
    seeing_all = export_rows(mine.state)
    assert {(row["n"], row["annotator"]) for row in seeing_all} >= {(2, OTHER)}
    assert any(row["origin"] == "note" for row in seeing_all)


def test_paths_and_file_names_while_blind(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path, "someone__small-widgets")
    rule = rule_for(workspace)
    assert rule.path(workspace / "results" / "m.json") == "results/m.json"
    outside = tmp_path / "someone__elsewhere" / "m.json"
    assert rule.path(outside) == f"{rule.alias}/…/m.json"
    assert BlindRule(me=ME).path(outside) == str(outside)  # not blind: the whole path
    logbook = read_logbook(workspace)
    assert default_export_path(logbook, tmp_path, rule).name == f"{rule.alias.lower().replace(' ', '-')}-reviews.csv"
    assert default_export_path(logbook, tmp_path).name == "someone-small-widgets-reviews.csv"
    assert folder_pseudonym(workspace) == pseudonym(logbook.logbook_id) == rule.alias


def test_a_verdict_given_blind_says_so(tmp_path: Path) -> None:
    review = open_review(small_logbook(tmp_path))
    seen = review.set_verdict(1, "toy", "sighted")
    review.blind = True
    blind = review.set_verdict(2, "toy", "blind")
    assert not seen.payload.blind and blind.payload.blind  # type: ignore[attr-defined]
    assert open_review(small_logbook(tmp_path)).state.verdict(review.claims()[1].key, ME).payload.blind


def test_annotate_blind_says_so_in_the_record(tmp_path: Path) -> None:
    from reviewapp.cli import main

    workspace = small_logbook(tmp_path)
    args = ["annotate", str(workspace), "--claim", "1", "--verdict", "toy", "--rationale", "small", "--annotator", ME]
    assert main([*args, "--blind"]) == 0
    assert main([*args[:3], "2", *args[4:]]) == 0
    state = open_review(workspace).state
    claims = open_review(workspace).claims()
    assert state.verdict(claims[0].key, ME).payload.blind is True
    assert state.verdict(claims[1].key, ME).payload.blind is None  # not blind: the field is absent, as before
