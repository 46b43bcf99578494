"""The logbook id: where a logbook was opened from, stable across machines, clones and revisions.

    hf:space/OWNER/NAME            a Space (or hf:dataset/OWNER/NAME), downloaded into the app's Hub cache (a
                                   folder merely shaped like a cache snapshot is not one) or named explicitly by
                                   whoever downloaded it
    git:HOST/OWNER/REPO/PATH       a git checkout whose origin is that remote; PATH is the logbook's folder inside
                                   the repository (absent when the logbook is the repository's root)
    url:https://host/folder/       a published logbook read through its manifest at that URL
    path:/resolved/folder          anything else

Never from metadata (two corpus logbooks carry the same `space_id`, one names two Spaces): metadata says what a
logbook claims to be, the id says where it came from. The revision is not part of the id; records carry theirs.
Two clones of one remote get the same id, so their reviews kept outside the logbook share one folder.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

LogbookId = str

HUB_KINDS = ("space", "dataset")
_SCP_LIKE = re.compile(r"(?:[^@/]+@)?(?P<host>[^:/]+):(?P<path>.*)")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SAFE_LIMIT = 80


class LogbookIdError(ValueError):
    """A logbook id given explicitly is not one of the three forms."""


def hub_logbook_id(kind: str, repo_id: str, path: str = "") -> LogbookId:
    """`hf:space/OWNER/NAME` (kind "space" or "dataset"); `path` names a logbook below the repository's root."""
    if kind not in HUB_KINDS:
        raise LogbookIdError(f"a Hub logbook is a space or a dataset, not {kind!r}")
    owner, _, name = repo_id.strip().strip("/").partition("/")
    if not owner or not name or "/" in name:
        raise LogbookIdError(f"not a Hub repository id (OWNER/NAME): {repo_id!r}")
    inside = _inside(path)
    return f"hf:{kind}/{owner}/{name}" + (f"/{inside}" if inside else "")


def logbook_id_for(root: Path) -> LogbookId:
    """The id of the logbook whose pages are in `root`: Hub cache, else git origin, else the resolved folder."""
    return hub_cache_id(root) or git_logbook_id(root) or path_logbook_id(root)


def path_logbook_id(root: Path) -> LogbookId:
    return f"path:{Path(root).resolve().as_posix()}"


def check_logbook_id(value: str) -> LogbookId:
    """`value` if it is a logbook id of one of the three forms; raise LogbookIdError naming the problem."""
    scheme, _, rest = value.partition(":")
    if scheme == "hf":
        kind, _, repo = rest.partition("/")
        owner, _, tail = repo.partition("/")
        name, _, inside = tail.partition("/")
        return hub_logbook_id(kind, f"{owner}/{name}", inside)
    if scheme in ("git", "path") and rest.strip() and rest == rest.strip() and "\n" not in rest:
        return value
    if scheme == "url" and rest.startswith(("http://", "https://")) and rest == rest.strip() and "\n" not in rest:
        return value  # a published URL: its download folder is a cache, the URL is where it came from
    raise LogbookIdError(f"not a logbook id (hf:space/OWNER/NAME, git:REMOTE/PATH, url:URL or path:FOLDER): {value!r}")


def hub_cache_id(root: Path) -> LogbookId | None:
    """`hf:space/OWNER/NAME` when `root` is inside a snapshot of the Hub cache this app downloads into, and that
    cache names the snapshot's revision (`hub_cache_snapshot`); a folder elsewhere of the same shape is not."""
    from reviewapp.core.io.hub_cache_snapshot import snapshot_in_app_cache  # the Hub's modules: only when asked

    snapshot = snapshot_in_app_cache(root)
    if snapshot is None:
        return None
    try:
        return hub_logbook_id(snapshot.kind, snapshot.repo_id, snapshot.inside)
    except LogbookIdError:
        return None


def git_logbook_id(root: Path) -> LogbookId | None:
    """`git:<origin>/<folder inside the repository>` when `root`'s pages are tracked by a checkout with an origin.

    The tracked-pages check keeps an unrelated enclosing repository (a home folder under git) from naming it.
    """
    from reviewapp.core.io import gitcmd  # git's helpers are imported when an id is first derived, not with the model

    root = Path(root).resolve()
    try:
        top = gitcmd.run(["rev-parse", "--show-toplevel"], root, timeout=5)
        if not top.ok or not top.stdout.strip():
            return None
        origin = gitcmd.run(["config", "--get", "remote.origin.url"], root, timeout=5)
        if not origin.ok or not origin.stdout.strip():
            return None
        tracked = gitcmd.run(["ls-files", "-z", "--", "pages"], root, timeout=5)
    except gitcmd.GitError:
        return None
    if not tracked.ok or not tracked.stdout.strip("\0"):
        return None
    toplevel = Path(top.stdout.strip()).resolve()
    try:
        inside = root.relative_to(toplevel).as_posix()
    except ValueError:
        return None
    remote = normalize_remote(origin.stdout.strip(), toplevel)
    if remote is None:
        return None
    inside = "" if inside == "." else inside
    return f"git:{remote}" + (f"/{inside}" if inside else "")


_GIT_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES", "GIT_CONFIG_GLOBAL", "HOME")


def git_state(root: Path) -> str:
    """A cheap stamp of what `git_logbook_id(root)` depends on: the `.git` git would find above `root`, the size
    and time of its HEAD, index and config (and of the common repository's, for a worktree), the global config
    and the variables that redirect git. Equal stamps: the id git gave before still holds, without running git
    (two runs a logbook were most of the time a queue of a thousand took to reopen). Plain os.path calls: this
    runs for every logbook a queue lists."""
    parts = [f"{name}={os.environ.get(name, '')}" for name in _GIT_VARIABLES]
    files = [os.environ.get("GIT_CONFIG_GLOBAL") or os.path.join(os.path.expanduser("~"), ".gitconfig")]
    folder = os.path.realpath(root)
    found: str | None = None
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            found = os.path.join(folder, ".git")
            break
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    parts.append(f"found={found}")
    if found is not None:
        git_dir = found
        if os.path.isfile(found):
            files.append(found)
            try:
                with open(found, encoding="utf-8", errors="replace") as handle:
                    line = handle.read(4096).strip()
            except OSError:
                line = ""
            git_dir = os.path.realpath(os.path.join(os.path.dirname(found), line.removeprefix("gitdir:").strip()))
        files += [os.path.join(git_dir, name) for name in ("HEAD", "index", "config", "commondir")]
        try:
            with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
                files.append(os.path.join(os.path.realpath(os.path.join(git_dir, handle.read().strip())), "config"))
        except OSError:
            pass
    for path in files:
        try:
            info = os.stat(path)
            parts.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}:missing")
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def normalize_remote(url: str, base: Path | None = None) -> str | None:
    """One spelling of a remote whatever form it was cloned by, without user info, port, `.git` or slashes:

    git@github.com:o/r.git, ssh://git@github.com:22/o/r, https://tok@github.com/o/r.git/ -> github.com/o/r;
    /srv/git/r.git, file:///srv/git/r -> /srv/git/r (a relative local path is resolved against `base`).
    """
    url = url.strip()
    if not url:
        return None
    if "://" in url:
        parts = urlsplit(url)
        if parts.scheme == "file":
            return _local_remote(parts.path, base)
        host = (parts.hostname or "").lower()
        if not host:
            return None
        path = parts.path
    else:
        scp = _SCP_LIKE.fullmatch(url)
        if scp is None or _is_local(url):
            return _local_remote(url, base)
        host, path = scp.group("host").lower(), scp.group("path")
    path = _strip_git(path.strip("/"))
    return f"{host}/{path}" if path else host


def safe_folder_name(logbook_id: LogbookId) -> str:
    """A folder name for the id: readable, portable, and distinct for distinct ids (a short hash of the whole id)."""
    readable = _UNSAFE.sub("-", logbook_id).strip("-.")[:_SAFE_LIMIT].rstrip("-.") or "logbook"
    digest = hashlib.sha256(logbook_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{readable}-{digest}"


def _is_local(url: str) -> bool:
    # "C:/x" and "./x:y" are paths, not host:path; git itself treats a colon after a slash as part of a path
    colon = url.find(":")
    slash = url.find("/")
    return (colon == 1 and url[0].isalpha()) or (0 <= slash < colon)


def _local_remote(path: str, base: Path | None) -> str | None:
    if not path:
        return None
    local = Path(path)
    if not local.is_absolute() and base is not None:
        local = base / local
    return _strip_git(local.resolve().as_posix().rstrip("/"))


def _strip_git(path: str) -> str:
    return path[: -len(".git")] if path.endswith(".git") else path


def _inside(path: str) -> str:
    parts = [p for p in PurePosixPath(path.replace("\\", "/")).parts if p not in ("", ".", "/")]
    if ".." in parts:
        raise LogbookIdError(f"a logbook's folder inside its repository cannot leave it: {path!r}")
    return "/".join(parts)
