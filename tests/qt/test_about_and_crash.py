"""Help > About and the crash dialog: what they tell, the report they copy, and how they look in both themes."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, qVersion
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit
from pytestqt.qtbot import QtBot

from reviewapp import __version__
from reviewapp.qt import crash, theme
from reviewapp.qt.widgets.about_dialog import AboutDialog
from tests.qt.conftest import OpenWindow, Screenshots, settle

FAKE_TOKEN = "hf_" + "Q" * 8 + "abcdefghijklmnopqrstu123"


@pytest.fixture
def restored_hooks() -> Iterator[None]:
    saved, saved_thread, handlers = sys.excepthook, threading.excepthook, list(logging.getLogger().handlers)
    yield
    sys.excepthook, threading.excepthook = saved, saved_thread
    for handler in logging.getLogger().handlers:
        if handler not in handlers:
            logging.getLogger().removeHandler(handler)
            handler.close()


def labels(widget: AboutDialog | crash.CrashDialog) -> str:
    return "\n".join(label.text() for label in widget.findChildren(QLabel))


def test_about_names_versions_and_every_folder(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    window.actions_by_name["about"].trigger()
    dialog = window.dialog
    assert isinstance(dialog, AboutDialog)
    qtbot.waitExposed(dialog)
    shown = labels(dialog)
    assert f"reviewapp {__version__}" in shown and qVersion() in shown
    assert sys.version.split()[0] in shown
    data = Path(dialog.places[0].path).parents[1]  # <data>/logs/reviewapp.log
    for name in ("Log", "Preferences", "Reviews of downloaded logbooks", "Logbook Judge imports", "Parse cache"):
        [place] = [p for p in dialog.places if p.name == name]
        assert name in shown and str(place.path) in shown
    assert str(data / "reviews") in shown and str(data / "imports") in shown
    dialog.copy_details()
    copied = QApplication.clipboard().text()
    assert f"Qt: {qVersion()}" in copied and f"Log: {data / 'logs' / 'reviewapp.log'}" in copied
    dialog.close()


def test_crash_dialog_offers_a_scrubbed_report_to_copy(
    qtbot: QtBot, restored_hooks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_TOKEN", FAKE_TOKEN)
    crash.setup_logging()
    logging.getLogger("reviewapp.test").info("opened %s/logbooks/paper", Path.home())
    crash.install_excepthook()
    try:
        raise RuntimeError(f"cannot decode {Path.home()}/logbooks/paper/figure.png (token {FAKE_TOKEN})")
    except RuntimeError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)

    def shown() -> list[crash.CrashDialog]:
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, crash.CrashDialog) and w.isVisible()]

    qtbot.waitUntil(lambda: bool(shown()))
    [dialog] = shown()
    assert dialog.summary.text().startswith("RuntimeError: cannot decode")
    assert str(crash.log_file()) in dialog.explanation.text()
    report = dialog.findChild(QPlainTextEdit, "crashReport").toPlainText()
    assert report == dialog.report
    assert f"reviewapp: {__version__}" in report and f"Qt: {qVersion()}" in report and "Platform: " in report
    assert "Traceback (most recent call last)" in report and "test_about_and_crash.py" in report
    assert "opened ~/logbooks/paper" in report  # the last log lines, home folder taken out
    assert FAKE_TOKEN not in report and str(Path.home()) + "/" not in report
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == report and dialog.isVisible()  # copying does not close it
    assert "copied" in dialog.copied.text()
    dialog.close()


@pytest.mark.parametrize("choice", [theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK])
def test_about_and_crash_dialogs_in_both_themes(
    qtbot: QtBot, screenshots: Screenshots, choice: theme.ThemeChoice
) -> None:
    theme.manager().apply(choice)
    about = AboutDialog()
    qtbot.addWidget(about)
    about.show()
    qtbot.waitExposed(about)
    settle()
    screenshots.take(about, f"about-{choice.value}", min_colors=12)
    try:
        raise ValueError("page 7 has a figure cell without data")
    except ValueError as exc:
        import traceback

        details = "".join(traceback.format_exception(exc))
    dialog = crash.CrashDialog("ValueError", "page 7 has a figure cell without data", details)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    settle()
    screenshots.take(dialog, f"crash-{choice.value}", min_colors=12)
