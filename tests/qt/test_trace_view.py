"""Trace excerpts beside the claim, and jumping from one into the full timeline (read chunk by chunk)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.writer import LogbookDraft, write_trace
from reviewapp.core.trace.excerpts import RESULT, RUNS_ON_PAGE
from reviewapp.qt.models.trace_events import EventRole
from tests.qt.conftest import OpenWindow, wait_idle


def test_excerpts_follow_the_selected_claim(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    assert window.select_claim(2)
    wait_idle(qtbot, window)
    model = window.excerpts.model
    excerpts = [model.excerpt_at(r) for r in range(model.rowCount())]
    assert [e.sequence for e in excerpts] == list(range(6, 14))
    assert [e.event.kind for e in excerpts if RUNS_ON_PAGE in e.reasons] == ["tool_call", "tool_call"]
    assert [e.sequence for e in excerpts if e.reasons == (RESULT,)] == [9, 13]
    assert "8 trace events for Claim 2" in window.excerpts.summary.text()
    window.excerpts.view.setCurrentIndex(model.index(2))
    assert "triton" not in window.excerpts.detail.toPlainText()
    assert "bench.py --steps 500" in window.excerpts.detail.toPlainText()
    assert "Tied because: runs a command recorded" in window.excerpts.detail.toPlainText()


def test_follow_an_excerpt_into_the_timeline(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    assert window.select_claim(3)
    wait_idle(qtbot, window)
    excerpts = window.excerpts
    row = next(r for r in range(excerpts.model.rowCount()) if excerpts.model.excerpt_at(r).event.kind == "tool_call")
    excerpts.view.setCurrentIndex(excerpts.model.index(row))
    qtbot.mouseClick(excerpts.jump, Qt.MouseButton.LeftButton)
    assert window.side_tabs.currentWidget() is window.timeline
    current = window.timeline.view.currentIndex()
    assert current.data(EventRole.EVENT).sequence == excerpts.model.excerpt_at(row).sequence
    assert "robustness.py" in window.timeline.detail.toPlainText()


def long_trace_logbook(tmp_path: Path, events: int = 3000) -> Path:
    draft = LogbookDraft("Long trace")
    draft.page("Claim 1: Late run").run(["python", "late.py"], "done")
    root = draft.write(tmp_path)
    trace = [
        {"sequence": s, "kind": "reasoning", "title": "Thought", "text": f"thinking {s}"} for s in range(1, events)
    ]
    trace.append({"sequence": events, "kind": "tool_call", "title": "Bash", "call_id": "c",
                  "input": json.dumps({"command": "python late.py"})})  # fmt: skip
    info = write_trace(root, "long", trace, chunk_size=100)
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["traces"] = [info]
    (root / "logbook.json").write_text(json.dumps(manifest))
    return tmp_path


def test_timeline_indexes_in_a_worker_and_jumps_to_the_last_event(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    window = open_window(long_trace_logbook(tmp_path))
    model = window.timeline.model
    qtbot.waitUntil(lambda: model.index_ is not None and model.index_.complete, timeout=10_000)
    assert model.rowCount() == 3000 and model.row_of_sequence(1500) == 1499
    excerpts = [window.excerpts.model.excerpt_at(r) for r in range(window.excerpts.model.rowCount())]
    assert [e.sequence for e in excerpts] == [2998, 2999, 3000]  # the call and the two thoughts before it
    excerpt = excerpts[-1]
    assert RUNS_ON_PAGE in excerpt.reasons
    window.jump_to_event(excerpt)
    qtbot.waitUntil(lambda: window.timeline.view.currentIndex().isValid(), timeout=10_000)
    assert window.timeline.view.currentIndex().data(EventRole.EVENT).sequence == 3000
    assert "python late.py" in window.timeline.detail.toPlainText()


def test_missing_trace_files_are_explained(qtbot: QtBot, open_window: OpenWindow, corpus: Path) -> None:
    window = open_window(corpus / "will-rice__icml-2026-reproductions__dimension-free-diffusion-gmm")
    assert "files are not in this folder" in window.excerpts.summary.text()
    assert not window.excerpts.view.isVisibleTo(window)
    window.actions_by_name["show_timeline"].trigger()
    assert "372 events" in window.timeline.info.text() and window.timeline.model.rowCount() == 0
