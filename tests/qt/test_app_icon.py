"""The application icon: PNG sizes rendered from the SVG, kept in step with it, and shown by the window."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from reviewapp.qt.resources import ICON_SIZES, resource
from tests.qt.conftest import OpenWindow

REPO = Path(__file__).resolve().parents[2]


def test_committed_pngs_match_the_svg() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "packaging" / "render_icons.py"), "--check"],
        capture_output=True,
        text=True,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_every_size_is_a_square_png_with_the_icon_drawn() -> None:
    for size in ICON_SIZES:
        image = QImage(str(resource("icons", f"reviewapp-{size}.png")))
        assert (image.width(), image.height()) == (size, size)
        corner, middle = image.pixelColor(0, 0), image.pixelColor(size // 2, size // 2)
        assert corner.alpha() == 0  # rounded corners stay transparent on any desktop background
        assert middle.alpha() == 255


def test_the_window_offers_every_png_size(open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    icon = window.windowIcon()
    assert {QSize(s, s) for s in ICON_SIZES} <= set(icon.availableSizes())
    # a desktop asking for 48 px gets the 48 px drawing, not a scaled-down 512 px one
    shown = icon.pixmap(48, 48).toImage()
    assert shown == QImage(str(resource("icons", "reviewapp-48.png"))).convertToFormat(shown.format())
