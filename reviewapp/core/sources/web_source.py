"""Opening a published logbook from its static URL: `logbook.json` first, then every file it names.

A web server cannot list a folder, so only what the manifest names is visible: its pages (walking `children`),
trace indexes and their event chunks, `workspace.json`. Pages on disk that the manifest leaves out (orphans),
`reviews/` and pair sets are invisible at a URL; the opened source says so in a note. Paths that leave the
logbook (`../`, absolute, other hosts) are refused, never fetched, and so is a redirect to another host. The
whole download runs inside one `TransferGuard` (one deadline, byte caps on what is received) and reads at most
`MAX_MANIFEST_FILES` names.

Requests go through huggingface_hub's own HTTP client (`huggingface_hub.utils.get_session`): the project has one
HTTP stack. No token or cookie is sent: this is not the Hub. A complete download is kept in the user data
folder (`downloads/web/<hash>/`) and replaced only by the next complete one, so the URL reopens offline.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from collections import deque
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.hub_download import (
    FILE_SLACK,
    DownloadLimits,
    DownloadMeter,
    RemoteFile,
    offline_mode,
    retry_after_seconds,
    transfer_guard,
)
from reviewapp.core.io.paths import DOWNLOAD_RECORDS, user_data_dir
from reviewapp.core.io.source_errors import (
    NotALogbookSource,
    SourceAccessDenied,
    SourceNotFound,
    SourceOffline,
    SourceRateLimited,
    SourceRefused,
    SourceTooLarge,
    SourceUnavailable,
)
from reviewapp.core.io.source_ref import SourceRef
from reviewapp.core.io.transfer_guard import active_guard, stopped_reason
from reviewapp.core.progress import Cancelled, CancelToken, ProgressCallback
from reviewapp.core.sources.opened import OpenedSource

MANIFEST = "logbook.json"
MAX_JSON_BYTES = 64 * 1024 * 1024
MAX_MANIFEST_FILES = 50_000  # names read from a manifest and its trace indexes; more is refused
MAX_REDIRECTS = 5
MAX_PATH_CHARS = 1024
MAX_NAME_BYTES = 255  # one path component: what file systems hold
MANIFEST_NOTE = (
    "read through its manifest: a published URL shows only the pages logbook.json lists (orphan pages, reviews/ "
    "and pair sets are not visible there; open the Space for those)"
)
OPTIONAL = ("traces/index.json",)  # read when there, whatever the manifest says (it is often emptied)
_TIMEOUT = 30.0
_CHUNK = 64 * 1024


def open_web_source(
    ref: SourceRef,
    *,
    limits: DownloadLimits | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> OpenedSource:
    if ref.url is None:
        raise ValueError(f"not a URL source: {ref.text!r}")
    limits = limits or DownloadLimits()
    place = _place(ref.url)
    if offline_mode():
        return _cached(ref, place, "HF_HUB_OFFLINE is set", never="HF_HUB_OFFLINE is set and it was never downloaded")
    with transfer_guard(ref.url, limits, cancel) as guard:
        fetcher = _Fetcher(ref.url, limits)
        try:
            manifest_bytes = fetcher.get(MANIFEST)
        except SourceOffline as exc:
            return _cached(ref, place, "the server cannot be reached", never=exc.problem)
        except SourceNotFound:
            raise NotALogbookSource(ref.url, "no logbook.json here: not a published logbook") from None
        manifest = _json_object(manifest_bytes)
        if manifest is None or not isinstance(manifest.get("root"), dict):
            raise NotALogbookSource(ref.url, "logbook.json is not a logbook manifest (no page tree)")
        staging = place.with_name(place.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        _write(staging, MANIFEST, manifest_bytes)
        named = _named_paths(manifest, ref.url)
        wanted = [RemoteFile(p, 0) for p in _manifest_files(named)]
        refused = [p for p in named if _safe_path(p) is None]
        meter = DownloadMeter(
            wanted, source=ref.url, limits=limits, progress=progress, cancel=cancel, started=guard.started
        )
        missing: list[str] = []
        unsaved: list[str] = []
        queue = deque(wanted)
        seen = {f.path for f in queue}
        while queue:
            remote = queue.popleft()
            meter.begin(remote.path)
            try:
                data = fetcher.get(remote.path, meter)
            except SourceNotFound:
                if remote.path not in OPTIONAL:
                    missing.append(remote.path)
                meter.finished(remote)
                continue
            meter.finished(RemoteFile(remote.path, len(data)))
            if not _save(staging, remote.path, data):
                unsaved.append(remote.path)
                continue
            for follow in _trace_chunks(remote.path, data):
                if follow not in seen:
                    if len(seen) >= MAX_MANIFEST_FILES:
                        raise _too_many(ref.url)
                    seen.add(follow)
                    queue.append(RemoteFile(follow, 0))
                    meter.add([RemoteFile(follow, 0)])
    notes = [MANIFEST_NOTE]
    if missing:
        notes.append(f"{len(missing)} file(s) the manifest names are missing at the URL: {', '.join(missing[:3])}")
    if refused:
        notes.append(f"{len(refused)} path(s) in the manifest leave the logbook and were not fetched")
    if unsaved:
        notes.append(
            f"{len(unsaved)} file(s) could not be saved (a path that is both a file and a folder, or a name too "
            f"long to store): {', '.join(_elided(p) for p in unsaved[:3])}"
        )
    _commit(staging, place)
    record = {"url": ref.url, "downloaded_at": datetime.now(UTC).isoformat(timespec="seconds"), "notes": notes}
    atomic_write(place.with_suffix(".json"), (json.dumps(record, indent=1) + "\n").encode())
    return _opened(ref, place, record, cached=False)


def open_web_cache(ref: SourceRef, *, because: str, never: str) -> OpenedSource:
    """The last complete download of the URL `ref`, without a request; SourceOffline(`never`) when none."""
    if ref.url is None:
        raise ValueError(f"not a URL source: {ref.text!r}")
    return _cached(ref, _place(ref.url), because, never=never)


def _cached(ref: SourceRef, place: Path, because: str, *, never: str) -> OpenedSource:
    try:
        record = json.loads(place.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = None
    if not isinstance(record, dict) or not (place / MANIFEST).is_file():
        raise SourceOffline(str(ref.url), never)
    return _opened(ref, place, record, cached=True, because=because)


def _opened(
    ref: SourceRef, place: Path, record: dict[str, Any], *, cached: bool, because: str | None = None
) -> OpenedSource:
    notes = [n for n in record.get("notes", []) if isinstance(n, str)]
    return OpenedSource(
        ref,
        place,
        ref.logbook_id,
        cached=cached,
        cached_because=because,
        downloaded_at=str(record.get("downloaded_at") or "") or None,
        notes=notes,
    )


def web_download_folder(url: str) -> Path:
    """Where the complete download of the logbook at `url` (a folder URL) is kept."""
    return _place(url)


def _place(url: str) -> Path:
    digest = hashlib.sha256(url.encode()).hexdigest()[:20]
    host = "".join(c if c.isalnum() or c in ".-" else "_" for c in (urlsplit(url).hostname or "host"))
    return user_data_dir() / DOWNLOAD_RECORDS / "web" / f"{host}-{digest}"


def _commit(staging: Path, place: Path) -> None:
    """Replace the previous complete download with this one (the old one stays until the new one is whole)."""
    old = place.with_name(place.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if place.exists():
        os.replace(place, old)
    os.replace(staging, place)
    shutil.rmtree(old, ignore_errors=True)


class _Fetcher:
    def __init__(self, base: str, limits: DownloadLimits) -> None:
        self.base = base
        self.limits = limits
        self.total = 0

    def url_for(self, path: str) -> str:
        return urljoin(self.base, quote(path, safe="/"))

    def get(self, path: str, meter: DownloadMeter | None = None) -> bytes:
        """The body of `path`, following redirects on the logbook's own host only; the active transfer guard
        holds the deadline and counts the bytes received."""
        import httpx2

        url = self.url_for(path)
        cap = min(MAX_JSON_BYTES, self.limits.max_bytes - self.total)
        guard = active_guard()
        receiving = guard.file(path, cap + FILE_SLACK) if guard is not None else contextlib.nullcontext()
        try:
            with receiving:
                data = self._follow(url, path, cap, meter)
        except (httpx2.TimeoutException, httpx2.NetworkError, httpx2.RemoteProtocolError) as exc:
            raise SourceOffline(self.base, f"cannot reach the server ({type(exc).__name__})") from exc
        except (SourceUnavailable, Cancelled):
            raise
        except Exception as exc:  # OfflineModeIsEnabled, a malformed answer: name the URL, not a traceback
            stopped = stopped_reason()
            if stopped is not None:
                raise stopped from exc
            if type(exc).__name__ == "OfflineModeIsEnabled":
                raise SourceOffline(self.base, "HF_HUB_OFFLINE is set") from exc
            raise SourceRefused(self.base, f"{path}: {exc}") from exc
        self.total += len(data)
        return data

    def _follow(self, url: str, path: str, cap: int, meter: DownloadMeter | None) -> bytes:
        from huggingface_hub.utils import get_session

        for _ in range(MAX_REDIRECTS + 1):
            request = get_session().stream(
                "GET", url, timeout=_TIMEOUT, headers={"Accept": "*/*"}, follow_redirects=False
            )
            with request as response:
                if 300 <= response.status_code < 400:
                    url = self._redirect_target(url, response.status_code, response.headers, path)
                    continue
                self._check_status(response.status_code, response.headers, path)
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes(_CHUNK):
                    size += len(chunk)
                    if size > cap:
                        raise SourceTooLarge(
                            self.base, f"{path} takes the download over the {self.limits.max_bytes:,}-byte limit"
                        )
                    chunks.append(chunk)
                    if meter is not None:
                        meter.streamed(len(chunk))
                return b"".join(chunks)
        raise SourceRefused(self.base, f"{path}: more than {MAX_REDIRECTS} redirects")

    def _redirect_target(self, url: str, status: int, headers: Any, path: str) -> str:
        """Where a redirect of `path` leads, when that is the logbook's own host; otherwise a clear refusal."""
        location = headers.get("Location")
        if not location:
            raise SourceRefused(self.base, f"the server answered {status} for {path} without saying where to go")
        target = urljoin(url, location)
        here, there = urlsplit(self.base), urlsplit(target)
        if (there.scheme, there.hostname, there.port) != (here.scheme, here.hostname, here.port):
            shown = there.hostname or _elided(target)
            raise SourceRefused(self.base, f"{path} redirects to another host ({shown}); not followed")
        return str(target)

    def _check_status(self, status: int, headers: Any, path: str) -> None:
        if status < 400:
            return
        if status == 404 or status == 410:
            raise SourceNotFound(self.base, f"{path} not found")
        if status in (401, 403):
            raise SourceAccessDenied(self.base, f"the server refused access to {path} ({status})")
        if status == 429:
            raise SourceRateLimited(self.base, retry_after_seconds(headers))
        raise SourceRefused(self.base, f"the server answered {status} for {path}")


def _manifest_files(named: list[str]) -> list[str]:
    """The files the manifest names, in the order the viewer reads them, without duplicates or unsafe paths."""
    found: dict[str, None] = {}  # ordered, and a set: a list's `in` made 100,000 names take a minute
    for written in ["pages/index.md", *named, *OPTIONAL]:
        safe = _safe_path(written)
        if safe is not None and safe != MANIFEST:
            found.setdefault(safe)
    return list(found)


def _named_paths(manifest: dict[str, Any], source: str) -> list[str]:
    """Every path the manifest names, pages first (breadth first); refused past MAX_MANIFEST_FILES."""
    named: list[str] = []
    stack = deque([manifest.get("root")])
    while stack:
        node = stack.popleft()
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("file"), str):
            named.append(node["file"])
            if len(named) > MAX_MANIFEST_FILES:
                raise _too_many(source)
        children = node.get("children")
        if isinstance(children, list):
            stack.extend(children)
    traces = manifest.get("traces")
    if isinstance(traces, list) and traces:
        named.append("traces/index.json")
        for entry in traces[: MAX_MANIFEST_FILES + 1]:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                named.append(entry.get("index_file") or f"traces/{entry['id']}/index.json")
    workspace = manifest.get("workspace")
    if isinstance(workspace, dict) and isinstance(workspace.get("file"), str):
        named.append(workspace["file"])
    if len(named) > MAX_MANIFEST_FILES:
        raise _too_many(source)
    return [n for n in named if isinstance(n, str)]


def _too_many(source: str) -> SourceTooLarge:
    return SourceTooLarge(
        source, f"logbook.json and its trace indexes name more than {MAX_MANIFEST_FILES:,} files; not downloaded"
    )


def _trace_chunks(path: str, data: bytes) -> list[str]:
    """Files a trace index names: the sessions' indexes (from `traces/index.json`) or a session's event chunks."""
    if path == "traces/index.json":
        listing = _json_object(data)
        sessions = listing.get("sessions") if listing else None
        named = [
            s.get("index_file") or f"traces/{s['id']}/index.json"
            for s in (sessions if isinstance(sessions, list) else [])
            if isinstance(s, dict) and isinstance(s.get("id"), str)
        ]
        return [safe for f in named if isinstance(f, str) and (safe := _safe_path(f)) is not None]
    if not (path.startswith("traces/") and path.endswith("/index.json")):
        return []
    index = _json_object(data)
    chunks = index.get("chunks") if index else None
    files = [c.get("file") for c in chunks if isinstance(c, dict)] if isinstance(chunks, list) else []
    return [safe for f in files if isinstance(f, str) and (safe := _safe_path(f)) is not None]


def _safe_path(written: str) -> str | None:
    """`written` as a relative POSIX path inside the logbook, or None (absolute, `..`, a URL, a backslash)."""
    text = written.strip()
    if not text or "\\" in text or "\x00" in text or ":" in text or text.startswith("/"):
        return None
    if len(text) > MAX_PATH_CHARS:
        return None
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if not parts or ".." in parts or any(len(p.encode()) > MAX_NAME_BYTES for p in parts):
        return None
    return "/".join(parts)


def _json_object(data: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _write(folder: Path, relative: str, data: bytes) -> None:
    target = folder.joinpath(*relative.split("/"))
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, data)


def _save(folder: Path, relative: str, data: bytes) -> bool:
    """Write one fetched file; False when the path cannot hold it (a page named both as a file and as a
    folder, a name the file system refuses), which becomes a note rather than a failed download."""
    try:
        _write(folder, relative, data)
    except OSError:
        return False
    return True


def _elided(path: str, keep: int = 80) -> str:
    return path if len(path) <= keep else path[: keep - 1] + "…"
