"""Downloading files of a Space or dataset into the Hub's own cache, file by file, with progress, cancel and limits.

    client = HubRepoClient("space", "alice/repro-x")
    commit = client.resolve("main")                          # a commit id; errors name the source
    files = client.list_files(commit)                        # RemoteFile(path, size), recursive
    folder = client.fetch(commit, chosen, meter)             # <HF cache>/spaces--alice--repro-x/snapshots/<commit>/
    cached = client.cached_snapshot("main")                  # the same, offline, when a download completed before

Files go through `huggingface_hub.hf_hub_download` one at a time (pinned to the resolved commit, so a branch that
moves mid-download cannot mix two revisions), into the cache other tools share (HF_HUB_CACHE, else HF_HOME/hub).
The whole open runs inside one `TransferGuard` (io/transfer_guard.py): one deadline for every API call and
file, enforced on the sockets themselves, and byte caps on what is received (a file may not send more than the
listing said it holds), whatever the server announces; commit ids and file ids the server answers are checked
before huggingface_hub builds a cache path from them. Every completed download is recorded in the user data
folder (`downloads/<repo folder>.json`: which revision resolved to which commit, which files), so the same
source opens again from the cache with the network down or `HF_HUB_OFFLINE=1`.

huggingface_hub is imported lazily: it takes a while to import, and only commands that reach the Hub pay for it.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewapp import __version__
from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.paths import DOWNLOAD_RECORDS, hub_cache_dir, user_data_dir
from reviewapp.core.io.source_errors import (
    HOW_TO_LOG_IN,
    SourceAccessDenied,
    SourceNotFound,
    SourceOffline,
    SourceRateLimited,
    SourceRefused,
    SourceTimedOut,
    SourceTooLarge,
    SourceUnavailable,
)
from reviewapp.core.io.transfer_guard import TransferGuard, active_guard, stopped_reason
from reviewapp.core.progress import CancelToken, ProgressCallback

if TYPE_CHECKING:
    from huggingface_hub import HfApi

MB = 1024 * 1024
DEFAULT_MAX_BYTES = 500 * MB
DEFAULT_MAX_SECONDS = 600.0
API_ALLOWANCE = 16 * MB  # bytes received beyond the files' own: listings, API answers, headers
FILE_SLACK = 64 * 1024  # what a file's request may receive beyond its listed size (headers, a redirect)
MAX_LISTING_ENTRIES = 200_000  # a repository listing longer than this is refused, not read to the end
_URL_PREFIXES = {"space": "spaces/", "dataset": "datasets/", "model": ""}


@dataclass(frozen=True)
class DownloadLimits:
    """Per logbook: total bytes and wall-clock seconds, and the size above which a file that is not part of the
    logbook itself (evidence folders, reports, archives next to the pages) is left out as a large binary; the
    entries a listing may have, and the size above which a review file proposed in a pull request is left out."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_seconds: float = DEFAULT_MAX_SECONDS
    max_extra_file_bytes: int = 20 * MB
    max_listing_entries: int = MAX_LISTING_ENTRIES
    max_proposed_file_bytes: int = 16 * MB  # a review file an open pull request adds, above which it is skipped


@dataclass(frozen=True)
class RemoteFile:
    path: str  # POSIX path in the repository
    size: int


@dataclass(frozen=True)
class PullRequestRef:
    num: int
    title: str
    author: str
    url: str

    @property
    def ref(self) -> str:
        return f"refs/pr/{self.num}"


@dataclass(frozen=True)
class CachedSnapshot:
    folder: Path  # the snapshot folder in the Hub cache
    commit: str
    files: list[str]
    downloaded_at: str  # ISO 8601, UTC
    extra: dict[str, Any] = field(default_factory=dict)  # what the caller stored with the download


def hub_endpoint() -> str:
    return (os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")


def offline_mode() -> bool:
    """HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE) set, read now: huggingface_hub reads it only at import."""
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        if os.environ.get(name, "").strip().lower() in ("1", "on", "yes", "true"):
            return True
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def transfer_guard(
    source: str, limits: DownloadLimits, cancel: CancelToken | None = None, *, started: float | None = None
) -> TransferGuard:
    """The guard holding one whole open or download of `source` to `limits` (enter it around every request)."""
    return TransferGuard(
        source,
        max_seconds=limits.max_seconds,
        max_bytes=limits.max_bytes + API_ALLOWANCE,
        cancel=cancel,
        started=started,
    )


def is_commit_id(text: object) -> bool:
    """Forty lower-case hex digits: the only commit id that may become a folder name."""
    return isinstance(text, str) and len(text) == 40 and all(c in "0123456789abcdef" for c in text)


def repo_folder_name(repo_type: str, repo_id: str) -> str:
    """`spaces--OWNER--NAME`: the folder huggingface_hub keeps a repository's cache in."""
    return "--".join([f"{repo_type}s", *repo_id.split("/")])


class DownloadMeter:
    """Counts files and bytes for the progress callback, and enforces the cancel token and the deadline."""

    def __init__(
        self,
        files: Sequence[RemoteFile],
        *,
        source: str,
        limits: DownloadLimits,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        started: float | None = None,
    ) -> None:
        self.source = source
        self.limits = limits
        self.files_total = len(files)
        self.bytes_total = sum(f.size for f in files)
        self.files_done = 0
        self.bytes_done = 0
        self._in_file = 0
        self._progress = progress
        self._cancel = cancel
        self._deadline = (started if started is not None else time.monotonic()) + limits.max_seconds
        self.current = ""

    def receiving(self, path: str, cap: int) -> contextlib.AbstractContextManager[None]:
        """While inside, bytes received for `path` may not pass `cap` (when a transfer guard is active)."""
        guard = active_guard()
        return guard.file(path, cap) if guard is not None else contextlib.nullcontext()

    def add(self, files: Sequence[RemoteFile]) -> None:
        self.files_total += len(files)
        self.bytes_total += sum(f.size for f in files)

    def check(self) -> None:
        if self._cancel is not None:
            self._cancel.check()
        if time.monotonic() > self._deadline:
            raise SourceTimedOut(
                self.source,
                f"the download took longer than {self.limits.max_seconds:.0f} s "
                f"({self.files_done} of {self.files_total} files); the files already downloaded are kept in the "
                "cache, so trying again continues from there (or raise the time limit)",
            )

    def begin(self, path: str) -> None:
        self.check()
        self.current = path
        self._in_file = 0
        self._report()

    def streamed(self, count: int) -> None:
        self._in_file += count
        self._report()
        self.check()

    def finished(self, remote: RemoteFile) -> None:
        self.files_done += 1
        self.bytes_done += remote.size
        self._in_file = 0
        self._report()

    def label(self) -> str:
        done = _megabytes(self.bytes_done + self._in_file)
        return (
            f"{self.files_done} of {self.files_total} files, {done} of {_megabytes(self.bytes_total)}: {self.current}"
        )

    def _report(self) -> None:
        if self._progress is not None:
            self._progress(min(self.bytes_done + self._in_file, self.bytes_total), self.bytes_total, self.label())


class HubRepoClient:
    """One Space or dataset on one endpoint; every failure comes back as a SourceUnavailable naming it."""

    def __init__(
        self,
        repo_type: str,
        repo_id: str,
        *,
        endpoint: str | None = None,
        token: str | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        self.repo_type = repo_type
        self.repo_id = repo_id
        self.endpoint = (endpoint or hub_endpoint()).rstrip("/")
        self.cache_dir = cache_dir or hub_cache_dir()
        self._token = token
        self._api: HfApi | None = None

    @property
    def name(self) -> str:
        return f"{self.repo_type.capitalize()} {self.repo_id}"

    @property
    def storage_folder(self) -> Path:
        return self.cache_dir / repo_folder_name(self.repo_type, self.repo_id)

    @property
    def url(self) -> str:
        return f"{self.endpoint}/{_URL_PREFIXES[self.repo_type]}{self.repo_id}"

    @property
    def api(self) -> HfApi:
        if self._api is None:
            from huggingface_hub import HfApi

            self._api = HfApi(
                endpoint=self.endpoint, token=self._token, library_name="reviewapp", library_version=__version__
            )
        return self._api

    # -- asking the Hub ------------------------------------------------------------------------------------------

    def resolve(self, revision: str | None) -> str:
        """The commit id `revision` (None: the default branch) points to now."""
        with self._translated(revision):
            info = self.api.repo_info(self.repo_id, repo_type=self.repo_type, revision=revision)
        if not info.sha:
            raise SourceRefused(self._named(revision), "the Hub did not say which commit this revision is")
        if not is_commit_id(info.sha):
            shown = str(info.sha)[:80]
            raise SourceRefused(self._named(revision), f"the Hub answered a commit id that is not one ({shown!r})")
        return str(info.sha)

    def list_files(
        self, commit: str, folder: str | None = None, *, max_entries: int = MAX_LISTING_ENTRIES
    ) -> list[RemoteFile]:
        """Every file at `commit` (below `folder`, when given; none when that folder is absent).

        A listing of more than `max_entries` entries (files and folders) is refused once that many were read.
        """
        from huggingface_hub.errors import EntryNotFoundError
        from huggingface_hub.hf_api import RepoFile

        files: list[RemoteFile] = []
        with self._translated(commit):
            try:
                tree = self.api.list_repo_tree(
                    self.repo_id, folder, recursive=True, revision=commit, repo_type=self.repo_type
                )
                for count, entry in enumerate(tree, 1):
                    if count > max_entries:
                        raise SourceTooLarge(
                            self._named(commit),
                            f"its file listing has more than {max_entries:,} entries; not a logbook this app "
                            "can open (nothing was downloaded)",
                        )
                    if isinstance(entry, RepoFile):
                        files.append(RemoteFile(entry.path, int(entry.size or 0)))
            except EntryNotFoundError:
                return []
        return files

    def open_pull_requests(self, most: int = 1000) -> list[PullRequestRef]:
        """The open pull requests, at most `most` of them (the listing is read no further)."""
        found: list[PullRequestRef] = []
        with self._translated(None):
            listing = self.api.get_repo_discussions(
                self.repo_id, repo_type=self.repo_type, discussion_type="pull_request", discussion_status="open"
            )
            for discussion in listing:
                if len(found) >= most:
                    break
                if discussion.is_pull_request:
                    url = f"{self.url}/discussions/{discussion.num}"
                    found.append(PullRequestRef(discussion.num, discussion.title, discussion.author, url))
        return found

    def fetch(self, commit: str, files: Sequence[RemoteFile], meter: DownloadMeter) -> Path:
        """Download `files` at `commit` into the cache, one by one; returns the snapshot folder.

        A file already in the cache costs no transfer. Cancelling or the deadline stops between chunks; files
        completed so far stay in the cache.
        """
        from huggingface_hub import hf_hub_download

        reporter = _reporter_class(meter)
        for remote in files:
            meter.begin(remote.path)
            cap = (remote.size if remote.size > 0 else meter.limits.max_bytes) + FILE_SLACK
            with self._translated(commit), meter.receiving(remote.path, cap):
                hf_hub_download(
                    self.repo_id,
                    remote.path,
                    repo_type=self.repo_type,
                    revision=commit,
                    cache_dir=self.cache_dir,
                    endpoint=self.endpoint,
                    token=self._token,
                    library_name="reviewapp",
                    library_version=__version__,
                    tqdm_class=reporter,
                )
            meter.finished(remote)
        return self.snapshot_folder(commit)

    def snapshot_folder(self, commit: str) -> Path:
        return self.storage_folder / "snapshots" / commit

    # -- the cache -----------------------------------------------------------------------------------------------

    def remember(self, revision: str | None, commit: str, files: Sequence[str], extra: dict[str, Any]) -> None:
        """Record a completed download: `revision` now means `commit`, whose `files` are all in the cache.

        Also writes the cache's own `refs/<branch>` so other tools sharing the cache find the revision.
        """
        record = self._record()
        snapshots = record.setdefault("snapshots", {})
        entry = snapshots.get(commit, {})
        entry.update(
            files=sorted(set(entry.get("files", [])) | set(files)),
            downloaded_at=datetime.now(UTC).isoformat(timespec="seconds"),
            extra={**entry.get("extra", {}), **extra},
        )
        snapshots[commit] = entry
        record.setdefault("revisions", {})[revision or "main"] = commit
        record.update(repo_type=self.repo_type, repo_id=self.repo_id, endpoint=self.endpoint)
        path = self._record_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, (json.dumps(record, indent=1, sort_keys=True) + "\n").encode())
        if revision is None or (not _is_commit(revision) and "/" not in revision):
            ref = self.storage_folder / "refs" / (revision or "main")
            try:
                if not ref.is_file() or ref.read_text().strip() != commit:
                    ref.parent.mkdir(parents=True, exist_ok=True)
                    atomic_write(ref, commit.encode())
            except OSError:
                pass  # a read-only shared cache: our own record is enough to reopen offline

    def cached_snapshot(self, revision: str | None) -> CachedSnapshot | None:
        """The completed download `revision` last resolved to, when every one of its files is still cached."""
        record = self._record()
        if revision is not None and _is_commit(revision):
            commit: str | None = revision
        else:
            commit = record.get("revisions", {}).get(revision or "main")
        entry = record.get("snapshots", {}).get(commit) if commit else None
        if commit is None or not isinstance(entry, dict):
            return None
        folder = self.snapshot_folder(commit)
        files = [f for f in entry.get("files", []) if isinstance(f, str)]
        if not folder.is_dir() or not all((folder / f).exists() for f in files):
            return None  # evicted or cleaned since
        return CachedSnapshot(folder, commit, files, str(entry.get("downloaded_at", "")), dict(entry.get("extra", {})))

    def _record_path(self) -> Path:
        return user_data_dir() / DOWNLOAD_RECORDS / f"{repo_folder_name(self.repo_type, self.repo_id)}.json"

    def _record(self) -> dict[str, Any]:
        try:
            data = json.loads(self._record_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    # -- errors --------------------------------------------------------------------------------------------------

    def _named(self, revision: str | None) -> str:
        return f"{self.name}@{revision[:12] if _is_commit(revision) else revision}" if revision else self.name

    def _translated(self, revision: str | None) -> _Translate:
        return _Translate(self, self._named(revision))

    def logged_in(self) -> bool:
        if self._token:
            return True
        from huggingface_hub import get_token

        return get_token() is not None


class _Translate:
    """Context manager turning huggingface_hub and network exceptions into SourceUnavailable errors."""

    def __init__(self, client: HubRepoClient, source: str) -> None:
        self.client = client
        self.source = source

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None or isinstance(exc, SourceUnavailable) or not isinstance(exc, Exception):
            return
        stopped = stopped_reason()
        if stopped is not None and stopped is not exc:  # the guard cut the transfer: say why, not how it broke
            raise stopped from exc
        translated = translate_hub_error(
            exc, self.source, endpoint=self.client.endpoint, logged_in=self.client.logged_in
        )
        if translated is not None:
            raise translated from exc


def translate_hub_error(
    exc: Exception, source: str, *, endpoint: str, logged_in: Callable[[], bool]
) -> SourceUnavailable | None:
    """The user-facing error for a huggingface_hub or network exception, or None when it is neither."""
    import httpx2
    from huggingface_hub.errors import (
        GatedRepoError,
        HfHubHTTPError,
        OfflineModeIsEnabled,
        RepositoryNotFoundError,
        RevisionNotFoundError,
    )

    if isinstance(exc, OfflineModeIsEnabled):
        return SourceOffline(source, "HF_HUB_OFFLINE is set and there is no complete cached copy")
    if isinstance(exc, httpx2.TimeoutException | httpx2.NetworkError | httpx2.RemoteProtocolError):
        return SourceOffline(source, f"cannot reach {endpoint} ({type(exc).__name__}); no cached copy to open instead")
    if isinstance(exc, GatedRepoError):
        return SourceAccessDenied(
            source, f"gated: request access on its page, then {HOW_TO_LOG_IN} with the account that was granted it"
        )
    if isinstance(exc, RevisionNotFoundError):
        return SourceNotFound(source, "no such revision (branch, tag, pull request or commit)")
    if isinstance(exc, RepositoryNotFoundError):
        if exc.response is not None and exc.response.status_code == 401 and not logged_in():
            return SourceAccessDenied(source, f"not found, or private: {HOW_TO_LOG_IN}")
        return SourceNotFound(source, "not found (or private, and your account cannot see it)")
    if isinstance(exc, HfHubHTTPError) and exc.response is not None:
        status = exc.response.status_code
        if status == 429:
            return SourceRateLimited(source, retry_after_seconds(exc.response.headers))
        if status in (401, 403):
            hint = HOW_TO_LOG_IN if not logged_in() else "your account has no access to it"
            return SourceAccessDenied(source, f"access refused ({status}): {hint}")
        if status == 404:
            return SourceNotFound(source, "not found")
        message = exc.response.headers.get("X-Error-Message") or str(exc).splitlines()[0]
        return SourceRefused(source, f"the Hub answered {status}: {message}")
    return None


def retry_after_seconds(headers: Any) -> int | None:
    """Seconds to wait from `Retry-After` or the IETF `RateLimit` header the Hub sends."""
    from huggingface_hub.utils import parse_ratelimit_headers

    value = headers.get("Retry-After") if headers is not None else None
    if value is not None and str(value).strip().isdigit():
        return int(str(value).strip())
    try:
        info = parse_ratelimit_headers(headers)
    except Exception:  # a malformed header must not hide the rate limit itself
        info = None
    return info.reset_in_seconds if info is not None else None


def check_size(source: str, files: Sequence[RemoteFile], limits: DownloadLimits) -> None:
    total = sum(f.size for f in files)
    if total > limits.max_bytes:
        raise SourceTooLarge(
            source,
            f"the logbook's files are {_megabytes(total)} in {len(files)} files, over the "
            f"{_megabytes(limits.max_bytes)} limit; nothing was downloaded (raise the limit to open it)",
        )


def _reporter_class(meter: DownloadMeter) -> type:
    """A tqdm stand-in for hf_hub_download: forwards streamed bytes to the meter, which may stop the download."""

    class _Reporter:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.n = int(kwargs.get("initial") or 0)

        def __enter__(self) -> _Reporter:
            return self

        def __exit__(self, *exc: object) -> None:
            return None

        def update(self, count: float | None = 1) -> None:
            meter.streamed(int(count or 0))

        def close(self) -> None:
            return None

        def set_postfix_str(self, *args: Any, **kwargs: Any) -> None:
            return None

    return _Reporter


def _is_commit(revision: str | None) -> bool:
    return is_commit_id(revision)


def _megabytes(count: int) -> str:
    if count < MB:
        return f"{count / 1024:.0f} KB" if count >= 1024 else f"{count} bytes"
    return f"{count / MB:.1f} MB"
