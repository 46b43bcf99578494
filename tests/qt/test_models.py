"""Every Qt model passes Qt's own model tester (pytest-qt's qtmodeltester) over real logbook data."""

from __future__ import annotations

from pathlib import Path

from pytestqt.modeltest import ModelTester

from reviewapp.core.logbook.artifacts import list_artifacts
from reviewapp.core.logbook.raw_data import parse_raw_table
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.trace.excerpts import index_excerpts
from reviewapp.core.trace.index import EventFilter
from reviewapp.core.trace.sessions import list_sessions
from reviewapp.qt.models.artifact_table import ArtifactTableModel
from reviewapp.qt.models.claim_table import ClaimFilterProxy, ClaimTableModel
from reviewapp.qt.models.page_tree_model import PageTreeModel
from reviewapp.qt.models.raw_table import RawTableModel
from reviewapp.qt.models.trace_events import ExcerptModel, TraceEventModel
from reviewapp.qt.workers import TaskRunner


def test_claim_models(qtmodeltester: ModelTester, demo_logbook: Path) -> None:
    logbook = read_logbook(demo_logbook)
    workspace = ReviewWorkspace()
    model = ClaimTableModel()
    model.set_rows(workspace.rows(workspace.add(logbook)))
    qtmodeltester.check(model)
    proxy = ClaimFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filters(None, True, None)
    qtmodeltester.check(proxy)
    assert proxy.rowCount() == 1


def test_page_tree_model(qtmodeltester: ModelTester, corpus: Path) -> None:
    model = PageTreeModel()
    model.set_logbook(read_logbook(corpus / "Auenchanters__ICML-2026"))
    qtmodeltester.check(model)
    assert model.rowCount() == 10 and model.page_at(model.index_of("conclusion")).slug == "conclusion"


def test_trace_and_excerpt_models(qtmodeltester: ModelTester, demo_logbook: Path) -> None:
    logbook = read_logbook(demo_logbook)
    timeline = TraceEventModel(TaskRunner(1))
    session = list_sessions(logbook, [])[0]
    index = session.open_index()
    timeline.set_index(session, index)
    assert timeline.rowCount() == 0
    index.build()
    timeline.grow()
    qtmodeltester.check(timeline)
    assert timeline.rowCount() == 23 and timeline.event_at(22).sequence == 23
    timeline.set_rows(index.filter(EventFilter(kinds=frozenset({"tool_call"}))))
    qtmodeltester.check(timeline)
    assert all(timeline.event_at(r).kind == "tool_call" for r in range(timeline.rowCount()))
    excerpts = ExcerptModel()
    excerpts.set_excerpts(index_excerpts(logbook).for_claim(logbook.claims[0].key))
    qtmodeltester.check(excerpts)


def test_table_models(qtmodeltester: ModelTester, demo_logbook: Path) -> None:
    logbook = read_logbook(demo_logbook)
    artifacts = ArtifactTableModel()
    artifacts.set_entries(logbook, list_artifacts(logbook))
    qtmodeltester.check(artifacts)
    table = parse_raw_table("a,b\n1,2\n3,4")
    assert table is not None
    raw = RawTableModel(table)
    qtmodeltester.check(raw)
    assert raw.index(1, 1).data() == "4"
