"""`open_source`: one entry point for every SOURCE form (folder, Space, dataset, URL), used by every command."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_ref import SourceRef, parse_source
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.sources.opened import OpenedSource


def open_source(
    source: str | SourceRef,
    *,
    limits: DownloadLimits | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    endpoint: str | None = None,
    token: str | None = None,
    cache_dir: Path | None = None,
) -> OpenedSource:
    """The local folder for `source`, downloading a Space, dataset or URL first (or reopening its cached copy).

    Raises SourceError (io.source_ref) for text that names nothing, SourceUnavailable (io.source_errors) with the
    exit code attached for a source that cannot be had, and Cancelled when `cancel` fires. Run it off the GUI
    thread: it may download for minutes (within `limits`).
    """
    ref = source if isinstance(source, SourceRef) else parse_source(source)
    if ref.kind == "path":
        assert ref.path is not None
        return OpenedSource(ref, ref.path, None)
    if ref.kind == "url":
        from reviewapp.core.sources.web_source import open_web_source

        return open_web_source(ref, limits=limits, progress=progress, cancel=cancel)
    from reviewapp.core.sources.hub_source import open_hub_source

    return open_hub_source(
        ref, limits=limits, progress=progress, cancel=cancel, endpoint=endpoint, token=token, cache_dir=cache_dir
    )
