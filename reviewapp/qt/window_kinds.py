"""What a window factory is handed and gives back: the command's request, the running app, the window shown.

The registry (`window_registry`) names every window; the app's own factories (`window_factories`) build on these
types, so neither imports the other's module at import time and no import closes a circle.
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
class RunningApp:
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


WindowFactory = Callable[[RunningApp, WindowRequest], ShownWindow]


@dataclass(frozen=True)
class WindowKind:
    name: str
    command: str  # how to reach it from the command line, for --help and error messages
    factory: WindowFactory
