"""Two judges through a queue of three generated logbooks that name their makers everywhere: blind review hides
every name in the queue and the review window, other judges' verdicts and scores stay hidden until this judge has
given theirs, names come back once this judge has scored; scores undo; the ranking puts both judges side by side."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from reviewapp.core.queue.rubric import DEFAULT_RUBRIC
from reviewapp.core.queue.scoring import record_rubric_score, score_payload
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.queue.queue_model import LOGBOOK
from reviewapp.qt.queue.queue_window import QueueWindow
from reviewapp.qt.queue.ranking_dialog import RankingDialog
from reviewapp.qt.queue.score_dialog import ScoreDialog
from tests.core.annotation_helpers import open_review
from tests.qt.conftest import REVIEWER, OpenWindow, Screenshots, wait_idle
from tests.qt.review_helpers import fill_verdict, save
from tests.support.queue_fixtures import owner_leaks, write_named_logbook

TIMEOUT_MS = 60_000
OTHER_JUDGE = "Barbara Liskov"
MAKERS = [
    ("grace-hopper", "Grace Hopper", "ghopper@navy.example"),
    ("kjohnson", "Katherine Johnson", "kj@nasa.example"),
    ("edsger-d", "Edsger Dijkstra", "ewd@tue.example"),
]


@pytest.fixture
def queue_file(tmp_path: Path) -> Path:
    lines = ["source,paper"]
    for owner, name, email in MAKERS:
        root = write_named_logbook(tmp_path / f"{owner}-repro", owner, name, email)
        other = open_review(root, OTHER_JUDGE)
        other.set_verdict(1, "falsified", f"{OTHER_JUDGE} re-ran it; the gap is the other way round.")
        scores = (
            {"rigor": 2, "scale": 3, "honesty": 4, "clarity": 3}
            if owner != "kjohnson"
            else dict.fromkeys(("rigor", "scale", "honesty", "clarity"), 5)
        )
        record_rubric_score(other, score_payload(DEFAULT_RUBRIC, scores))
        lines.append(f"{owner}-repro,FlatMin123")
    path = tmp_path / "queue.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def everything_shown(*windows: QWidget) -> str:
    """Every text a judge can see or point at: titles, labels, buttons, fields, text views, rows and tooltips."""
    found: list[str] = []
    for window in windows:
        found.append(window.windowTitle())
        for widget in [window, *window.findChildren(QWidget)]:
            if not widget.isVisible():
                continue
            found.append(widget.toolTip())
            plain_field = isinstance(widget, QLineEdit) and widget.echoMode() == QLineEdit.EchoMode.Normal
            if isinstance(widget, QLabel | QAbstractButton) or plain_field:
                found.append(widget.text())
            elif isinstance(widget, QTextEdit | QPlainTextEdit):
                found.append(widget.toPlainText())
            elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
                found.extend(_model_text(widget))
    return "\n".join(found)


def _model_text(view: QAbstractItemView) -> list[str]:
    model, found = view.model(), []
    stack = [view.rootIndex()]
    while stack:
        parent = stack.pop()
        for row in range(model.rowCount(parent)):
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    value = index.data(role)
                    if isinstance(value, str):
                        found.append(value)
            stack.append(model.index(row, 0, parent))
    return found


def assert_no_names(text: str) -> None:
    lowered = text.lower()
    for owner, name, email in MAKERS:
        for leak in owner_leaks(owner, name, email):
            assert leak.lower() not in lowered, (leak, text[max(0, lowered.find(leak.lower()) - 200) :][:400])


def open_from_queue(qtbot: QtBot, main: MainWindow, queue: QueueWindow, key: Qt.Key) -> None:
    with qtbot.waitSignal(main.controller.loaded, timeout=TIMEOUT_MS):
        qtbot.keyClick(queue.table, key)
    wait_idle(qtbot, main)
    qtbot.waitUntil(lambda: not queue.loading, timeout=TIMEOUT_MS)


def test_blind_review_through_the_queue_with_two_judges(
    qtbot: QtBot, queue_file: Path, open_window: OpenWindow, screenshots: Screenshots
) -> None:
    main = open_window()
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 3 and not queue.loading, timeout=TIMEOUT_MS)
    assert "Grace Hopper" in queue.model.label(0)  # not blind yet: names are shown

    qtbot.keyClick(queue, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert queue.model.blind and main.actions_by_name["blind_review"].isChecked()
    labels = [queue.proxy.index(i, LOGBOOK).data() for i in range(3)]
    assert all(label.startswith("Participant ") for label in labels) and len(set(labels)) == 3
    qtbot.waitUntil(lambda: queue.model.complete, timeout=TIMEOUT_MS)
    assert_no_names(everything_shown(queue))
    screenshots.take(queue, "queue-blind-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(queue, "queue-blind-dark")
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    queue.table.selectRow(0)
    open_from_queue(qtbot, main, queue, Qt.Key.Key_N)  # the first claim without my verdict, shown blind
    assert main.controller.blinder is not None and main.current_claim is not None
    assert "Participant " in main.windowTitle() and "(blind)" in main.windowTitle()
    shown = everything_shown(main, queue)
    assert_no_names(shown)
    assert OTHER_JUDGE not in shown  # the other judge's verdict waits until mine is given
    main.actions_by_name["show_timeline"].trigger()
    main.actions_by_name["show_artifacts"].trigger()
    for n in range(1, 4):
        main.select_claim(n)
        wait_idle(qtbot, main)
        assert_no_names(everything_shown(main, queue))
    screenshots.take(main, "blind-review-window")

    main.select_claim(1)
    wait_idle(qtbot, main)
    editor = fill_verdict(qtbot, main, Verdict.TOY, "Ran on a laptop: a toy run of the claim.")
    assert save(qtbot, editor)
    wait_idle(qtbot, main)
    qtbot.waitUntil(lambda: OTHER_JUDGE in everything_shown(main), timeout=TIMEOUT_MS)  # shown once mine is saved
    assert_no_names(everything_shown(main))

    number = queue.selected_row()
    assert number is not None

    def fill_and_save() -> None:
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, ScoreDialog) and w.isVisible())
        assert_no_names(everything_shown(dialog))
        for name, value in {"rigor": 4, "scale": 2, "honesty": 5, "clarity": 3}.items():
            dialog.values[name].setValue(value)
        qtbot.keyClick(dialog, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    queue.activateWindow()  # the judge goes back to the queue window
    qtbot.waitUntil(queue.isActiveWindow)
    QTimer.singleShot(200, fill_and_save)
    qtbot.keyClick(queue.table, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: queue.model.rows[number].my_score is not None, timeout=TIMEOUT_MS)
    score = queue.model.rows[number].scores[REVIEWER]
    assert score.payload.blind and score.payload.overall == 3.5  # the record says it was blind
    assert "Grace Hopper" in queue.model.label(number)  # revealed after submission
    assert all(queue.model.hides(i) for i in range(3) if i != number)

    ranking = RankingDialog(queue.model, REVIEWER, queue)
    qtbot.addWidget(ranking)
    assert ranking.table.rowCount() == 1  # the two logbooks I have not scored stay out of my sight
    assert "2 logbook(s) you have not scored yet are left out" in ranking.notes.text()
    verdicts = [ranking.table.horizontalHeaderItem(c).text() for c in range(ranking.table.columnCount())].index(
        "Verdicts"
    )
    assert ranking.table.item(0, verdicts).text() == "hidden in blind review"  # they count others' verdicts

    queue.activateWindow()
    qtbot.waitUntil(queue.isActiveWindow)
    qtbot.keyClick(queue.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo my score
    qtbot.waitUntil(lambda: queue.model.rows[number].my_score is None, timeout=TIMEOUT_MS)
    assert queue.model.hides(number)
    assert "Undo of score saved" in queue.summary.text()

    qtbot.keyClick(queue, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # blind mode off: every score shows
    ranking = RankingDialog(queue.model, REVIEWER, queue)
    qtbot.addWidget(ranking)
    headers = [ranking.table.horizontalHeaderItem(c).text() for c in range(ranking.table.columnCount())]
    assert OTHER_JUDGE in headers and ranking.table.rowCount() == 3
    assert ranking.table.item(0, 1).text().startswith("Flat minima, reproduced by Katherine Johnson")
    assert [ranking.table.item(r, 0).text() for r in range(3)] == ["1", "2=", "2="]  # the two 3.0s tie
