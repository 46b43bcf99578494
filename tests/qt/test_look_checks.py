"""The look test's eye: a text cut without an elision mark and a tool tip is seen, in a plain layout and inside a
scroll area alike; a label that elides itself, whole in its tool tip, is not a problem."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QScrollArea, QSizePolicy, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.qt.plain import ElidedLabel, PlainLabel
from tests.qt.conftest import settle
from tests.qt.look_checks import look_problems

SENTENCE = "No verdict from you yet, and a sentence long enough to be cut at this width."


def window_with(qtbot: QtBot, label: PlainLabel, *, scrolled: bool) -> QWidget:
    window = QWidget()
    qtbot.addWidget(window)
    outer = QVBoxLayout(window)
    holder = QWidget()
    row = QHBoxLayout(holder)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # gives way, as in a strip
    row.addWidget(label, 1)
    if scrolled:
        area = QScrollArea(window)
        area.setWidgetResizable(True)
        area.setWidget(holder)
        outer.addWidget(area)
    else:
        outer.addWidget(holder)
    window.resize(160, 120)
    window.show()
    settle(4)
    return window


def test_a_plain_label_cut_short_is_a_problem_in_a_layout_and_in_a_scroll_area(qtbot: QtBot) -> None:
    for scrolled in (False, True):
        window = window_with(qtbot, PlainLabel(SENTENCE), scrolled=scrolled)
        problems = look_problems(window)
        assert any("cut without an elision mark and a tool tip" in p for p in problems), (scrolled, problems)


def test_a_label_that_elides_itself_shows_the_mark_and_the_whole_text_in_its_tool_tip(qtbot: QtBot) -> None:
    label = ElidedLabel(SENTENCE, None, Qt.TextElideMode.ElideRight)
    label.setToolTip("<qt>Other reviewers: one</qt>")
    window = window_with(qtbot, label, scrolled=True)
    assert label.shown_text().endswith("…") and label.shown_text() != SENTENCE
    assert SENTENCE.split(",")[0] in label.toolTip() and "Other reviewers: one" in label.toolTip()
    assert look_problems(window) == []
    window.resize(900, 120)
    settle(4)
    assert label.shown_text() == SENTENCE
    assert label.toolTip() == "<qt>Other reviewers: one</qt>"  # whole on screen: only what the caller said


def test_a_short_text_that_fits_is_no_problem(qtbot: QtBot) -> None:
    window = window_with(qtbot, PlainLabel("Saved"), scrolled=False)
    assert look_problems(window) == []


def test_a_button_too_narrow_for_its_text_is_seen_inside_a_scroll_area_and_an_eliding_one_is_not(
    qtbot: QtBot,
) -> None:
    from PySide6.QtWidgets import QPushButton

    from reviewapp.qt.plain import ElidedButton

    for make_eliding in (False, True):
        window = QWidget()
        qtbot.addWidget(window)
        area = QScrollArea(window)
        area.setWidgetResizable(True)
        holder = QWidget()
        row = QHBoxLayout(holder)
        if make_eliding:
            button: QPushButton = ElidedButton(holder)
            button.set_full_text(f"on page “{SENTENCE}”", "Show the whole page")
        else:
            button = QPushButton(f"on page “{SENTENCE}”", holder)
        button.setMinimumWidth(60)
        button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        row.addWidget(button)
        area.setWidget(holder)
        QVBoxLayout(window).addWidget(area)
        window.resize(220, 100)
        window.show()
        settle(4)
        problems = look_problems(window)
        if make_eliding:
            assert problems == [] and button.text().endswith("…")
            assert SENTENCE.split(",")[0] in button.toolTip() and "Show the whole page" in button.toolTip()
        else:
            assert any("too narrow for its text" in p for p in problems), problems
