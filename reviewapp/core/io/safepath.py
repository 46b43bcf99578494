"""Resolve references from untrusted logbook content strictly inside a root folder.

Every relative path a logbook names (manifest page files, trace chunks, workspace files, images in markdown)
goes through here. Symlinks are resolved before the containment check, so a link that points out of the folder
is refused like a `../` path.

One exception, for logbooks in the Hugging Face cache: a snapshot's files (`…/spaces--OWNER--NAME/snapshots/
<commit>/…`) are symlinks into that repository's own `blobs/` folder. For a root inside such a snapshot, the
containment root is the repository's cache folder: a path must still stay inside the root as written, and its
link may resolve into the repository's `blobs/` and nowhere else (not another repository, not another snapshot).
The path returned is then the one inside the snapshot, so names and relative paths stay the logbook's own.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
from pathlib import Path
from urllib.parse import unquote, urlsplit

_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|[\\/]{2})")
_HUB_REPO_FOLDER = re.compile(r"^(?:models|datasets|spaces)--[^/\\]+--[^/\\]+$")


class UnsafeReference(ValueError):
    """A reference that leaves its root or cannot be read safely; the message says why."""


class CannotOpen(UnsafeReference):
    """The system refused to open the file; `reason` is its own words (such as "No such file or directory")."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"cannot read: {reason}")
        self.reason = reason


class FileTooLarge(UnsafeReference):
    """A file over the cap it is read under; `size` is None when it grew past the cap while being read."""

    def __init__(self, limit: int, size: int | None = None) -> None:
        grew = f"file grew past the {limit:,}-byte limit while reading"
        super().__init__(grew if size is None else f"file is {size:,} bytes, over the {limit:,}-byte limit")
        self.limit = limit
        self.size = size


def resolve_inside(root: Path, reference: str) -> Path:
    """Return the real path of `reference` (relative to `root`) or raise UnsafeReference.

    The target need not exist; when it does, symlinks along the way are followed before checking containment.
    """
    ref = reference.strip()
    if ref.startswith("file:"):
        raise UnsafeReference(f"file URL {reference!r} is not followed")
    if not ref or "\x00" in ref:
        raise UnsafeReference("empty or invalid path")
    if ref.startswith("/") or _WINDOWS_ABSOLUTE.match(ref) or Path(ref).is_absolute():
        raise UnsafeReference(f"absolute path {reference!r} is not followed")
    real_root = _real_root(str(root))
    parts = [p for p in ref.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." not in parts and not _has_symlink(real_root, parts):
        # No symlink and no "..": the lexical path is the real one (the common case, without realpath's cost).
        return Path(real_root, *parts)
    target = os.path.realpath(os.path.join(real_root, *parts))
    if _within(target, real_root):
        return Path(target)
    blobs = hub_blobs_folder(real_root)
    if blobs is not None and _within(target, blobs):
        written = os.path.normpath(os.path.join(real_root, *parts))
        if _within(written, real_root):
            return Path(written)
    raise UnsafeReference(f"{reference!r} leads outside {os.path.basename(real_root)}/")


def is_contained(root: Path, path: Path) -> bool:
    """Whether the real `path` (symlinks resolved) may be read for a logbook at `root`: inside the real root,
    or, for a root in a Hub cache snapshot, inside that repository's `blobs/`."""
    real_root = _real_root(str(root))
    real = os.path.realpath(path)
    if _within(real, real_root):
        return True
    blobs = hub_blobs_folder(real_root)
    return blobs is not None and _within(real, blobs)


@functools.lru_cache(maxsize=256)
def hub_blobs_folder(real_root: str) -> str | None:
    """`…/spaces--OWNER--NAME/blobs` when `real_root` lies in a snapshot of that Hub cache folder, else None."""
    parts = real_root.split(os.sep)
    for index in range(len(parts) - 2, 0, -1):
        if parts[index] == "snapshots" and _HUB_REPO_FOLDER.match(parts[index - 1]):
            blobs = os.sep.join([*parts[:index], "blobs"])
            return blobs if os.path.isdir(blobs) and not os.path.islink(blobs) else None
    return None


def hub_repo_folder(root: Path) -> Path | None:
    """The Hub cache folder of the repository whose snapshot holds `root` (the containment root), or None."""
    blobs = hub_blobs_folder(_real_root(str(root)))
    return Path(blobs).parent if blobs is not None else None


def hub_blob_target(path: Path) -> Path | None:
    """The blob a Hub cache snapshot file links to, when `path` is such a link (into its own repository's
    `blobs/`, as huggingface_hub makes them); None for anything else, links elsewhere included."""
    if not os.path.islink(path):
        return None
    blobs = hub_blobs_folder(os.path.realpath(os.path.dirname(path)))
    target = os.path.realpath(path)
    return Path(target) if blobs is not None and _within(target, blobs) else None


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder + os.sep)


@functools.lru_cache(maxsize=256)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def _has_symlink(base: str, parts: list[str]) -> bool:
    current = base
    for part in parts:
        current = os.path.join(current, part)
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return True
        except OSError:
            return False  # nothing exists from here on, so nothing can point elsewhere
    return False


def local_reference(link: str) -> str | None:
    """The relative path a markdown link or image source names, or None when it is not a local path.

    URLs with a scheme (http, data, trackio-*), page anchors and mail links are not local paths; `file:` URLs
    are returned as-is so that resolve_inside refuses them visibly.
    """
    text = link.strip()
    if not text or text.startswith("#"):
        return None
    if text.lower().startswith("file:"):
        return text
    parts = urlsplit(text)
    if len(parts.scheme) == 1:  # "C:/x.png" is a Windows drive letter: keep it whole so it is refused as absolute
        return text
    if parts.scheme:
        return None
    return unquote(parts.path) if parts.path else None


_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer (then is refused)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def why_unreadable(error: OSError | UnsafeReference) -> str:
    """Why a read failed, in words that follow "cannot read FILE:" without saying "cannot read" twice."""
    if isinstance(error, CannotOpen):
        return error.reason
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def open_regular(path: Path | str, *, follow: bool = True) -> int:
    """An open descriptor on `path`, refused (UnsafeReference) unless it is a regular file.

    The type is checked on the open descriptor, so a file swapped for a FIFO or a device between a check and
    the open is still refused; with `follow=False` a symlink as the last component is refused too.
    """
    try:
        fd = os.open(path, _READ_FLAGS | (0 if follow else _NOFOLLOW))
    except OSError as exc:
        if not follow and exc.errno == errno.ELOOP:
            raise UnsafeReference("is a symbolic link; not followed") from exc
        raise CannotOpen(exc.strerror or str(exc)) from exc
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise CannotOpen(exc.strerror or str(exc)) from exc
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UnsafeReference("not a regular file")
    return fd


def open_capped(path: Path | str, limit: int, *, follow: bool = True) -> int:
    """open_regular, refusing (FileTooLarge) a file of more than `limit` bytes; for callers that lock the file or
    read it in lines before reading it whole."""
    fd = open_regular(path, follow=follow)
    try:
        size = os.fstat(fd).st_size
    except OSError as exc:
        os.close(fd)
        raise CannotOpen(exc.strerror or str(exc)) from exc
    if size > limit:
        os.close(fd)
        raise FileTooLarge(limit, size)
    return fd


def read_open(fd: int, limit: int) -> bytes:
    """All of the open regular file `fd` from its start, refused (FileTooLarge) past `limit` bytes.

    It reads at offsets, so the descriptor's own position (an append descriptor's, say) does not matter.
    """
    size = os.fstat(fd).st_size
    if size > limit:
        raise FileTooLarge(limit, size)
    data = os.pread(fd, size + 1, 0)  # not limit + 1: that would allocate the whole limit up front
    while len(data) > size and len(data) <= limit:  # it grew while being read
        more = os.pread(fd, limit + 1 - len(data), len(data))
        if not more:
            break
        data += more
    if len(data) > limit:
        raise FileTooLarge(limit)
    return data


def read_capped(path: Path | str, limit: int, *, follow: bool = True) -> bytes:
    """Read a regular file of at most `limit` bytes; devices, FIFOs and oversized files are refused."""
    fd = open_capped(path, limit, follow=follow)
    try:
        return read_open(fd, limit)
    finally:
        os.close(fd)


def read_head(path: Path | str, limit: int, *, follow: bool = True) -> bytes:
    """The first `limit` bytes of a regular file (for files only their start matters, such as cache records)."""
    fd = open_regular(path, follow=follow)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit)


def read_tail(path: Path | str, limit: int, *, follow: bool = True) -> bytes:
    """The last `limit` bytes of a regular file (for files only their end matters, such as a log)."""
    fd = open_regular(path, follow=follow)
    try:
        size = os.fstat(fd).st_size
        return os.pread(fd, min(size, limit), max(0, size - limit))
    finally:
        os.close(fd)


def read_inside(root: Path, reference: str, limit: int) -> bytes:
    """Read `reference` (relative to `root`) with the containment of resolve_inside and the checks of read_capped."""
    return read_contained(root, resolve_inside(root, reference), limit)


def read_contained(root: Path, path: Path, limit: int) -> bytes:
    """Read `path`, already resolved inside `root`, by its real path and without following a link.

    Opening the real path with O_NOFOLLOW means a link planted after the containment check is refused rather
    than followed out of the folder (a Hub snapshot's links into its blobs/ are resolved first, then checked).
    """
    real = os.path.realpath(path)
    if not is_contained(root, Path(real)):
        raise UnsafeReference(f"{os.path.basename(path)} leads outside {os.path.basename(_real_root(str(root)))}/")
    return read_capped(real, limit, follow=False)
