"""Pushing review commits: when the remote moved, fetch, replay the review commits onto it, push again.

Replaying happens in git's object store, not in the work tree, so the user's other changes are never stashed or
touched: each review file is merged three ways (annotation files keep the lines of both sides, as `merge=union`
does); then the work tree moves to the new commit with a two-tree `read-tree -m -u`, which keeps unrelated local
changes and refuses (changing nothing) where they would be overwritten.

Moving the work tree and then the branch are two steps a kill can separate (the work tree half updated, or
updated while HEAD still names the old commit). A journal in the git folder names both commits before the first
step and is removed after the last; the next commit or push finds it and finishes the move, for every path the
replay changed that still holds either side's content, before doing anything else.

A real conflict — a review file edited by hand on both sides, or pair results rewritten on both — is never
forced: the local commit is pushed to a new branch `reviews/<annotator>-<time>`, so both versions are on the
remote, and the user is told what happened.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from reviewapp.core.commit.errors import CommitError, NetworkUnavailable
from reviewapp.core.commit.files import is_record_file, keeps_all_lines, schema_version, union
from reviewapp.core.commit.git_commit import NETWORK_TIMEOUT, GitCheckout, GitRepo, redact_urls
from reviewapp.core.io.durable import atomic_write
from reviewapp.core.progress import ProgressCallback
from reviewapp.core.review.store import GITATTRIBUTES_FILE, SCHEMA_FILE

MAX_PUSH_ATTEMPTS = 4
JOURNAL = "reviewapp-replay"


class Conflict(Exception):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Upstream:
    remote: str
    ref: str  # on the remote: refs/heads/main

    @property
    def branch(self) -> str:
        return self.ref.removeprefix("refs/heads/")

    def describe(self) -> str:
        return f"{self.remote}/{self.branch}"


@dataclass
class PushResult:
    head: str  # the local HEAD afterwards (the review commit, replayed when the remote had moved)
    pushed_to: str | None  # "origin/main", or the new branch after a conflict; None when nothing was pushed
    up_to_date: bool = False
    conflict: Conflict | None = None
    conflict_branch: str | None = None
    replayed: int = 0  # times the remote had moved and the review commits were replayed onto it
    notes: list[str] = field(default_factory=list)


_UNREACHABLE = (
    "could not resolve host",
    "connection refused",
    "connection timed out",
    "network is unreachable",
    "operation timed out",
    "failed to connect",
    "temporary failure in name resolution",
)


def _unreachable(git_message: str) -> bool:
    """git's own words for a remote it could not reach (as opposed to one that answered no)."""
    text = git_message.lower()
    return any(phrase in text for phrase in _UNREACHABLE)


def upstream_of(repo: GitRepo, checkout: GitCheckout) -> Upstream:
    if checkout.branch is None:
        raise CommitError(
            "HEAD is detached (no branch is checked out), so there is nothing to push to; the commit is kept"
        )
    remote = repo.run("config", "--get", f"branch.{checkout.branch}.remote", check=False).stdout.strip()
    merge = repo.run("config", "--get", f"branch.{checkout.branch}.merge", check=False).stdout.strip()
    if remote and remote != "." and merge:
        return Upstream(remote, merge)
    remotes = repo.run("remote").stdout.split()
    if "origin" in remotes:
        return Upstream("origin", f"refs/heads/{checkout.branch}")
    raise CommitError(
        f"branch {checkout.branch} has no remote to push to (set one with `git push -u REMOTE {checkout.branch}` "
        "once); the commit is kept locally"
    )


def push(checkout: GitCheckout, annotator_slug: str, progress: ProgressCallback | None = None) -> PushResult:
    """Push HEAD to its upstream, replaying the review commits onto the remote when it moved."""
    repo = GitRepo(checkout.top)
    finish_interrupted_replay(repo)
    upstream = upstream_of(repo, checkout)
    head = repo.head()
    result = PushResult(head, None)
    others = _other_unpushed(repo, checkout, head, upstream)
    for attempt in range(1, MAX_PUSH_ATTEMPTS + 1):
        _report(progress, attempt, f"pushing to {upstream.describe()}")
        status, summary = _push_once(repo, head, upstream.remote, upstream.ref)
        if status in ("ok", "up to date"):
            result.head, result.pushed_to, result.up_to_date = head, upstream.describe(), status == "up to date"
            if others and status == "ok":
                noun = "commit" if others == 1 else "commits"
                result.notes.append(f"the push also sent {others} earlier {noun} of your branch that were not reviews")
            return result
        if status != "rejected":
            error = NetworkUnavailable if _unreachable(summary) else CommitError
            raise error(f"push to {upstream.describe()} failed: {redact_urls(summary)}; the commit is kept locally")
        _report(progress, attempt, f"{upstream.describe()} has new commits: fetching and replaying the review")
        try:
            new_head = _replay_onto_remote(repo, checkout, head, upstream)
        except Conflict as conflict:
            return _push_aside(repo, head, upstream, annotator_slug, conflict, result)
        _move_work_tree(repo, head, new_head, upstream)
        head = new_head
        result.replayed += 1
    raise CommitError(
        f"{upstream.describe()} kept moving; tried {MAX_PUSH_ATTEMPTS} times. The commit is kept locally; "
        "push again later"
    )


def _other_unpushed(repo: GitRepo, checkout: GitCheckout, head: str, upstream: Upstream) -> int:
    """Commits of HEAD, not yet on the remote as far as git knows, that change more than review files."""
    tracking = f"refs/remotes/{upstream.remote}/{upstream.branch}"
    if not repo.run("rev-parse", "--verify", "--quiet", tracking, check=False).ok:
        return 0
    count = 0
    for commit in repo.out("rev-list", head, f"^{tracking}").split():
        paths = repo.run("diff-tree", "-r", "-z", "--no-commit-id", "--name-only", "--root", commit).stdout
        if any(p and not checkout.is_review_path(p) for p in paths.split("\0")):
            count += 1
    return count


def _report(progress: ProgressCallback | None, step: int, label: str) -> None:
    if progress is not None:
        progress(step, 0, label)


def _push_once(repo: GitRepo, commit: str, remote: str, ref: str) -> tuple[str, str]:
    """("ok" | "up to date" | "rejected" | "failed", git's summary) for one `git push --porcelain`."""
    done = repo.run("push", "--porcelain", remote, f"{commit}:{ref}", timeout=NETWORK_TIMEOUT, check=False)
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) < 3 or len(parts[0]) != 1 or not parts[1].endswith(f":{ref}"):
            continue
        flag, summary = parts[0], parts[2].strip()
        if flag == "=":
            return "up to date", summary
        if flag in (" ", "*", "+"):
            return "ok", summary
        if flag == "!" and _retryable(summary):
            return "rejected", summary
        return "failed", summary
    return ("ok", "") if done.ok else ("failed", done.message)


def _retryable(summary: str) -> bool:
    """The remote moved ahead, or another push held its lock at the same moment."""
    if summary.startswith("[rejected]"):
        return "fetch first" in summary or "non-fast-forward" in summary
    return summary.startswith("[remote rejected]") and ("lock" in summary or "failed to update ref" in summary)


def _replay_onto_remote(repo: GitRepo, checkout: GitCheckout, head: str, upstream: Upstream) -> str:
    """The review commits of HEAD that the remote lacks, replayed onto the remote's head (objects only)."""
    repo.run("fetch", "--no-tags", upstream.remote, upstream.ref, timeout=NETWORK_TIMEOUT)
    theirs = repo.out("rev-parse", "--verify", "FETCH_HEAD^{commit}")
    listed = repo.out("rev-list", "--reverse", "--parents", head, f"^{theirs}")
    current = theirs
    for line in listed.splitlines():
        commit, *parents = line.split()
        if len(parents) != 1:
            raise CommitError(_not_only_reviews(upstream, "a merge commit"))
        paths = repo.run("diff-tree", "-r", "-z", "--no-renames", "--name-only", parents[0], commit).stdout
        changed = [p for p in paths.split("\0") if p]
        others = [p for p in changed if not checkout.is_review_path(p)]
        if others:
            raise CommitError(_not_only_reviews(upstream, f"a commit changing {others[0]}"))
        merged: dict[str, bytes | None] = {}
        for path in changed:
            base, ours, their = (repo.blob(rev, path) for rev in (parents[0], commit, current))
            result = merge_file(path, base, ours, their)
            if result != their:
                merged[path] = result
        message = repo.run("log", "-1", "--format=%B", commit).stdout
        author = repo.out("log", "-1", "--format=%an%x00%ae%x00%ad", "--date=raw", commit).split("\0")
        env = {"GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1], "GIT_AUTHOR_DATE": author[2]}
        current = repo.write_commit(current, merged, message, env=env) or current
    return current


def _not_only_reviews(upstream: Upstream, what: str) -> str:
    return (
        f"{upstream.describe()} has new commits, and your branch has {what} that is not a review commit, so it "
        "cannot be replayed automatically. Your review commit is kept locally: pull (and merge or rebase) "
        "yourself, then push"
    )


def merge_file(path: str, base: bytes | None, ours: bytes | None, theirs: bytes | None) -> bytes | None:
    """Three-way merge of one review file; raises Conflict when both sides changed it incompatibly."""
    if ours == base:
        return theirs
    if theirs in (base, ours):
        return ours
    if ours is None or theirs is None:
        raise Conflict(path, "deleted on one side and changed on the other")
    name = PurePosixPath(path).name
    if is_record_file(name):
        if keeps_all_lines(base or b"", ours) and keeps_all_lines(base or b"", theirs):
            return union(theirs, ours)
        raise Conflict(path, "lines were changed or removed by hand on both sides")
    if name == SCHEMA_FILE:
        return ours if schema_version(ours) > schema_version(theirs) else theirs
    if name == GITATTRIBUTES_FILE:
        return union(theirs, ours)
    raise Conflict(path, "changed on both sides")


def _journal(repo: GitRepo) -> Path:
    return Path(repo.out("rev-parse", "--absolute-git-dir")) / JOURNAL


def finish_interrupted_replay(repo: GitRepo) -> str | None:
    """Finish a move from a replay that was killed half-way; returns a note saying so, None when there was none.

    Every path that differs between the two commits must hold the old or the new content (or be absent where
    that side has no file); it is then set to the new content in the index and the work tree, and the branch
    moved if it was not yet. A path the user changed since is never overwritten: the journal stays and the
    error names the path.
    """
    journal = _journal(repo)
    try:
        old, new = journal.read_text(encoding="ascii").split()[:2]
    except (OSError, ValueError):
        return None
    head = repo.head()
    if head not in (old, new):  # the branch moved on since (the user reset or committed): nothing to finish
        journal.unlink(missing_ok=True)
        return None
    listed = repo.run("diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new).stdout
    paths = [p for p in listed.split("\0") if p]
    for path in paths:
        on_disk = _work_tree_bytes(repo.top / path)
        if on_disk not in (repo.blob(old, path), repo.blob(new, path)):
            raise CommitError(
                f"an earlier push was interrupted while updating your working folder, and {path} has changed since; "
                f"nothing was overwritten. Put that change aside (or delete {journal}), then commit again"
            )
    present = [p for p in paths if repo.blob(new, p) is not None]
    absent = [p for p in paths if p not in present]
    if present:
        repo.run("checkout", new, "--", *present)
    for path in absent:
        (repo.top / path).unlink(missing_ok=True)
    if absent:
        repo.run("rm", "-q", "--cached", "--ignore-unmatch", "--", *absent)
    if head == old:
        repo.move_head(new, old, "reviewapp: finish an interrupted replay")
    journal.unlink(missing_ok=True)
    return f"an interrupted update of your working folder to {new[:10]} was finished"


def _work_tree_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    except OSError:
        return None


def _move_work_tree(repo: GitRepo, old: str, new: str, upstream: Upstream) -> None:
    """Bring index and work tree from `old` to `new` as a checkout would, then move the branch.

    The journal written first lets the next run finish the move if this process is killed in between.
    """
    repo.run("update-index", "-q", "--refresh", check=False)
    journal = _journal(repo)
    atomic_write(journal, f"{old} {new}\n".encode("ascii"))
    moved = repo.run("read-tree", "-m", "-u", old, new, check=False)
    if not moved.ok:
        journal.unlink(missing_ok=True)  # read-tree changed nothing
        raise CommitError(
            f"{upstream.describe()} has new commits, and updating your working folder to them would overwrite "
            f"your own changes ({moved.message}). Your review commit is kept locally and nothing was pushed: "
            "commit or put aside those changes, then push again"
        )
    try:
        repo.move_head(new, old, f"reviewapp: replay reviews onto {upstream.describe()}")
    except CommitError:
        repo.run("read-tree", "-m", "-u", new, old, check=False)  # put the work tree back where HEAD is
        journal.unlink(missing_ok=True)
        raise
    journal.unlink(missing_ok=True)


def _push_aside(
    repo: GitRepo, head: str, upstream: Upstream, annotator_slug: str, conflict: Conflict, result: PushResult
) -> PushResult:
    branch = f"reviews/{annotator_slug}-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}"
    status, summary = _push_once(repo, head, upstream.remote, f"refs/heads/{branch}")
    if status not in ("ok", "up to date"):
        raise CommitError(
            f"{conflict.path} was changed both on {upstream.describe()} and in your commit ({conflict.reason}), and "
            f"pushing your commit to a new branch failed too ({redact_urls(summary)}). Nothing is lost: your "
            f"commit {head[:10]} is in your local branch"
        )
    result.head, result.pushed_to = head, f"{upstream.remote}/{branch}"
    result.conflict, result.conflict_branch = conflict, branch
    result.notes.append(
        f"{conflict.path} was changed both on {upstream.describe()} and in your review ({conflict.reason}), so "
        f"the two could not be combined automatically. Nothing was lost: {upstream.describe()} keeps its version, "
        f"and your commit {head[:10]} was pushed to the new branch {branch} (and stays in your local branch). "
        "Merge the two by hand or ask the repository's owner to"
    )
    return result
