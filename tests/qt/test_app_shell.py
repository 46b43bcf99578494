"""The application shell: crash handling, themes that follow the system, resources found in the checkout."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.qt import crash, theme
from reviewapp.qt.resources import resource
from reviewapp.qt.widgets.figure_card import FigureCard
from tests.qt.conftest import OpenWindow


@pytest.fixture
def restored_hooks() -> Iterator[None]:
    saved, saved_thread, handlers = sys.excepthook, threading.excepthook, list(logging.getLogger().handlers)
    yield
    sys.excepthook, threading.excepthook = saved, saved_thread
    for handler in logging.getLogger().handlers:
        if handler not in handlers:
            logging.getLogger().removeHandler(handler)
            handler.close()


def test_unhandled_errors_are_logged_and_shown(qtbot: QtBot, restored_hooks: None) -> None:
    crash.setup_logging()
    crash.install_excepthook()
    try:
        raise RuntimeError("the figure decoder tripped")
    except RuntimeError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)

    def shown() -> list[crash.CrashDialog]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, crash.CrashDialog) and w.isVisible()]

    qtbot.waitUntil(lambda: bool(shown()))
    [box] = shown()
    assert box.summary.text() == "RuntimeError: the figure decoder tripped"
    assert "Traceback" in box.report and str(crash.log_file()) in box.explanation.text()
    assert "the figure decoder tripped" in crash.log_file().read_text(encoding="utf-8")
    box.close()


@pytest.mark.parametrize(
    ("choice", "system", "dark"),
    [
        (theme.ThemeChoice.SYSTEM, Qt.ColorScheme.Dark, True),
        (theme.ThemeChoice.SYSTEM, Qt.ColorScheme.Light, False),
        (theme.ThemeChoice.SYSTEM, Qt.ColorScheme.Unknown, False),
        (theme.ThemeChoice.LIGHT, Qt.ColorScheme.Dark, False),
        (theme.ThemeChoice.DARK, Qt.ColorScheme.Light, True),
    ],
)
def test_theme_follows_the_system_unless_chosen(choice: theme.ThemeChoice, system: Qt.ColorScheme, dark: bool) -> None:
    assert theme.wants_dark(choice, system) is dark


def test_switching_theme_repaints_with_the_new_palette(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    with qtbot.waitSignal(theme.manager().changed):
        window.actions_by_name["theme_dark"].trigger()
    assert theme.manager().colors.dark and QApplication.palette().window().color().lightness() < 80
    assert window.actions_by_name["theme_dark"].isChecked()
    with qtbot.waitSignal(theme.manager().changed):
        window.actions_by_name["theme_light"].trigger()
    assert QApplication.palette().window().color().lightness() > 200


def test_style_sheet_template_is_complete_for_both_themes() -> None:
    assert resource("styles", "app.qss").is_file() and resource("icons", "reviewapp.svg").is_file()
    for colors in (theme.LIGHT, theme.DARK):
        sheet = theme.style_sheet(colors)
        assert "{{" not in sheet and colors.accent in sheet


def test_inline_svg_figures_render_only_when_self_contained(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    draft = LogbookDraft("SVG")
    page = draft.page("Claim 1: Vector figures")
    page.figure_html('<svg width="120" height="60"><rect width="120" height="60" fill="#336699"/></svg>', "Plain")
    page.figure_html('<svg width="10" height="10"><image href="file:///etc/passwd"/></svg>', "Referring out")
    window = open_window(draft.write(tmp_path))
    plain, referring = (c for c in window.evidence.cards if isinstance(c, FigureCard))
    [image] = plain.figures
    assert image.image is not None and (image.image.width(), image.image.height()) == (120, 60)
    assert image.image.pixelColor(60, 30).name() == "#336699"
    [refused] = referring.figures
    assert refused.image is None and "refers to content outside itself" in refused.text()
