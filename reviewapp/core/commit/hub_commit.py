"""Committing review files to a Space or dataset on the Hugging Face Hub with huggingface_hub's `create_commit`.

Every commit names the commit it was planned against as `parent_commit`, so a change made meanwhile is detected
(HTTP 412) instead of overwritten: the files are then planned again against the new head (annotation files only
grow, so the local lines still apply on top) and the commit retried, a bounded number of times. A 5xx answer
leaves it unknown whether the commit landed; planning again against the new head tells, since a landed commit
leaves nothing to commit.

Authentication is huggingface_hub's own (`hf auth login`, HF_TOKEN) unless a token is passed. The token only ever
travels in the Authorization header the client builds: it is never put in a message, a log or a file, and the
bytes to be committed are scanned for it (and for other secrets) before anything is sent.

huggingface_hub is imported only here, and only when needed: it takes a while to import.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from reviewapp import __version__
from reviewapp.core.commit.errors import CommitError, NetworkUnavailable
from reviewapp.core.commit.hub_repo import HubRepo
from reviewapp.core.commit.plan import CommitPlan
from reviewapp.core.progress import ProgressCallback

if TYPE_CHECKING:
    from huggingface_hub import HfApi

MAX_ATTEMPTS = 4
BRANCH = "main"
HOW_TO_LOG_IN = "log in with `hf auth login` (or set HF_TOKEN) and try again"

_Result = TypeVar("_Result")


class NoWriteAccess(CommitError):
    """The user may not commit to the repository directly; a pull request is possible."""


@dataclass
class HubResult:
    commit: str | None  # None when there was nothing to commit after all
    commit_url: str | None
    pr_url: str | None
    pr_num: int | None
    attempts: int
    notes: list[str] = field(default_factory=list)


class HubCommitter:
    """Talks to one repository on one Hub endpoint (HF_ENDPOINT, read when this object is made)."""

    def __init__(self, repo: HubRepo, *, endpoint: str | None = None, token: str | None = None) -> None:
        self.repo = repo
        self.endpoint = (endpoint or os.environ.get("HF_ENDPOINT") or "https://huggingface.co").rstrip("/")
        self._token = token
        self._api: HfApi | None = None

    @property
    def api(self) -> HfApi:
        if self._api is None:
            from huggingface_hub import HfApi

            self._api = HfApi(
                endpoint=self.endpoint, token=self._token, library_name="reviewapp", library_version=__version__
            )
        return self._api

    def token(self) -> str | None:
        """The token requests will carry (for the secret scan; never shown)."""
        if self._token is not None:
            return self._token
        from huggingface_hub import get_token

        return get_token()

    # -- reading -------------------------------------------------------------------------------------------------

    def head(self) -> str:
        info = self._call(lambda: self.api.repo_info(self.repo.repo_id, repo_type=self.repo.repo_type, revision=BRANCH))
        return str(info.sha)

    def can_write(self) -> bool | None:
        """A guess from who the user is: True when the repository's owner is them or one of their organisations;
        None when not logged in or the Hub cannot be asked."""
        try:
            me = self.api.whoami()
        except Exception:  # offline, no token: no guess
            return None
        owner = self.repo.repo_id.split("/")[0]
        names = {me.get("name"), *(org.get("name") for org in me.get("orgs") or [] if isinstance(org, dict))}
        return owner in names

    def base_reader(self, revision: str) -> Callable[[Mapping[str, bytes]], dict[str, bytes | None]]:
        """Reads the files as committed at `revision`, downloading only those that differ from the local bytes."""

        def read(local: Mapping[str, bytes]) -> dict[str, bytes | None]:
            infos = self._call(
                lambda: self.api.get_paths_info(
                    self.repo.repo_id, list(local), revision=revision, repo_type=self.repo.repo_type
                )
            )
            remote = {info.path: getattr(info, "blob_id", None) for info in infos}
            found: dict[str, bytes | None] = {}
            with tempfile.TemporaryDirectory(prefix="reviewapp-hub-") as cache:
                for path, data in local.items():
                    if path not in remote:
                        found[path] = None
                    elif remote[path] == git_blob_id(data):
                        found[path] = data
                    else:
                        found[path] = self._download(path, revision, Path(cache))
            return found

        return read

    def folder_lister(self, revision: str) -> Callable[[str], list[str]]:
        """Lists the files committed below a folder at `revision` (none when the folder is not there)."""

        def files_under(folder: str) -> list[str]:
            from huggingface_hub.errors import EntryNotFoundError

            def listing() -> list[str]:
                try:
                    entries = self.api.list_repo_tree(
                        self.repo.repo_id, folder, recursive=True, revision=revision, repo_type=self.repo.repo_type
                    )
                    return [entry.path for entry in entries if getattr(entry, "blob_id", None) is not None]
                except EntryNotFoundError:
                    return []

            return self._call(listing)

        return files_under

    def _download(self, path: str, revision: str, cache: Path) -> bytes:
        local = self._call(
            lambda: self.api.hf_hub_download(
                self.repo.repo_id, path, repo_type=self.repo.repo_type, revision=revision, cache_dir=cache
            )
        )
        return Path(str(local)).read_bytes()

    # -- committing ----------------------------------------------------------------------------------------------

    def commit(
        self,
        plan: CommitPlan,
        message: str,
        *,
        create_pr: bool,
        replan: Callable[[str], CommitPlan],
        known_secrets: Sequence[str],
        pr_without_write_access: bool = True,
        progress: ProgressCallback | None = None,
    ) -> HubResult:
        """Commit the plan (re-planned by `replan(head)` after a concurrent change); raise CommitError."""
        from huggingface_hub import CommitOperationAdd, CommitOperationDelete
        from huggingface_hub.errors import HfHubHTTPError

        notes: list[str] = []
        outcome_unknown = False  # a 5xx answer: the previous attempt may have landed
        token = self.token()
        known = [*known_secrets, *([token] if token else [])]
        subject, _, body = message.strip().partition("\n")
        for attempt in range(1, MAX_ATTEMPTS + 1):
            if plan.empty:
                if outcome_unknown and plan.base_revision:
                    notes.append("the earlier attempt had landed after all")
                    url = f"{self.repo.url(self.endpoint)}/commit/{plan.base_revision}"
                    return HubResult(plan.base_revision, url, None, None, attempt, notes)
                return HubResult(None, None, None, None, attempt, notes)
            plan.check_secrets(known, message)
            what = "opening a pull request on" if create_pr else "committing to"
            _report(progress, attempt, f"{what} {self.repo.describe()}")
            operations = [
                CommitOperationAdd(f.path, f.data) if f.data is not None else CommitOperationDelete(f.path)
                for f in plan.changed_files
            ]
            # the client skips files equal to the branch head's and then commits nothing, answering with the head
            before = self.head()
            try:
                info = self.api.create_commit(
                    self.repo.repo_id,
                    operations,
                    commit_message=subject,
                    commit_description=body.strip() or None,
                    repo_type=self.repo.repo_type,
                    revision=BRANCH,
                    create_pr=create_pr,
                    parent_commit=plan.base_revision,
                )
            except HfHubHTTPError as exc:
                status = exc.response.status_code if exc.response is not None else 0
                if status == 403 and not create_pr and pr_without_write_access:
                    notes.append(f"you cannot commit to {self.repo.describe()} directly, so a pull request was opened")
                    create_pr = True
                    continue
                if status == 403:
                    raise NoWriteAccess(
                        f"you cannot commit to {self.repo.describe()} directly",
                        cli_hint="open a pull request instead (--pr)",
                        dialog_hint="choose “Open a pull request on the Hub” instead",
                    ) from None
                if status >= 500 and create_pr:
                    raise CommitError(
                        f"the Hub answered HTTP {status} while opening the pull request, so it may or may not be "
                        f"open: look at the pull requests of {self.repo.describe()} before trying again"
                    ) from None
                if status == 412 or status >= 500:
                    outcome_unknown = status >= 500
                    notes.append(_moved_note(status, self.repo))
                    _report(progress, attempt, f"{self.repo.describe()} changed: planning again")
                    plan = replan(self.head())
                    continue
                raise _http_error(exc, self.repo, status) from None
            except Exception as exc:
                raise NetworkUnavailable(_describe_failure(exc, self.endpoint)) from None
            if info.oid == before and not info.pr_url:
                notes.append(f"{self.repo.describe()} already has these review files")
                return HubResult(None, None, None, None, attempt, notes)
            return HubResult(info.oid, info.commit_url, info.pr_url, info.pr_num, attempt, notes)
        raise CommitError(
            f"{self.repo.describe()} kept changing while committing; tried {MAX_ATTEMPTS} times. Nothing was "
            "lost: your review files are unchanged, commit again later"
        )

    def _call(self, action: Callable[[], _Result]) -> _Result:
        """Run a read request, turning failures into CommitError with a plain message."""
        from huggingface_hub.errors import HfHubHTTPError

        try:
            return action()
        except HfHubHTTPError as exc:
            status = exc.response.status_code if exc.response is not None else 0
            raise _http_error(exc, self.repo, status) from None
        except CommitError:
            raise
        except Exception as exc:
            raise NetworkUnavailable(_describe_failure(exc, self.endpoint)) from None


def git_blob_id(data: bytes) -> str:
    """The id git (and the Hub) gives a file with these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's object id, not a security hash


def _report(progress: ProgressCallback | None, step: int, label: str) -> None:
    if progress is not None:
        progress(step, 0, label)


def _moved_note(status: int, repo: HubRepo) -> str:
    if status == 412:
        return f"{repo.describe()} had new commits; your review files were planned again on top of them"
    return f"the Hub answered {status}; checked {repo.describe()} again before retrying"


def _http_error(exc: Exception, repo: HubRepo, status: int) -> CommitError:
    server = getattr(exc, "server_message", None) or ""
    detail = f" ({server.strip()})" if server.strip() else ""
    if status == 401:
        return CommitError(f"the Hub did not accept your credentials for {repo.describe()}{detail}: {HOW_TO_LOG_IN}")
    if status == 404:
        return CommitError(
            f"{repo.describe()} was not found{detail}. Check the repository (a logbook's space_id is sometimes "
            "wrong or cut short)",
            cli_hint="pass it with --repo OWNER/NAME --repo-type space|dataset",
            dialog_hint="enter the right one under Hub repository",
        )
    return CommitError(f"the Hub refused the request for {repo.describe()}: HTTP {status}{detail}")


def _describe_failure(exc: Exception, endpoint: str) -> str:
    kind = type(exc).__name__
    text = str(exc).splitlines()[0] if str(exc) else kind
    return f"could not reach {endpoint}: {text}"
