"""Screenshots of the review tools, from the real window (REVIEWAPP_SCREENSHOT_DIR keeps them to be looked at)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.review.identity_dialog import IdentityDialog
from reviewapp.qt.widgets.cell_cards import CodeCard
from tests.qt.conftest import QT_NOISE, OpenWindow, Screenshots, wait_idle
from tests.qt.review_helpers import fill_verdict, note_dialog, save, save_note, show_claim, trigger, written


@pytest.mark.qt_log_ignore(*QT_NOISE, "does not support raise", "does not support grabbing")  # offscreen popups
def test_review_tool_screenshots(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, screenshots: Screenshots
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 2)
    editor = fill_verdict(qtbot, window, Verdict.PARTIAL, "The 500-step run matches; the Triton kernel run failed.", 2)
    for tag in ("stopped too early", "scale below paper"):
        editor.tags.chips[tag].click()
    assert save(qtbot, editor)
    wait_idle(qtbot, window)
    screenshots.take(window, "11-verdict-editor")

    notes = window.review.notes
    [_, failing] = [c for c in window.evidence.cards if isinstance(c, CodeCard) and c.output is not None]
    notes.select_output_lines(failing, 2, 3)
    trigger(notes.output_menu(failing), "Add note on lines 2–3")
    dialog = note_dialog(qtbot, window)
    qtbot.keyClicks(dialog.text, "The kernel never compiled, so the 2x claim was never measured.")
    dialog.tags.chips["evidence missing"].click()
    screenshots.take(dialog, "12-note-editor")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    window.actions_by_name["add_note"].trigger()
    save_note(qtbot, window, "Timing includes the warm-up steps.", ("units mismatch",))
    window.side_tabs.setCurrentWidget(window.review.notes_panel)
    wait_idle(qtbot, window)
    screenshots.take(window, "13-notes-list")

    menu = window.review.corrections.menu()
    menu.popup(window.claim_panel.view.viewport().mapToGlobal(QPoint(60, 90)))
    qtbot.waitExposed(menu)
    screenshots.take(menu, "14-claim-list-menu", min_colors=4)
    menu.close()
    trigger(window.review.corrections.menu(), "Correct agent verdict")
    correction = window.review.dialog
    correction.verdict.setCurrentIndex(correction.verdict.findData(Verdict.PARTIAL))
    qtbot.keyClicks(correction.rationale, "The verdict section says partial; the reader took the title's word.")
    screenshots.take(correction, "15-correct-agent-verdict", min_colors=8)
    qtbot.mouseClick(correction.ok_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    screenshots.take(window, "16-corrected-claim")

    window.review.tools.ask_identity(change=True)
    assert isinstance(window.review.dialog, IdentityDialog)
    screenshots.take(window.review.dialog, "17-who-is-reviewing", min_colors=8)
    window.review.dialog.reject()

    theme.manager().apply(theme.ThemeChoice.DARK)
    show_claim(qtbot, window, 2)
    screenshots.take(window, "18-verdict-editor-dark")
