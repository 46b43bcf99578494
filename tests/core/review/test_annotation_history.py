"""Undo/redo over append-only files: readable labels, every step appends a record, the state follows, and a
reopened review replays to the same state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.review.history import HistoryConflict
from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
from reviewapp.core.verdicts import Verdict
from tests.core.annotation_helpers import CLAIM_PAGES, open_review, small_logbook


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return small_logbook(tmp_path)


def lines(review: LogbookReview) -> list[dict]:
    path = review.store.file_for(review.identity.slug)
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def my_verdict(review: LogbookReview, n: int) -> Verdict | None:
    record = review.state.verdict(review.claim(n).key, review.identity.name)
    return record.payload.verdict if record else None  # type: ignore[attr-defined]


def test_override_undo_redo_append_records_and_the_state_follows(workspace: Path) -> None:
    review = open_review(workspace)
    history = review.history
    assert not history.can_undo and history.undo_label is None

    review.set_verdict(3, "partial", "Only a proxy was run.", confidence=2)
    assert history.undo_label == "Undo verdict on claim 3"
    assert my_verdict(review, 3) is Verdict.PARTIAL

    review.set_verdict(3, "falsified", "The proxy disagrees too.")
    assert my_verdict(review, 3) is Verdict.FALSIFIED

    assert history.undo() is not None
    assert my_verdict(review, 3) is Verdict.PARTIAL
    assert history.redo_label == "Redo verdict on claim 3"
    history.undo()
    assert my_verdict(review, 3) is None
    assert not history.can_undo and history.can_redo

    history.redo()
    assert my_verdict(review, 3) is Verdict.PARTIAL
    written = lines(review)
    assert [r["kind"] for r in written] == ["verdict", "verdict", "verdict", "retraction", "verdict"]
    # every record after the first supersedes the one before it: one chain, nothing rewritten
    assert [r.get("supersedes") for r in written[1:]] == [r["id"] for r in written[:-1]]
    assert written[2]["payload"] == written[0]["payload"]  # undo wrote the earlier content again

    reopened = open_review(workspace)
    assert my_verdict(reopened, 3) is Verdict.PARTIAL
    assert reopened.state.verdict(review.claim(3).key, "Ada Lovelace").payload.rationale == "Only a proxy was run."  # type: ignore[union-attr]


def test_a_new_action_clears_redo(workspace: Path) -> None:
    review = open_review(workspace)
    review.set_verdict(1, "verified", "ok")
    review.history.undo()
    assert review.history.can_redo
    review.set_verdict(2, "toy", "small")
    assert not review.history.can_redo
    assert review.history.undo_label == "Undo verdict on claim 2"


def test_note_add_edit_delete_and_their_labels(workspace: Path) -> None:
    review = open_review(workspace)
    page = CLAIM_PAGES[1]
    target = review.lines_target(page, 1, 4, 9)
    note = review.add_note(target, "accuracy jumps here", tags=["stopped too early"])
    assert review.history.undo_label == "Undo note on lines 4–9 of cell 2 of claim 1"
    edited = review.edit_note(note.id, text="accuracy jumps at epoch 4")
    assert review.history.undo_label == "Undo edit of note on lines 4–9 of cell 2 of claim 1"
    assert edited.payload.tags == ["stopped too early"]  # type: ignore[attr-defined]
    review.delete(edited.id)
    assert review.history.undo_label == "Undo deletion of note on lines 4–9 of cell 2 of claim 1"
    assert review.state.notes() == []

    review.history.undo()
    assert [n.payload.text for n in review.state.notes()] == ["accuracy jumps at epoch 4"]  # type: ignore[attr-defined]
    review.history.undo()
    assert [n.payload.text for n in review.state.notes()] == ["accuracy jumps here"]  # type: ignore[attr-defined]
    review.history.undo()
    assert review.state.notes() == []
    review.history.redo()
    review.history.redo()
    assert [n.payload.text for n in open_review(workspace).state.notes()] == ["accuracy jumps at epoch 4"]  # type: ignore[attr-defined]


def test_notes_on_every_kind_of_anchor(workspace: Path) -> None:
    review = open_review(workspace)
    page = CLAIM_PAGES[1]
    labels = {}
    for name, target in {
        "claim": review.claim_target(1),
        "page": review.page_target("index"),
        "cell": review.cell_target(page, 1),
        "figure": review.figure_target(page, 0),
        "trace": review.trace_target("session-1", 3, claim_ref=1),
    }.items():
        review.add_note(target, f"on the {name}")
        labels[name] = review.history.undo_label
        assert target.anchor == name
    assert labels == {
        "claim": "Undo note on claim 1",
        "page": "Undo note on page index",
        "cell": "Undo note on cell 2 of claim 1",
        "figure": "Undo note on figure in cell 1 of claim 1",
        "trace": "Undo note on trace event 3 (claim 1)",
    }
    cell = review.cell_target(page, 1).cell
    assert cell is not None and cell.content_hash == review.logbook.page(page).cells[1].content_hash  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="no cell 9"):
        review.cell_target(page, 8)


def test_claim_corrections_are_undoable_annotations(workspace: Path) -> None:
    review = open_review(workspace)
    keys = [c.key for c in review.claims()]
    review.split_claim(2, [{"title": "speed"}, {"title": "memory"}], "two claims in one")
    assert review.history.undo_label == "Undo split of claim 2"
    assert [c.key for c in review.claims()] == [keys[0], f"{keys[1]}.1", f"{keys[1]}.2", keys[2]]
    assert review.claims()[1].agent_verdict is Verdict.FALSIFIED  # parts inherit the agent's verdict
    review.merge_claims([1, 3], "pruning at any shift", "the same claim twice")
    assert review.history.undo_label == "Undo merge of claims 1 and 3"
    assert len(review.claims()) == 3
    review.correct_agent_verdict(f"{keys[1]}.1", "inconclusive", "the page says NOT VERIFIED")
    assert review.history.undo_label == "Undo correction of agent verdict of claim “speed”"
    added = review.add_claim(CLAIM_PAGES[3], "Robust to blur", "a second claim on the page", n=4)
    assert review.claim(4).key == added.payload.key == f"{CLAIM_PAGES[3]}#4"  # type: ignore[attr-defined]
    for _ in range(4):
        review.history.undo()
    assert [c.key for c in review.claims()] == keys
    assert [c.key for c in open_review(workspace).claims()] == keys


def test_clear_verdict_and_delete_of_a_verdict(workspace: Path) -> None:
    review = open_review(workspace)
    record = review.set_verdict(1, "toy", "tiny run")
    review.clear_verdict(1)
    assert review.history.undo_label == "Undo removal of the verdict on claim 1"
    assert my_verdict(review, 1) is None
    review.history.undo()
    assert my_verdict(review, 1) is Verdict.TOY
    with pytest.raises(AnnotationError, match="no verdict"):
        review.clear_verdict(2)
    review.delete(review.state.current(record.id).id)  # type: ignore[union-attr]
    assert review.history.undo_label == "Undo removal of the verdict on claim 1"


def test_undo_refuses_when_another_process_changed_the_annotation(workspace: Path) -> None:
    gui = open_review(workspace)
    gui.set_verdict(1, "verified", "ok")
    script = open_review(workspace)  # the command line, same person
    script.set_verdict(1, "falsified", "rerun failed")
    gui.reload()
    with pytest.raises(HistoryConflict, match="changed elsewhere"):
        gui.history.undo()
    assert not gui.history.can_undo
    assert my_verdict(open_review(workspace), 1) is Verdict.FALSIFIED


def test_others_annotations_cannot_be_edited(workspace: Path) -> None:
    bob = open_review(workspace, "Bob")
    note = bob.add_note(bob.claim_target(1), "Bob's note")
    ada = open_review(workspace)
    with pytest.raises(AnnotationError, match="Bob's"):
        ada.edit_note(note.id, text="changed")
    with pytest.raises(AnnotationError, match="Bob's"):
        ada.delete(note.id)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.set_verdict(9, "toy", "x"), "no claim 9"),
        (lambda s: s.set_verdict(1, "unstated", "x"), "one of"),
        (lambda s: s.set_verdict(1, "maybe", "x"), "unknown verdict"),
        (lambda s: s.set_verdict(1, "toy", "  "), "rationale"),
        (lambda s: s.set_verdict(1, "toy", "x", confidence=5), "confidence"),
        (lambda s: s.add_note(s.claim_target(1), " "), "text or at least one tag"),
        (lambda s: s.merge_claims([1, 1], "t", "r"), "two different claims"),
    ],
)
def test_invalid_actions_write_nothing(workspace: Path, call, message: str) -> None:  # type: ignore[no-untyped-def]
    review = open_review(workspace)
    with pytest.raises(AnnotationError, match=message):
        call(review)
    assert not review.store.file_for(review.identity.slug).exists()
    assert not review.history.can_undo


def test_records_carry_revision_and_page_hash(workspace: Path) -> None:
    review = open_review(workspace)
    record = review.set_verdict(2, "toy", "small")
    assert record.revision.page_sha256 == review.logbook.page(CLAIM_PAGES[2]).sha256  # type: ignore[union-attr]
    assert record.revision.git_head is None  # not a git checkout
    assert record.role == "judge" and record.annotator == "Ada Lovelace"


def test_listeners_hear_every_change(workspace: Path) -> None:
    review = open_review(workspace)
    heard: list[str | None] = []
    review.history.listeners.append(lambda _change: heard.append(review.history.undo_label))
    review.set_verdict(1, "toy", "x")
    review.history.undo()
    review.history.redo()
    assert heard == ["Undo verdict on claim 1", None, "Undo verdict on claim 1"]


def test_new_tags_join_the_users_choices(workspace: Path) -> None:
    review = open_review(workspace)
    assert "seed not fixed" not in review.tag_choices()
    review.set_verdict(1, "toy", "x", tags=["seed not fixed", "units mismatch"])
    choices = review.tag_choices()
    assert choices.count("units mismatch") == 1 and choices[-1] == "seed not fixed"


def test_undo_all_then_redo_all_over_one_chain(workspace: Path) -> None:
    review = open_review(workspace)
    sequence = ["verified", "partial", "toy", "falsified"]
    for value in sequence:
        review.set_verdict(2, value, f"now {value}")
    seen = []
    while review.history.can_undo:
        review.history.undo()
        seen.append(my_verdict(review, 2))
    assert seen == [Verdict.TOY, Verdict.PARTIAL, Verdict.VERIFIED, None]
    while review.history.can_redo:
        review.history.redo()
    assert my_verdict(review, 2) is Verdict.FALSIFIED
    assert my_verdict(open_review(workspace), 2) is Verdict.FALSIFIED
    assert len(lines(review)) == 12
