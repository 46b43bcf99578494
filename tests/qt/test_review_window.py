"""The review loop in the real window: the verdict editor, notes on every kind of anchor, undo/redo through the
Edit menu, who is reviewing, read-only logbooks and damaged review files. Every check reads the file on disk."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.preferences import Preferences, load_preferences, save_preferences
from reviewapp.core.review.store import fallback_folder
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.models.claim_table import ClaimRole
from reviewapp.qt.opening import open_review
from reviewapp.qt.review.identity_dialog import IdentityDialog
from reviewapp.qt.widgets.cell_cards import CodeCard
from reviewapp.qt.widgets.figure_card import FigureCard
from reviewapp.qt.widgets.info_dialogs import ProblemsDialog
from tests.core.commit_helpers import isolate_git
from tests.qt.conftest import REVIEWER, OpenWindow, wait_idle
from tests.qt.review_helpers import fill_verdict, note_dialog, records, save, save_note, show_claim, trigger, written

TOKEN = "ghp_" + "Zx9" * 12  # the shape of a GitHub token, made up


def human(window, n: int) -> Verdict | None:
    return window.claim_model.index(n - 1).data(ClaimRole.SLOTS).human


def test_verdict_editor_writes_the_record_before_saying_saved(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 2)
    editor = window.review.editor
    assert editor.body.isVisible() and not editor.save_button.isEnabled()
    qtbot.mouseClick(editor.verdict_buttons[Verdict.PARTIAL], Qt.MouseButton.LeftButton)
    assert not editor.save_button.isEnabled()  # a verdict without a rationale cannot be saved
    assert editor.state.text() == "A verdict needs a rationale."
    assert not save(qtbot, editor)
    assert records(window) == []
    fill_verdict(qtbot, window, Verdict.PARTIAL, "Only the 500-step benchmark ran; the kernel run failed.", 2)
    editor.tags.chips["stopped too early"].click()
    assert editor.save_button.isEnabled() and editor.state.text() == "Not saved yet."
    qtbot.keyClick(editor.rationale, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Enter saves
    written(qtbot, window)

    [record] = records(window)
    claim = window.controller.claim(2)
    assert record["kind"] == "verdict" and record["annotator"] == REVIEWER and record["target"]["claim"] == claim.key
    payload = record["payload"]
    assert payload["verdict"] == "partial" and payload["confidence"] == 2 and payload["tags"] == ["stopped too early"]
    assert payload["rationale"] == "Only the 500-step benchmark ran; the kernel run failed."
    assert editor.state.text().startswith("Saved at") and not editor.save_button.isEnabled()
    # All three verdicts stay visible: the agent's is untouched, the reviewer's is the H badge, and they disagree.
    assert human(window, 2) is Verdict.PARTIAL
    header = window.evidence.header
    assert header.badges["agent"].verdict is Verdict.FALSIFIED and header.badges["human"].verdict is Verdict.PARTIAL
    assert header.badges["judge"].verdict is None
    assert header.disagreement.isVisibleTo(window) and "Reviewer says partial" in header.disagreement.text()
    assert editor.summary.text().startswith("PARTIAL · confidence 2/3 · 1 tag")
    # Unsaved edits survive a look at another claim.
    editor.rationale.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor.rationale, " Also the dataset is smaller.")
    show_claim(qtbot, window, 1)
    assert editor.rationale.toPlainText() == ""
    show_claim(qtbot, window, 2)
    assert editor.rationale.toPlainText().endswith("Also the dataset is smaller.") and editor.dirty


def test_a_secret_in_the_rationale_is_refused_in_place(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 3)
    editor = fill_verdict(qtbot, window, Verdict.TOY, f"Checked with my token {TOKEN} on the full set.")
    assert not save(qtbot, editor)
    assert editor.error.isVisible() and "GitHub token" in editor.error.text()
    assert TOKEN not in editor.error.text()  # the message names the kind, never the secret
    assert editor.state.text() == "Not saved."
    assert records(window) == [] and human(window, 3) is None
    editor.rationale.setPlainText("Checked on the full set.")
    assert not editor.error.isVisible()
    assert save(qtbot, editor) and records(window)[-1]["payload"]["rationale"] == "Checked on the full set."


def test_notes_on_a_claim_page_cell_output_lines_figure_and_trace_event(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    notes = window.review.notes
    claim1, claim2 = window.controller.claim(1), window.controller.claim(2)
    show_claim(qtbot, window, 2)

    window.actions_by_name["add_note"].trigger()  # N: the claim shown
    target = save_note(qtbot, window, "Speed-up measured on one GPU only", ("units mismatch",))["target"]
    assert target == {"claim": claim2.key, "page": claim2.page}
    assert records(window)[-1]["payload"]["tags"] == ["units mismatch"]

    conclusion = next(p for p in window.context.logbook.pages if p.title == "Conclusion")
    trigger(notes.page_menu(window.page_model.index_of(conclusion.slug)), "Add note on page")
    assert save_note(qtbot, window, "The conclusion overstates claim 3")["target"] == {"page": conclusion.slug}

    runs = [c for c in window.evidence.cards if isinstance(c, CodeCard) and c.output is not None]
    qtbot.mouseClick(runs[0].note_button, Qt.MouseButton.LeftButton)  # the card's own Note button
    target = save_note(qtbot, window, "500 steps is a tenth of the paper's run")["target"]
    assert target["claim"] == claim2.key and target["cell"]["ordinal"] == runs[0].cell.ordinal
    assert target["cell"]["content_hash"] == runs[0].cell.content_hash and "lines" not in target

    failing = runs[1]
    notes.select_output_lines(failing, 2, 3)
    trigger(notes.output_menu(failing), "Add note on lines 2–3 of the output")
    dialog = note_dialog(qtbot, window)
    assert dialog.quote.text() == "\n".join(failing.output.lines[1:3])  # the selected lines are quoted
    target = save_note(qtbot, window, "The kernel never compiled")["target"]
    assert target["lines"] == {"first": 2, "last": 3} and target["cell"]["ordinal"] == failing.cell.ordinal

    show_claim(qtbot, window, 1)
    [figure_card] = [c for c in window.evidence.cards if isinstance(c, FigureCard)]
    trigger(notes.figure_menu(figure_card, 0), "Add note on this figure")
    target = save_note(qtbot, window, "Loss still falling at the end")["target"]
    assert target["figure"] == {"index": 0} and target["claim"] == claim1.key

    qtbot.waitUntil(lambda: window.excerpts.model.rowCount() > 0, timeout=30_000)
    excerpts = window.excerpts.view
    trigger(notes.event_menu(excerpts, excerpts.model().index(0), True), "Add note on trace event")
    event = window.excerpts.model.excerpt_at(0)
    target = save_note(qtbot, window, "The agent chose the epochs here")["target"]
    assert target["trace"] == {"session": event.trace_id, "sequence": event.sequence}
    assert target["claim"] == claim1.key
    qtbot.waitUntil(lambda: window.timeline.model.rowCount() > 0, timeout=30_000)
    timeline = window.timeline.view
    last = timeline.model().index(window.timeline.model.rowCount() - 1)
    trigger(notes.event_menu(timeline, last, False), "Add note on trace event")
    target = save_note(qtbot, window, "Final summary of the run")["target"]
    assert target["trace"]["sequence"] == last.data(Qt.ItemDataRole.UserRole + 1).sequence

    # The notes tab lists the claim's notes with their anchors; "All notes" lists every one.
    panel = window.review.notes_panel
    anchors = [card.anchor.text() for card in panel.cards]
    assert "Figure in cell" in anchors[0] and any(a.startswith("Trace event") for a in anchors)
    assert window.side_tabs.tabText(window.side_tabs.indexOf(panel)) == f"Notes ({len(panel.cards)})"
    panel.scope.setCurrentIndex(panel.scope.findData("all"))
    assert len(panel.cards) == 7
    assert any(c.anchor.text().startswith("Lines 2–3 of cell") for c in panel.cards)


def test_undo_and_redo_through_the_edit_menu(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    window = open_window(demo_copy)
    undo, redo = window.actions_by_name["undo"], window.actions_by_name["redo"]
    assert not undo.isEnabled() and not redo.isEnabled()
    show_claim(qtbot, window, 2)
    fill_verdict(qtbot, window, Verdict.VERIFIED, "The speed-up holds on my machine.")
    assert save(qtbot, window.review.editor)
    assert undo.isEnabled() and undo.text() == "Undo verdict on claim 2"
    window.actions_by_name["add_note"].trigger()
    save_note(qtbot, window, "Timing includes warm-up")
    panel = window.review.notes_panel
    [card] = panel.cards
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    assert panel.cards == [] and undo.text() == "Undo deletion of note on claim 2"

    undo.trigger()
    written(qtbot, window)
    assert [c.text.text() for c in panel.cards] == ["Timing includes warm-up"]
    assert undo.text() == "Undo note on claim 2" and redo.text() == "Redo deletion of note on claim 2"
    undo.trigger()
    written(qtbot, window)
    assert panel.cards == []
    assert undo.text() == "Undo verdict on claim 2"
    window.activateWindow()  # the note dialog had the focus; without a window manager nobody gives it back
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.claim_panel.view.setFocus()
    qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z
    written(qtbot, window)
    assert human(window, 2) is None and window.evidence.header.badges["human"].verdict is None
    assert window.review.editor.rationale.toPlainText() == ""
    assert not undo.isEnabled() and redo.text() == "Redo verdict on claim 2"
    qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Y
    written(qtbot, window)
    assert human(window, 2) is Verdict.VERIFIED
    assert window.review.editor.rationale.toPlainText() == "The speed-up holds on my machine."
    assert "Redid verdict on claim 2" in window.statusBar().currentMessage()
    kinds = [r["kind"] for r in records(window)]
    assert kinds == ["verdict", "note", "retraction", "note", "retraction", "retraction", "verdict"]


def test_an_undo_of_something_changed_elsewhere_is_refused_plainly(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 1)
    fill_verdict(qtbot, window, Verdict.PARTIAL, "Close, but the drop is 0.4 points here.")
    assert save(qtbot, window.review.editor)
    other = open_review(read_logbook(demo_copy), Identity(REVIEWER, "asked"), "judge")  # a second window
    other.set_verdict(1, "falsified", "Re-run shows a 2-point drop.")
    with qtbot.waitSignal(window.error_shown) as shown:
        window.actions_by_name["undo"].trigger()
    assert "changed elsewhere" in shown.args[0] and "reloaded" in shown.args[0]
    assert isinstance(window.dialog, QMessageBox) and window.dialog.textFormat() == Qt.TextFormat.PlainText
    window.dialog.close()
    assert human(window, 1) is Verdict.FALSIFIED  # the window now shows what is on disk
    assert not window.actions_by_name["undo"].isEnabled()


def test_who_is_reviewing_is_asked_once_and_kept(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, tmp_path: Path, monkeypatch
) -> None:
    save_preferences(Preferences())
    isolate_git(tmp_path / "git-home", monkeypatch)  # no git user.name, no Hub login: nobody is known
    window = open_window(demo_copy)
    dialog = window.review.dialog
    assert isinstance(dialog, IdentityDialog) and dialog.isVisible()
    assert window.controller.logbook_review is None
    editor = window.review.editor
    assert editor.identity_button.isVisibleTo(window) and not editor.body.isVisibleTo(window)
    assert not window.actions_by_name["add_note"].isEnabled()
    dialog.name.setText("   ")
    dialog.accept()
    assert dialog.isVisible() and "empty" in dialog.error.text()
    dialog.name.setText("Grace  Hopper")
    dialog.role.setCurrentIndex(dialog.role.findData("author"))
    dialog.accept()
    assert not dialog.isVisible()

    review = window.controller.logbook_review
    assert review is not None and review.identity.name == "Grace Hopper" and review.role == "author"
    preferences = load_preferences()
    assert (preferences.annotator, preferences.annotator_source) == ("Grace Hopper", "asked")
    assert preferences.role == "author"
    assert window.review.reviewer.text().startswith("Grace Hopper (author) · reviews saved in")
    assert editor.body.isVisibleTo(window) and window.actions_by_name["add_note"].isEnabled()
    fill_verdict(qtbot, window, Verdict.TOY, "Only a proxy dataset.")
    assert save(qtbot, editor) and records(window)[-1]["annotator"] == "Grace Hopper"
    assert window.controller.file().name == "grace-hopper.jsonl"

    again = open_window(demo_copy)
    assert again.review.dialog is None and again.controller.logbook_review.identity.name == "Grace Hopper"


def test_a_read_only_logbook_saves_reviews_in_the_data_folder_and_says_so(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    root = read_logbook(demo_copy).root
    (root / "reviews").write_text("not a folder\n", encoding="utf-8")  # tests run as root: a file, not chmod
    window = open_window(demo_copy)
    folder = fallback_folder(root)
    label = window.review.reviewer
    assert "saved outside the logbook" in label.text() and str(folder) in label.text()
    assert "is not a folder" in label.toolTip()
    show_claim(qtbot, window, 4)
    fill_verdict(qtbot, window, Verdict.INCONCLUSIVE, "Needs the pair ratings first.")
    assert save(qtbot, window.review.editor)
    file = folder / "rae-reviewer.jsonl"
    assert file.is_file() and '"inconclusive"' in file.read_text(encoding="utf-8")
    assert (root / "reviews").read_text(encoding="utf-8") == "not a folder\n"
    assert human(window, 4) is Verdict.INCONCLUSIVE


def test_damaged_review_files_are_reported_not_fatal(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    first = open_window(demo_copy)
    show_claim(qtbot, first, 2)
    fill_verdict(qtbot, first, Verdict.PARTIAL, "Half of it holds.")
    assert save(qtbot, first.review.editor)
    file = first.controller.file()
    first.close()
    with file.open("ab") as out:
        out.write(b'{"schema": 1, "kind": "verdict", "id": "broken"}\n{"schema": 1, "kind": "no')  # torn tail
    window = open_window(demo_copy)
    assert human(window, 2) is Verdict.PARTIAL  # what was saved still loads
    assert window.problems_button.isVisible() and "problem" in window.problems_button.text()
    window.show_problems()
    assert isinstance(window.dialog, ProblemsDialog)
    table = window.dialog.table
    rows = [tuple(table.item(r, c).text() for c in range(3)) for r in range(table.rowCount())]
    review_rows = [r for r in rows if r[0].endswith("rae-reviewer.jsonl")]
    assert any(line == "2" for _, line, _ in review_rows)  # the invalid line, by number
    assert any("torn last line" in message for _, _, message in review_rows)  # the torn tail, set aside
    assert list(file.parent.glob("rae-reviewer.jsonl.torn-*"))
    wait_idle(qtbot, window)


def test_a_verdict_recorded_elsewhere_opens_as_saved(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    review = open_review(read_logbook(demo_copy), Identity(REVIEWER, "asked"), "judge")
    tags = ["numbers not reproducible", "stopped too early"]  # not in the order the chips are listed
    review.set_verdict(1, "partial", "Recorded from the command line.", confidence=3, tags=tags)
    window = open_window(demo_copy)
    editor = window.review.editor
    assert editor.current().verdict is Verdict.PARTIAL and editor.tags.selected() == list(reversed(tags))
    assert not editor.dirty and not editor.save_button.isEnabled() and editor.state.text() == ""
    assert editor.confidence_buttons[3].isChecked() and human(window, 1) is Verdict.PARTIAL
    qtbot.mouseClick(editor.confidence_buttons[3], Qt.MouseButton.LeftButton)  # clicking it again unsets it
    assert editor.current().confidence is None and editor.save_button.isEnabled()
    assert save(qtbot, editor) and len(records(window)) == 2 and "confidence" not in records(window)[-1]["payload"]
