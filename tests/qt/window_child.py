"""The real window in a child process, on a logbook built to freeze it, with a deadline.

A freeze has no symptom but time, and a window stuck in Qt's layout or SVG renderer cannot be interrupted from
inside, so these tests open the window in a child and give it a generous deadline (tests.core.hostile_helpers).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.core.annotation_helpers import subprocess_env
from tests.core.hostile_helpers import DEADLINE

_SHOW_FIRST_CLAIM = textwrap.dedent(
    """
    import json, sys
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow
    controller = LogbookController()
    window = MainWindow(controller)
    window.resize(1400, 900)
    window.show()
    done = []
    controller.loaded.connect(lambda *_: done.append(True))
    for opened in range(1, int(sys.argv[2]) + 1):  # opened again: the image cache has its figures, budgets are new
        controller.open(sys.argv[1])
        while len(done) < opened:
            app.processEvents()
        window.select_claim(1)
        while not window.is_idle():
            app.processEvents()
        for _ in range(20):
            app.processEvents()
    """
)


def show_first_claim(
    workspace: Path, home: Path, report: str, *, before: str = "", timeout: float = DEADLINE, opens: int = 1
) -> object:
    """Open `workspace` in the window (`opens` times), show claim 1 and return the JSON that `report` prints
    (Python run with `window` in scope); `before` runs first (to lower a budget, say)."""
    code = before + _SHOW_FIRST_CLAIM + textwrap.dedent(report)
    done = subprocess.run(
        [sys.executable, "-c", code, str(workspace), str(opens)],
        capture_output=True,
        text=True,
        env=subprocess_env(home, QT_QPA_PLATFORM="offscreen"),
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
