"""In-memory model of Hub repositories for the loopback test server (see `tests.support.hub_server`).

Each repository keeps a chain of immutable commits (full file snapshots), branches, pull-request refs
(`refs/pr/N`) and their discussions. Object ids are real git object ids (blob, tree and commit hashes), so
the blob ids the server reports match what `huggingface_hub` computes locally (`sha.git_hash`) and the client's
"file unchanged" detection behaves as against the real Hub.

Everything here is plain data plus rules; answers to HTTP routes live in `hub_routes`, the server in
`hub_server`. Rule violations raise `HubError` carrying the status code, message and `X-Error-Code` the real
Hub would answer with.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import PurePosixPath
from types import MappingProxyType

REPO_TYPES = ("model", "dataset", "space")
URL_PREFIXES = {"model": "", "dataset": "datasets/", "space": "spaces/"}
DEFAULT_BRANCH = "main"
# what the Hub puts in the first commit of a new repo
INITIAL_FILES: Mapping[str, bytes] = MappingProxyType(
    {".gitattributes": b"*.bin filter=lfs diff=lfs merge=lfs -text\n"}
)

_PR_REF = re.compile(r"refs/pr/(\d+)")
_FULL_OID = re.compile(r"[0-9a-f]{40}")
_SHORT_OID = re.compile(r"[0-9a-f]{5,40}")


class HubError(Exception):
    """A refusal the Hub answers with an HTTP error: status, message and optional `X-Error-Code`."""

    def __init__(
        self, status: int, message: str, *, code: str | None = None, headers: Mapping[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.headers: dict[str, str] = dict(headers or {})


def hub_timestamp(moment: float) -> str:
    """Format a Unix time the way the Hub does (`2024-05-01T12:00:00.000Z`)."""
    dt = datetime.fromtimestamp(moment, tz=UTC)
    return f"{dt:%Y-%m-%dT%H:%M:%S}.{dt.microsecond // 1000:03d}Z"


def git_blob_oid(content: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def git_tree_oids(files: Mapping[str, bytes]) -> dict[str, str]:
    """Git tree ids of every folder of a snapshot, keyed by folder path ("" is the root)."""
    children: dict[str, dict[str, tuple[bool, str]]] = {"": {}}
    for path in files:
        parts = path.split("/")
        for depth in range(1, len(parts)):
            children.setdefault("/".join(parts[:depth]), {})
    oids: dict[str, str] = {}

    def tree_oid(folder: str) -> str:
        entries: list[tuple[bytes, bytes, str]] = []
        prefix = f"{folder}/" if folder else ""
        for path, content in files.items():
            if path.startswith(prefix) and "/" not in path[len(prefix) :]:
                entries.append((path[len(prefix) :].encode(), b"100644", git_blob_oid(content)))
        for sub in children:
            if sub and sub.startswith(prefix) and "/" not in sub[len(prefix) :]:
                entries.append((sub[len(prefix) :].encode(), b"40000", tree_oid(sub)))
        # git orders folders as if their name ended with "/"
        entries.sort(key=lambda e: e[0] + (b"/" if e[1] == b"40000" else b""))
        body = b"".join(mode + b" " + name + b"\0" + bytes.fromhex(oid) for name, mode, oid in entries)
        oids[folder] = hashlib.sha1(b"tree %d\0" % len(body) + body).hexdigest()
        return oids[folder]

    tree_oid("")
    return oids


def validate_repo_path(path: str) -> str:
    """Reject paths the Hub would refuse (absolute, traversal, empty segments, `.git`)."""
    parts = path.split("/")
    if not path or path.startswith("/") or any(p in ("", ".", "..") for p in parts) or parts[0] == ".git":
        raise HubError(400, f"Invalid path in repo: {path!r}")
    return path


@dataclass(frozen=True)
class Commit:
    oid: str
    parent: str | None
    title: str
    description: str
    author: str
    created: float
    files: Mapping[str, bytes]

    @property
    def message(self) -> str:
        return f"{self.title}\n\n{self.description}" if self.description else self.title

    @property
    def date(self) -> str:
        return hub_timestamp(self.created)


def make_commit(*, parent: str | None, files: Mapping[str, bytes], title: str, description: str, author: str) -> Commit:
    created = time.time()
    header = f"tree {git_tree_oids(files)['']}\n"
    if parent is not None:
        header += f"parent {parent}\n"
    signature = f"{author} <{author}@users.noreply.huggingface.co> {int(created)} +0000"
    raw = f"{header}author {signature}\ncommitter {signature}\n\n{title}\n"
    if description:
        raw += f"\n{description}\n"
    data = raw.encode()
    oid = hashlib.sha1(b"commit %d\0" % len(data) + data).hexdigest()
    return Commit(oid, parent, title, description, author, created, MappingProxyType(dict(files)))


@dataclass
class PullRequest:
    num: int
    title: str
    description: str
    author: str
    created: float
    base_branch: str
    commit_oids: list[str] = field(default_factory=list)
    status: str = "open"

    @property
    def ref(self) -> str:
        return f"refs/pr/{self.num}"


@dataclass
class Repo:
    repo_type: str
    repo_id: str
    private: bool = False
    sdk: str | None = None
    writers: set[str] = field(default_factory=set)
    readers: set[str] = field(default_factory=set)
    created: float = field(default_factory=time.time)
    commits: dict[str, Commit] = field(default_factory=dict)
    branches: dict[str, str] = field(default_factory=dict)
    pull_requests: dict[int, PullRequest] = field(default_factory=dict)
    pr_heads: dict[int, str] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)
    gated: bool = False  # anyone sees its metadata; only readers and writers download its files

    @property
    def url_path(self) -> str:
        return f"{URL_PREFIXES[self.repo_type]}{self.repo_id}"

    def discussion_path(self, num: int) -> str:
        return f"{self.url_path}/discussions/{num}"

    def can_read(self, user: str | None) -> bool:
        return not self.private or self.is_member(user)

    def is_member(self, user: str | None) -> bool:
        return user is not None and (user in self.writers or user in self.readers)

    def can_write(self, user: str | None) -> bool:
        return user is not None and user in self.writers

    def add_commit(self, commit: Commit) -> Commit:
        self.commits.setdefault(commit.oid, commit)
        return self.commits[commit.oid]

    def resolve(self, revision: str) -> Commit:
        """Commit a revision (branch, `refs/heads/x`, `refs/pr/N` or full commit id) points to."""
        oid = self.ref_target(revision)
        if oid is None and _FULL_OID.fullmatch(revision.lower()):
            oid = revision.lower() if revision.lower() in self.commits else None
        if oid is None:
            raise HubError(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
        return self.commits[oid]

    def ref_target(self, revision: str) -> str | None:
        """Commit id a branch or PR ref points to, or None when `revision` names no ref."""
        branch = revision.removeprefix("refs/heads/")
        if branch in self.branches:
            return self.branches[branch]
        match = _PR_REF.fullmatch(revision)
        if match is not None:
            return self.pr_heads.get(int(match[1]))
        return None

    def find_commit(self, short_oid: str) -> Commit | None:
        """Commit whose id starts with `short_oid` (5 to 40 hex digits, like the client's `parent_commit`)."""
        short_oid = short_oid.lower()
        if not _SHORT_OID.fullmatch(short_oid):
            return None
        matches = [c for oid, c in self.commits.items() if oid.startswith(short_oid)]
        return matches[0] if len(matches) == 1 else None

    def history(self, revision: str) -> list[Commit]:
        """Commits reachable from `revision`, newest first."""
        commit: Commit | None = self.resolve(revision)
        chain: list[Commit] = []
        while commit is not None:
            chain.append(commit)
            commit = self.commits[commit.parent] if commit.parent else None
        return chain

    def last_commit_touching(self, head: Commit, path: str, *, folder: bool) -> Commit:
        """Most recent commit (from `head` back) that changed `path` (a file, or everything under a folder)."""

        def view(commit: Commit) -> object:
            if folder:
                return {p: c for p, c in commit.files.items() if p.startswith(f"{path}/")}
            return commit.files.get(path)

        current = head
        while current.parent is not None:
            parent = self.commits[current.parent]
            if view(parent) != view(current):
                break
            current = parent
        return current


def apply_operations(base: Mapping[str, bytes], operations: Iterable[tuple[str, str, bytes]]) -> dict[str, bytes]:
    """New snapshot after `(kind, path, content)` operations: kind is "file", "deletedFile" or "deletedFolder"."""
    files = dict(base)
    for kind, path, content in operations:
        validate_repo_path(path.rstrip("/"))
        if kind == "file":
            files[path] = content
        elif kind == "deletedFile":
            if files.pop(path, None) is None:
                raise HubError(404, f"A file with this name doesn't exist: {path}", code="EntryNotFound")
        elif kind == "deletedFolder":
            prefix = path.rstrip("/") + "/"
            doomed = [p for p in files if p.startswith(prefix)]
            if not doomed:
                raise HubError(404, f"A folder with this name doesn't exist: {path}", code="EntryNotFound")
            for doomed_path in doomed:
                del files[doomed_path]
        else:
            raise HubError(400, f"Unsupported commit operation {kind!r}")
    return files


def folders_of(files: Iterable[str]) -> set[str]:
    return {str(parent) for path in files for parent in PurePosixPath(path).parents if str(parent) != "."}


@dataclass(frozen=True)
class CommitRequest:
    """What one `POST .../commit/{revision}` asks for, already decoded from NDJSON."""

    title: str
    description: str
    parent_commit: str | None
    operations: list[tuple[str, str, bytes]]


class Hub:
    """All repositories of one server; callers hold `lock` around anything that reads or changes them."""

    def __init__(self) -> None:
        self.repos: dict[tuple[str, str], Repo] = {}

    def create_repo(
        self,
        repo_type: str,
        repo_id: str,
        *,
        creator: str,
        private: bool = False,
        sdk: str | None = None,
        files: Mapping[str, bytes] | None = None,
        tags: Iterable[str] = (),
        gated: bool = False,
    ) -> Repo:
        if repo_type not in REPO_TYPES:
            raise HubError(400, f"Invalid repo type {repo_type!r}")
        if (repo_type, repo_id) in self.repos:
            raise HubError(409, f"You already created this {repo_type} repo")
        repo = Repo(repo_type, repo_id, private=private, sdk=sdk, writers={creator}, tags=list(tags), gated=gated)
        initial = repo.add_commit(
            make_commit(parent=None, files=INITIAL_FILES, title="initial commit", description="", author=creator)
        )
        repo.branches[DEFAULT_BRANCH] = initial.oid
        if files:
            seeded = repo.add_commit(
                make_commit(
                    parent=initial.oid,
                    files={**INITIAL_FILES, **files},
                    title="Add files",
                    description="",
                    author=creator,
                )
            )
            repo.branches[DEFAULT_BRANCH] = seeded.oid
        self.repos[(repo_type, repo_id)] = repo
        return repo

    def readable_repo(self, repo_type: str, repo_id: str, user: str | None) -> Repo:
        """The repo if `user` may see it; otherwise the Hub's answer (401 anonymous, 404 everyone else)."""
        repo = self.repos.get((repo_type, repo_id))
        if repo is None or not repo.can_read(user):
            status = 401 if user is None else 404
            raise HubError(status, "Repository not found", code="RepoNotFound")
        return repo

    def downloadable_repo(self, repo_type: str, repo_id: str, user: str | None) -> Repo:
        """The repo if `user` may download its files: a gated repo answers 401 (anonymous) or 403 with
        `GatedRepo` to anyone not granted access, as the Hub does."""
        repo = self.readable_repo(repo_type, repo_id, user)
        if repo.gated and not repo.is_member(user):
            status = 401 if user is None else 403
            raise HubError(
                status,
                f"Access to {repo_id} is restricted. You must be authenticated and granted access.",
                code="GatedRepo",
            )
        return repo

    def commit(
        self, repo: Repo, user: str | None, revision: str, request: CommitRequest, *, create_pr: bool
    ) -> tuple[Commit, PullRequest | None]:
        """Apply a commit as the Hub does; returns the new commit and, with `create_pr`, the opened PR."""
        if user is None:
            raise HubError(401, "You must be authenticated to commit")
        if create_pr:
            return self._commit_to_new_pr(repo, user, revision, request)
        pr_match = _PR_REF.fullmatch(revision)
        if pr_match is not None and int(pr_match[1]) in repo.pull_requests:
            pr = repo.pull_requests[int(pr_match[1])]
            if not (repo.can_write(user) or user == pr.author):
                raise HubError(403, "You don't have the rights to push to this pull request")
            head = repo.commits[repo.pr_heads[pr.num]]
        else:
            branch = revision.removeprefix("refs/heads/")
            if branch not in repo.branches:
                raise HubError(404, f"Invalid rev id: {revision}", code="RevisionNotFound")
            if not repo.can_write(user):
                raise HubError(403, f"You don't have the rights to commit to {revision}; open a pull request")
            head = repo.commits[repo.branches[branch]]
        if request.parent_commit is not None and not head.oid.startswith(request.parent_commit.lower()):
            raise HubError(412, "A commit has happened since. Please refresh and try again.")
        commit = self._new_commit(repo, head, user, request)
        if pr_match is not None:
            repo.pr_heads[int(pr_match[1])] = commit.oid
            repo.pull_requests[int(pr_match[1])].commit_oids.append(commit.oid)
        else:
            repo.branches[revision.removeprefix("refs/heads/")] = commit.oid
        return commit, None

    def _commit_to_new_pr(
        self, repo: Repo, user: str, revision: str, request: CommitRequest
    ) -> tuple[Commit, PullRequest]:
        base_branch = revision.removeprefix("refs/heads/")
        if base_branch not in repo.branches:
            raise HubError(404, f"Pull requests target a branch, not {revision}", code="RevisionNotFound")
        if request.parent_commit is None:
            base = repo.commits[repo.branches[base_branch]]
        else:
            found = repo.find_commit(request.parent_commit)
            if found is None:
                raise HubError(404, f"Invalid parent commit: {request.parent_commit}", code="RevisionNotFound")
            base = found
        commit = self._new_commit(repo, base, user, request)
        num = max([0, *repo.pull_requests]) + 1
        pr = PullRequest(num, request.title, request.description, user, time.time(), base_branch, [commit.oid])
        repo.pull_requests[num] = pr
        repo.pr_heads[num] = commit.oid
        return commit, pr

    @staticmethod
    def _new_commit(repo: Repo, head: Commit, user: str, request: CommitRequest) -> Commit:
        files = apply_operations(head.files, request.operations)
        return repo.add_commit(
            make_commit(parent=head.oid, files=files, title=request.title, description=request.description, author=user)
        )
