"""The one place that knows where resources/ lives: reviewapp/resources in a wheel, ./resources in a checkout,
<bundle>/reviewapp/resources in the desktop bundle."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon

_PACKAGE = Path(__file__).resolve().parents[1]
# Rendered from reviewapp.svg by packaging/render_icons.py; the same files go into the desktop's icon theme.
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


@functools.cache
def resources_dir() -> Path:
    candidates = [_PACKAGE / "resources", _PACKAGE.parent / "resources"]
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.insert(0, Path(frozen) / "reviewapp" / "resources")
    for candidate in candidates:
        if (candidate / "styles").is_dir():
            return candidate
    raise FileNotFoundError("reviewapp resources not found; looked in " + ", ".join(map(str, candidates)))


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def read_text(*parts: str) -> str:
    return resource(*parts).read_text(encoding="utf-8")


def app_icon() -> QIcon:
    """The application icon from the PNG sizes rendered from the SVG (crisp at every size a desktop asks for)."""
    from PySide6.QtGui import QIcon

    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(resource("icons", f"reviewapp-{size}.png")))
    return icon
