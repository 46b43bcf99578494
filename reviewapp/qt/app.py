"""Composition root: the QApplication, theme, crash handling, the window, and the offscreen screenshot mode."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.logbook.locate import NotALogbookError, locate

if TYPE_CHECKING:  # PySide6 is imported only once a window is really wanted
    from PySide6.QtWidgets import QApplication

    from reviewapp.qt.main_window import MainWindow

SCREENSHOT_TIMEOUT_S = 120


def run(
    source: str | None,
    screenshot: Path | None = None,
    claim: str | None = None,
    size: tuple[int, int] = (1600, 1000),
    queue: Path | None = None,
    limits: DownloadLimits | None = None,
    rubric: Path | None = None,
) -> int:
    """Open the window on `source` (the demo when None). With `screenshot`, render offscreen, save, exit 0."""
    if source is not None and not _remote(source):
        try:
            locate(Path(source))  # a wrong path is a one-line error, not a window
        except NotALogbookError as exc:
            _say(f"error: {exc}")
            return 2
    if screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from reviewapp.about import DESKTOP_ID
    from reviewapp.qt import crash, theme
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow
    from reviewapp.qt.resources import app_icon
    from reviewapp.qt.workers import share_interpreter_with_gui

    share_interpreter_with_gui()
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "reviewapp"])
    assert isinstance(app, QApplication)
    app.setApplicationName("reviewapp")
    app.setOrganizationName("reviewapp")
    app.setWindowIcon(app_icon())
    app.setDesktopFileName(DESKTOP_ID)
    theme.manager().apply()
    theme.manager().follow_system()
    if screenshot is None:
        crash.setup_logging()
        crash.install_excepthook()
    controller = LogbookController()
    controller.download_limits = limits
    window = MainWindow(controller, remember_state=screenshot is None)
    window.review.ask_on_load = screenshot is None  # a screenshot never waits for someone to type a name
    if screenshot is not None:
        window.resize(*size)
    window.show()
    if queue is not None:
        window.queue.open_queue(queue, rubric)
    elif source is None:
        controller.open_demo()
    else:
        controller.open(source)
    if screenshot is None:
        return app.exec()
    return _screenshot(app, window, screenshot, claim)


def _remote(source: str) -> bool:
    """A Space, dataset or URL: the window downloads it (with progress and cancel) instead of checking a path."""
    from reviewapp.core.io.source_ref import SourceError, parse_source

    try:
        return parse_source(source).kind != "path"
    except SourceError:
        return False


def _say(message: str) -> None:
    sys.stderr.write(message + "\n")


def _screenshot(app: QApplication, window: MainWindow, out: Path, claim: str | None) -> int:
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    deadline = time.monotonic() + SCREENSHOT_TIMEOUT_S
    while window.context is None and not errors:
        if time.monotonic() > deadline:
            _say("error: timed out waiting for the logbook to load")
            return 1
        app.processEvents()
        time.sleep(0.01)
    if errors:
        _say(f"error: {errors[0]}")
        return 2
    if claim is not None and not window.select_claim(claim):
        _say(f"error: no claim {claim!r} in this logbook")
        return 2
    while not window.is_idle():
        if time.monotonic() > deadline:
            break
        app.processEvents()
        time.sleep(0.01)
    for _ in range(10):  # layout requests cascade up one widget level per event-loop turn
        app.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(out)):
        _say(f"error: could not write {out}")
        return 3
    window.close()
    sys.stdout.write(f"wrote {out}\n")
    return 0
