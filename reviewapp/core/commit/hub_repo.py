"""Which Hub repository a logbook belongs to, and where the logbook sits inside it.

The repository comes from `--repo OWNER/NAME` or from the logbook's `space_id`, which is sometimes wrong (an
OpenReview id) or cut short at 96 characters; an inferred repository must be confirmed by the user. A published
Space has the logbook at its root, and a workspace's `.trackio/logbook` is what gets published there; a logbook
downloaded with `hf download --local-dir` sits at its path below the download folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.logbook.demo_marker import is_demo
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.revision import download_folder

REPO_TYPES = ("space", "dataset")
URL_PREFIXES = {"model": "", "dataset": "datasets/", "space": "spaces/"}
MAX_NAME = 96
_SEGMENT = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")


class RepoIdError(CommitError):
    """No usable repository: not OWNER/NAME, or none named (bad usage on the command line)."""


@dataclass(frozen=True)
class HubRepo:
    repo_id: str
    repo_type: str  # "space" or "dataset"
    path_in_repo: str  # the logbook root inside the repository, POSIX ("" at the top)
    inferred: bool  # taken from the logbook's metadata: the user has to confirm it

    def url(self, endpoint: str) -> str:
        return f"{endpoint.rstrip('/')}/{URL_PREFIXES[self.repo_type]}{self.repo_id}"

    def describe(self) -> str:
        return f"{self.repo_type.capitalize()} {self.repo_id}"


def check_repo_id(text: str, where: str = "--repo") -> str:
    """`text` as a repository id (OWNER/NAME); raise RepoIdError saying what is wrong."""
    value = text.strip()
    parts = value.split("/")
    if len(parts) != 2 or not all(parts):
        raise RepoIdError(f"{where}: {value!r} is not OWNER/NAME")
    for part in parts:
        if not _SEGMENT.fullmatch(part) or "--" in part or ".." in part:
            raise RepoIdError(
                f"{where}: {value!r} has characters a Hub repository name cannot have "
                "(letters, digits, '-', '_' and '.' only, not at the ends, no '--' or '..')"
            )
    if len(parts[1]) > MAX_NAME:
        raise RepoIdError(f"{where}: the name in {value!r} is longer than {MAX_NAME} characters")
    return value


def hub_repo(
    logbook: Logbook, repo: str | None = None, repo_type: str | None = None, *, field: str = "--repo"
) -> HubRepo:
    """The repository to commit to: `repo` when given (confirmed), else the logbook's space_id (to confirm).

    `field` names where `repo` was typed, in error messages ("--repo", or the dialog's field).
    """
    if repo_type is not None and repo_type not in REPO_TYPES:
        raise RepoIdError(f"--repo-type: {repo_type!r} is not one of {', '.join(REPO_TYPES)}")
    path = logbook_path_in_repo(logbook)
    if repo:
        return HubRepo(check_repo_id(repo, field), repo_type or "space", path, inferred=False)
    downloaded = repo_of_logbook_id(logbook.logbook_id)
    if downloaded is not None:  # opened from the Hub: where it came from is known, not guessed from metadata
        return downloaded
    if is_demo(logbook.metadata, logbook.root):
        raise RepoIdError(
            "this is the built-in demo: it is published nowhere, and its space_id is made up",
            cli_hint="to try committing, pass a repository of your own with --repo OWNER/NAME --repo-type TYPE",
            dialog_hint="to try committing, enter a Space or dataset of your own under Hub repository; "
            "File > Export Reviews keeps the review as a file",
        )
    if not logbook.space_id:
        raise RepoIdError(
            "the logbook does not say which Space it belongs to (no space_id in its metadata)",
            cli_hint="pass --repo OWNER/NAME --repo-type space|dataset",
            dialog_hint="enter the Space or dataset to commit to under Hub repository",
        )
    try:
        repo_id = check_repo_id(logbook.space_id, "the logbook's space_id")
    except RepoIdError as exc:
        raise RepoIdError(
            str(exc), cli_hint="pass the right one with --repo OWNER/NAME", dialog_hint="enter the right one above"
        ) from None
    return HubRepo(repo_id, repo_type or "space", path, inferred=True)


def repo_of_logbook_id(logbook_id: str) -> HubRepo | None:
    """The repository a `hf:space/OWNER/NAME[/PATH]` logbook id names (confirmed: it is where the files came from)."""
    if not logbook_id.startswith("hf:"):
        return None
    kind, _, rest = logbook_id[len("hf:") :].partition("/")
    owner, _, tail = rest.partition("/")
    name, _, inside = tail.partition("/")
    if kind not in REPO_TYPES or not owner or not name:
        return None
    return HubRepo(f"{owner}/{name}", kind, inside, inferred=False)


def logbook_path_in_repo(logbook: Logbook) -> str:
    if logbook.layout == "workspace":
        return ""  # `.trackio/logbook` is published as the Space's root
    folder = download_folder(logbook.root)
    if folder is None:
        return ""
    relative = logbook.root.resolve().relative_to(folder.resolve()).as_posix()
    return "" if relative == "." else relative
