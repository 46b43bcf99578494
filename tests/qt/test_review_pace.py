"""A judge's pace: one key per verdict, the next claim not reviewed on one key, progress, and the other reviewers'
verdicts in view. Keys are sent to whatever widget has focus, as a keyboard would."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.models.claim_table import NOT_REVIEWED
from reviewapp.qt.widgets.cell_cards import MarkdownCard
from tests.qt.conftest import OpenWindow, settle, wait_idle
from tests.qt.review_helpers import records, show_claim, written

NO = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier


class Keyboard:
    """Presses keys where focus is, and counts them (a chord is one keystroke; typed rationale text is not)."""

    def __init__(self, qtbot: QtBot, window: MainWindow) -> None:
        self.qtbot, self.window, self.count = qtbot, window, 0

    def press(self, key: Qt.Key, modifiers: Qt.KeyboardModifier = NO) -> None:
        target = QApplication.focusWidget() or self.window
        self.qtbot.keyClick(target, key, modifiers)
        self.count += 1
        settle(2)
        written(self.qtbot, self.window)  # a save goes to the write lane; the next look waits for it to land

    def type(self, text: str) -> None:  # the rationale: not counted
        target = QApplication.focusWidget()
        assert target is not None
        self.qtbot.keyClicks(target, text)


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def chosen(window: MainWindow) -> Verdict | None:
    return window.review.editor.current().verdict


def test_digit_keys_choose_a_verdict_from_the_list_and_the_evidence_and_type_elsewhere(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    keys = Keyboard(qtbot, window)
    editor = window.review.editor
    window.claim_panel.view.setFocus()
    keys.press(Qt.Key.Key_2)
    assert chosen(window) is Verdict.PARTIAL
    assert editor.verdict_buttons[Verdict.PARTIAL].text() == "✓ Partial"  # unmistakable before saving
    assert editor.summary.text().startswith("Chosen: PARTIAL, not saved yet")
    assert window.claim_panel.current_key().endswith("#1")  # the list's type-to-search gave way
    keys.press(Qt.Key.Key_4)
    assert chosen(window) is Verdict.TOY and editor.verdict_buttons[Verdict.PARTIAL].text() == "Partial"
    assert records(window) == []  # choosing saves nothing

    card = next(c for c in window.evidence.cards if isinstance(c, MarkdownCard))
    card.view.setFocus()
    keys.press(Qt.Key.Key_1)
    assert chosen(window) is Verdict.VERIFIED

    window.claim_panel.search.setFocus()
    keys.press(Qt.Key.Key_3)  # in a text field a digit is text
    assert window.claim_panel.search.text() == "3" and chosen(window) is Verdict.VERIFIED
    window.claim_panel.search.clear()
    editor.rationale.setFocus()
    keys.press(Qt.Key.Key_5)
    assert editor.rationale.toPlainText() == "5" and chosen(window) is Verdict.VERIFIED
    editor.rationale.clear()

    window.claim_panel.view.setFocus()
    keys.press(Qt.Key.Key_0)  # nothing saved: 0 forgets the choice
    assert chosen(window) is None
    keys.press(Qt.Key.Key_3)
    keys.press(Qt.Key.Key_V)
    assert focused() is editor.rationale
    keys.type("Seed 3 diverges.")
    keys.press(Qt.Key.Key_Return, CTRL)
    assert [r["payload"]["verdict"] for r in records(window)] == ["falsified"]
    assert focused() is window.claim_panel.view  # saved: the keys are on the list again
    keys.press(Qt.Key.Key_0)  # a saved verdict: 0 removes it (undoable)
    assert window.review.editor.stored is None
    assert window.claim_panel.progress_text() == "0 of 4 reviewed by you"


def test_a_claim_review_takes_at_most_six_keystrokes_plus_the_rationale(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    keys = Keyboard(qtbot, window)
    assert focused() is window.claim_panel.view  # where opening a logbook leaves the keys
    wanted = {1: Verdict.PARTIAL, 2: Verdict.TOY, 3: Verdict.FALSIFIED, 4: Verdict.INCONCLUSIVE}
    digit = {Verdict.PARTIAL: Qt.Key.Key_2, Verdict.TOY: Qt.Key.Key_4, Verdict.FALSIFIED: Qt.Key.Key_3}
    digit[Verdict.INCONCLUSIVE] = Qt.Key.Key_5
    per_claim: list[int] = []
    for n, verdict in wanted.items():
        assert window.current_claim is not None and window.current_claim.n == n
        start = keys.count
        keys.press(Qt.Key.Key_G, CTRL)  # the evidence: the verdict statement scrolled into view
        keys.press(digit[verdict])
        keys.press(Qt.Key.Key_V)  # into the rationale
        keys.type(f"Checked the runs of claim {n}.")
        keys.press(Qt.Key.Key_Return, CTRL)  # save
        keys.press(Qt.Key.Key_U)  # the next claim not reviewed
        wait_idle(qtbot, window)
        per_claim.append(keys.count - start)
    saved = records(window)
    assert [(r["target"]["claim"].rsplit("#", 1)[1], r["payload"]["verdict"]) for r in saved] == [
        (str(n), v.value) for n, v in wanted.items()
    ]
    assert max(per_claim) <= 6, per_claim
    assert window.progress_label.text() == "4 of 4 reviewed by you"
    assert "reviewed every claim" in window.statusBar().currentMessage()  # the last U: nothing left


def test_next_not_reviewed_skips_reviewed_claims_across_pages_and_filters(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    review = LogbookReview.open(read_logbook(demo_copy), Identity("Rae Reviewer", "asked"))
    review.set_verdict(2, "falsified", "Diverges at seed 3.")
    review.set_verdict(3, "toy", "Only the small model.")
    window = open_window(demo_copy)
    panel = window.claim_panel
    assert panel.progress.text() == window.progress_label.text() == "2 of 4 reviewed by you"
    assert panel.current_key().endswith("#1")
    window.actions_by_name["next_unreviewed"].trigger()
    assert panel.current_key().endswith("#4")  # 2 and 3 are on other pages, and reviewed
    window.actions_by_name["next_unreviewed"].trigger()
    assert panel.current_key().endswith("#1")  # wraps around

    # a filter that hides every unreviewed claim is cleared rather than leaving the key without effect
    panel.verdict_filter.setCurrentIndex(panel.verdict_filter.findData(Verdict.FALSIFIED))
    assert panel.visible_keys() == [window.controller.claim(2).key]
    window.actions_by_name["next_unreviewed"].trigger()
    assert panel.current_key().endswith("#4") and panel.proxy.rowCount() == 4


def test_not_reviewed_by_you_is_its_own_filter(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    review = LogbookReview.open(read_logbook(demo_copy), Identity("Rae Reviewer", "asked"))
    review.set_verdict(1, "verified", "Matches the table.")
    window = open_window(demo_copy)
    panel = window.claim_panel
    labels = [panel.verdict_filter.itemText(i) for i in range(panel.verdict_filter.count())]
    assert "Not reviewed by you" in labels and "No verdict stated" in labels
    panel.verdict_filter.setCurrentIndex(panel.verdict_filter.findData(NOT_REVIEWED))
    numbers = [window.controller.claim(k).n for k in panel.visible_keys()]
    assert numbers == [2, 3, 4]
    panel.verdict_filter.setCurrentIndex(panel.verdict_filter.findData(Verdict.UNSTATED))
    unstated = [window.controller.claim(k).n for k in panel.visible_keys()]
    assert unstated != numbers  # the agent stated verdicts on those claims: a different question


def test_other_reviewers_verdicts_sit_beside_the_slots_in_the_claim_header(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    logbook = read_logbook(demo_copy)
    LogbookReview.open(logbook, Identity("Ola Other", "asked")).set_verdict(1, "toy", "Tiny model only.")
    LogbookReview.open(logbook, Identity("Pat Peer", "asked")).set_verdict(1, "partial", "Two of three runs.")
    window = open_window(demo_copy)
    header = window.evidence.header
    assert header.others_row.isVisible()
    assert [chip.text() for chip in header.other_chips] == ["Ola Other: TOY", "Pat Peer: PARTIAL"]
    assert "Tiny model only." in header.other_chips[0].toolTip()
    show_claim(qtbot, window, 2)
    assert not header.others_row.isVisible() and header.other_chips == []


def test_tags_fill_a_rationale_template_recent_rationales_return_and_the_rationale_stays_required(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    keys = Keyboard(qtbot, window)
    editor = window.review.editor
    keys.press(Qt.Key.Key_2)
    editor.rationale.setFocus()
    keys.press(Qt.Key.Key_Return, CTRL)  # no rationale: refused, said in place
    assert records(window) == [] and "needs a rationale" in editor.error.text()

    editor.tags.chips["units mismatch"].click()
    editor.tags.chips["scale below paper"].click()
    assert editor.rationale.toPlainText() == "Partial — units mismatch; scale below paper. Checked: "
    keys.press(Qt.Key.Key_Return, CTRL)  # the bare template is not a rationale
    assert records(window) == [] and "still the template" in editor.error.text()
    keys.type("the loss table in run 2.")
    window.claim_panel.view.setFocus()
    keys.press(Qt.Key.Key_4)  # a change of mind after editing leaves the text alone
    assert editor.rationale.toPlainText().endswith("run 2.")
    keys.press(Qt.Key.Key_Return, CTRL)
    [saved] = records(window)
    assert saved["payload"]["verdict"] == "toy"
    assert (
        saved["payload"]["rationale"]
        == "Partial — units mismatch; scale below paper. Checked: the loss table in run 2."
    )

    show_claim(qtbot, window, 2)
    editor.recent_menu.aboutToShow.emit()
    [recent] = [a for a in editor.recent_menu.actions() if a.isEnabled()]
    recent.trigger()
    assert editor.rationale.toPlainText() == saved["payload"]["rationale"] and focused() is editor.rationale


def test_saved_at_does_not_outlive_an_undo(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    window = open_window(demo_copy)
    keys = Keyboard(qtbot, window)
    editor = window.review.editor
    keys.press(Qt.Key.Key_1)
    keys.press(Qt.Key.Key_V)
    keys.type("Matches the paper's table 2.")
    keys.press(Qt.Key.Key_Return, CTRL)
    assert editor.state.text().startswith("Saved at")
    keys.press(Qt.Key.Key_Z, CTRL)
    assert editor.stored is None
    assert not editor.state.text().startswith("Saved at")


def test_hiding_the_verdict_editor_is_kept_for_the_next_logbook_and_run(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, demo_logbook: Path
) -> None:
    window = open_window(demo_copy)
    window.review.editor.toggle.click()
    assert not window.review.editor.body.isVisible()
    window.close()
    again = open_window(demo_logbook)  # a new window, as on the next start, on another logbook
    editor = again.review.editor
    assert not editor.body.isVisible() and editor.toggle.text() in ("Record verdict…", "Edit verdict…")
    again.claim_panel.view.setFocus()
    qtbot.keyClick(again.claim_panel.view, Qt.Key.Key_2)  # a verdict key opens it
    assert editor.body.isVisible() and editor.current().verdict is Verdict.PARTIAL
    editor.toggle.click()
    editor.toggle.click()  # shown again: remembered as shown


def test_search_field_is_left_with_esc_and_clear_filters(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    panel = window.claim_panel
    qtbot.keyClick(window, Qt.Key.Key_F, CTRL)
    assert focused() is panel.search
    qtbot.keyClicks(panel.search, "sparsity")
    qtbot.keyClick(panel.search, Qt.Key.Key_Escape)
    assert focused() is panel.view and panel.search.text() == "sparsity"  # the search stays, the keys leave
    shown = panel.visible_keys()
    qtbot.keyClick(panel.view, Qt.Key.Key_J)
    assert panel.search.text() == "sparsity" and panel.visible_keys() == shown
    qtbot.keyClick(window, Qt.Key.Key_F, CTRL)
    qtbot.keyClick(panel.search, Qt.Key.Key_F, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert focused() is panel.view and panel.search.text() == "" and panel.proxy.rowCount() == 4


def test_a_dialog_opens_after_another_was_closed(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    from reviewapp.qt.widgets.info_dialogs import ShortcutsDialog
    from reviewapp.qt.workers import alive

    window = open_window(demo_logbook)
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    first = window.dialog
    assert isinstance(first, ShortcutsDialog) and first.isVisible()
    qtbot.keyClick(first, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not alive(first))  # closed dialogs delete themselves
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key.Key_F1)  # raised "Internal C++ object already deleted" before
    second = window.dialog
    assert isinstance(second, ShortcutsDialog) and second is not first and second.isVisible()
    assert errors == []


def test_the_page_tree_scrolls_to_the_page_of_a_claim_far_down(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    draft = LogbookDraft("Reproduction: many pages")
    for n in range(1, 61):
        page = draft.page(f"Claim {n}: generated claim number {n}")
        page.markdown(f"> Claim {n} holds.\n\n**Verdict: VERIFIED.**", title="Claim")
    draft.write(tmp_path / "many")
    window = open_window(tmp_path / "many", size=(1100, 700))
    tree = window.page_tree
    assert window.select_claim(55)
    wait_idle(qtbot, window)
    index = tree.currentIndex()
    assert window.page_model.page_at(index).slug == window.current_claim.page
    assert tree.viewport().rect().contains(tree.visualRect(index))  # in view, not only selected off-screen
