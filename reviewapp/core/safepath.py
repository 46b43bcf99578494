"""Resolve references from untrusted logbook content strictly inside a root folder.

Every relative path a logbook names (manifest page files, trace chunks, workspace files, images in markdown)
goes through here. Symlinks are resolved before the containment check, so a link that points out of the folder
is refused like a `../` path.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from urllib.parse import unquote, urlsplit

_WINDOWS_ABSOLUTE = re.compile(r"^(?:[A-Za-z]:[\\/]|[\\/]{2})")


class UnsafeReference(ValueError):
    """A reference that leaves its root or cannot be read safely; the message says why."""


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
    real_root = root.resolve()
    target = Path(os.path.realpath(real_root / ref))
    if target != real_root and real_root not in target.parents:
        raise UnsafeReference(f"{reference!r} leads outside {real_root.name}/")
    return target


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
    if parts.scheme and len(parts.scheme) > 1:  # "C:" is a drive letter, not a scheme
        return None
    return unquote(parts.path) if parts.path else None


def read_capped(path: Path, limit: int) -> bytes:
    """Read a regular file of at most `limit` bytes; devices, FIFOs and oversized files are refused."""
    try:
        info = path.stat()
    except OSError as exc:
        raise UnsafeReference(f"cannot read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeReference("not a regular file")
    if info.st_size > limit:
        raise UnsafeReference(f"file is {info.st_size:,} bytes, over the {limit:,}-byte limit")
    with path.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UnsafeReference(f"file grew past the {limit:,}-byte limit while reading")
    return data
