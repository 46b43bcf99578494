"""The right pane on logbooks without a trace, the published traces dataset fetched only when the timeline opens,
and unreadable lines named in the timeline while the rest of the transcript loads."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.qt import theme
from reviewapp.qt.models.trace_events import EventRole
from tests.core.trace_fixtures import claude_records, pi_records, write_jsonl
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle
from tests.qt.test_trace_timeline import attach, indexed
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

DATASET = "alice/repro-widgets-traces"


def traceless_logbook(folder: Path, traces_ref: dict[str, object] | None = None) -> Path:
    """A logbook whose manifest lists no session (as most committed logbooks), optionally naming a dataset."""
    draft = LogbookDraft("Widgets at scale")
    draft.page("Claim 1: Widgets scale").run(["python", "exp_1.py"], "loss 0.25")
    root = draft.write(folder)
    if traces_ref is not None:
        manifest = json.loads((root / "logbook.json").read_text())
        manifest["traces_ref"] = traces_ref
        (root / "logbook.json").write_text(json.dumps(manifest))
    return folder


def test_the_pane_collapses_without_a_trace_and_view_trace_offers_to_attach_one(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, demo_logbook: Path, screenshots: Screenshots
) -> None:
    window = open_window(traceless_logbook(tmp_path / "plain"))
    toggle = window.actions_by_name["toggle_side_pane"]
    assert window.side_tabs.isHidden() and not toggle.isChecked()

    # View > Full Trace Timeline brings it back, saying why it is empty and offering to attach a transcript
    view_menu = next(m for m in window.menuBar().findChildren(QMenu) if m.title() == "&View")
    labels = [a.text() for a in view_menu.actions()]
    assert labels.index("Attach a &Transcript…") == labels.index("Full Trace &Timeline") + 1
    window.actions_by_name["show_timeline"].trigger()
    timeline = window.timeline
    assert not window.side_tabs.isHidden() and toggle.isChecked() and window.side_tabs.currentWidget() is timeline
    assert timeline.empty_state.isVisible() and not timeline.body.isVisible()
    assert timeline.attach_empty.isVisible() and timeline.attach_empty.text() == "Attach a transcript…"
    assert "lists no agent session and names no traces dataset" in timeline.empty_text.text()
    wait_idle(qtbot, window)
    screenshots.take(window, "trace-pane-empty-light")

    attach(qtbot, window, write_jsonl(tmp_path / "claude.jsonl", claude_records()))
    assert timeline.body.isVisible() and not timeline.empty_state.isVisible()
    assert timeline.model.rowCount() == timeline.model.index_.count > 10
    timeline.select_position(3)
    screenshots.take(window, "trace-timeline-attached-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    wait_idle(qtbot, window)
    screenshots.take(window, "trace-timeline-attached-dark")
    theme.manager().apply(theme.ThemeChoice.LIGHT)

    # a logbook with a trace after one that was collapsed for lacking it: the pane comes back by itself
    window.controller.open(traceless_logbook(tmp_path / "plain-2"))
    qtbot.waitUntil(lambda: window.side_tabs.isHidden(), timeout=60_000)
    with qtbot.waitSignal(window.controller.loaded, timeout=60_000):
        window.controller.open(demo_logbook)
    wait_idle(qtbot, window)
    assert not window.side_tabs.isHidden() and toggle.isChecked()

    # a collapse is not remembered as the reviewer's choice; closing the pane by hand is
    window.controller.open(traceless_logbook(tmp_path / "plain-3"))
    qtbot.waitUntil(lambda: window.side_tabs.isHidden(), timeout=60_000)
    wait_idle(qtbot, window)
    window.close()
    again = open_window(demo_logbook)
    assert not again.side_tabs.isHidden()
    again.actions_by_name["toggle_side_pane"].trigger()
    again.close()
    third = open_window(demo_logbook)
    assert third.side_tabs.isHidden()


def test_the_traces_dataset_is_fetched_when_the_timeline_is_first_shown(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path
) -> None:
    session = "\n".join(json.dumps(r) for r in pi_records()) + "\n"
    hub_server.create_repo(DATASET, repo_type="dataset", files={"sess-pi.jsonl": session, "README.md": "traces\n"})
    reference = {"repo_id": DATASET, "repo_type": "dataset", "viewer_path": "trackio/index.json"}
    window = open_window(traceless_logbook(tmp_path / "published", reference))
    timeline = window.timeline

    def dataset_requests() -> list[str]:
        return [r.path for r in hub_server.requests if DATASET in r.path]

    assert not window.side_tabs.isHidden()  # a named dataset is a trace to show: the pane stays
    assert window.side_tabs.currentWidget() is not timeline
    window.actions_by_name["show_excerpts"].trigger()
    window.actions_by_name["show_artifacts"].trigger()
    wait_idle(qtbot, window)
    assert dataset_requests() == []  # never up front
    assert "fetched from the Hub when this tab is shown" in timeline.empty_text.text()

    window.actions_by_name["show_timeline"].trigger()
    qtbot.waitUntil(lambda: timeline.session is not None, timeout=60_000)
    indexed(qtbot, window)
    assert timeline.session.id == "sess-pi" and timeline.model.index_.format == "Pi"
    assert any("/resolve/" in p and p.endswith("sess-pi.jsonl") for p in dataset_requests())
    asked = len(dataset_requests())
    window.actions_by_name["show_artifacts"].trigger()
    window.actions_by_name["show_timeline"].trigger()
    wait_idle(qtbot, window)
    assert len(dataset_requests()) == asked  # once per logbook


def test_unreadable_lines_are_named_and_the_rest_of_the_transcript_loads(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    records = claude_records()
    lines = [json.dumps(r) for r in records[:3]] + ["{not json"] + [json.dumps(r) for r in records[3:]]
    file = write_jsonl(tmp_path / "broken.jsonl", lines, tail='{"type": "assistant", "mess')
    window = open_window(traceless_logbook(tmp_path / "plain"))
    attach(qtbot, window, file)
    timeline, model = window.timeline, window.timeline.model
    last_line = len(lines) + 1
    assert f"2 unreadable: broken.jsonl:4, broken.jsonl:{last_line}" in timeline.info.text()
    assert "broken.jsonl:4" in window.statusBar().currentMessage()
    bad = [r for r in range(model.rowCount()) if model.index(r).data(EventRole.EVENT).title.startswith("Unreadable")]
    assert [model.event_at(r).record for r in bad] == [4, last_line]
    assert all(model.index(r).data(EventRole.ERROR) for r in bad)
    assert sum(1 for r in range(model.rowCount()) if model.event_at(r).kind == "tool_call") >= 2  # after line 4
    unknown = next(r for r in range(model.rowCount()) if model.event_at(r).kind == "other")
    assert model.index(unknown).data(EventRole.KIND) == "RECORD"  # an unknown record type is shown, not dropped
    timeline.errors_only.click()
    qtbot.waitUntil(lambda: model.rowCount() == 3, timeout=10_000)  # two unreadable lines and one failed result
    timeline.view.setFocus()
    qtbot.keyClick(timeline.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert "truncated last line" in timeline.detail.toPlainText()
