"""Qt test fixtures: the real review window over generated or corpus logbooks, waiting helpers, screenshots.

Qt warnings fail Qt tests (except the offscreen platform's own notice), so layout and painting mistakes show up.
Screenshots go to a temporary folder, or to REVIEWAPP_SCREENSHOT_DIR when set, to be looked at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.demo import write_demo
from reviewapp.core.review.preferences import Preferences, save_preferences
from reviewapp.qt import theme
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.main_window import MainWindow

QT_NOISE = ("This plugin does not support propagateSizeHints",)
LOAD_TIMEOUT_MS = 60_000
REVIEWER = "Rae Reviewer"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(*QT_NOISE))


@pytest.fixture(autouse=True)
def light_theme(qapp: QApplication) -> Iterator[None]:
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    yield
    theme.manager().apply(theme.ThemeChoice.LIGHT)


@pytest.fixture(autouse=True)
def reviewer(isolated_user_dirs: Path) -> str:
    """A reviewer already known from the preferences, so that opening a logbook never asks who is reviewing."""
    save_preferences(Preferences(annotator=REVIEWER, annotator_source="asked"))
    return REVIEWER


@pytest.fixture(scope="session")
def demo_logbook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-in demo, written once per test session (tests only read it)."""
    workspace = tmp_path_factory.mktemp("demo")
    write_demo(workspace)
    return workspace


@pytest.fixture
def demo_copy(tmp_path: Path) -> Path:
    """A demo logbook of the test's own, to write reviews into."""
    write_demo(tmp_path / "demo")
    return tmp_path / "demo"


OpenWindow = Callable[..., MainWindow]


@pytest.fixture
def open_window(qtbot: QtBot) -> Iterator[OpenWindow]:
    """open_window(source=None, size=(1600, 1000)) -> a shown MainWindow with the logbook loaded and rendered."""
    windows: list[MainWindow] = []

    def factory(source: Path | None = None, size: tuple[int, int] = (1600, 1000), wait: bool = True) -> MainWindow:
        controller = LogbookController()
        window = MainWindow(controller)
        qtbot.addWidget(window)
        windows.append(window)
        window.resize(*size)
        window.show()
        with qtbot.waitSignal(controller.loaded, timeout=LOAD_TIMEOUT_MS, raising=wait):
            if source is None:
                controller.open_demo()
            else:
                controller.open(source)
        if wait:
            wait_idle(qtbot, window)
        return window

    yield factory
    for window in windows:
        window.close()


def wait_idle(qtbot: QtBot, window: MainWindow, timeout: int = LOAD_TIMEOUT_MS) -> None:
    """Wait until nothing loads, decodes or builds, then let layout requests cascade up (one level per turn)."""
    qtbot.waitUntil(window.is_idle, timeout=timeout)
    settle()


def settle(turns: int = 8) -> None:
    for _ in range(turns):
        QApplication.processEvents()


class Screenshots:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.taken: list[Path] = []

    def take(self, widget: QWidget, name: str, min_colors: int = 40) -> Path:
        settle()
        path = self.folder / f"{name}.png"
        image = widget.grab().toImage()
        assert image.save(str(path)), path
        assert distinct_colors(image) > min_colors, f"{name}: the screenshot is nearly blank"
        self.taken.append(path)
        return path


def distinct_colors(image: QImage, step: int = 7) -> int:
    seen: set[int] = set()
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            seen.add(image.pixel(x, y))
    return len(seen)


@pytest.fixture
def screenshots(tmp_path: Path) -> Screenshots:
    keep = os.environ.get("REVIEWAPP_SCREENSHOT_DIR")
    return Screenshots(Path(keep) if keep else tmp_path / "screenshots")
