"""Composition root: the QApplication, theme, crash handling, a window from the registry, and the offscreen
screenshot mode."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.logbook.locate import NotALogbookError, locate

if TYPE_CHECKING:  # PySide6 is imported only once a window is really wanted
    from PySide6.QtWidgets import QApplication, QWidget

    from reviewapp.qt.main_window import MainWindow
    from reviewapp.qt.window_kinds import ShownWindow, WindowRequest

SCREENSHOT_TIMEOUT_S = 120


@dataclass(frozen=True)
class Look:
    """How a window is shown: offscreen into a PNG (`screenshot`), at a size, in a theme (None: the setting)."""

    screenshot: Path | None = None
    size: tuple[int, int] = (1600, 1000)
    theme: str | None = None


def run(
    source: str | None,
    screenshot: Path | None = None,
    claim: str | None = None,
    size: tuple[int, int] = (1600, 1000),
    queue: Path | None = None,
    limits: DownloadLimits | None = None,
    rubric: Path | None = None,
) -> int:
    """Open the review window on `source` (the demo when None), or the queue window on `queue`."""
    from reviewapp.qt.window_kinds import WindowRequest

    request = WindowRequest(source=source, claim=claim, queue=queue, rubric=rubric)
    return run_window("queue" if queue is not None else "review", request, Look(screenshot, size), limits)


def run_window(name: str, request: WindowRequest, look: Look, limits: DownloadLimits | None = None) -> int:
    """Open the registered window `name` on `request`; with a screenshot, render offscreen, save it, exit 0."""
    source = request.source
    if source is not None and not _remote(source):
        try:
            locate(Path(source))  # a wrong path is a one-line error, not a window
        except NotALogbookError as exc:
            _say(f"error: {exc}")
            return 2
    if look.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from reviewapp.qt.window_kinds import RunningApp, WindowProblem
    from reviewapp.qt.window_registry import window_named

    app = _application(look)
    interactive = look.screenshot is None

    def make_main() -> MainWindow:
        return _main_window(limits, look)

    deadline = None if interactive else time.monotonic() + SCREENSHOT_TIMEOUT_S
    running = RunningApp(app, make_main, deadline)
    try:
        shown = window_named(name).factory(running, request)
        _place(shown, look)
        if interactive:
            return app.exec()
        running.wait(shown.ready, shown.problem)
    except WindowProblem as exc:
        if exc.exit_code:
            _say(f"error: {exc}")
        return exc.exit_code
    return _save(app, shown.widget, look.screenshot) if look.screenshot is not None else 0


def _application(look: Look) -> QApplication:
    from PySide6.QtWidgets import QApplication

    from reviewapp.about import DESKTOP_ID
    from reviewapp.qt import crash, theme
    from reviewapp.qt.resources import app_icon
    from reviewapp.qt.workers import share_interpreter_with_gui

    share_interpreter_with_gui()
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "reviewapp"])
    assert isinstance(app, QApplication)
    app.setApplicationName("reviewapp")
    app.setOrganizationName("reviewapp")
    app.setWindowIcon(app_icon())
    app.setDesktopFileName(DESKTOP_ID)
    theme.manager().apply(theme.ThemeChoice(look.theme) if look.theme else None)
    theme.manager().follow_system()
    if look.screenshot is None:
        crash.setup_logging()
        crash.install_excepthook()
    return app


def _main_window(limits: DownloadLimits | None, look: Look) -> MainWindow:
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow

    controller = LogbookController()
    controller.download_limits = limits
    interactive = look.screenshot is None
    window = MainWindow(controller, remember_state=interactive)
    window.review.ask_on_load = interactive  # a screenshot never waits for someone to type a name
    if not interactive:
        window.resize(*look.size)
    window.show()
    return window


def _place(shown: ShownWindow, look: Look) -> None:
    """A screenshot is taken at the size asked for; a dialog keeps its own size, within that size."""
    widget = shown.widget
    if look.screenshot is not None:
        width, height = look.size
        if shown.dialog:
            hint = widget.size().expandedTo(widget.minimumSizeHint())
            widget.resize(min(hint.width(), width), min(hint.height(), height))
        else:
            widget.resize(width, height)
    widget.show()


def _remote(source: str) -> bool:
    """A Space, dataset or URL: the window downloads it (with progress and cancel) instead of checking a path."""
    from reviewapp.core.io.source_ref import SourceError, parse_source

    try:
        return parse_source(source).kind != "path"
    except SourceError:
        return False


def _say(message: str) -> None:
    sys.stderr.write(message + "\n")


def _save(app: QApplication, widget: QWidget, out: Path) -> int:
    for _ in range(10):  # layout requests cascade up one widget level per event-loop turn
        app.processEvents()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(out)):
        _say(f"error: could not write {out}")
        return 3
    widget.close()
    sys.stdout.write(f"wrote {out}\n")
    return 0
