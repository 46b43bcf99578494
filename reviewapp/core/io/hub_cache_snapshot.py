"""Which Hub repository a folder is a snapshot of — only when the app's own Hub cache says so.

A folder's shape proves nothing: a team's repository can hold `spaces--OWNER--NAME/snapshots/x/` to borrow that
Space's identity (and the reviews filed under it). So a folder is a snapshot of `OWNER/NAME` only when it lies
inside the Hub cache this app downloads into (HF_HUB_CACHE, else HF_HOME/hub) and that repository's cache names
its revision: a `refs/` entry holding it (written by huggingface_hub and by this app for a branch), or this app's
own download record in the user data folder (for a download pinned to a commit, which writes no ref).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.io.paths import DOWNLOAD_RECORDS, hub_cache_dir, user_data_dir

_REPO_FOLDER = re.compile(r"(spaces|datasets)--([^-].*?)--(.+)")
_REF_BYTES = 256  # a ref file holds one commit id
_RECORD_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class CacheSnapshot:
    kind: str  # "space" or "dataset"
    repo_id: str  # OWNER/NAME
    commit: str  # the snapshot folder's name
    inside: str  # POSIX path of the folder inside the snapshot ("" at its root)


def snapshot_in_app_cache(folder: Path) -> CacheSnapshot | None:
    """The snapshot of the app's Hub cache that holds `folder`, when the cache names its revision; else None."""
    cache = hub_cache_dir().resolve()
    try:
        parts = Path(folder).resolve().relative_to(cache).parts
    except (ValueError, OSError):
        return None
    if len(parts) < 3 or parts[1] != "snapshots":
        return None
    found = _REPO_FOLDER.fullmatch(parts[0])
    if found is None or "--" in found.group(3):
        return None
    commit = parts[2]
    if not (_named_by_a_ref(cache / parts[0] / "refs", commit) or _in_download_record(parts[0], commit)):
        return None
    kind = "space" if found.group(1) == "spaces" else "dataset"
    return CacheSnapshot(kind, f"{found.group(2)}/{found.group(3)}", commit, "/".join(parts[3:]))


def _named_by_a_ref(refs: Path, commit: str) -> bool:
    try:
        candidates = [ref for ref in refs.rglob("*") if ref.is_file() and not ref.is_symlink()]
    except OSError:
        return False
    for ref in candidates:
        try:
            with ref.open("rb") as stream:
                if stream.read(_REF_BYTES).strip().decode("ascii", "replace") == commit:
                    return True
        except OSError:
            continue
    return False


def _in_download_record(repo_folder: str, commit: str) -> bool:
    path = user_data_dir() / DOWNLOAD_RECORDS / f"{repo_folder}.json"
    try:
        with path.open("rb") as stream:
            record = json.loads(stream.read(_RECORD_BYTES))
    except (OSError, ValueError):
        return False
    snapshots = record.get("snapshots") if isinstance(record, dict) else None
    return isinstance(snapshots, dict) and commit in snapshots
