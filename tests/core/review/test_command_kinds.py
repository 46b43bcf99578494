"""Command kinds are one enumeration that says what each can do; one function executes a command."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.pairs.rating import PairRatingRound
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.commands import CommandKind, changes_logbook_judge, execute
from reviewapp.core.review.history import Change, Command, RecordDraft
from reviewapp.core.review.logbook_judge_matches import rematch
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import LogbookJudgeMatchPayload, NotePayload, Target
from tests.core.annotation_helpers import CLAIM_PAGES, open_review, small_logbook
from tests.support.pair_fixtures import open_annotations, write_pair_logbook


@pytest.fixture
def review(tmp_path: Path) -> LogbookReview:
    return open_review(small_logbook(tmp_path))


def heard(review: LogbookReview) -> list[ChangeRecord]:
    changes: list[ChangeRecord] = []
    review.history.listeners.append(changes.append)
    return changes


def test_every_command_the_review_runs_names_a_kind_of_the_enumeration(review: LogbookReview) -> None:
    changes = heard(review)
    review.set_verdict(1, "toy", "proxy")
    review.clear_verdict(1)
    note = review.add_note(review.claim_target(1), "a")
    review.edit_note(note.id, "b")
    review.delete(note.id)
    review.correct_agent_verdict(2, "partial", "the page says so")
    review.add_claim(CLAIM_PAGES[2], "a missed claim", "missed")
    review.split_claim(1, [{"title": "a"}, {"title": "b"}], "two")
    rematch(review, "ada/space", 1, 2)
    kinds = [change.kind for change in changes]
    assert all(isinstance(kind, CommandKind) for kind in kinds), kinds
    assert CommandKind.DELETE_NOTE in kinds and CommandKind.REMATCH_LOGBOOK_JUDGE_CLAIM in kinds


def test_what_each_kind_says_it_can_do() -> None:
    assert not CommandKind.SET_VERDICT.changes_logbook_judge and not CommandKind.SET_VERDICT.restructures
    assert CommandKind.SPLIT_CLAIM.restructures and CommandKind.SPLIT_CLAIM.changes_logbook_judge
    assert CommandKind.REMATCH_LOGBOOK_JUDGE_CLAIM.changes_logbook_judge
    assert not CommandKind.REMATCH_LOGBOOK_JUDGE_CLAIM.restructures
    assert not CommandKind.RATE_PAIR.undoable and CommandKind.ADD_NOTE.undoable
    assert CommandKind.deleting("claim_merge") is CommandKind.DELETE_CLAIM_MERGE
    assert CommandKind.deleting("something_new") is CommandKind.DELETE_RECORD
    assert CommandKind.of("not a kind") is CommandKind.CHANGE


def test_execute_returns_the_record_and_the_change_every_listener_heard(review: LogbookReview) -> None:
    changes = heard(review)
    draft = RecordDraft("note", review.claim_target(2), NotePayload(text="seen"))
    done = execute(review, CommandKind.ADD_NOTE, "note on claim 2", None, draft)
    assert done.record is not None and review.state.record(done.record.id) == done.record
    assert changes == [done.change] and done.change.record_ids == (done.record.id,)
    assert review.history.undo_label == "Undo note on claim 2"


def test_a_command_made_by_hand_is_judged_by_the_records_it_wrote(review: LogbookReview) -> None:
    changes = heard(review)
    payload = LogbookJudgeMatchPayload(space_id="ada/space", registry_index=1, claim=None)
    review.history.execute(Command("by hand", [Change(None, RecordDraft("logbook_judge_match", Target(), payload))]))
    review.add_note(review.claim_target(1), "a")
    by_hand, note = changes
    assert CommandKind.of(by_hand.kind) is CommandKind.CHANGE and changes_logbook_judge(by_hand)
    assert not changes_logbook_judge(note)


def test_starting_a_pair_protocol_is_a_command_that_undo_does_not_offer(tmp_path: Path) -> None:
    annotations = open_annotations(write_pair_logbook(tmp_path / "pairs", count=3))
    changes = heard(annotations)
    PairRatingRound.open(annotations, load_set(annotations.logbook), seed=7)
    (started,) = changes
    assert started.kind is CommandKind.START_PAIR_PROTOCOL and started.record_kinds == ("pair_session",)
    assert annotations.history.undo_label is None
