"""Light and dark themes: Fusion, a palette, and the style sheet template filled with the theme's colours.

The theme follows the system colour scheme (and its changes) unless REVIEWAPP_THEME=light|dark says otherwise
(screenshots, tests) or the user picks one from View > Theme until the app quits.
"""

from __future__ import annotations

import os
import re
from dataclasses import asdict, dataclass
from enum import StrEnum

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from reviewapp.core.verdicts import Verdict
from reviewapp.qt.resources import read_text


class ThemeChoice(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


@dataclass(frozen=True)
class Colors:
    dark: bool
    window: str
    panel: str
    base: str
    card: str
    card_header: str
    border: str
    text: str
    muted: str
    accent: str
    accent_text: str
    selection: str
    selection_text: str
    highlight: str  # background of the verdict statement in evidence
    search_hit: str
    code_bg: str
    code_text: str
    link: str
    warning: str
    error: str
    ok: str
    kw: str  # syntax colours
    string: str
    comment: str
    number: str


LIGHT = Colors(
    dark=False,
    window="#eef1f5",
    panel="#f7f8fa",
    base="#ffffff",
    card="#ffffff",
    card_header="#f6f8fb",
    border="#d5dbe3",
    text="#1d2630",
    muted="#637083",
    accent="#2f5d8a",
    accent_text="#ffffff",
    selection="#d7e6f7",
    selection_text="#10243a",
    highlight="#fff0a8",
    search_hit="#cfe8ff",
    code_bg="#f4f6f9",
    code_text="#1f2933",
    link="#1f63b6",
    warning="#c77700",
    error="#c62828",
    ok="#2e7d32",
    kw="#7b3fa0",
    string="#2e7d32",
    comment="#8a94a3",
    number="#b05a00",
)

DARK = Colors(
    dark=True,
    window="#1b1f24",
    panel="#20252b",
    base="#171a1f",
    card="#22272e",
    card_header="#272d35",
    border="#363e48",
    text="#dde3ea",
    muted="#9aa5b3",
    accent="#5d9be0",
    accent_text="#0e1620",
    selection="#2c4a6b",
    selection_text="#eef5ff",
    highlight="#6b5b16",
    search_hit="#1f4e74",
    code_bg="#1a1e24",
    code_text="#d7dde4",
    link="#79b4ff",
    warning="#f0a93b",
    error="#ef6b6b",
    ok="#6cc070",
    kw="#d19df0",
    string="#8fd18a",
    comment="#7d8794",
    number="#f2b46b",
)

_VERDICT_LIGHT = {
    Verdict.VERIFIED: "#2e7d32",
    Verdict.PARTIAL: "#b26a00",
    Verdict.FALSIFIED: "#c62828",
    Verdict.TOY: "#7b3fa0",
    Verdict.INCONCLUSIVE: "#546e7a",
    Verdict.UNSTATED: "#9aa3ad",
}
_VERDICT_DARK = {
    Verdict.VERIFIED: "#5cb860",
    Verdict.PARTIAL: "#e6a23c",
    Verdict.FALSIFIED: "#ef5f5f",
    Verdict.TOY: "#b98ee0",
    Verdict.INCONCLUSIVE: "#8ea4b0",
    Verdict.UNSTATED: "#6b7580",
}


class ThemeManager(QObject):
    """Holds the active colours; `changed` fires after a switch so that painted widgets can refresh."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.choice = _initial_choice()
        self.colors = LIGHT

    def apply(self, choice: ThemeChoice | None = None) -> None:
        if choice is not None:
            self.choice = choice
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        self.colors = DARK if self._want_dark() else LIGHT
        app.setStyle("Fusion")
        app.setPalette(build_palette(self.colors))
        app.setStyleSheet(style_sheet(self.colors))
        self.changed.emit()

    def follow_system(self) -> None:
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_changed)

    def _system_changed(self) -> None:
        if self.choice is ThemeChoice.SYSTEM:
            self.apply()

    def _want_dark(self) -> bool:
        return wants_dark(self.choice, QGuiApplication.styleHints().colorScheme())


def wants_dark(choice: ThemeChoice, system: Qt.ColorScheme) -> bool:
    """Dark when chosen, or when following a system that says dark (an unknown scheme counts as light)."""
    if choice is ThemeChoice.SYSTEM:
        return system == Qt.ColorScheme.Dark
    return choice is ThemeChoice.DARK


def _initial_choice() -> ThemeChoice:
    value = os.environ.get("REVIEWAPP_THEME", "").strip().lower()
    return ThemeChoice(value) if value in {c.value for c in ThemeChoice} else ThemeChoice.SYSTEM


_manager: ThemeManager | None = None


def manager() -> ThemeManager:
    global _manager
    if _manager is None:
        _manager = ThemeManager()
    return _manager


def colors() -> Colors:
    return manager().colors


def verdict_color(verdict: Verdict) -> QColor:
    table = _VERDICT_DARK if colors().dark else _VERDICT_LIGHT
    return QColor(table[verdict])


def build_palette(c: Colors) -> QPalette:
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: c.window,
        QPalette.ColorRole.WindowText: c.text,
        QPalette.ColorRole.Base: c.base,
        QPalette.ColorRole.AlternateBase: c.panel,
        QPalette.ColorRole.Text: c.text,
        QPalette.ColorRole.Button: c.panel,
        QPalette.ColorRole.ButtonText: c.text,
        QPalette.ColorRole.Highlight: c.selection,
        QPalette.ColorRole.HighlightedText: c.selection_text,
        QPalette.ColorRole.ToolTipBase: c.card,
        QPalette.ColorRole.ToolTipText: c.text,
        QPalette.ColorRole.PlaceholderText: c.muted,
        QPalette.ColorRole.Link: c.link,
        QPalette.ColorRole.Mid: c.border,
    }
    for role, value in roles.items():
        palette.setColor(role, QColor(value))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(c.muted))
    return palette


def style_sheet(c: Colors) -> str:
    values = {k: str(v) for k, v in asdict(c).items()}
    return re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: values[m.group(1)], read_text("styles", "app.qss"))
