"""Every window of the app, at a small laptop's size and a large screen's, in both themes, on a real-looking lab:
no action button or key column off screen, no text cut without an elision mark and a tool tip. The PNGs are kept
under test-artifacts/look/ (CI keeps that folder) to be looked at."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.pairs.study import study_from_files
from reviewapp.core.paper.gather import PaperRequest
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.qt import theme
from reviewapp.qt.app import Look, _place
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.window_kinds import RunningApp, WindowRequest
from reviewapp.qt.window_registry import window_named, window_names
from tests.qt.conftest import settle
from tests.qt.look_checks import look_problems
from tests.support.look_fixtures import Lab, write_lab

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "look"
SIZES = [(1100, 700), (1600, 1000)]  # a small laptop, a large screen
THEMES = [theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Lab:
    return write_lab(tmp_path_factory.mktemp("lab"))


def request_for(window: str, lab: Lab) -> WindowRequest:
    """What the command line would ask for each window (a new window adds its request here)."""
    if window == "review":
        return WindowRequest(source=str(lab.teams[0]), claim="2")
    if window in ("queue", "ranking", "score", "disagreements"):
        return WindowRequest(queue=lab.queue, annotator="Grace Hopper")
    if window in ("paper", "respond"):
        sources = [str(t) for t in [*lab.teams, lab.broken]]  # a broken column among them
        return WindowRequest(paper=PaperRequest(sources, None), annotator="Ann Author")
    if window == "pairs":
        logbook = read_logbook(lab.pairs)
        review = LogbookReview.open(logbook, Identity("Rita Rater", "command line"), "participant")
        return WindowRequest(pairs=(review, load_set(logbook, None)))
    if window == "study":
        return WindowRequest(study=study_from_files(lab.results))
    raise AssertionError(f"no request for the window {window!r}: add one")


@pytest.fixture
def made(qtbot: QtBot) -> Iterator[list[QWidget]]:
    widgets: list[QWidget] = []
    yield widgets
    for widget in widgets:
        widget.close()


@pytest.mark.parametrize("window", window_names())
def test_every_window_fits_and_shows_its_text(qtbot: QtBot, lab: Lab, made: list[QWidget], window: str) -> None:
    """Opened once, then looked at in each size and theme (as a person resizing it and switching the theme)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    first = SIZES[0]

    def make_main() -> MainWindow:
        main = MainWindow(LogbookController(), remember_state=False)
        main.review.ask_on_load = False
        made.append(main)
        main.resize(*first)
        main.show()
        return main

    running = RunningApp(app, make_main, time.monotonic() + 180)
    shown = window_named(window).factory(running, request_for(window, lab))
    made.append(shown.widget)
    _place(shown, Look(Path("unused.png"), first))
    running.wait(shown.ready, shown.problem)
    widget = shown.widget
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[str]] = {}
    for size in SIZES:
        for choice in THEMES:
            theme.manager().apply(choice)
            _place(shown, Look(Path("unused.png"), size))
            settle(12)
            name = f"{window}-{size[0]}x{size[1]}-{choice.value}"
            assert widget.grab().save(str(ARTIFACTS / f"{name}.png"))
            problems = look_problems(widget)
            if widget.width() > size[0] or widget.height() > size[1]:
                problems.append(f"the window is larger than the screen: {widget.width()}x{widget.height()}")
            if problems:
                found[name] = problems
    assert found == {}
