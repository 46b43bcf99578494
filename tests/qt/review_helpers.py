"""Driving the review tools of the real window like a reviewer: the verdict editor, note dialogs, menus."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from reviewapp.core.verdicts import Verdict
from reviewapp.qt.annotations.note_dialog import NoteDialog
from reviewapp.qt.main_window import MainWindow
from tests.qt.conftest import wait_idle


def records(window: MainWindow) -> list[dict]:
    """The reviewer's annotation file, line by line, as it is on disk."""
    file = window.controller.review.file()
    assert file is not None
    return [json.loads(line) for line in file.read_bytes().splitlines()] if file.exists() else []


def show_claim(qtbot: QtBot, window: MainWindow, n: int) -> None:
    assert window.select_claim(n)
    wait_idle(qtbot, window)


def fill_verdict(qtbot: QtBot, window: MainWindow, verdict: Verdict, rationale: str, confidence: int | None = None):
    editor = window.review.editor
    qtbot.mouseClick(editor.verdict_buttons[verdict], Qt.MouseButton.LeftButton)
    editor.rationale.clear()
    qtbot.keyClicks(editor.rationale, rationale)
    if confidence is not None:
        qtbot.mouseClick(editor.confidence_buttons[confidence], Qt.MouseButton.LeftButton)
    return editor


def save_note(qtbot: QtBot, window: MainWindow, text: str, tags: tuple[str, ...] = ()) -> dict:
    """Type into the open note dialog, save, and return the record that landed on disk."""
    dialog = window.review.dialog
    assert isinstance(dialog, NoteDialog) and dialog.isVisible()
    before = len(records(window))
    qtbot.keyClicks(dialog.text, text)
    for tag in tags:
        dialog.tags.chips[tag].click()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible(), dialog.error.text()
    written = records(window)
    assert len(written) == before + 1
    return written[-1]


def trigger(menu: QMenu, text: str) -> None:
    """Trigger the menu entry whose text starts with `text` (menus are built, not shown, so nothing blocks)."""
    for action in menu.actions():
        if action.text().replace("&&", "&").startswith(text):
            assert action.isEnabled(), text
            action.trigger()
            return
        if action.menu() is not None and action.text().startswith(text.split(" › ")[0]) and " › " in text:
            trigger(action.menu(), text.split(" › ", 1)[1])
            return
    raise AssertionError(f"no menu entry {text!r} in {[a.text() for a in menu.actions()]}")
