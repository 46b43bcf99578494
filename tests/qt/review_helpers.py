"""Driving the review tools of the real window like a reviewer: the verdict editor, note dialogs, menus."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar, cast

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.review.note_dialog import NoteDialog
from reviewapp.qt.review.verdict_editor import VerdictEditor
from reviewapp.qt.workers import alive
from tests.qt.conftest import wait_idle

T = TypeVar("T")


def act(qtbot: QtBot, review: LogbookController, do: Callable[[LogbookReview], T]) -> T:
    """Run one action on the write lane and wait until it is done; its result, or the refusal raised."""
    outcome: list[tuple[bool, object]] = []
    review.submit(do, lambda result: outcome.append((True, result)), lambda exc: outcome.append((False, exc)))
    qtbot.waitUntil(lambda: bool(outcome))
    [(done, value)] = outcome
    if not done:
        assert isinstance(value, BaseException)
        raise value
    return cast(T, value)


def save(qtbot: QtBot, editor: VerdictEditor) -> bool:
    """Save the editor's verdict and wait for the write lane: True once it is on disk, False when refused."""
    outcome: list[bool] = []
    editor.save_finished.connect(outcome.append)
    try:
        if not editor.save():
            return False
        qtbot.waitUntil(lambda: bool(outcome))
    finally:
        editor.save_finished.disconnect(outcome.append)
    return outcome[0]


def written(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until every write the review window started (a key, a click) is done and told."""
    qtbot.waitUntil(lambda: not window.controller.writing)


def records(window: MainWindow) -> list[dict]:
    """The reviewer's annotation file, line by line, as it is on disk."""
    file = window.controller.file()
    assert file is not None
    return [json.loads(line) for line in file.read_bytes().splitlines()] if file.exists() else []


def show_claim(qtbot: QtBot, window: MainWindow, ref: str | int) -> None:
    assert window.select_claim(ref)
    wait_idle(qtbot, window)


def fill_verdict(qtbot: QtBot, window: MainWindow, verdict: Verdict, rationale: str, confidence: int | None = None):
    editor = window.review.editor
    qtbot.mouseClick(editor.verdict_buttons[verdict], Qt.MouseButton.LeftButton)
    editor.rationale.clear()
    qtbot.keyClicks(editor.rationale, rationale)
    if confidence is not None:
        qtbot.mouseClick(editor.confidence_buttons[confidence], Qt.MouseButton.LeftButton)
    return editor


def note_dialog(qtbot: QtBot, window: MainWindow) -> NoteDialog:
    """The note dialog, once the write lane checked its anchor and it opened."""
    qtbot.waitUntil(lambda: isinstance(window.review.dialog, NoteDialog) and alive(window.review.dialog))
    dialog = window.review.dialog
    assert isinstance(dialog, NoteDialog)
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def save_note(qtbot: QtBot, window: MainWindow, text: str, tags: tuple[str, ...] = ()) -> dict:
    """Type into the note dialog (opened once the lane checked its anchor), save, and return the record that landed
    on disk (the dialog closes once it is there)."""
    dialog = note_dialog(qtbot, window)
    before = len(records(window))
    qtbot.keyClicks(dialog.text, text)
    for tag in tags:
        dialog.tags.chips[tag].click()
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not alive(dialog) or not dialog.isVisible() or dialog.error.isVisible())
    assert not alive(dialog) or not dialog.isVisible(), dialog.error.text()
    qtbot.waitUntil(lambda: not alive(dialog))  # deleted on close: the next note_dialog is a new one
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
