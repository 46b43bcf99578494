"""Which revision of a logbook a reviewer looked at: the git HEAD of the checkout holding it, or the Space commit
it was downloaded at.

`hf download --local-dir D` / `snapshot_download(local_dir=D)` leave one `D/.cache/huggingface/download/<path>.metadata`
per file, whose first line is the commit the file was downloaded at (huggingface_hub `_local_folder.py`). Reading
those needs no network and no huggingface_hub import.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.io import gitcmd
from reviewapp.core.io.safepath import UnsafeReference, hub_repo_folder, read_head, read_inside

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_METADATA_SCAN_LIMIT = 5000
_SNAPSHOT_FILE_LIMIT = 256 * 1024 * 1024  # a review file is far smaller; past this it is not one
_METADATA_HEAD = 4096  # commit, etag and timestamp lines; the rest of a file is never needed


@dataclass(frozen=True)
class LogbookRevision:
    git_head: str | None
    space_sha: str | None


def logbook_revision(root: Path) -> LogbookRevision:
    return LogbookRevision(git_head(root), space_sha(root))


def git_head(root: Path) -> str | None:
    """HEAD of the git checkout that tracks the logbook's pages; None outside git or when the pages are untracked.

    The tracked-pages check keeps an unrelated enclosing repository (a home folder under git) from being named.
    """
    try:
        head = gitcmd.run(["rev-parse", "--verify", "--quiet", "HEAD"], root, timeout=5)
        if not head.ok or not _SHA.fullmatch(head.stdout.strip()):
            return None
        tracked = gitcmd.run(["ls-files", "-z", "--", "pages"], root, timeout=5)
    except gitcmd.GitError:
        return None
    return head.stdout.strip() if tracked.ok and tracked.stdout.strip("\0") else None


def hub_snapshot_commit(root: Path) -> str | None:
    """The commit of the Hub cache snapshot (`…/spaces--O--N/snapshots/<commit>/`) holding `root`, if it is in one."""
    repo = hub_repo_folder(root)
    if repo is None:
        return None
    snapshot = Path(os.path.realpath(root)).relative_to(os.path.realpath(repo)).parts
    return snapshot[1] if len(snapshot) >= 2 and _SHA.fullmatch(snapshot[1]) else None


def download_folder(root: Path) -> Path | None:
    """The `hf download --local-dir` folder holding the logbook (it has `.cache/huggingface/download`)."""
    for folder in (root, root.parent, root.parent.parent):
        if (folder / ".cache" / "huggingface" / "download").is_dir():
            return folder
    return None


def space_sha(root: Path) -> str | None:
    """The Space commit the logbook was downloaded at: the snapshot's commit in the Hub cache, or the one
    `hf download --local-dir` recorded."""
    cached = hub_snapshot_commit(root)
    if cached is not None:
        return cached
    local_dir = download_folder(root)
    if local_dir is None:
        return None
    downloads = local_dir / ".cache" / "huggingface" / "download"
    # The index page's record first: files deleted upstream keep stale metadata after a re-download.
    try:
        index = (root / "pages" / "index.md").relative_to(local_dir)
    except ValueError:
        index = None
    if index is not None:
        found = _commit_of(downloads / f"{index}.metadata")
        if found:
            return found[0]
    return _newest_commit(downloads)


def _commit_of(metadata: Path) -> tuple[str, float] | None:
    try:  # the Hub writes these as regular files of three short lines; a link, FIFO or device is not one
        head = read_head(metadata, _METADATA_HEAD, follow=False)
    except UnsafeReference:
        return None
    lines = [*(line.strip() for line in head.decode("utf-8", "replace").splitlines()[:3]), "", "", ""]
    if not _SHA.fullmatch(lines[0]):
        return None
    try:
        stamp = float(lines[2])
    except ValueError:
        stamp = 0.0
    return lines[0], stamp


def _newest_commit(downloads: Path) -> str | None:
    newest: tuple[str, float] | None = None
    seen = 0
    for folder, _dirs, files in os.walk(downloads):
        for name in files:
            if not name.endswith(".metadata"):
                continue
            seen += 1
            if seen > _METADATA_SCAN_LIMIT:
                return newest[0] if newest else None
            found = _commit_of(Path(folder, name))
            if found and (newest is None or found[1] > newest[1]):
                newest = found
    return newest[0] if newest else None


@dataclass(frozen=True)
class DownloadedFiles:
    """The last state of the remote repository known here: a Hub cache snapshot (its files are that commit's), or
    what `hf download --local-dir` recorded of each file (its git blob id when downloaded)."""

    folder: Path  # the snapshot or local-dir folder, which is the repository's root
    etags: dict[str, str]  # local-dir downloads: path in the repository -> blob id when downloaded
    snapshot: bool = False

    def base_reader(self, local: Mapping[str, bytes]) -> dict[str, bytes | None]:
        """The remote bytes of each path as far as they are known here; None when not known (not downloaded, or
        for a local-dir download changed since)."""
        if self.snapshot:
            return {path: self._snapshot_bytes(path) for path in local}
        return {path: data if self.etags.get(path) == _blob_id(data) else None for path, data in local.items()}

    def _snapshot_bytes(self, path: str) -> bytes | None:
        repo = self.folder.parent.parent  # …/spaces--O--N/snapshots/<commit>
        try:  # snapshot files are links into the repo's own blobs/, and nowhere else
            return read_inside(repo, f"snapshots/{self.folder.name}/{path}", _SNAPSHOT_FILE_LIMIT)
        except (UnsafeReference, OSError):
            return None

    def files_under(self, folder: str) -> list[str]:
        prefix = folder.rstrip("/") + "/"
        if self.snapshot:
            base = self.folder / folder
            if not base.is_dir():
                return []
            return sorted(
                p.relative_to(self.folder).as_posix() for p in base.rglob("*") if p.is_file() or p.is_symlink()
            )
        return sorted(path for path in self.etags if path.startswith(prefix))


def downloaded_files(root: Path) -> DownloadedFiles | None:
    """The download record of the logbook's folder; None when it was downloaded neither way."""
    snapshot_commit = hub_snapshot_commit(root)
    repo = hub_repo_folder(root) if snapshot_commit else None
    if repo is not None and snapshot_commit is not None:
        return DownloadedFiles(repo / "snapshots" / snapshot_commit, {}, snapshot=True)
    local_dir = download_folder(root)
    if local_dir is None:
        return None
    downloads = local_dir / ".cache" / "huggingface" / "download"
    etags: dict[str, str] = {}
    for folder, _dirs, files in os.walk(downloads):
        for name in files:
            if not name.endswith(".metadata") or len(etags) >= _METADATA_SCAN_LIMIT:
                continue
            metadata = Path(folder, name)
            try:
                head = read_head(metadata, _METADATA_HEAD, follow=False)
            except (UnsafeReference, OSError):
                continue
            lines = head.decode("utf-8", "replace").splitlines()
            if len(lines) >= 2 and _SHA.fullmatch(lines[0].strip()):
                path = metadata.relative_to(downloads).as_posix().removesuffix(".metadata")
                etags[path] = lines[1].strip().strip('"')
    return DownloadedFiles(local_dir, etags)


def _blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's object id, not a security hash
