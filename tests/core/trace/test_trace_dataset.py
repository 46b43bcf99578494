"""A published logbook's traces dataset (`traces_ref`), fetched from the loopback Hub with the real client."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.io.source_errors import SourceOffline
from reviewapp.core.trace.dataset import fetch_traces_dataset
from reviewapp.core.trace.sessions import traces_ref
from tests.core.trace_fixtures import pi_records
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

DATASET = "alice/repro-widgets-traces"


def dataset_files() -> dict[str, str]:
    events = [
        {"sequence": n, "kind": "tool_call" if n % 2 else "tool_result", "title": "Bash", "call_id": f"c{(n + 1) // 2}",
         "input": "{\"command\": \"ls\"}", "output": "ok"}
        for n in range(1, 5)
    ]  # fmt: skip
    session_index = {
        "schema_version": 1, "id": "sess-a", "event_count": 4,
        "chunks": [{"file": "traces/sess-a/events-0000.json", "count": 4, "first_sequence": 1, "last_sequence": 4}],
    }  # fmt: skip
    return {
        "README.md": "---\nviewer_mode: traces\n---\n",
        "sess-a.jsonl": "\n".join(json.dumps(r) for r in pi_records()) + "\n",
        "sess-b.jsonl": "\n".join(json.dumps(r) for r in pi_records()) + "\n",
        "trackio/index.json": json.dumps({"schema_version": 1, "sessions": [{"id": "sess-a", "title": "A"}]}),
        "trackio/traces/sess-a/index.json": json.dumps(session_index),
        "trackio/traces/sess-a/events-0000.json": json.dumps({"events": events}),
        "other/ignored.bin": "x" * 100,
    }


def test_traces_dataset_is_fetched_and_then_read_offline(
    hub_server: HubServer, hf_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub_server.create_repo(DATASET, repo_type="dataset", files=dataset_files())
    sessions = fetch_traces_dataset(DATASET, endpoint=hub_server.endpoint, cache_dir=hf_home / "hub")
    assert [s.id for s in sessions] == ["sess-a", "sess-b"]
    normalized, raw = sessions
    assert normalized.trace is not None and normalized.readable and normalized.transcript is None
    index = normalized.open_index()
    index.build()
    assert index.count == 4 and index.paired(0) == 1
    assert raw.transcript is not None and raw.readable
    raw_index = raw.open_index()
    raw_index.build()
    assert raw_index.format == "Pi"
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    again = fetch_traces_dataset(DATASET, endpoint=hub_server.endpoint, cache_dir=hf_home / "hub")
    assert [s.id for s in again] == ["sess-a", "sess-b"]
    with pytest.raises(SourceOffline, match="never downloaded"):
        fetch_traces_dataset("alice/never-fetched", endpoint=hub_server.endpoint, cache_dir=hf_home / "hub")


def test_traces_ref_names_a_dataset_only(tmp_path: Path) -> None:
    from reviewapp.core.logbook.demo import write_demo
    from reviewapp.core.logbook.reader import read_logbook

    logbook = read_logbook(write_demo(tmp_path / "demo"))
    logbook.manifest = {"traces_ref": {"repo_id": DATASET, "repo_type": "dataset", "viewer_path": "trackio/index.json"}}
    assert traces_ref(logbook) == DATASET
    logbook.manifest = {"traces_ref": {"repo_id": "x/y", "repo_type": "bucket"}}
    assert traces_ref(logbook) is None
