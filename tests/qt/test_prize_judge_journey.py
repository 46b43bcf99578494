"""The prize judge's journey, end to end in the real windows: a queue of generated logbooks, a verdict changed with
key presses in the review window, a rubric score, the ranking, the decision report and the paper view, each of which
must show the changed verdict, its rationale and who gave it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.cli import main as reviewapp
from reviewapp.core.paper.view import build_paper_view
from reviewapp.core.review.preferences import Preferences, save_preferences
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.paper.matrix_model import cell_tooltip
from reviewapp.qt.queue.queue_model import COLUMNS, DISPUTED
from reviewapp.qt.queue.queue_window import QueueWindow
from reviewapp.qt.queue.score_dialog import ScoreDialog
from tests.core.annotation_helpers import open_review
from tests.core.commit_helpers import isolate_git
from tests.core.paper.test_paper_view import column
from tests.qt.conftest import REVIEWER, OpenWindow, wait_idle
from tests.support.paper_fixtures import write_team_logbook

TIMEOUT_MS = 60_000
MY_SCORE = COLUMNS.index("My score")
RATIONALE = "The rerun's accuracy is 4 points below the paper's table."


@pytest.fixture
def queue_file(tmp_path: Path) -> Path:
    for team in ("ada", "bob"):
        write_team_logbook(tmp_path / "logbooks" / f"{team}-repro", team, [(0, "verified"), (1, "toy")])
    path = tmp_path / "queue.txt"
    path.write_text("logbooks/ada-repro\nlogbooks/bob-repro\n", encoding="utf-8")
    return path


def table_texts(table) -> list[str]:
    model = table.model()
    return [str(model.index(r, c).data() or "") for r in range(model.rowCount()) for c in range(model.columnCount())]


def test_a_changed_verdict_reaches_every_view_with_its_rationale_and_its_judge(
    qtbot: QtBot, queue_file: Path, open_window: OpenWindow, capsys: pytest.CaptureFixture[str]
) -> None:
    ada = queue_file.parent / "logbooks" / "ada-repro"
    bob = queue_file.parent / "logbooks" / "bob-repro"
    other = open_review(bob, "Alan Other")
    other.set_verdict(1, "verified", "Matches.")
    main = open_window()
    queue = main.queue.open_queue(queue_file, me=REVIEWER)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 2 and not queue.loading, timeout=TIMEOUT_MS)
    queue.table.selectRow(0)
    with qtbot.waitSignal(main.controller.loaded, timeout=TIMEOUT_MS):
        qtbot.keyClick(queue.table, Qt.Key.Key_Return)
    wait_idle(qtbot, main)
    assert main.current_claim is not None and main.current_claim.n == 1
    assert main.current_claim.verdict is Verdict.VERIFIED  # the agent's

    # the judge changes the verdict with keys only: 3 (falsified), V to the rationale, Ctrl+Enter saves
    editor = main.review.editor
    main.claim_panel.focus_list()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_3)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_V)
    qtbot.keyClicks(editor.rationale, RATIONALE)
    qtbot.keyClick(editor.rationale, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: editor.state.text().startswith("Saved at"), timeout=TIMEOUT_MS)
    header = main.evidence.header
    assert header.badges["human"].verdict is Verdict.FALSIFIED and header.badges["agent"].verdict is Verdict.VERIFIED
    assert "Reviewer says falsified" in header.disagreement.text()

    # the queue row: one claim reviewed by me, one disagreement (the agent's verified against my falsified)
    number = next(i for i, r in enumerate(queue.model.rows) if Path(r.entry.location).name == "ada-repro")
    qtbot.waitUntil(lambda: queue.model.rows[number].reviewed_by_me == 1, timeout=TIMEOUT_MS)
    assert queue.model.index(number, DISPUTED).data() == "1"

    # the score dialog, from the queue (S), saved with Ctrl+Enter
    def fill_and_save() -> None:
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, ScoreDialog) and w.isVisible())
        for spin in dialog.values.values():
            spin.setValue(2)
        dialog.comment.setPlainText("Claim 1 does not hold at the paper's scale.")
        qtbot.keyClick(dialog, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    queue.table.selectRow(number)
    queue.activateWindow()  # the review window had the keyboard; the judge goes back to the queue
    qtbot.waitUntil(queue.isActiveWindow, timeout=TIMEOUT_MS)
    QTimer.singleShot(200, fill_and_save)
    qtbot.keyClick(queue.table, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: queue.model.rows[number].my_score is not None, timeout=TIMEOUT_MS)
    assert queue.model.index(number, MY_SCORE).data() == "2"  # the rubric's whole-number scale
    for folder, value in ((ada, 4), (bob, 3)):
        assert reviewapp(["score", str(folder), "--overall", str(value), "--annotator", "Alan Other"]) == 0
    assert reviewapp(["score", str(bob), "--overall", "5", "--annotator", REVIEWER]) == 0
    capsys.readouterr()

    # the ranking dialog: both logbooks, both judges, my verdict counted for ada's logbook
    queue.reload()  # the other judge's scores came from the command line
    qtbot.waitUntil(lambda: not queue.loading and len(queue.model.rows[number].scores) == 2, timeout=TIMEOUT_MS)
    queue.show_ranking()
    ranking = queue.ranking_dialog
    texts = table_texts(ranking.table)
    headers = [ranking.table.horizontalHeaderItem(c).text() for c in range(ranking.table.columnCount())]
    assert REVIEWER in headers and "Alan Other" in headers
    assert any("falsified" in text for text in texts), texts

    # the decision report names who gave the claim its verdict, and why
    assert reviewapp(["decide", str(queue_file), "--annotator", "Ada Adjudicator"]) == 0
    report = (queue_file.parent / "queue-decision.md").read_text(encoding="utf-8")
    assert REVIEWER in report and RATIONALE in report and "falsified" in report

    # the paper view's Markdown: the cell decided by this judge, with the rationale
    capsys.readouterr()
    assert reviewapp(["paper", str(ada), str(bob), "--format", "markdown"]) == 0
    paper = capsys.readouterr().out
    assert REVIEWER in paper and RATIONALE in paper
    # the paper window's cell says the same in its tool tip and details pane: who decided, and why
    view = build_paper_view([column(ada, "ada"), column(bob, "bob")])
    decided = [cell for cell in view.cells.values() if cell.decision.verdict is Verdict.FALSIFIED]
    assert len(decided) == 1
    tooltip = cell_tooltip(decided[0], "ada")
    assert f"Decided: falsified, by {REVIEWER}: “{RATIONALE}”" in tooltip


def test_a_new_judge_known_to_git_sees_their_own_progress_in_the_queue_window(
    qtbot: QtBot, queue_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No name saved yet, git's user.name set: `queue LIST --window` counts that judge's verdicts (the review window
    will save under that name), instead of nobody's until the name is settled by the first logbook's load."""
    save_preferences(Preferences())
    config = isolate_git(tmp_path / "git-home", monkeypatch)
    config.write_text("[user]\n\tname = Judy Newcomer\n", encoding="utf-8")
    open_review(queue_file.parent / "logbooks" / "bob-repro", "Judy Newcomer").set_verdict(1, "falsified", "No.")
    shot = tmp_path / "queue.png"
    before = set(QApplication.topLevelWidgets())
    assert reviewapp(["queue", str(queue_file), "--window", "--screenshot", str(shot)]) == 0
    (queue,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, QueueWindow) and w not in before]
    qtbot.addWidget(queue)
    assert queue.me == "Judy Newcomer"
    reviewed = {Path(row.entry.location).name: row.reviewed_by_me for row in queue.model.rows}
    assert reviewed == {"ada-repro": 0, "bob-repro": 1}
