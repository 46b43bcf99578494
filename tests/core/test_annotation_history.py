"""Undo/redo over append-only files: readable labels, every step appends a record, the state follows, and a
reopened session replays to the same state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.review.history import HistoryConflict
from reviewapp.core.review.logbook_review import AnnotationError, AnnotationSession
from reviewapp.core.verdicts import Verdict
from tests.core.annotation_helpers import CLAIM_PAGES, open_session, small_logbook


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return small_logbook(tmp_path)


def lines(session: AnnotationSession) -> list[dict]:
    path = session.store.file_for(session.identity.slug)
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def my_verdict(session: AnnotationSession, n: int) -> Verdict | None:
    record = session.state.verdict(session.claim(n).key, session.identity.name)
    return record.payload.verdict if record else None  # type: ignore[attr-defined]


def test_override_undo_redo_append_records_and_the_state_follows(workspace: Path) -> None:
    session = open_session(workspace)
    history = session.history
    assert not history.can_undo and history.undo_label is None

    session.set_verdict(3, "partial", "Only a proxy was run.", confidence=2)
    assert history.undo_label == "Undo override of claim 3"
    assert my_verdict(session, 3) is Verdict.PARTIAL

    session.set_verdict(3, "falsified", "The proxy disagrees too.")
    assert my_verdict(session, 3) is Verdict.FALSIFIED

    assert history.undo() is not None
    assert my_verdict(session, 3) is Verdict.PARTIAL
    assert history.redo_label == "Redo override of claim 3"
    history.undo()
    assert my_verdict(session, 3) is None
    assert not history.can_undo and history.can_redo

    history.redo()
    assert my_verdict(session, 3) is Verdict.PARTIAL
    written = lines(session)
    assert [r["kind"] for r in written] == ["verdict", "verdict", "verdict", "retraction", "verdict"]
    # every record after the first supersedes the one before it: one chain, nothing rewritten
    assert [r.get("supersedes") for r in written[1:]] == [r["id"] for r in written[:-1]]
    assert written[2]["payload"] == written[0]["payload"]  # undo wrote the earlier content again

    reopened = open_session(workspace)
    assert my_verdict(reopened, 3) is Verdict.PARTIAL
    assert reopened.state.verdict(session.claim(3).key, "Ada Lovelace").payload.rationale == "Only a proxy was run."  # type: ignore[union-attr]


def test_a_new_action_clears_redo(workspace: Path) -> None:
    session = open_session(workspace)
    session.set_verdict(1, "verified", "ok")
    session.history.undo()
    assert session.history.can_redo
    session.set_verdict(2, "toy", "small")
    assert not session.history.can_redo
    assert session.history.undo_label == "Undo override of claim 2"


def test_note_add_edit_delete_and_their_labels(workspace: Path) -> None:
    session = open_session(workspace)
    page = CLAIM_PAGES[1]
    target = session.lines_target(page, 1, 4, 9)
    note = session.add_note(target, "accuracy jumps here", tags=["stopped too early"])
    assert session.history.undo_label == "Undo note on lines 4–9 of cell 2 of claim 1"
    edited = session.edit_note(note.id, text="accuracy jumps at epoch 4")
    assert session.history.undo_label == "Undo edit of note on lines 4–9 of cell 2 of claim 1"
    assert edited.payload.tags == ["stopped too early"]  # type: ignore[attr-defined]
    session.delete(edited.id)
    assert session.history.undo_label == "Undo deletion of note on lines 4–9 of cell 2 of claim 1"
    assert session.state.notes() == []

    session.history.undo()
    assert [n.payload.text for n in session.state.notes()] == ["accuracy jumps at epoch 4"]  # type: ignore[attr-defined]
    session.history.undo()
    assert [n.payload.text for n in session.state.notes()] == ["accuracy jumps here"]  # type: ignore[attr-defined]
    session.history.undo()
    assert session.state.notes() == []
    session.history.redo()
    session.history.redo()
    assert [n.payload.text for n in open_session(workspace).state.notes()] == ["accuracy jumps at epoch 4"]  # type: ignore[attr-defined]


def test_notes_on_every_kind_of_anchor(workspace: Path) -> None:
    session = open_session(workspace)
    page = CLAIM_PAGES[1]
    labels = {}
    for name, target in {
        "claim": session.claim_target(1),
        "page": session.page_target("index"),
        "cell": session.cell_target(page, 1),
        "figure": session.figure_target(page, 0),
        "trace": session.trace_target("session-1", 3, claim_ref=1),
    }.items():
        session.add_note(target, f"on the {name}")
        labels[name] = session.history.undo_label
        assert target.anchor == name
    assert labels == {
        "claim": "Undo note on claim 1",
        "page": "Undo note on page index",
        "cell": "Undo note on cell 2 of claim 1",
        "figure": "Undo note on figure in cell 1 of claim 1",
        "trace": "Undo note on trace event 3 (claim 1)",
    }
    cell = session.cell_target(page, 1).cell
    assert cell is not None and cell.content_hash == session.logbook.page(page).cells[1].content_hash  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="no cell 9"):
        session.cell_target(page, 8)


def test_claim_corrections_are_undoable_annotations(workspace: Path) -> None:
    session = open_session(workspace)
    keys = [c.key for c in session.claims()]
    session.split_claim(2, [{"title": "speed"}, {"title": "memory"}], "two claims in one")
    assert session.history.undo_label == "Undo split of claim 2"
    assert [c.key for c in session.claims()] == [keys[0], f"{keys[1]}.1", f"{keys[1]}.2", keys[2]]
    assert session.claims()[1].agent_verdict is Verdict.FALSIFIED  # parts inherit the agent's verdict
    session.merge_claims([1, 3], "pruning at any shift", "the same claim twice")
    assert session.history.undo_label == "Undo merge of claims 1 and 3"
    assert len(session.claims()) == 3
    session.correct_agent_verdict(f"{keys[1]}.1", "inconclusive", "the page says NOT VERIFIED")
    assert session.history.undo_label == "Undo correction of agent verdict of claim “speed”"
    added = session.add_claim(CLAIM_PAGES[3], "Robust to blur", "a second claim on the page", n=4)
    assert session.claim(4).key == added.payload.key == f"{CLAIM_PAGES[3]}#4"  # type: ignore[attr-defined]
    for _ in range(4):
        session.history.undo()
    assert [c.key for c in session.claims()] == keys
    assert [c.key for c in open_session(workspace).claims()] == keys


def test_clear_verdict_and_delete_of_a_verdict(workspace: Path) -> None:
    session = open_session(workspace)
    record = session.set_verdict(1, "toy", "tiny run")
    session.clear_verdict(1)
    assert session.history.undo_label == "Undo removal of override of claim 1"
    assert my_verdict(session, 1) is None
    session.history.undo()
    assert my_verdict(session, 1) is Verdict.TOY
    with pytest.raises(AnnotationError, match="no verdict"):
        session.clear_verdict(2)
    session.delete(session.state.current(record.id).id)  # type: ignore[union-attr]
    assert session.history.undo_label == "Undo removal of override of claim 1"


def test_undo_refuses_when_another_process_changed_the_annotation(workspace: Path) -> None:
    gui = open_session(workspace)
    gui.set_verdict(1, "verified", "ok")
    script = open_session(workspace)  # the command line, same person
    script.set_verdict(1, "falsified", "rerun failed")
    gui.reload()
    with pytest.raises(HistoryConflict, match="changed elsewhere"):
        gui.history.undo()
    assert not gui.history.can_undo
    assert my_verdict(open_session(workspace), 1) is Verdict.FALSIFIED


def test_others_annotations_cannot_be_edited(workspace: Path) -> None:
    bob = open_session(workspace, "Bob")
    note = bob.add_note(bob.claim_target(1), "Bob's note")
    ada = open_session(workspace)
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
    session = open_session(workspace)
    with pytest.raises(AnnotationError, match=message):
        call(session)
    assert not session.store.file_for(session.identity.slug).exists()
    assert not session.history.can_undo


def test_records_carry_revision_and_page_hash(workspace: Path) -> None:
    session = open_session(workspace)
    record = session.set_verdict(2, "toy", "small")
    assert record.revision.page_sha256 == session.logbook.page(CLAIM_PAGES[2]).sha256  # type: ignore[union-attr]
    assert record.revision.git_head is None  # not a git checkout
    assert record.role == "judge" and record.annotator == "Ada Lovelace"


def test_listeners_hear_every_change(workspace: Path) -> None:
    session = open_session(workspace)
    heard: list[str | None] = []
    session.history.listeners.append(lambda: heard.append(session.history.undo_label))
    session.set_verdict(1, "toy", "x")
    session.history.undo()
    session.history.redo()
    assert heard == ["Undo override of claim 1", None, "Undo override of claim 1"]


def test_new_tags_join_the_users_choices(workspace: Path) -> None:
    session = open_session(workspace)
    assert "seed not fixed" not in session.tag_choices()
    session.set_verdict(1, "toy", "x", tags=["seed not fixed", "units mismatch"])
    choices = session.tag_choices()
    assert choices.count("units mismatch") == 1 and choices[-1] == "seed not fixed"


def test_undo_all_then_redo_all_over_one_chain(workspace: Path) -> None:
    session = open_session(workspace)
    sequence = ["verified", "partial", "toy", "falsified"]
    for value in sequence:
        session.set_verdict(2, value, f"now {value}")
    seen = []
    while session.history.can_undo:
        session.history.undo()
        seen.append(my_verdict(session, 2))
    assert seen == [Verdict.TOY, Verdict.PARTIAL, Verdict.VERIFIED, None]
    while session.history.can_redo:
        session.history.redo()
    assert my_verdict(session, 2) is Verdict.FALSIFIED
    assert my_verdict(open_session(workspace), 2) is Verdict.FALSIFIED
    assert len(lines(session)) == 12
