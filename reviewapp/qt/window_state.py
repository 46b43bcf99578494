"""Window geometry, splitter sizes and pane visibility between runs (QSettings, in the config folder)."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from reviewapp.core.io.paths import user_config_dir

SETTINGS_FILE = "window.ini"


def settings() -> QSettings:
    """An INI file in the config folder (REVIEWAPP_CONFIG_DIR in tests), never the platform registry."""
    return QSettings(str(user_config_dir() / SETTINGS_FILE), QSettings.Format.IniFormat)


def save_window(window: QMainWindow, splitters: list[QSplitter], panes: list[QWidget]) -> None:
    store = settings()
    store.setValue("window/geometry", window.saveGeometry())
    for splitter in splitters:
        store.setValue(f"splitters/{splitter.objectName()}", splitter.saveState())
    for pane in panes:
        store.setValue(f"panes/{pane.objectName()}", not pane.isHidden())
    store.sync()


def restore_window(window: QMainWindow, splitters: list[QSplitter], panes: list[QWidget]) -> bool:
    """Apply what was saved; False when nothing was (first start: the caller picks a default size)."""
    store = settings()
    geometry = store.value("window/geometry")
    if isinstance(geometry, QByteArray):
        window.restoreGeometry(geometry)
    for splitter in splitters:
        state = store.value(f"splitters/{splitter.objectName()}")
        if isinstance(state, QByteArray):
            splitter.restoreState(state)
    for pane in panes:
        visible = store.value(f"panes/{pane.objectName()}")
        if visible is not None:
            pane.setVisible(str(visible).lower() == "true")
    return isinstance(geometry, QByteArray)
