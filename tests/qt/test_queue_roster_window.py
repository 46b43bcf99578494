"""The queue window checks records against the roster its queue file names: a record the team forged is set
apart on the row (counted nowhere) and said, with the names it claims hidden while blind."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewapp.qt import theme
from reviewapp.qt.queue.queue_model import STATUS
from reviewapp.qt.queue.queue_window import QueueWindow
from tests.core.queue.test_queue_roster import ADA, BEA, write_forged_queue
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle

QUEUE_TIMEOUT_MS = 60_000


def test_the_queue_window_sets_forged_records_apart(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screenshots: Screenshots
) -> None:
    queue_file, _roster = write_forged_queue(tmp_path, monkeypatch)
    window = QueueWindow(queue_file, ADA, lambda *_args: None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.model.rows) == 1 and not window.loading, timeout=QUEUE_TIMEOUT_MS)

    (row,) = window.model.rows
    assert row.scores[BEA].payload.overall == 2.0 and len(row.unverified) == 2
    status = window.model.index(0, STATUS)
    assert status.data().endswith("· 2 unverified")

    tip = status.data(Qt.ItemDataRole.ToolTipRole)
    assert "set apart as unverified" in tip and f"claims to be {BEA}" in tip
    screenshots.take(window, "queue-unverified-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "queue-unverified-dark")

    window.model.blind = True
    assert BEA not in status.data(Qt.ItemDataRole.ToolTipRole)


def test_a_logbook_opened_from_the_queue_is_checked_against_its_roster(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_window: OpenWindow
) -> None:
    queue_file, _roster = write_forged_queue(tmp_path, monkeypatch)
    main = open_window()
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 1 and not queue.loading, timeout=QUEUE_TIMEOUT_MS)
    queue.table.selectRow(0)
    with qtbot.waitSignal(main.controller.loaded, timeout=QUEUE_TIMEOUT_MS):
        qtbot.keyClick(queue.table, Qt.Key.Key_Return)
    wait_idle(qtbot, main)

    review = main.controller.logbook_review
    assert review is not None and review.identity.name == ADA
    claim = review.claims()[0].key
    assert review.state.verdict(claim, BEA).payload.verdict.value == "falsified"  # hers, not the team's
    assert len(review.loaded.unverified) == 2

    with qtbot.waitSignal(main.controller.loaded, timeout=QUEUE_TIMEOUT_MS):
        main.controller.open_demo()  # opened on its own, a logbook follows the settings again
    assert main.controller.trust is None
