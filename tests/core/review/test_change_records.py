"""Every action is a named command whose change record says which logbook, claims and records it touched."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.pairs.rating import PairRatingRound
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.queue.rubric import OVERALL_ONLY
from reviewapp.core.queue.scoring import record_rubric_score, score_payload, set_flag
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.logbook_review import LogbookReview
from tests.core.annotation_helpers import CLAIM_PAGES, open_review, small_logbook
from tests.support.pair_fixtures import open_annotations, write_pair_logbook


@pytest.fixture
def review(tmp_path: Path) -> LogbookReview:
    return open_review(small_logbook(tmp_path))


def heard(review: LogbookReview) -> list[ChangeRecord]:
    changes: list[ChangeRecord] = []
    review.history.listeners.append(changes.append)
    return changes


def claim_key(review: LogbookReview, n: int) -> str:
    return review.claim(n).key


def test_a_verdict_names_its_command_claim_and_record(review: LogbookReview) -> None:
    changes = heard(review)
    record = review.set_verdict(2, "partial", "only one seed")
    (change,) = changes
    assert change.kind == "set_verdict"
    assert change.label == "verdict on claim 2"
    assert change.logbook_id == review.logbook.logbook_id
    assert change.claim_keys == (claim_key(review, 2),)
    assert change.record_ids == (record.id,)
    assert change.direction == "do" and not change.restructures
    assert review.history.last_change == change


@pytest.mark.parametrize(
    ("act", "kind"),
    [
        (lambda r: r.set_verdict(1, "toy", "proxy"), "set_verdict"),
        (lambda r: r.add_note(r.claim_target(1), "padding counted"), "add_note"),
        (lambda r: r.correct_agent_verdict(1, "partial", "the page says partial"), "correct_agent_verdict"),
    ],
)
def test_undo_and_redo_report_the_same_claim_with_new_records(review: LogbookReview, act, kind: str) -> None:
    changes = heard(review)
    done = act(review)
    review.history.undo()
    review.history.redo()
    do, undo, redo = changes
    assert [c.kind for c in changes] == [kind, kind, kind]
    assert [c.direction for c in changes] == ["do", "undo", "redo"]
    assert do.claim_keys == undo.claim_keys == redo.claim_keys == (claim_key(review, 1),)
    # undo and redo append records of their own (a retraction, then the content again): never the first one
    assert do.record_ids == (done.id,)
    assert len({do.record_ids, undo.record_ids, redo.record_ids}) == 3


def test_clearing_and_editing_name_their_commands(review: LogbookReview) -> None:
    changes = heard(review)
    review.set_verdict(3, "toy", "small")
    review.clear_verdict(3)
    note = review.add_note(review.claim_target(3), "first")
    review.edit_note(note.id, "second")
    review.delete(review.state.notes(claim=claim_key(review, 3))[0].id)
    assert [c.kind for c in changes] == ["set_verdict", "clear_verdict", "add_note", "edit_note", "delete_note"]
    assert all(c.claim_keys == (claim_key(review, 3),) for c in changes)


def test_split_merge_and_add_restructure_and_name_every_claim_they_make(review: LogbookReview) -> None:
    changes = heard(review)
    first = claim_key(review, 1)
    review.split_claim(1, [{"title": "accuracy"}, {"title": "size"}], "two claims in one")
    split = changes[-1]
    assert split.kind == "split_claim" and split.restructures
    assert split.claim_keys == (first, f"{first}.1", f"{first}.2")
    second, third = claim_key(review, 2), claim_key(review, 3)
    review.merge_claims([2, 3], "speed and shift", "one finding")
    merge = changes[-1]
    assert merge.kind == "merge_claims" and merge.restructures
    assert merge.claim_keys == (second, third, f"{second}+{third}")
    review.add_claim(CLAIM_PAGES[3], "a missed claim", "the reader missed it")
    added = changes[-1]
    assert added.kind == "add_claim" and added.restructures and len(added.claim_keys) == 1
    review.history.undo()
    assert changes[-1].direction == "undo" and changes[-1].restructures


def test_pair_ratings_go_through_the_history_without_joining_undo(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "pairs", count=3)
    annotations = open_annotations(workspace)
    changes = heard(annotations)
    rating = PairRatingRound.open(annotations, load_set(annotations.logbook), seed=7)
    undo_label = annotations.history.undo_label
    rating.rate("left")
    assert changes[-1].kind == "rate_pair" and len(changes[-1].record_ids) == 1
    assert annotations.history.undo_label == undo_label  # undone in the rating window, one trial at a time
    rating.undo()
    assert changes[-1].kind == "retract_pair_rating"
    assert rating.ratings() == []


def test_a_reload_says_everything_may_have_changed(review: LogbookReview) -> None:
    changes = heard(review)
    review.set_verdict(1, "toy", "x")
    review.history.clear()
    assert changes[-1].everything and changes[-1].logbook_id == review.logbook.logbook_id


def _rubric_score(review: LogbookReview) -> object:
    return record_rubric_score(review, score_payload(OVERALL_ONLY, {"overall": 4}))


EVERY_COMMAND = [
    ("set_verdict", lambda r: r.set_verdict(1, "toy", "proxy"), False),
    ("clear_verdict", lambda r: (r.set_verdict(1, "toy", "proxy"), r.clear_verdict(1)), False),
    ("add_note", lambda r: r.add_note(r.claim_target(1), "padding counted"), False),
    ("edit_note", lambda r: r.edit_note(r.add_note(r.claim_target(1), "a").id, "b"), False),
    ("delete_note", lambda r: r.delete(r.add_note(r.claim_target(1), "a").id), False),
    ("correct_agent_verdict", lambda r: r.correct_agent_verdict(1, "partial", "the page says so"), False),
    ("add_claim", lambda r: r.add_claim(CLAIM_PAGES[2], "a missed claim", "missed"), True),
    ("split_claim", lambda r: r.split_claim(1, [{"title": "a"}, {"title": "b"}], "two"), True),
    ("merge_claims", lambda r: r.merge_claims([2, 3], "both", "one finding"), True),
    ("rubric_score", _rubric_score, False),
    ("raise_flag", lambda r: set_flag(r, True, "looks copied"), False),
]


@pytest.mark.parametrize(("kind", "act", "restructures"), EVERY_COMMAND, ids=[c[0] for c in EVERY_COMMAND])
def test_every_command_reports_itself_when_done_undone_and_redone(
    review: LogbookReview, kind: str, act, restructures: bool
) -> None:
    act(review)
    changes = heard(review)
    label = review.history.undo_label
    review.history.undo()
    review.history.redo()
    undo, redo = changes
    assert (undo.kind, undo.direction, redo.kind, redo.direction) == (kind, "undo", kind, "redo")
    assert undo.label == redo.label and label == f"Undo {undo.label}"
    assert undo.restructures == redo.restructures == restructures
    assert undo.record_ids and redo.record_ids and set(undo.record_ids).isdisjoint(redo.record_ids)
    assert all(review.state.record(i) is not None for i in (*undo.record_ids, *redo.record_ids))
