"""Fetching a published logbook's traces dataset on demand (the manifest's `traces_ref`).

Since Trackio publishes traces outside the Space, a logbook opened from the Hub usually has none of its own; its
`logbook.json` names a dataset instead:

    "traces_ref": {"repo_id": "alice/repro-x-traces", "repo_type": "dataset",
                   "repo_url": "https://huggingface.co/datasets/alice/repro-x-traces",
                   "private": false, "viewer_path": "trackio/index.json"}

    got = download_traces(logbook_manifest["traces_ref"], progress=..., cancel=token)
    got.folder          # the dataset snapshot in the Hub cache: <session-id>.jsonl files and trackio/…
    got.index           # got.folder / "trackio/index.json" when the dataset has it (Trackio's normalized copy)
    got.session_files   # the raw `<session-id>.jsonl` files at the dataset's root

The files land in the Hub cache like every Hub download (so reading them goes through `safepath` with the
dataset's cache folder as containment root), with the same limits, progress, cancel and errors as opening a
logbook; a dataset downloaded before opens from the cache with the network down or HF_HUB_OFFLINE=1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from reviewapp.core.io.hub_download import (
    CachedSnapshot,
    DownloadLimits,
    DownloadMeter,
    HubRepoClient,
    check_size,
    offline_mode,
    transfer_guard,
)
from reviewapp.core.io.source_errors import SourceNotFound, SourceOffline
from reviewapp.core.progress import CancelToken, ProgressCallback

DEFAULT_VIEWER_PATH = "trackio/index.json"
_REPO_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class TracesRef:
    repo_id: str
    viewer_path: str = DEFAULT_VIEWER_PATH
    private: bool | None = None


@dataclass(frozen=True)
class TracesDownload:
    repo_id: str
    commit: str
    folder: Path  # the snapshot folder of the dataset in the Hub cache
    files: list[str]  # paths in the dataset, all present under `folder`
    viewer_path: str
    cached: bool = False  # opened from the cache without the network
    cached_because: str | None = None
    containment_root: Path | None = None  # the dataset's cache folder (its blobs/ hold the bytes)
    notes: list[str] = field(default_factory=list)

    @property
    def index(self) -> Path | None:
        """Trackio's normalized trace index in the dataset, when it has one."""
        return self.folder / self.viewer_path if self.viewer_path in self.files else None

    @property
    def session_files(self) -> list[Path]:
        """The raw `<session-id>.jsonl` files at the dataset's root."""
        return [self.folder / f for f in self.files if "/" not in f and f.endswith(".jsonl")]


def traces_ref_of(value: Mapping[str, Any] | str) -> TracesRef:
    """Read a `traces_ref` object, a `trace_dataset` URL (`…/datasets/OWNER/NAME`) or a bare OWNER/NAME.

    Raises SourceNotFound naming what was given when it names no dataset.
    """
    if isinstance(value, Mapping):
        repo_id = value.get("repo_id")
        kind = value.get("repo_type", "dataset")
        viewer = value.get("viewer_path")
        if not isinstance(repo_id, str) or kind != "dataset" or not _REPO_ID.fullmatch(repo_id.strip()):
            raise SourceNotFound("traces_ref", f"does not name a dataset (repo_id {repo_id!r}, type {kind!r})")
        private = value.get("private")
        return TracesRef(
            repo_id.strip(),
            viewer if isinstance(viewer, str) and viewer.strip() else DEFAULT_VIEWER_PATH,
            private if isinstance(private, bool) else None,
        )
    text = str(value).strip()
    if text.startswith(("http://", "https://")):
        parts = [unquote(p) for p in urlsplit(text).path.split("/") if p]
        if len(parts) >= 3 and parts[0] == "datasets":
            text = f"{parts[1]}/{parts[2]}"
    text = text.removeprefix("datasets/")
    if not _REPO_ID.fullmatch(text):
        raise SourceNotFound(str(value), "is not a traces dataset (OWNER/NAME or its URL)")
    return TracesRef(text)


def download_traces(
    traces_ref: Mapping[str, Any] | str | TracesRef,
    *,
    revision: str | None = None,
    limits: DownloadLimits | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    endpoint: str | None = None,
    token: str | None = None,
    cache_dir: Path | None = None,
) -> TracesDownload:
    """Download (or reopen from the cache) the traces dataset a published logbook names.

    `traces_ref` is the manifest's `traces_ref` object, its `trace_dataset` URL, or OWNER/NAME. Every file of the
    dataset is fetched at one commit (the dataset holds nothing else), within `limits`; `progress(bytes done,
    bytes total, label)` reports files and bytes and `cancel` stops it at once (raising Cancelled).

    Raises SourceUnavailable subclasses naming the dataset: SourceNotFound, SourceAccessDenied (private, most
    traces datasets are: the message says to log in with `hf auth login`), SourceRateLimited (with when to
    retry), SourceOffline (no network and no cached copy), SourceTooLarge, SourceTimedOut. Call it off the GUI
    thread.
    """
    ref = traces_ref if isinstance(traces_ref, TracesRef) else traces_ref_of(traces_ref)
    limits = limits or DownloadLimits()
    client = HubRepoClient("dataset", ref.repo_id, endpoint=endpoint, token=token, cache_dir=cache_dir)
    name = f"Traces dataset {ref.repo_id}"
    if offline_mode():
        return _cached(ref, client, revision, "HF_HUB_OFFLINE is set")
    with transfer_guard(name, limits, cancel) as guard:
        try:
            commit = client.resolve(revision)
        except SourceOffline:
            return _cached(ref, client, revision, "the Hub cannot be reached")
        files = client.list_files(commit, max_entries=limits.max_listing_entries)
        check_size(name, files, limits)
        meter = DownloadMeter(
            files, source=name, limits=limits, progress=progress, cancel=cancel, started=guard.started
        )
        client.fetch(commit, files, meter)
    client.remember(revision, commit, [f.path for f in files], {"viewer_path": ref.viewer_path})
    return TracesDownload(
        ref.repo_id,
        commit,
        client.snapshot_folder(commit),
        sorted(f.path for f in files),
        ref.viewer_path,
        containment_root=client.storage_folder,
    )


def _cached(ref: TracesRef, client: HubRepoClient, revision: str | None, because: str) -> TracesDownload:
    snapshot: CachedSnapshot | None = client.cached_snapshot(revision)
    if snapshot is None:
        raise SourceOffline(f"Traces dataset {ref.repo_id}", f"{because}, and it was never downloaded")
    return TracesDownload(
        ref.repo_id,
        snapshot.commit,
        snapshot.folder,
        sorted(snapshot.files),
        ref.viewer_path,
        cached=True,
        cached_because=because,
        containment_root=client.storage_folder,
    )
