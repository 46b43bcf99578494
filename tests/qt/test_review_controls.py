"""What a judge sees of the controls: a focus ring wherever the keys are, checked toggles in either theme, and the
pair window's answer buttons and counter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import PairRatingRecord, parse_line
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.pairs import PairRatingWindow
from tests.qt.conftest import OpenWindow, Screenshots, settle
from tests.support.pair_fixtures import open_annotations, write_pair_logbook

TIMEOUT = 20_000


def picture(widget: QWidget) -> QImage:
    settle()
    return widget.grab().toImage()


def focus(qtbot: QtBot, widget: QWidget) -> None:
    widget.window().activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is widget.window())
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(widget.hasFocus)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_focus_ring_shows_where_the_keys_go(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, dark: bool
) -> None:
    theme.manager().apply(theme.ThemeChoice.DARK if dark else theme.ThemeChoice.LIGHT)
    window = open_window(demo_copy)
    editor = window.review.editor
    accent = theme.colors().accent
    partial = editor.verdict_buttons[Verdict.PARTIAL]
    checked = editor.verdict_buttons[Verdict.TOY]
    checked.click()  # the ring must show on a checked verdict's colour too
    editor.rationale.setPlainText("Checked the runs.")  # so that Save can take focus
    targets = [partial, checked, editor.save_button, editor.rationale, window.claim_panel.view, editor.toggle]
    for widget in targets:
        focus(qtbot, window.claim_panel.search)
        before = picture(widget)
        focus(qtbot, widget)
        after = picture(widget)
        assert before != after, f"{widget.objectName() or type(widget).__name__}: focus changes nothing on screen"
        edge = after.pixelColor(1, after.height() // 2)
        if widget not in (checked, editor.save_button):  # those are filled: their ring is in the text colour
            assert edge.name() == accent, f"{widget.objectName()}: the ring is {edge.name()}, not the accent colour"


@pytest.fixture
def pair_windows(qtbot: QtBot) -> Iterator[list[PairRatingWindow]]:
    opened: list[PairRatingWindow] = []
    yield opened
    for window in opened:
        window.close()


def open_pairs(qtbot: QtBot, opened: list, workspace: Path) -> PairRatingWindow:
    window = PairRatingWindow.for_set(open_annotations(workspace, "Rita Rater"), "test")
    qtbot.addWidget(window)
    opened.append(window)
    window.resize(1300, 820)
    window.show()
    qtbot.waitExposed(window)
    qtbot.waitUntil(lambda: (window.rating.complete and not window.writing) or window.can_answer, timeout=TIMEOUT)
    return window


def test_pair_window_answers_with_the_mouse_and_counts_plainly(
    qtbot: QtBot, pair_windows: list, tmp_path: Path
) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 3)
    window = open_pairs(qtbot, pair_windows, workspace)
    total = len(window.rating.trials)
    reviews = workspace / ".trackio" / "logbook" / "reviews" / "rita-rater.jsonl"
    answers = ["left", "same", "right"]
    for n in range(total):
        assert window.progress.text().startswith(f"Pair {n + 1} of {total}")
        trial = window.rating.current
        assert trial is not None
        qtbot.mouseClick(window.answer_buttons[answers[n % 3]], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: (window.rating.complete and not window.writing) or window.can_answer, timeout=TIMEOUT)
        saved = parse_line(reviews.read_bytes().splitlines()[-1])
        assert isinstance(saved, PairRatingRecord) and saved.payload.trial == trial.index
        assert saved.payload.response == answers[n % 3]
    assert window.progress.text() == f"All {total} pairs rated"  # not "Pair all rated"
    assert not any(b.isEnabled() for b in window.answer_buttons.values())
    assert all(b.focusPolicy() == Qt.FocusPolicy.NoFocus for b in window.answer_buttons.values())


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_pair_window_toggles_show_their_checked_state(
    qtbot: QtBot, pair_windows: list, tmp_path: Path, dark: bool
) -> None:
    theme.manager().apply(theme.ThemeChoice.DARK if dark else theme.ThemeChoice.LIGHT)
    window = open_pairs(qtbot, pair_windows, write_pair_logbook(tmp_path / "ws", 2))
    button = window.left_unusable_button
    off = picture(button)
    qtbot.keyClick(window, Qt.Key.Key_Q)
    assert button.isChecked()
    on = picture(button)
    middle = (on.width() // 2, 3)  # inside the border, clear of the text
    assert on.pixelColor(*middle).name() == theme.colors().accent != off.pixelColor(*middle).name()


def test_at_1100x700_every_tab_shows_and_no_tag_chip_overlaps(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy, size=(1100, 700))
    bar = window.side_tabs.tabBar()
    assert bar.count() >= 4
    assert all(bar.tabRect(i).right() <= bar.width() for i in range(bar.count())), "a tab is scrolled out of view"
    assert all(bar.tabRect(i).width() > 30 for i in range(bar.count()))
    editor = window.review.editor
    window.claim_panel.view.setFocus()
    qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_2)
    settle()
    chips = [c for c in editor.tags.chips.values() if c.isVisible()] + [editor.tags.new_tag]
    boxes = [c.geometry() for c in chips]
    for i, a in enumerate(boxes):
        assert editor.tags.rect().contains(a), chips[i].text()
        for j, b in enumerate(boxes[i + 1 :], start=i + 1):
            assert not a.intersects(b), (chips[i].text(), getattr(chips[j], "text", lambda: "")())


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_pace_screenshots(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, screenshots: Screenshots, pair_windows: list, dark: bool
) -> None:
    """The claim header with other reviewers' verdicts, a verdict chosen by key, 1100x700, the pair window."""
    mode = "dark" if dark else "light"
    theme.manager().apply(theme.ThemeChoice.DARK if dark else theme.ThemeChoice.LIGHT)
    logbook = read_logbook(demo_copy)
    LogbookReview.open(logbook, Identity("Ola Other", "asked")).set_verdict(1, "toy", "Tiny model only.")
    LogbookReview.open(logbook, Identity("Pat Peer", "asked")).set_verdict(1, "partial", "Two of three runs.")
    for size in ((1600, 1000), (1100, 700)):
        window = open_window(demo_copy, size=size)
        window.claim_panel.view.setFocus()
        qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_2)
        window.review.editor.tags.chips["units mismatch"].click()
        assert window.review.editor.summary.text().startswith("Chosen: PARTIAL")
        screenshots.take(window.evidence.header, f"pace-claim-header-{size[0]}-{mode}")
        screenshots.take(window, f"pace-window-{size[0]}x{size[1]}-{mode}")
        window.close()
    pairs = open_pairs(qtbot, pair_windows, write_pair_logbook(demo_copy.parent / "pairs", 2))
    qtbot.keyClick(pairs, Qt.Key.Key_Q)
    qtbot.keyClick(pairs, Qt.Key.Key_F)
    screenshots.take(pairs, f"pace-pair-window-{mode}")
