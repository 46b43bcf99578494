"""Which files of a repository make up its logbook, decided from the file listing before anything is downloaded.

A logbook's root is the folder holding `pages/index.md` (or `logbook.json` beside `pages/`): the repository's
top for a published Space, `.trackio/logbook/` for a pushed workspace, or a folder further down. Downloaded are
the logbook's own files (manifest, card, pages, traces, workspace inventory, reviews, pair-set manifests), the
files a pair set names, and other small files beside them (evidence, reports); never the viewer's copied assets,
never large binaries outside those folders.
"""

from __future__ import annotations

import csv
import io
import json
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from reviewapp.core.io.hub_download import DownloadLimits, RemoteFile

LOGBOOK_FILES = ("logbook.json", "README.md", "workspace.json", "metadata.json")
LOGBOOK_FOLDERS = ("pages/", "traces/", "reviews/")
PAIR_MANIFEST_SUFFIXES = ("-pairs.json", "-pairs.csv")
# Trackio copies these from its package into every logbook; they are the same everywhere and never read here.
VIEWER_ASSETS = frozenset(
    {
        "index.html",
        "logbook.js",
        "logbook.css",
        "trackio-logo.png",
        "trackio-logo-light.png",
        "trackio-wordmark-dark.png",
        "bucket-icon.svg",
    }
)
_TRANSIENT = (".sync", ".serve.log", ".gitattributes")


@dataclass(frozen=True)
class Selection:
    root: str  # the logbook root inside the repository, "" or ending with "/"
    files: list[RemoteFile]  # to download now
    left_out: list[RemoteFile]  # large files outside the logbook's own folders

    @property
    def total_bytes(self) -> int:
        return sum(f.size for f in self.files)


def logbook_root(paths: Iterable[str]) -> str | None:
    """The shallowest folder that holds a logbook, as a prefix ("" or "x/y/"); None when there is none."""
    present = set(paths)
    with_pages: set[str] = set()  # folders ("" or "x/") holding a pages/ folder: one pass, not one per manifest
    for path in present:
        at = path.find("pages/")
        while at != -1:
            if at == 0 or path[at - 1] == "/":
                with_pages.add(path[:at])
            at = path.find("pages/", at + 1)
    roots: set[str] = set()
    for path in present:
        if path.endswith("pages/index.md"):
            roots.add(path[: -len("pages/index.md")])
        elif path.endswith("logbook.json") and path[: -len("logbook.json")] in with_pages:
            roots.add(path[: -len("logbook.json")])
    valid = [r for r in roots if r == "" or r.endswith("/")]
    if not valid:
        return None
    return min(valid, key=lambda r: (r.count("/"), r != ".trackio/logbook/", r))


def select_logbook_files(listing: Sequence[RemoteFile], limits: DownloadLimits) -> Selection | None:
    """The files to download for the logbook in `listing`, or None when the listing holds no logbook."""
    root = logbook_root(f.path for f in listing)
    if root is None:
        return None
    chosen: list[RemoteFile] = []
    left_out: list[RemoteFile] = []
    for remote in listing:
        relative = _relative(remote.path, root)
        if relative is None:
            if root == ".trackio/logbook/" and remote.path == ".trackio/metadata.json":
                chosen.append(remote)
            continue
        name = posixpath.basename(relative)
        if relative in VIEWER_ASSETS or name.startswith(_TRANSIENT):
            continue
        own = relative in LOGBOOK_FILES or relative.startswith(LOGBOOK_FOLDERS) or name.endswith(PAIR_MANIFEST_SUFFIXES)
        if own or remote.size <= limits.max_extra_file_bytes:
            chosen.append(remote)
        else:
            left_out.append(remote)
    return Selection(root, chosen, left_out)


def pair_named_files(manifest_path: str, data: bytes, listing: Sequence[RemoteFile]) -> set[str]:
    """Repository paths of the images (and CSV) a pair-set manifest names; `figure:`/`artifact:` refs are pages."""
    folder = posixpath.dirname(manifest_path)
    known = {f.path for f in listing}
    named: set[str] = set()

    def add(written: Any) -> None:
        if isinstance(written, str) and written.strip() and ":" not in written:
            path = _join(folder, written.strip())
            if path is not None and path in known:
                named.add(path)

    text = data.decode("utf-8-sig", errors="replace")
    if manifest_path.endswith(".csv"):
        _csv_refs(text, add)
        return named
    try:
        manifest = json.loads(text)
    except ValueError:
        return named
    if not isinstance(manifest, dict):
        return named
    pairs = manifest.get("pairs")
    if isinstance(pairs, str):
        csv_path = _join(folder, pairs)
        add(pairs)
        if csv_path is not None:
            named |= {csv_path} & known
    elif isinstance(pairs, list):
        for pair in pairs:
            if isinstance(pair, dict):
                add(pair.get("left"))
                add(pair.get("right"))
    folders = manifest.get("folders")
    if isinstance(folders, list):
        wanted = {prefix.rstrip("/") for sub in folders if isinstance(sub, str) and (prefix := _join(folder, sub))}
        named |= {p for p in known if _inside_any(p, wanted)}  # each path's folders looked up: no scan per folder
    return named


def _inside_any(path: str, folders: set[str]) -> bool:
    at = path.rfind("/")
    while at > 0:
        if path[:at] in folders:
            return True
        at = path.rfind("/", 0, at)
    return False


def csv_named_files(csv_path: str, data: bytes, listing: Sequence[RemoteFile]) -> set[str]:
    """The images a pair CSV (named by a JSON manifest) lists, as repository paths."""
    folder = posixpath.dirname(csv_path)
    known = {f.path for f in listing}
    named: set[str] = set()

    def add(written: Any) -> None:
        if isinstance(written, str) and written.strip() and ":" not in written:
            path = _join(folder, written.strip())
            if path is not None and path in known:
                named.add(path)

    _csv_refs(data.decode("utf-8-sig", errors="replace"), add)
    return named


def _csv_refs(text: str, add: Any) -> None:
    try:
        for row in csv.DictReader(io.StringIO(text)):
            add(row.get("left"))
            add(row.get("right"))
    except csv.Error:
        return


def _relative(path: str, root: str) -> str | None:
    return path[len(root) :] if path.startswith(root) else None


def _join(folder: str, written: str) -> str | None:
    """`written` relative to `folder`, normalized; None when it is absolute or climbs out of the repository."""
    if written.startswith(("/", "\\")) or "\\" in written:
        return None
    joined = posixpath.normpath(posixpath.join(folder, written))
    if joined.startswith("../") or joined == ".." or joined.startswith("/"):
        return None
    return joined
