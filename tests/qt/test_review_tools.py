"""Claim corrections from the claim list, export, pair rating and commit opened from the window, and logbook or
manifest text shown literally in the pair and commit windows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.commit.dialog import GIT_COMMIT, CommitDialog
from reviewapp.qt.models.claim_table import ClaimRole
from reviewapp.qt.pairs import PairRatingWindow
from reviewapp.qt.review.claim_dialogs import (
    AddClaimDialog,
    CorrectVerdictDialog,
    MergeClaimsDialog,
    SplitClaimDialog,
)
from reviewapp.qt.workers import alive
from tests.core.commit_helpers import clone, git, isolate_git, make_remote
from tests.qt.conftest import OpenWindow, wait_idle
from tests.qt.file_access import InotifyWatch
from tests.qt.review_helpers import fill_verdict, records, save, show_claim, trigger, written
from tests.support.pair_fixtures import open_annotations, write_pair_logbook

HOSTILE = '<img src="/etc/hostname">'


def rows(window) -> list[tuple[str, str, Verdict, str]]:
    """(number, title, agent verdict, mark) of every claim in the list."""
    model = window.claim_model
    return [
        (
            model.index(r).data(ClaimRole.NUMBER),
            model.index(r).data(Qt.ItemDataRole.DisplayRole),
            model.index(r).data(ClaimRole.SLOTS).agent,
            model.index(r).data(ClaimRole.MARK),
        )
        for r in range(model.rowCount())
    ]


def closed(dialog: QWidget) -> bool:
    """The form closed (it deletes itself on close)."""
    return not alive(dialog) or not dialog.isVisible()


def select_rows(window, *numbers: int) -> None:
    view, model = window.claim_panel.view, window.claim_panel.proxy
    view.selectionModel().clearSelection()
    for n in numbers:
        view.selectionModel().select(model.index(n - 1, 0), QItemSelectionModel.SelectionFlag.Select)


def test_claim_corrections_from_the_claim_list(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    window = open_window(demo_copy)
    corrections = window.review.corrections
    show_claim(qtbot, window, 3)

    trigger(corrections.menu(), "Correct agent verdict")
    dialog = window.review.dialog
    assert isinstance(dialog, CorrectVerdictDialog) and not dialog.ok_button.isEnabled()
    dialog.verdict.setCurrentIndex(dialog.verdict.findData(Verdict.PARTIAL))
    qtbot.keyClicks(dialog.rationale, "The page says partial; the scorecard was misread.")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    assert closed(dialog)
    assert records(window)[-1]["kind"] == "agent_verdict"
    assert rows(window)[2][2:] == (Verdict.PARTIAL, "A corrected")
    header = window.evidence.header
    assert header.badges["agent"].verdict is Verdict.PARTIAL
    assert header.corrections.isVisibleTo(window) and "read as toy" in header.corrections.text()
    assert "Agent verdict corrected by Rae Reviewer" in window.claim_model.index(2).data(Qt.ItemDataRole.ToolTipRole)

    show_claim(qtbot, window, 1)
    original = window.controller.claim(1)
    trigger(corrections.menu(), "Split claim 1")
    dialog = window.review.dialog
    assert isinstance(dialog, SplitClaimDialog) and dialog.parts.rowCount() == 2
    dialog.parts.item(1, 0).setText("Accuracy stays within 0.5 points")
    dialog.parts.item(1, 1).setText(str(original.cells[-1] + 1))
    qtbot.keyClicks(dialog.rationale, "Two claims: sparsity level and accuracy.")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    assert closed(dialog), dialog.error.text()
    listed = rows(window)
    assert len(listed) == 5 and [r[3] for r in listed[:2]] == ["split", "split"]
    assert listed[1][1] == "Accuracy stays within 0.5 points"
    assert window.claim_panel.current_key() == f"{original.key}.1"  # the selection followed the claim
    assert window.controller.claim(f"{original.key}.2").cells == [original.cells[-1]]

    select_rows(window, 3, 4)  # claim 2 and claim 3
    assert window.actions_by_name["merge_claims"].isEnabled()
    trigger(corrections.menu(), "Merge claim 2, claim 3")
    dialog = window.review.dialog
    assert isinstance(dialog, MergeClaimsDialog)
    dialog.title.setText("Faster training, robust to shift")
    qtbot.keyClicks(dialog.rationale, "The paper states these together.")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    assert closed(dialog), dialog.error.text()
    listed = rows(window)
    assert len(listed) == 4 and listed[2][1] == "Faster training, robust to shift" and listed[2][3] == "merged"

    page = window.controller.claim(4).page
    trigger(window.review.notes.page_menu(window.page_model.index_of(page)), "Add claim on this page")
    dialog = window.review.dialog
    assert isinstance(dialog, AddClaimDialog) and not dialog.ok_button.isEnabled()
    dialog.title.setText("Quantized images keep fine detail")
    dialog.cells.item(0).setCheckState(Qt.CheckState.Checked)
    qtbot.keyClicks(dialog.rationale, "Stated in the image section, missed by the reader.")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    assert closed(dialog), dialog.error.text()
    listed = rows(window)
    assert len(listed) == 5 and listed[-1][1] == "Quantized images keep fine detail" and listed[-1][3] == "added"
    assert [r["kind"] for r in records(window)] == ["agent_verdict", "claim_split", "claim_merge", "claim_add"]

    undo = window.actions_by_name["undo"]
    assert undo.text() == "Undo addition of claim “Quantized images keep fine detail”"
    undo.trigger()
    written(qtbot, window)
    assert undo.text() == "Undo merge of claims 2 and 3"
    undo.trigger()
    written(qtbot, window)
    assert len(rows(window)) == 5 and rows(window)[2][1] == "Training is 2x faster"
    wait_idle(qtbot, window)


def test_export_writes_the_review_as_csv(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, tmp_path) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 2)
    fill_verdict(qtbot, window, Verdict.PARTIAL, "=1+1 is not a measurement", 3)
    assert save(qtbot, window.review.editor)
    window.actions_by_name["export_reviews"].trigger()
    dialog = window.review.dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    [suggested] = dialog.selectedFiles()  # a visible file named after the logbook, not ~/.trackio-reviews.csv
    assert Path(suggested).name == f"{demo_copy.name.lower()}-reviews.csv", suggested
    out = tmp_path / "exported.csv"
    dialog.selectFile(str(out))
    dialog.accept()
    with out.open(newline="", encoding="utf-8") as handle:
        exported = list(csv.DictReader(handle))
    assert [r["n"] for r in exported] == ["1", "2", "3", "4"]
    row = exported[1]
    assert (row["agent_verdict"], row["human_verdict"], row["confidence"]) == ("falsified", "partial", "3")
    assert row["rationale"] == "'=1+1 is not a measurement" and row["annotator"] == "Rae Reviewer"
    assert "Exported 4 rows" in window.statusBar().currentMessage()
    assert window.review.tools.export_to(tmp_path / "exported.jsonl")
    lines = [json.loads(line) for line in (tmp_path / "exported.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[1]["human_verdict"] == "partial" and lines[1]["rationale"] == "=1+1 is not a measurement"
    assert "notes" in lines[1]


def test_pair_rating_opens_from_the_claim_that_owns_the_set(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    editor = window.review.editor
    assert not editor.pairs_button.isVisibleTo(window)  # claim 1 has no image pairs
    show_claim(qtbot, window, 4)
    assert editor.pairs_button.isVisibleTo(window)
    qtbot.mouseClick(editor.pairs_button, Qt.MouseButton.LeftButton)
    pairs = window.review.tools.pair_window
    assert isinstance(pairs, PairRatingWindow) and pairs.isVisible()
    assert pairs.rating.pair_set.name == "usability"
    assert any(r["kind"] == "pair_session" for r in records(window))  # opening records the protocol
    pairs.close()
    qtbot.waitUntil(lambda: window.review.tools.pair_window is None)


def test_with_several_pair_sets_the_reviewer_picks_one(qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "pairs", 3)
    samples = workspace / "samples"
    spec = json.loads((samples / "test-pairs.json").read_text(encoding="utf-8"))
    (samples / "second-pairs.json").write_text(json.dumps({**spec, "question": "Which is sharper?"}), encoding="utf-8")
    window = open_window(workspace)
    assert window.review.editor.pairs_button.text() == "Rate image pairs (2 sets)…"
    window.actions_by_name["rate_pairs"].trigger()
    chooser = window.review.dialog
    assert isinstance(chooser, QInputDialog) and chooser.comboBoxItems() == ["second", "test"]
    chooser.setTextValue("second")
    chooser.accept()
    pairs = window.review.tools.pair_window
    assert isinstance(pairs, PairRatingWindow) and pairs.question.text() == "Which is sharper?"
    pairs.close()
    qtbot.waitUntil(lambda: window.review.tools.pair_window is None)


def test_commit_dialog_opens_from_the_menu_and_the_review_reloads_after(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, monkeypatch
) -> None:
    isolate_git(tmp_path / "git-home", monkeypatch)
    remote = make_remote(tmp_path)
    work = clone(remote, tmp_path / "work", "Rae Reviewer", "rae@example.invalid")
    window = open_window(work)
    show_claim(qtbot, window, 3)
    fill_verdict(qtbot, window, Verdict.PARTIAL, "Only the proxy was run.")
    assert save(qtbot, window.review.editor)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dialog = window.review.dialog
    assert isinstance(dialog, CommitDialog) and dialog.isVisible()
    qtbot.waitUntil(lambda: not dialog.is_busy() and dialog.plan is not None, timeout=30_000)
    assert dialog.target == GIT_COMMIT and dialog.commit_button.isEnabled()
    with qtbot.waitSignals([dialog.committed, window.controller.changed], timeout=30_000):
        qtbot.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
    assert ".trackio/logbook/reviews/rae-reviewer.jsonl" in git(work, "show", "--name-only", "--format=", "HEAD")
    assert git(work, "status", "--porcelain") == ""
    assert window.evidence.header.badges["human"].verdict is Verdict.PARTIAL  # reloaded from the committed file
    dialog.close()


def test_pair_window_shows_manifest_text_literally(qtbot: QtBot, tmp_path: Path) -> None:
    image = tmp_path / "bait.png"
    workspace = write_pair_logbook(tmp_path / "pairs", 2)
    (workspace / "samples" / "baseline" / "p01.png").replace(image)
    (workspace / "samples" / "baseline" / "p01.png").write_bytes(image.read_bytes())
    manifest = workspace / "samples" / "test-pairs.json"
    spec = json.loads(manifest.read_text(encoding="utf-8"))
    spec["question"] = f"Which is better? {HOSTILE}"
    spec["instructions"] = f'Look closely <img src="{image}">'
    for pair in spec["pairs"]:
        pair["prompt"] = f'A scene <img src="{image}"> {HOSTILE}'
    manifest.write_text(json.dumps(spec), encoding="utf-8")
    watch = InotifyWatch([image])
    window = PairRatingWindow.for_set(open_annotations(workspace), "test")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: (window.rating.complete and not window.writing) or window.can_answer, timeout=20_000)
    window.grab()
    assert window.question.text() == f"Which is better? {HOSTILE}"
    assert window.question.textFormat() == Qt.TextFormat.PlainText
    assert window.instructions.text() == f'Look closely <img src="{image}">'
    assert HOSTILE in window.prompt.text() and window.prompt.textFormat() == Qt.TextFormat.PlainText
    assert watch.events() == []  # the image named in the text was never opened
    watch.close()
    window.close()


def test_commit_dialog_shows_titles_and_review_lines_literally(qtbot: QtBot, tmp_path: Path, monkeypatch) -> None:
    isolate_git(tmp_path / "git-home", monkeypatch)
    draft = LogbookDraft(f"Repro {HOSTILE}")
    draft.page("Claim 1: Holds").markdown("Verdict: **VERIFIED**.", title="Verdict")
    root = draft.write(tmp_path / "book")
    git(tmp_path / "book", "init", "-q")
    git(tmp_path / "book", "config", "user.name", "Rae Reviewer")
    git(tmp_path / "book", "config", "user.email", "rae@example.invalid")
    git(tmp_path / "book", "add", "-A")
    git(tmp_path / "book", "commit", "-q", "-m", "logbook")
    review = LogbookReview.open(read_logbook(tmp_path / "book"), Identity("Rae Reviewer", "asked"))
    review.set_verdict(1, "verified", "Checked.")
    odd = root / "reviews" / "odd <img src=x>.jsonl"
    odd.write_text(f'{{"not": "a record {HOSTILE}"}}\n', encoding="utf-8")
    dialog = CommitDialog(review.logbook, logbook_review=review)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: not dialog.is_busy() and (dialog.plan is not None or bool(dialog.error)), timeout=30_000)
    [heading] = [label for label in dialog.findChildren(type(dialog.notes)) if label.text().startswith("Commit the")]
    assert heading.text() == f"Commit the reviews of “Repro {HOSTILE}”"
    assert heading.textFormat() == Qt.TextFormat.PlainText
    assert "odd <img src=x>.jsonl:1: " in dialog.notes.text(), dialog.error
    assert dialog.notes.textFormat() == Qt.TextFormat.PlainText
    files = [dialog.files.topLevelItem(i) for i in range(dialog.files.topLevelItemCount())]
    [item] = [i for i in files if i.text(0) == "odd <img src=x>.jsonl"]
    assert "&lt;img src=x&gt;" in item.toolTip(0) and "<img src=x>" not in item.toolTip(0)
    dialog.close()
