"""Committing review files in the git checkout that holds the logbook, touching nothing else.

The commit is built with git's plumbing in a temporary index: the last commit's tree plus the plan's exact
bytes for the review files. The user's own index and work tree are left as they were (other staged and unstaged
changes stay exactly so); afterwards only the index entries of the committed review files are set to what was
committed. Hooks do not run, and what is committed is exactly what the secret scan saw.
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.commit.files import bring_into, is_review_file
from reviewapp.core.commit.plan import CommitPlan
from reviewapp.core.io import gitcmd
from reviewapp.core.logbook.revision import git_head
from reviewapp.core.review.store import REVIEWS_DIR

HOW_TO_SET_IDENTITY = (
    'git does not know who you are: set your name and e-mail with `git config --global user.name "Your Name"` and '
    "`git config --global user.email you@example.com` (or without --global for this repository only), then commit "
    "again"
)
NETWORK_TIMEOUT = 120.0
_FILE_MODE = "100644"
_URL_CREDENTIALS = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]+@")


class GitCommandError(CommitError):
    """A git command failed; the message has git's own first line."""


class IdentityMissing(CommitError):
    """git has no user.name / user.email to author the commit with."""


@dataclass(frozen=True)
class GitCheckout:
    top: Path  # the work tree's top folder
    prefix: str  # the logbook root inside it, POSIX ("" when the logbook is at the top)
    head: str
    branch: str | None  # None when HEAD is detached

    @property
    def reviews_prefix(self) -> str:
        return f"{self.prefix}/{REVIEWS_DIR}/" if self.prefix else f"{REVIEWS_DIR}/"

    def is_review_path(self, path: str) -> bool:
        return path.startswith(self.reviews_prefix) and is_review_file(path[len(self.reviews_prefix) :])

    def describe(self) -> str:
        where = f"branch {self.branch}" if self.branch else f"detached HEAD {self.head[:10]}"
        return f"git checkout {self.top} ({where})"


class GitRepo:
    """git commands in one work tree; a failing command raises GitCommandError (unless `check=False`)."""

    def __init__(self, top: Path) -> None:
        self.top = top

    def run(
        self,
        *args: str,
        input: str | bytes | None = None,
        env: Mapping[str, str] | None = None,
        raw: bool = False,
        timeout: float = gitcmd.DEFAULT_TIMEOUT,
        check: bool = True,
    ) -> gitcmd.GitResult:
        try:
            result = gitcmd.run(list(args), self.top, input=input, env=env, raw=raw, timeout=timeout)
        except gitcmd.GitError as exc:
            raise GitCommandError(str(exc)) from exc
        if check and not result.ok:
            raise GitCommandError(f"git {args[0]} failed: {redact_urls(result.message)}")
        return result

    def out(self, *args: str, **kwargs: object) -> str:
        return self.run(*args, **kwargs).stdout.strip()  # type: ignore[arg-type]

    def head(self) -> str:
        return self.out("rev-parse", "--verify", "HEAD^{commit}")

    def blob(self, revision: str, path: str) -> bytes | None:
        """The file's bytes at `revision`, None when it is not there."""
        listed = self.run("ls-tree", "-z", revision, "--", path).stdout
        entry = listed.split("\0", 1)[0]
        if not entry:
            return None
        meta = entry.split("\t", 1)[0].split()
        if len(meta) != 3 or meta[1] != "blob":
            return None
        return self.run("cat-file", "blob", meta[2], raw=True).raw

    def blobs(self, revision: str, paths: Sequence[str]) -> dict[str, bytes | None]:
        return {path: self.blob(revision, path) for path in paths}

    def files_under(self, revision: str, folder: str) -> list[str]:
        listed = self.run("ls-tree", "-r", "-z", "--name-only", revision, "--", folder).stdout
        return [path for path in listed.split("\0") if path]

    def check_identity(self) -> None:
        for variable in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
            if not self.run("-c", "user.useConfigOnly=true", "var", variable, check=False).ok:
                raise IdentityMissing(HOW_TO_SET_IDENTITY)

    def write_commit(
        self, parent: str, files: Mapping[str, bytes | None], message: str, env: Mapping[str, str] | None = None
    ) -> str | None:
        """A new commit object: `parent`'s tree with `files` set (None deletes); None when nothing changes.

        Neither the user's index nor any ref is touched.
        """
        index = self._temporary_index()
        try:
            with_index = {"GIT_INDEX_FILE": str(index)}
            self.run("read-tree", parent, env=with_index)
            entries = []
            for path, data in files.items():
                if data is None:
                    entries.append(f"0 {'0' * len(parent)}\t{path}")
                else:
                    blob = self.out("hash-object", "-w", "--stdin", input=data)
                    entries.append(f"{_FILE_MODE} {blob}\t{path}")
            if entries:
                self.run("update-index", "-z", "--index-info", input="\0".join(entries) + "\0", env=with_index)
            tree = self.out("write-tree", env=with_index)
        finally:
            for leftover in (index, index.with_name(index.name + ".lock")):
                with contextlib.suppress(OSError):
                    leftover.unlink()
        if tree == self.out("rev-parse", f"{parent}^{{tree}}"):
            return None
        return self.out(
            "-c", "user.useConfigOnly=true", "commit-tree", tree, "-p", parent, "-F", "-", input=message, env=env
        )

    def move_head(self, new: str, old: str, reason: str) -> None:
        """Point HEAD (its branch) at `new`, only if it is still at `old`."""
        moved = self.run("update-ref", "-m", reason, "HEAD", new, old, check=False)
        if not moved.ok:
            raise CommitError(
                f"the branch moved while committing ({moved.message}); nothing was lost, commit reviews again"
            )

    def sync_index(self, paths: Sequence[str], revision: str) -> str | None:
        """Set the user's index entries of `paths` to `revision`'s; returns a warning when that failed."""
        entries = []
        for path in paths:
            listed = self.run("ls-tree", "-z", revision, "--", path).stdout.split("\0", 1)[0]
            if listed:
                mode, _kind, oid = listed.split("\t", 1)[0].split()
                entries.append(f"{mode} {oid}\t{path}")
            else:
                entries.append(f"0 {'0' * len(revision)}\t{path}")
        done = self.run("update-index", "-z", "--index-info", input="\0".join(entries) + "\0", check=False)
        if done.ok:
            return None
        return (
            f"the commit is made, but git's index could not be updated ({done.message}); `git status` may show "
            f"the review files as changed until you run `git reset -q -- {' '.join(paths)}`"
        )

    def _temporary_index(self) -> Path:
        found = self.out("rev-parse", "--git-path", f"reviewapp-index-{secrets.token_hex(6)}")
        path = Path(found)
        return path if path.is_absolute() else self.top / path


def redact_urls(text: str) -> str:
    """`text` without the user and password part of URLs (a remote's URL may carry a token)."""
    return _URL_CREDENTIALS.sub(r"\1***@", text)


def find_checkout(logbook_root: Path) -> GitCheckout | None:
    """The git checkout that tracks the logbook's pages, or None (no git, not tracked, no commit yet)."""
    head = git_head(logbook_root)
    if head is None:
        return None
    try:
        top = gitcmd.run(["rev-parse", "--show-toplevel"], logbook_root, timeout=5)
        branch = gitcmd.run(["symbolic-ref", "--quiet", "--short", "HEAD"], logbook_root, timeout=5)
    except gitcmd.GitError:
        return None
    if not top.ok:
        return None
    top_path = Path(top.stdout.strip()).resolve()
    try:
        prefix = logbook_root.resolve().relative_to(top_path).as_posix()
    except ValueError:
        return None
    return GitCheckout(top_path, "" if prefix == "." else prefix, head, branch.stdout.strip() if branch.ok else None)


def commit_plan(
    checkout: GitCheckout, plan: CommitPlan, message: str, logbook_root: Path
) -> tuple[str | None, list[str]]:
    """Commit the plan's changed files on top of HEAD: (the new commit or None when nothing changed, warnings).

    Files from the fallback folder are first brought into the logbook's reviews folder, so that the work tree
    holds what was committed.
    """
    changed = plan.changed_files
    if not changed:
        return None, []
    repo = GitRepo(checkout.top)
    repo.check_identity()
    for planned in changed:
        if not checkout.is_review_path(planned.path):
            raise CommitError(f"{planned.path} is not a review file of this logbook; nothing was committed")
        if planned.from_fallback and planned.data is not None:  # a deletion has nothing to bring in
            bring_into(logbook_root / REVIEWS_DIR, planned.rel, planned.data)
    parent = repo.head()
    commit = repo.write_commit(parent, {f.path: f.data for f in changed}, message)
    if commit is None:
        return None, []
    repo.move_head(commit, parent, f"commit: {message.splitlines()[0]}")
    warning = repo.sync_index([f.path for f in changed], commit)
    return commit, [warning] if warning else []
