"""The Hub traces dataset a published logbook names in `traces_ref`, read as sessions when the trace pane opens.

Trackio publishes one `<session-id>.jsonl` per session at the dataset's root (the raw transcript, or a Pi v3
conversion) and its normalized copy under `trackio/`. The dataset is downloaded by `download_traces`, the same
download every Hub source uses (limits, progress, cancel, the Hub's own cache, the last complete download
reopened offline); this module only turns the downloaded folder into sessions.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_errors import SourceUnavailable
from reviewapp.core.io.traces_download import TracesRef, download_traces
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.trace.sessions import TraceSession, dataset_sessions


def fetch_traces_dataset(
    traces_ref: Mapping[str, Any] | str | TracesRef,
    *,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    endpoint: str | None = None,
    token: str | None = None,
    cache_dir: Path | None = None,
    limits: DownloadLimits | None = None,
) -> list[TraceSession]:
    """Download (or reopen from the cache) the dataset and return its sessions.

    Raises what `download_traces` raises (SourceOffline when it was never downloaded and the Hub cannot be
    reached, SourceAccessDenied, SourceTooLarge, ...), and SourceUnavailable when it holds no session.
    """
    got = download_traces(
        traces_ref, limits=limits, progress=progress, cancel=cancel, endpoint=endpoint, token=token, cache_dir=cache_dir
    )
    viewer = Path(got.viewer_path).parent.as_posix()
    sessions = dataset_sessions(got.folder, viewer if viewer not in ("", ".") else "trackio")
    if not sessions:
        raise SourceUnavailable(f"Traces dataset {got.repo_id}", "holds no session (no <session>.jsonl, no trackio/)")
    return sessions
