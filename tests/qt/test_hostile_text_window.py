"""Page text that froze the window for minutes: a heading with 200k blanks, 200k backticks after `$x$`, a
2000 x 50 table, 60k `<svg ` openers. The real window opens the claim in a child with a generous deadline (a
freeze has no other symptom) and every card is built."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from reviewapp.core.logbook.writer import LogbookDraft
from tests.core.annotation_helpers import subprocess_env
from tests.qt.test_hostile_figures import DEADLINE

CHILD = textwrap.dedent(
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
    controller.open(sys.argv[1])
    while not done:
        app.processEvents()
    window.select_claim(1)
    while not window.is_idle():
        app.processEvents()
    for _ in range(20):
        app.processEvents()
    print(json.dumps(len(window.evidence.cards)))
    """
)


def table(rows: int) -> str:
    lines = ["|" + "|".join(f"c{j}" for j in range(50)) + "|", "|" + "|".join("-" for _ in range(50)) + "|"]
    return "\n".join(lines + ["|" + "|".join(str(i) for _ in range(50)) + "|" for i in range(rows)])


def test_the_window_opens_pages_built_to_stall_its_layout(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Hostile text")
    page = draft.page("Claim 1: Text stays responsive").markdown("**Verdict: VERIFIED.**", title="Verdict")
    page.markdown("# x" + " " * 200_000 + "#y", title="blanks")
    page.markdown("$x$" + "`" * 200_000, title="backticks")
    page.markdown(table(2_000), title="table")
    page.markdown("<svg " * 60_000, title="svg")
    draft.write(tmp_path / "ws")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "ws")],
        capture_output=True,
        text=True,
        env=subprocess_env(tmp_path, QT_QPA_PLATFORM="offscreen"),
        timeout=DEADLINE * 2,  # four cases that each took minutes; fine ones take seconds
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) >= 5
