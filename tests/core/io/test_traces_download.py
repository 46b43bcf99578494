"""The traces dataset a published logbook names, fetched on demand from the loopback Hub."""

from __future__ import annotations

import json

import pytest

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.safepath import resolve_inside
from reviewapp.core.io.source_errors import SourceAccessDenied, SourceNotFound, SourceOffline, SourceTooLarge
from reviewapp.core.io.traces_download import download_traces, traces_ref_of
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

DATASET = "alice/repro-x-traces"
SESSION = '{"type": "session", "harness": "trackio", "id": "s1", "name": "run"}\n'
FILES = {
    "s1.jsonl": SESSION,
    "trackio/index.json": json.dumps({"sessions": [{"id": "s1", "index_file": "trackio/traces/s1/index.json"}]}),
    "trackio/traces/s1/index.json": json.dumps({"chunks": [{"file": "trackio/traces/s1/events-0000.json"}]}),
    "trackio/traces/s1/events-0000.json": json.dumps({"events": []}),
}
REF = {
    "repo_id": DATASET,
    "repo_type": "dataset",
    "repo_url": f"https://huggingface.co/datasets/{DATASET}",
    "private": True,
    "viewer_path": "trackio/index.json",
}


def test_the_traces_dataset_downloads_and_reopens_offline(
    hub_server: HubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub_server.create_repo(DATASET, repo_type="dataset", files=FILES, private=True, readers=["judge"])
    with pytest.raises(SourceAccessDenied, match="hf auth login"):
        download_traces(REF)
    monkeypatch.setenv("HF_TOKEN", hub_server.add_user("judge"))
    seen: list[str] = []

    got = download_traces(REF, progress=lambda done, total, label: seen.append(label))

    assert got.commit == hub_server.head(DATASET, repo_type="dataset") and not got.cached
    assert got.index is not None and json.loads(got.index.read_text())["sessions"][0]["id"] == "s1"
    assert [p.name for p in got.session_files] == ["s1.jsonl"]
    assert resolve_inside(got.folder, "trackio/traces/s1/events-0000.json").is_file()  # blobs are contained
    assert seen and seen[-1].startswith("5 of 5 files")  # the Hub's .gitattributes comes along
    hub_server.stop()
    again = download_traces(f"https://huggingface.co/datasets/{DATASET}")
    assert again.cached and again.folder == got.folder and again.index == got.index


def test_traces_refs_that_name_no_dataset_and_limits(hub_server: HubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SourceNotFound):
        traces_ref_of({"repo_id": "x/y", "repo_type": "bucket"})
    with pytest.raises(SourceNotFound):
        traces_ref_of("not a repo")
    assert traces_ref_of("datasets/a/b-traces").repo_id == "a/b-traces"
    hub_server.create_repo(DATASET, repo_type="dataset", files=FILES)
    with pytest.raises(SourceTooLarge):
        download_traces(DATASET, limits=DownloadLimits(max_bytes=10))
    monkeypatch.setenv("HF_TOKEN", hub_server.add_user("judge"))
    with pytest.raises(SourceNotFound, match="Dataset alice/gone: not found"):
        download_traces("alice/gone")
    hub_server.stop()
    with pytest.raises(SourceOffline, match="never downloaded"):
        download_traces("alice/other-traces")
