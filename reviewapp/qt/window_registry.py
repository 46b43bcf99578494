"""Every window the app has, by name: how to open it on what a command asked for, and when it is ready to be seen.

The command line opens (or screenshots) a window through this table only, so a new window is reachable from the
CLI, by `--screenshot` and by the look test once it registers a factory here (`register_window`).
A factory opens its window on the request and returns it with a readiness check; one that needs another window
first (a dialog of the queue, say) waits for it with `session.wait`, which runs the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QWidget

if TYPE_CHECKING:
    from reviewapp.core.pairs.sets import PairSet
    from reviewapp.core.pairs.study import Study
    from reviewapp.core.paper.gather import PaperRequest
    from reviewapp.core.review.logbook_review import LogbookReview
    from reviewapp.qt.main_window import MainWindow


class WindowProblem(Exception):
    """The window cannot be shown as asked (the logbook did not load, no such claim); the message says why."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass
class WindowRequest:
    """What the command line asked for; each factory reads the parts it needs."""

    source: str | None = None
    claim: str | None = None
    queue: Path | None = None
    rubric: Path | None = None
    annotator: str | None = None
    paper: PaperRequest | None = None
    pairs: tuple[LogbookReview, PairSet] | None = None
    study: Study | None = None  # every rater's results combined (`pairs study`)
    row: int = 0  # which queue row or paper claim a dialog opens on (0 = the first)


@dataclass
class ShownWindow:
    widget: QWidget
    ready: Callable[[], bool] = lambda: True
    problem: Callable[[], str | None] = lambda: None
    dialog: bool = False  # a dialog keeps its own size (within the screen size asked for) over its window


@dataclass
class WindowSession:
    """The running app as factories see it: the review window (made on first use) and a way to wait."""

    app: QApplication
    make_main: Callable[[], MainWindow]
    deadline: float | None  # monotonic seconds; None waits for as long as it takes (an interactive window)
    _main: MainWindow | None = field(default=None, init=False)

    @property
    def main(self) -> MainWindow:
        if self._main is None:
            self._main = self.make_main()
        return self._main

    @property
    def interactive(self) -> bool:
        return self.deadline is None

    def wait(self, done: Callable[[], bool], problem: Callable[[], str | None] = lambda: None) -> None:
        """Run the event loop until `done()`; WindowProblem when `problem()` says something or time runs out."""
        while not done():
            if (said := problem()) is not None:
                raise WindowProblem(said)
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise WindowProblem("timed out waiting for the window to be ready", 1)
            if self.interactive and not any(w.isVisible() for w in self.app.topLevelWidgets()):
                raise WindowProblem("closed before it was ready", 0)
            self.app.processEvents()
            time.sleep(0.01)


WindowFactory = Callable[[WindowSession, WindowRequest], ShownWindow]


@dataclass(frozen=True)
class WindowKind:
    name: str
    command: str  # how to reach it from the command line, for --help and error messages
    factory: WindowFactory


WINDOWS: dict[str, WindowKind] = {}
_builtin: list[bool] = []  # the app's own windows are registered on first use (importing them imports Qt widgets)


def register_window(name: str, command: str, factory: WindowFactory) -> None:
    WINDOWS[name] = WindowKind(name, command, factory)


def window_named(name: str) -> WindowKind:
    _register_builtin()
    return WINDOWS[name]


def window_names() -> list[str]:
    _register_builtin()
    return list(WINDOWS)


def _register_builtin() -> None:
    if _builtin:
        return
    _builtin.append(True)
    from reviewapp.qt import window_factories

    window_factories.register_all()
