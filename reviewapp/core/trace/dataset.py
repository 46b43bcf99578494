"""The Hub traces dataset a published logbook names in `traces_ref`, fetched only when the trace pane opens.

Trackio publishes one `<session-id>.jsonl` per session at the dataset's root (the raw transcript, or a Pi v3
conversion) and its normalized copy under `trackio/`. Both are downloaded with the Hub source's client into the
Hub's own cache; offline, the last complete download is used.
"""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.io.hub_download import (
    DownloadLimits,
    DownloadMeter,
    HubRepoClient,
    RemoteFile,
    check_size,
    offline_mode,
)
from reviewapp.core.io.source_errors import SourceOffline, SourceUnavailable
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.trace.sessions import TraceSession, dataset_sessions


def trace_files(listing: list[RemoteFile]) -> list[RemoteFile]:
    """What a trace dataset holds for the viewer: root session files and Trackio's normalized copy."""
    return [f for f in listing if ("/" not in f.path and f.path.endswith(".jsonl")) or f.path.startswith("trackio/")]


def fetch_traces_dataset(
    repo_id: str,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    endpoint: str | None = None,
    token: str | None = None,
    cache_dir: Path | None = None,
    limits: DownloadLimits | None = None,
) -> list[TraceSession]:
    """Download (or reuse) the dataset's trace files and return its sessions. Raises SourceOffline (never
    downloaded and offline) or SourceUnavailable."""
    limits = limits or DownloadLimits()
    client = HubRepoClient("dataset", repo_id, endpoint=endpoint, token=token, cache_dir=cache_dir)
    if offline_mode():
        return _cached(client, "HF_HUB_OFFLINE is set")
    try:
        commit = client.resolve(None)
    except SourceOffline:
        return _cached(client, "the Hub cannot be reached")
    files = trace_files(client.list_files(commit))
    if not files:
        raise SourceUnavailable(f"datasets/{repo_id}", "holds no trace files (no <session>.jsonl, no trackio/)")
    check_size(f"datasets/{repo_id}", files, limits)
    meter = DownloadMeter(files, source=f"datasets/{repo_id}", limits=limits, progress=progress, cancel=cancel)
    folder = client.fetch(commit, files, meter)
    client.remember(None, commit, [f.path for f in files], {"traces": True})
    return dataset_sessions(folder)


def _cached(client: HubRepoClient, because: str) -> list[TraceSession]:
    snapshot = client.cached_snapshot(None)
    if snapshot is None:
        raise SourceOffline(f"datasets/{client.repo_id}", f"{because} and its traces were never downloaded")
    return dataset_sessions(snapshot.folder)
