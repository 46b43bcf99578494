"""The review workspace: many logbooks at once, rows keyed by (logbook id, claim key), updated by change records."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.workspace import ReviewWorkspace, RowUpdate, WorkspaceError
from reviewapp.core.verdicts import Verdict
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


def test_logbook_judge_verdicts_fill_the_j_slot_and_name_the_rows_that_changed(tmp_path: Path) -> None:
    workspace = ReviewWorkspace()
    logbook_id, _ = opened(workspace, small_logbook(tmp_path))
    keys = [r.key for r in workspace.rows(logbook_id)]

    update = workspace.set_logbook_judge(logbook_id, {keys[0]: Verdict.VERIFIED, keys[1]: Verdict.VERIFIED})

    assert update.keys == (keys[0], keys[1])
    rows = workspace.rows(logbook_id)
    assert rows[0].slots.judge is Verdict.VERIFIED and not rows[0].disagreement
    assert rows[1].slots.judge is Verdict.VERIFIED and rows[1].disagreement  # the agent said falsified
    assert rows[2].slots.judge is None


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
