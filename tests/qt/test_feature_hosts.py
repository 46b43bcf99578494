"""Each feature built alone on a small host window (tests/qt/host_window.py), without the review window: what it
asks of the host (side tabs, the claim header, selecting a claim, the status bar, actions) is all it gets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.demo import write_demo
from reviewapp.core.logbook.model import TraceEvent
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.replay import read_review
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.logbook_judge.disagreement_panel import KEY_ROLE
from reviewapp.qt.logbook_judge.feature import LogbookJudgeFeature
from reviewapp.qt.models.trace_events import EventRole, TraceEventModel
from reviewapp.qt.queue.feature import QueueFeature
from reviewapp.qt.review.feature import ReviewFeature
from reviewapp.qt.trace.feature import TraceFeature
from reviewapp.qt.trace.trace_view import ExcerptPanel, TimelinePanel
from reviewapp.qt.workers import TaskRunner
from tests.qt.conftest import LOAD_TIMEOUT_MS, REVIEWER
from tests.qt.host_window import HostWindow
from tests.qt.test_queue_window import queue_file  # noqa: F401  (a fixture)
from tests.qt.test_trace_pane import traceless_logbook


@pytest.fixture
def host(qtbot: QtBot) -> Iterator[HostWindow]:
    window = HostWindow(LogbookController())
    qtbot.addWidget(window)
    window.resize(900, 700)
    window.show()
    yield window
    window.close()


def load(qtbot: QtBot, host: HostWindow, source: Path | None = None) -> None:
    with qtbot.waitSignal(host.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        if source is None:
            host.controller.open_demo()
        else:
            host.controller.open(source)


def test_the_logbook_judge_alone_fills_its_header_slot_and_its_side_tab(qtbot: QtBot, host: HostWindow) -> None:
    feature = LogbookJudgeFeature(host, host.controller)
    assert host.header.widgets["logbook_judge"] is feature.details
    assert host.side_tabs.indexOf(feature.panel) >= 0
    load(qtbot, host)  # the demo, whose Logbook Judge verdicts are imported on first open
    qtbot.waitUntil(lambda: feature.panel.model.rowCount() > 0, timeout=LOAD_TIMEOUT_MS)
    title = host.side_tabs.tabText(host.side_tabs.indexOf(feature.panel))
    assert title == f"Disagreements ({feature.panel.model.rowCount()})"
    assert host.select_claim(3)
    assert "registry claim 3" in feature.details.match.text()
    # a click in the disagreement list shows that claim through the host
    table = feature.panel.table
    last = table.model().index(table.model().rowCount() - 1, 0)
    table.clicked.emit(last)
    key = last.data(KEY_ROLE)
    assert key != host.controller.claim(3).key
    assert host.current_claim is not None and host.current_claim.key == key
    host.actions_by_name["show_disagreements"].trigger()
    assert host.current_side_tab() is feature.panel


def test_the_queue_alone_takes_the_host_to_the_claim_and_shares_blind_mode(
    qtbot: QtBot,
    host: HostWindow,
    queue_file: Path,  # noqa: F811
) -> None:
    feature = QueueFeature(host, host.controller)
    with qtbot.waitSignal(host.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        queue = feature.open_queue(queue_file)  # an empty host shows the queue's first readable logbook by itself
        qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 3 and not queue.loading, timeout=LOAD_TIMEOUT_MS)
    qtbot.waitUntil(lambda: host.current_claim is not None, timeout=LOAD_TIMEOUT_MS)
    first = host.controller.logbook
    assert first is not None and "ada-lovelace-repro" in first.root.parts
    assert host.current_claim is not None and host.current_claim.n == 1  # the first claim without my verdict
    # Enter on another row takes the host to that logbook (the host came to the front: the user goes back)
    queue.activateWindow()
    qtbot.waitUntil(queue.isActiveWindow, timeout=LOAD_TIMEOUT_MS)
    queue.table.selectRow(1)
    number = queue.selected_row()
    assert number is not None
    wanted = Path(queue.model.rows[number].entry.location).name
    assert wanted not in first.root.parts
    with qtbot.waitSignal(host.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        qtbot.keyClick(queue.table, Qt.Key.Key_Return)
    shown = host.controller.logbook
    assert shown is not None and wanted in shown.root.parts
    # blind mode switched in the queue switches the host's menu entry, and back
    queue.blind_box.setChecked(True)
    assert host.actions_by_name["blind_review"].isChecked()
    host.actions_by_name["blind_review"].setChecked(False)
    assert not queue.blind_box.isChecked()


def test_the_trace_feature_alone_collapses_the_side_pane_without_a_trace(
    qtbot: QtBot, host: HostWindow, tmp_path: Path, demo_logbook: Path
) -> None:
    runner = TaskRunner(1, host)
    timeline = TimelinePanel(TraceEventModel(runner, host))
    excerpts = ExcerptPanel()
    host.add_side_tab(excerpts, "Excerpts")
    host.add_side_tab(timeline, "Timeline")
    feature = TraceFeature(host, host.controller, timeline, excerpts)
    assert feature.attach_action in host.actions()
    load(qtbot, host, traceless_logbook(tmp_path / "plain"))
    assert not host.side_pane_shown() and not host.actions_by_name["toggle_side_pane"].isChecked()
    load(qtbot, host, demo_logbook)  # a logbook with a trace brings the pane back by itself
    assert host.side_pane_shown() and host.actions_by_name["toggle_side_pane"].isChecked()
    # pinning needs a claim on screen; the host's status bar says so
    feature.pin(0, 1)
    assert "Select the claim" in host.statusBar().currentMessage()


def test_the_review_tools_alone_save_a_verdict_chosen_with_keys(qtbot: QtBot, host: HostWindow, tmp_path: Path) -> None:
    """The review feature built on the small host, without the review window: 2 chooses partial, the rationale is
    typed in the editor, Ctrl+Enter saves it into the logbook's review file, the keys are on the claim list again, and
    Ctrl+Z takes it back."""
    write_demo(tmp_path / "demo")
    feature = ReviewFeature(host, host.controller, host.review_views)
    assert host.header.widgets["reviewer"] is feature.editor
    assert host.side_tabs.indexOf(feature.notes_panel) >= 0
    load(qtbot, host, tmp_path / "demo")
    qtbot.waitUntil(lambda: host.controller.active, timeout=LOAD_TIMEOUT_MS)
    assert host.select_claim(2)
    key = host.current_claim.key
    host.activateWindow()
    host.claim_panel.view.setFocus()
    qtbot.keyClick(host.claim_panel.view, Qt.Key.Key_2)
    qtbot.waitUntil(lambda: feature.editor.summary.text().startswith("Chosen: PARTIAL"))
    rationale = "Only the short run finished; the long one was never started."
    qtbot.keyClicks(feature.editor.rationale, rationale)
    qtbot.keyClick(feature.editor.rationale, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: feature.editor.state.text().startswith("Saved at"), timeout=LOAD_TIMEOUT_MS)

    saved = read_review(read_logbook(tmp_path / "demo")).state.verdict(key, REVIEWER)
    assert saved is not None and saved.payload.verdict is Verdict.PARTIAL and saved.payload.rationale == rationale
    file = host.controller.file()
    assert file is not None and file.is_file() and file.is_relative_to(tmp_path / "demo")  # in the logbook's folder
    qtbot.waitUntil(lambda: host.claim_panel.view.hasFocus())  # Ctrl+Enter gave the keys back to the claim list
    assert "Saved" in feature.editor.state.text() and not feature.editor.save_button.isEnabled()
    # Ctrl+Z, a window shortcut of the host, takes the verdict back out of the file
    qtbot.keyClick(host.claim_panel.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: read_review(read_logbook(tmp_path / "demo")).state.verdict(key, REVIEWER) is None)
    qtbot.waitUntil(lambda: host.actions_by_name["redo"].isEnabled())


def test_the_review_tools_alone_offer_a_note_on_an_event_of_the_trace_shown(
    qtbot: QtBot, host: HostWindow, tmp_path: Path
) -> None:
    """A timeline event's menu names the trace the host shows; before any trace is shown there is nothing to note."""
    write_demo(tmp_path / "demo")
    feature = ReviewFeature(host, host.controller, host.review_views)
    load(qtbot, host, tmp_path / "demo")
    qtbot.waitUntil(lambda: host.controller.active, timeout=LOAD_TIMEOUT_MS)
    events = QStandardItemModel(host)
    item = QStandardItem("#3 a tool call")
    item.setData(TraceEvent(3, "tool_call", "Bash", "python train.py"), EventRole.EVENT)
    events.appendRow(item)
    timeline = host.review_views.timeline
    timeline.setModel(events)
    assert feature.notes.event_menu(timeline, events.index(0, 0), in_excerpts=False).isEmpty()
    host.show_trace_event("session-1", 3)
    assert host.trace_shown == "session-1"
    menu = feature.notes.event_menu(timeline, events.index(0, 0), in_excerpts=False)
    assert [action.text() for action in menu.actions()] == ["Add note on trace event #3…"]
