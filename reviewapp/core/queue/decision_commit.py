"""Committing a decision: its record file and report, and only those, into the git checkout holding the queue.

The commit is built from HEAD's tree with these files set (the user's index and other changes are left alone,
as for reviews), HEAD's branch moves to it only if it has not moved meanwhile, and `--push` pushes it to the
branch's remote.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reviewapp.core.commit.errors import CommitError, NetworkUnavailable
from reviewapp.core.commit.git_commit import GitCheckout, GitRepo
from reviewapp.core.commit.git_sync import push as push_head
from reviewapp.core.io import gitcmd


class DecisionCommitError(Exception):
    """The decision could not be committed or pushed; the files written stay where they are."""


def queue_checkout(queue_path: Path) -> GitCheckout | None:
    """The checkout whose HEAD tracks the queue file (or a file of the queue folder); None otherwise, so that an
    unrelated enclosing repository (a home folder under git) is never committed to."""
    folder = queue_path if queue_path.is_dir() else queue_path.parent
    try:
        head = gitcmd.run(["rev-parse", "--verify", "--quiet", "HEAD"], folder, timeout=5)
        top = gitcmd.run(["rev-parse", "--show-toplevel"], folder, timeout=5)
        tracked = gitcmd.run(["ls-files", "-z", "--", queue_path.name if queue_path.is_file() else "."], folder)
        branch = gitcmd.run(["symbolic-ref", "--quiet", "--short", "HEAD"], folder, timeout=5)
    except gitcmd.GitError:
        return None
    if not (head.ok and top.ok and tracked.ok and tracked.stdout.strip("\0")):
        return None
    top_path = Path(top.stdout.strip()).resolve()
    prefix = folder.resolve().relative_to(top_path).as_posix()
    name = branch.stdout.strip() if branch.ok else None
    return GitCheckout(top_path, "" if prefix == "." else prefix, head.stdout.strip(), name)


def commit_decision(queue_path: Path, paths: Sequence[Path], slug: str, *, push: bool = False) -> str:
    """Commit `paths` into the checkout holding the queue; returns what was done, in a sentence. Raises
    NetworkUnavailable or DecisionCommitError."""
    checkout = queue_checkout(queue_path)
    if checkout is None:
        raise DecisionCommitError(f"{queue_path} is not tracked in a git checkout: nothing committed")
    repo = GitRepo(checkout.top)
    files: dict[str, bytes | None] = {}
    for path in paths:
        try:
            inside = path.resolve().relative_to(checkout.top)
        except ValueError:
            raise DecisionCommitError(f"{path} is outside the checkout {checkout.top}: nothing committed") from None
        files[inside.as_posix()] = path.read_bytes()
    try:
        repo.check_identity()
        made = repo.write_commit(checkout.head, files, f"Decision recorded: {', '.join(sorted(files))}\n")
        if made is None:
            return "the decision was already committed"
        repo.move_head(made, checkout.head, "reviewapp decide")
        warning = repo.sync_index(list(files), made)
        said = f"committed {made[:10]} ({len(files)} files)" + (f"; {warning}" if warning else "")
        if push:
            pushed = push_head(GitCheckout(checkout.top, checkout.prefix, made, checkout.branch), slug)
            said += f"; pushed to {pushed.pushed_to}" if pushed.pushed_to else ""
        return said
    except NetworkUnavailable:
        raise
    except CommitError as exc:
        raise DecisionCommitError(str(exc)) from None
