"""Handing things to the system: links from logbook content, folders, web pages. Only ever on a user's click."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from reviewapp.core.logbook.link_targets import LinkKind, LinkTarget

# Files a click may open directly (viewers, not programs); anything else opens its folder instead.
OPENABLE = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg", ".pdf", ".txt", ".md", ".csv", ".json"})


def system_url(target: LinkTarget) -> QUrl | None:
    """What the system should open for a clicked link to the web or to a file in the logbook; None otherwise."""
    if target.kind is LinkKind.WEB:
        return QUrl(target.href)
    if target.kind is LinkKind.FILE and target.path is not None:
        path = target.path if target.path.suffix.lower() in OPENABLE else target.path.parent
        return QUrl.fromLocalFile(str(path))
    return None


def open_with_system(url: QUrl) -> bool:
    return QDesktopServices.openUrl(url)


def display_path(path: Path) -> str:
    home = Path.home()
    return "~/" + str(path.relative_to(home)) if path.is_relative_to(home) else str(path)
