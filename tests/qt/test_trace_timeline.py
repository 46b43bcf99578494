"""The timeline over attached transcripts and big traces, driven with keys and clicks like a reviewer."""

from __future__ import annotations

import json
import multiprocessing
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.models.trace_events import EventRole
from tests.conftest import CORPUS, corpus_available
from tests.core.annotation_helpers import small_logbook
from tests.core.trace_fixtures import SECRET, big_claude, claude_records, write_jsonl
from tests.qt.conftest import OpenWindow, wait_idle
from tests.qt.review_helpers import records, show_claim, written


def indexed(qtbot: QtBot, window: MainWindow, timeout: int = 60_000) -> None:
    model = window.timeline.model
    qtbot.waitUntil(lambda: model.index_ is not None and model.index_.complete, timeout=timeout)
    wait_idle(qtbot, window)


def attach(qtbot: QtBot, window: MainWindow, file: Path, session: str | None = None) -> None:
    window.traces.attach_transcript(file, session)
    qtbot.waitUntil(lambda: window.timeline.session is not None and window.timeline.session.transcript is not None,
                    timeout=60_000)  # fmt: skip
    indexed(qtbot, window)


def without_trace_files(tmp_path: Path) -> Path:
    workspace = small_logbook(tmp_path)
    shutil.rmtree(read_logbook(workspace).root / "traces" / "session-1")
    return workspace


def test_attached_transcript_fills_the_session_and_is_searched_filtered_and_jumped(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    window = open_window(without_trace_files(tmp_path))
    timeline = window.timeline
    assert "files are not in this folder" in timeline.info.text()
    attach(qtbot, window, write_jsonl(tmp_path / "claude.jsonl", claude_records()), "session-1")
    assert window.side_tabs.currentWidget() is timeline
    assert timeline.session is not None and timeline.session.id == "session-1" and timeline.session.trace
    model = timeline.model
    total = model.rowCount()
    assert total == model.index_.count and "Claude Code" in timeline.info.text()
    [link] = [r for r in records(window) if r["kind"] == "transcript_link"]
    assert link["payload"]["fills_listed"] and link["payload"]["session"] == "session-1"

    # search: Enter runs it, F3 / Shift+F3 step through the hits, the count says where we are
    qtbot.keyClicks(timeline.search, "claim 1")
    qtbot.keyClick(timeline.search, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: timeline.hit_count.text().startswith("1 of"), timeout=10_000)
    hits = list(timeline._hits)
    assert len(hits) >= 2 and timeline.hit_count.text() == f"1 of {len(hits)}"
    assert model.position_at(timeline.view.currentIndex().row()) == hits[0]
    qtbot.keyClick(timeline.view, Qt.Key.Key_F3)
    assert model.position_at(timeline.view.currentIndex().row()) == hits[1]
    qtbot.keyClick(timeline.view, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert model.position_at(timeline.view.currentIndex().row()) == hits[0]

    # filters: errors only, then tool calls of one tool
    timeline.errors_only.click()
    qtbot.waitUntil(lambda: model.rowCount() < total, timeout=10_000)
    assert model.rowCount() == 1 and model.event_at(0).kind == "tool_result" and model.event_at(0).error
    timeline.errors_only.click()
    qtbot.waitUntil(lambda: model.rowCount() == total, timeout=10_000)
    timeline.kind_filter.setCurrentIndex(timeline.kind_filter.findData("tool_call"))
    qtbot.waitUntil(lambda: model.rowCount() == 2, timeout=10_000)
    assert {model.event_at(r).tool_name for r in range(2)} == {"Bash", "Read"}
    timeline.tool_filter.setCurrentIndex(timeline.tool_filter.findData("Read"))
    qtbot.waitUntil(lambda: model.rowCount() == 1, timeout=10_000)
    timeline.clear_filters()
    assert model.rowCount() == total

    # jump by turn, then from the call to its result with P
    qtbot.keyClicks(timeline.jump, "turn 2")
    qtbot.keyClick(timeline.jump, Qt.Key.Key_Return)
    assert timeline.view.currentIndex().data(EventRole.EVENT).turn == 2
    qtbot.keyClicks(timeline.jump.clear() or timeline.jump, "#4")
    qtbot.keyClick(timeline.jump, Qt.Key.Key_Return)
    call = timeline.view.currentIndex().data(EventRole.EVENT)
    assert call.sequence == 4 and call.kind == "tool_call"
    qtbot.keyClick(timeline.view, Qt.Key.Key_P)
    result = timeline.view.currentIndex().data(EventRole.EVENT)
    assert result.kind == "tool_result" and result.call_id == call.call_id
    assert "its call: #4" in timeline.detail.toPlainText()


def test_secret_masked_image_capped_and_pinned_to_the_claim(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    window = open_window(without_trace_files(tmp_path))
    attach(qtbot, window, write_jsonl(tmp_path / "claude.jsonl", claude_records()), "session-1")
    timeline, model = window.timeline, window.timeline.model
    position = next(p for p in range(model.index_.count) if model.index_.event(p).images)
    timeline.select_position(position)
    detail = timeline.detail.toPlainText()
    assert SECRET not in detail and "[masked hf_" in detail
    assert "inline base64 not shown" in detail and "iVBORw0KGgo" not in detail
    assert SECRET not in model.data(model.index(model.row_of_position(position)))
    qtbot.mouseClick(timeline.show_whole, Qt.MouseButton.LeftButton)
    assert "iVBORw0KGgo" in timeline.detail.toPlainText() and SECRET not in timeline.detail.toPlainText()

    show_claim(qtbot, window, 1)
    window.side_tabs.setCurrentWidget(timeline)
    timeline.select_position(position - 1)
    timeline.view.selectionModel().select(
        model.index(model.row_of_position(position)), timeline.view.selectionModel().SelectionFlag.Select
    )
    assert timeline.selected_range() == (position - 1, position) and timeline.pin.isEnabled()
    qtbot.mouseClick(timeline.pin, Qt.MouseButton.LeftButton)
    written(qtbot, window)
    [pinned] = [r for r in records(window) if r["kind"] == "trace_excerpt"]
    assert pinned["target"]["claim"] == window.controller.claim(1).key
    assert SECRET not in json.dumps(pinned) and pinned["payload"]["session"] == "session-1"
    assert not window.excerpts.pinned.isHidden() and "session-1 lines" in window.excerpts.pinned.text()


@pytest.mark.skipif(not corpus_available(), reason="shared corpus not present")
def test_claim_to_events_and_event_to_cell_on_the_synthetic_trace(qtbot: QtBot, open_window: OpenWindow) -> None:
    window = open_window(CORPUS / "_generated__trackio-0.43-synthetic-trace")
    window.side_tabs.setCurrentWidget(window.timeline)
    indexed(qtbot, window)
    timeline = window.timeline
    qtbot.waitUntil(lambda: timeline.links is not None, timeout=30_000)
    qtbot.keyClicks(timeline.jump, "#3")
    qtbot.keyClick(timeline.jump, Qt.Key.Key_Return)
    assert "exp_3.py" in timeline.detail.toPlainText()
    assert "→ Claim 3" in timeline.detail.toPlainText() and "runs the cell's command" in timeline.detail.toPlainText()
    assert timeline.show_cell.isEnabled()
    qtbot.mouseClick(timeline.show_cell, Qt.MouseButton.LeftButton)
    assert window.current_claim is not None and window.current_claim.n == 3


def test_a_100000_event_timeline_scrolls_end_to_end(qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    window = open_window(without_trace_files(tmp_path))
    file = big_claude(tmp_path / "big.jsonl", 33_334)  # 3 events a round: 100,002 events
    attach(qtbot, window, file, "big")
    timeline, model = window.timeline, window.timeline.model
    assert model.rowCount() == 100_002
    view = timeline.view
    view.setFocus()
    view.setCurrentIndex(model.index(0))
    seen = set()
    bar = view.verticalScrollBar()
    for step in range(0, 21):
        bar.setValue(bar.maximum() * step // 20)
        QApplication.processEvents()
        top = view.indexAt(view.viewport().rect().topLeft())
        assert top.isValid()
        seen.add(top.row())
        assert top.data(EventRole.SUMMARY)  # painted from the file, not from memory
    assert len(seen) == 21
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    last = view.currentIndex()
    assert last.row() == 100_001 and last.data(EventRole.EVENT).output == "out 33333"
    qtbot.keyClick(view, Qt.Key.Key_PageUp)
    assert view.currentIndex().row() < 100_001
    qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert view.currentIndex().row() == 0
    assert len(model._cache) <= 4_096 and len(model.index_._cache) <= 256  # memory stays bounded


def test_closing_the_window_while_a_big_trace_is_read_stops_its_reader(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    window = open_window(without_trace_files(tmp_path))
    file = big_claude(tmp_path / "big.jsonl", 200_000)  # 600,000 events: seconds of reading in the child
    window.traces.attach_transcript(file, "big")
    model = window.timeline.model
    qtbot.waitUntil(lambda: model.index_ is not None and model.rowCount() > 0, timeout=60_000)
    qtbot.waitUntil(lambda: any(p.name == "reviewapp-trace-index" for p in multiprocessing.active_children()),
                    timeout=60_000)  # fmt: skip
    index = model.index_
    window.close()  # waits for the trace runner: that must not mean waiting for the whole trace
    assert index is not None and not index.complete
    assert not [p for p in multiprocessing.active_children() if p.name == "reviewapp-trace-index"]
