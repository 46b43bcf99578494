"""The review workspace: many logbooks at once, rows keyed by (logbook id, claim key), updated by change records."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.importer import import_verdicts
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_judge_matches import rematch
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.workspace import ReviewWorkspace, RowUpdate, WorkspaceError
from reviewapp.core.verdicts import Verdict
from tests.core import judge_fixtures
from tests.core.annotation_helpers import small_logbook
from tests.core.commit_helpers import clone, git, isolate_git, make_remote


def opened(workspace: ReviewWorkspace, folder: Path, name: str = "Ada Lovelace") -> tuple[str, LogbookReview]:
    logbook = read_logbook(folder)
    review = LogbookReview.open(logbook, Identity(name, "test"), "judge")
    return workspace.add(logbook, review), review


def updates(workspace: ReviewWorkspace) -> list[RowUpdate]:
    heard: list[RowUpdate] = []
    workspace.listeners.append(heard.append)
    return heard


def test_two_logbooks_keep_separate_ids_rows_and_reviews(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    first, first_review = opened(workspace, small_logbook(tmp_path, "one"))
    second, second_review = opened(workspace, small_logbook(tmp_path, "two"))
    assert first != second and workspace.logbook_ids == [first, second]

    first_review.set_verdict(1, "falsified", "wrong units")

    assert workspace.rows(first)[0].slots.human is Verdict.FALSIFIED
    assert workspace.rows(second)[0].slots.human is None
    assert second_review.state.verdict(workspace.rows(second)[0].key) is None
    assert {r.logbook_id for r in workspace.rows(second)} == {second}


def test_a_saved_verdict_updates_exactly_its_row(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, small_logbook(tmp_path))
    before = workspace.rows(logbook_id)
    heard = updates(workspace)

    review.set_verdict(2, "verified", "reran it")

    (update,) = heard
    key = before[1].key
    assert update.logbook_id == logbook_id and update.keys == (key,) and not update.restructured
    assert update.change is not None and update.change.kind == "set_verdict"
    after = workspace.rows(logbook_id)
    assert after[1].slots.human is Verdict.VERIFIED and after[1].disagreement  # the agent said falsified
    assert after[0] is before[0] and after[2] is before[2]  # the other rows are not even rebuilt


def test_undo_and_a_cleared_verdict_bring_the_row_back(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, small_logbook(tmp_path))
    review.set_verdict(3, "partial", "half of it")
    review.history.undo()
    assert workspace.rows(logbook_id)[2].slots.human is None
    review.history.redo()
    review.clear_verdict(3)
    assert workspace.rows(logbook_id)[2].slots.human is None
    assert workspace.my_progress(logbook_id) == (0, 3)


def test_splitting_restructures_and_the_parts_stand_for_the_claim(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, small_logbook(tmp_path))
    original = workspace.rows(logbook_id)[0].key
    heard = updates(workspace)

    review.split_claim(1, [{"title": "accuracy"}, {"title": "size"}], "two findings")

    assert heard[-1].restructured
    keys = [r.key for r in workspace.rows(logbook_id)]
    assert original not in keys and f"{original}.1" in keys and f"{original}.2" in keys
    assert workspace.stands_for(logbook_id, f"{original}.1") == (f"{original}.1", original)
    assert workspace.row(logbook_id, f"{original}.1").mark == "split"  # type: ignore[union-attr]


def judged_logbook_folder(tmp_path: Path) -> Path:
    """A logbook of the four registry claims with a stored Logbook Judge import (verdicts and registry)."""
    folder = judge_fixtures.write_logbook(tmp_path / "judged")
    registry = judge_fixtures.write_registry(tmp_path / "registry.json")
    verdicts = judge_fixtures.write_verdicts(
        tmp_path / "verdicts.json", {judge_fixtures.SPACE: judge_fixtures.entry(["verified", "verified", "toy", "toy"])}
    )
    assert import_verdicts(verdicts, [read_logbook(folder)], registry_file=registry).all_stored
    return folder


def test_the_stored_import_fills_the_j_slot_and_a_verdict_save_does_not_match_it_again(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, judged_logbook_folder(tmp_path))
    rows = workspace.rows(logbook_id)
    assert [r.slots.logbook_judge for r in rows] == [Verdict.VERIFIED, Verdict.VERIFIED, Verdict.TOY, Verdict.TOY]
    assert rows[1].disagreement and not rows[0].disagreement  # claim 2: the agent said falsified
    matched = workspace.logbook_judge_matches_made(logbook_id)
    assert matched == 1

    review.set_verdict(1, "inconclusive", "the run never finished")
    review.add_note(review.claim_target(2), "timed on one GPU")
    review.history.undo()

    assert workspace.logbook_judge_matches_made(logbook_id) == matched  # counted: no save matched again
    assert [d.pair for d in workspace.disagreements(logbook_id) if d.claim_key == rows[0].key] == [
        "Logbook Judge vs reviewer",
        "Agent vs reviewer",
    ]


def test_a_re_match_by_hand_matches_again_and_redraws_the_rows_it_moves(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, judged_logbook_folder(tmp_path))
    keys = [r.key for r in workspace.rows(logbook_id)]
    heard = updates(workspace)

    rematch(review, judge_fixtures.SPACE, 3, keys[0])  # registry claim 3 (toy) is about claim 1, by hand

    (update,) = heard
    assert workspace.logbook_judge_matches_made(logbook_id) == 2
    assert keys[0] in update.keys and keys[2] in update.keys  # claim 1 now toy, claim 3 lost its match
    assert workspace.row(logbook_id, keys[0]).slots.logbook_judge is Verdict.TOY  # type: ignore[union-attr]
    assert workspace.row(logbook_id, keys[2]).slots.logbook_judge is None  # type: ignore[union-attr]
    review.history.undo()
    assert workspace.row(logbook_id, keys[0]).slots.logbook_judge is Verdict.VERIFIED  # type: ignore[union-attr]


def test_a_split_matches_the_logbook_judge_against_the_parts(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, judged_logbook_folder(tmp_path))
    original = workspace.rows(logbook_id)[3].key
    review.split_claim(4, [{"title": "bound"}, {"title": "numerical check"}], "two findings")
    assert workspace.logbook_judge_matches_made(logbook_id) == 2
    assert original not in {r.key for r in workspace.rows(logbook_id)}
    assert workspace.follow(logbook_id, original) == f"{original}.1"
    review.history.undo()
    assert workspace.follow(logbook_id, f"{original}.2") == original
    workspace.refresh(logbook_id)  # the rows derived again (the files re-read): where .2 went is still known
    assert workspace.follow(logbook_id, f"{original}.2") == original


def test_read_only_opening_shows_the_named_reviewers_verdicts_and_writes_nothing(tmp_path: Path) -> None:
    folder = small_logbook(tmp_path)
    logbook = read_logbook(folder)
    for name, verdict in (("Ada Lovelace", "toy"), ("Bob Byron", "verified")):
        LogbookReview.open(logbook, Identity(name, "test"), "judge").set_verdict(1, verdict, "seen")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    workspace = ReviewWorkspace()

    logbook_id = workspace.open(read_logbook(folder), "Bob Byron")

    assert workspace.rows(logbook_id)[0].slots.human is Verdict.VERIFIED
    assert sorted(workspace.people(logbook_id, workspace.rows(logbook_id)[0].key)) == ["Ada Lovelace", "Bob Byron"]
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert workspace.review(logbook_id) is None and workspace.loaded(logbook_id) is not None


def test_the_blind_rule_hides_other_verdicts_until_mine_is_saved(tmp_path: Path) -> None:
    folder = small_logbook(tmp_path)
    LogbookReview.open(read_logbook(folder), Identity("Bob Byron", "test"), "judge").set_verdict(1, "toy", "proxy")
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, folder)
    key = workspace.rows(logbook_id)[0].key

    blind = BlindRule(alias="Team Heron")
    assert workspace.visible_verdicts(logbook_id, key, blind) == []
    assert [r.annotator for r in workspace.visible_verdicts(logbook_id, key)] == ["Bob Byron"]
    review.set_verdict(1, "partial", "mine")
    assert [r.annotator for r in workspace.visible_verdicts(logbook_id, key, blind)] == ["Bob Byron"]


def test_search_finds_a_split_part_through_the_claim_it_replaces(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, review = opened(workspace, small_logbook(tmp_path))
    original = workspace.rows(logbook_id)[0].key
    review.split_claim(1, [{"title": "accuracy"}, {"title": "size"}], "two findings")
    assert workspace.search(logbook_id, {original}, "anything") == {original, f"{original}.1", f"{original}.2"}
    assert workspace.search(logbook_id, set(), "size") == {f"{original}.2"}
    assert workspace.search(logbook_id, None, "") is None


def test_claims_are_found_by_key_or_number(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, _ = opened(workspace, small_logbook(tmp_path))
    second = workspace.rows(logbook_id)[1]
    assert workspace.find(logbook_id, 2) == second
    assert workspace.find(logbook_id, second.key) == second
    assert workspace.find(logbook_id, 9) is None


def test_a_logbook_without_a_reviewer_shows_the_agents_verdicts(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook = read_logbook(small_logbook(tmp_path))
    logbook_id = workspace.add(logbook)
    assert [r.slots.agent for r in workspace.rows(logbook_id)] == [c.verdict for c in logbook.claims]
    assert workspace.review(logbook_id) is None
    with pytest.raises(WorkspaceError, match="no logbook"):
        workspace.rows("path:/nowhere")


def test_one_source_opened_from_two_folders_is_one_logbook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(tmp_path / "git-home", monkeypatch)
    remote = make_remote(tmp_path)
    first = clone(remote, tmp_path / "first", "Ada", "ada@example.invalid")
    second = tmp_path / "second"
    git(tmp_path, "clone", "-q", f"file://{remote}", str(second))
    workspace = ReviewWorkspace()

    first_id, first_review = opened(workspace, first)
    first_review.set_verdict(1, "toy", "proxy")
    second_id, second_review = opened(workspace, second)

    assert first_id == second_id and workspace.logbook_ids == [first_id]
    assert workspace.review(first_id) is second_review
    # the old review no longer drives the rows: its history is not listened to any more
    heard = updates(workspace)
    first_review.set_verdict(2, "toy", "proxy")
    assert heard == []


def test_a_verdict_on_a_claim_the_logbook_no_longer_lists_is_reported_not_hidden(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    _, review = opened(workspace, small_logbook(tmp_path))
    record = review.set_verdict(3, "toy", "proxy")
    assert review.state.claim_problems() == []
    # the logbook is rewritten: claim 3's page is now an earlier attempt, no longer a claim
    kept = [c for c in review.logbook.claims if c.key != record.target.claim]
    state = AnnotationState(kept)
    state.add_all(review.store.load().records)

    (problem,) = state.claim_problems()
    assert problem.record_id == record.id
    assert f"claim {record.target.claim}" in problem.message and "no longer lists" in problem.message
    assert state.verdict(str(record.target.claim)) is not None  # kept, not dropped
