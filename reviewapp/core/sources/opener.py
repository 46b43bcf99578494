"""`open_source`: one entry point for every SOURCE form (folder, Space, dataset, URL), used by every command.

A remote source that fails in a way nobody foresaw (an answer huggingface_hub refuses, a name the file system
cannot hold) still fails as a SourceUnavailable naming it, so a queue, a paper or a listing marks that one row
and goes on; `open_cached` reopens the last complete download without any request.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.source_errors import SourceOffline, SourceRefused, SourceUnavailable
from reviewapp.core.io.source_ref import SourceRef, parse_source
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
from reviewapp.core.sources.opened import OpenedSource

if TYPE_CHECKING:  # the Hub download code is imported only when a source is downloaded, not for a folder
    from reviewapp.core.io.hub_download import DownloadLimits

MAX_SAID = 300  # characters of an unforeseen error's own message kept in ours


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
    try:
        if ref.kind == "url":
            from reviewapp.core.sources.web_source import open_web_source

            return open_web_source(ref, limits=limits, progress=progress, cancel=cancel)
        from reviewapp.core.sources.hub_source import open_hub_source

        return open_hub_source(
            ref, limits=limits, progress=progress, cancel=cancel, endpoint=endpoint, token=token, cache_dir=cache_dir
        )
    except (SourceUnavailable, Cancelled):
        raise
    except Exception as exc:  # what the server sent broke something below: this source's problem, not a crash
        import logging  # only here: a folder opens without importing logging

        logging.getLogger(__name__).warning("opening %s failed unexpectedly", ref.describe(), exc_info=True)
        raise SourceRefused(ref.describe(), f"could not be opened: {unforeseen(exc)}") from exc


def open_cached(source: str | SourceRef, *, endpoint: str | None = None, cache_dir: Path | None = None) -> OpenedSource:
    """The last complete download of a Space, dataset or URL, without asking any server (a folder as it is).

    Raises SourceOffline naming the source when it was never downloaded completely.
    """
    ref = source if isinstance(source, SourceRef) else parse_source(source)
    if ref.kind == "path":
        assert ref.path is not None
        return OpenedSource(ref, ref.path, None)
    never = "not downloaded yet (open it once, or allow downloads)"
    because = "downloads are not allowed here"
    if ref.kind == "url":
        from reviewapp.core.sources.web_source import open_web_cache

        return open_web_cache(ref, because=because, never=never)
    from reviewapp.core.io.hub_download import HubRepoClient
    from reviewapp.core.sources.hub_source import open_hub_cache

    if ref.repo_id is None:
        raise SourceOffline(ref.describe(), never)
    client = HubRepoClient(ref.kind, ref.repo_id, endpoint=endpoint, cache_dir=cache_dir)
    return open_hub_cache(ref, client, because=because, never=never)


def unforeseen(exc: BaseException) -> str:
    """An unexpected error's type and first line, short enough for a row."""
    lines = str(exc).strip().splitlines()
    said = f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__
    return said if len(said) <= MAX_SAID else said[: MAX_SAID - 1] + "…"
