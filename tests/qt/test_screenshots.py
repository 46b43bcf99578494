"""Screenshots of the main states, taken from the real window (look at them: REVIEWAPP_SCREENSHOT_DIR keeps them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from reviewapp.qt import theme
from reviewapp.qt.widgets.figure_card import FigureCard
from reviewapp.qt.widgets.image_viewer import ZoomDialog
from tests.qt.conftest import OpenWindow, Screenshots, distinct_colors, wait_idle

REPO = Path(__file__).resolve().parents[2]


def test_main_states(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path, screenshots: Screenshots) -> None:
    window = open_window(demo_logbook)
    screenshots.take(window, "01-demo-overview")

    assert window.select_claim(2)
    wait_idle(qtbot, window)
    screenshots.take(window, "02-claim-with-run-output")

    assert window.select_claim(1)
    wait_idle(qtbot, window)
    [figure_card] = [c for c in window.evidence.cards if isinstance(c, FigureCard)]
    qtbot.mouseClick(figure_card.figures[0], Qt.MouseButton.LeftButton)
    assert isinstance(window.dialog, ZoomDialog)
    window.dialog.resize(900, 560)
    screenshots.take(window.dialog, "03-figure-zoom", min_colors=8)
    window.dialog.close()

    window.excerpts.view.setCurrentIndex(window.excerpts.model.index(2))
    qtbot.mouseClick(window.excerpts.jump, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.timeline.view.currentIndex().isValid())
    screenshots.take(window, "04-trace-timeline")

    window.side_tabs.setCurrentWidget(window.artifacts)
    window.artifacts.select_row(2)
    qtbot.waitUntil(lambda: window.artifacts.preview.image is not None)
    screenshots.take(window, "05-artifacts-preview")

    window.claim_panel.disagreement_toggle.setChecked(True)
    wait_idle(qtbot, window)
    screenshots.take(window, "06-filter-disagreements")
    window.claim_panel.clear_filters()

    theme.manager().apply(theme.ThemeChoice.DARK)
    wait_idle(qtbot, window)
    shot = screenshots.take(window, "07-dark-theme")
    assert QImage(str(shot)).pixelColor(5, 500).lightness() < 80  # the window background really is dark


def test_corpus_logbook_screenshot(
    qtbot: QtBot, open_window: OpenWindow, corpus: Path, screenshots: Screenshots
) -> None:
    window = open_window(corpus / "will-rice__icml-2026-reproductions__nape")
    assert window.select_claim(4)
    wait_idle(qtbot, window)
    screenshots.take(window, "08-corpus-nape-claim-4")
    window2 = open_window(corpus / "Auenchanters__ICML-2026")
    assert window2.select_claim(1)
    wait_idle(qtbot, window2)
    screenshots.take(window2, "09-corpus-plotly-figures")


def test_screenshot_command_writes_the_window(tmp_path: Path, demo_logbook: Path) -> None:
    out = tmp_path / "shot.png"
    result = subprocess.run(
        [sys.executable, "-m", "reviewapp", "open", str(demo_logbook), "--screenshot", str(out), "--claim", "2",
         "--size", "1200x800"],
        cwd=REPO, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 800)
    assert distinct_colors(image) > 40


def test_screenshot_command_rejects_an_unknown_claim(tmp_path: Path, demo_logbook: Path) -> None:
    out = tmp_path / "shot.png"
    result = subprocess.run(
        [sys.executable, "-m", "reviewapp", "open", str(demo_logbook), "--screenshot", str(out), "--claim", "99"],
        cwd=REPO, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert result.returncode == 2
    assert "no claim '99'" in result.stderr
    assert not out.exists()
