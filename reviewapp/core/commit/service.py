"""The facade the command line and the commit dialog use: where a logbook's reviews can go, plans and commits.

    service = CommitService(logbook)
    service.default_target()                   # "git" inside a checkout that tracks the logbook, else "hub"
    plan = service.plan_git()                  # or service.plan_hub(service.hub_repo("alice/repro-x", "space"))
    plan.message, plan.readable_diff(), plan.raw_diff(), plan.changed_files
    outcome = service.commit_git(plan, push=True)      # or commit_hub(plan, hub, pr=True, confirmed=True)
    outcome.reference                          # commit id, commit URL or pull-request URL

Planning and committing talk to git or the network: call them off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from reviewapp.core.commit.errors import CommitError, NetworkUnavailable
from reviewapp.core.commit.git_commit import GitCheckout, GitRepo, commit_plan, find_checkout
from reviewapp.core.commit.git_sync import finish_interrupted_replay, push
from reviewapp.core.commit.hub_commit import HubCommitter
from reviewapp.core.commit.hub_repo import HubRepo, hub_repo
from reviewapp.core.commit.plan import CommitPlan, Target, build_plan
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.revision import downloaded_files, space_sha
from reviewapp.core.progress import ProgressCallback
from reviewapp.core.review.identity import annotator_slug
from reviewapp.core.review.secret_scan import known_secrets
from reviewapp.core.review.store import locate_reviews

Status = Literal["committed", "pushed", "pushed_aside", "pull_request", "nothing"]


class RepoNotConfirmed(CommitError):
    """The repository was inferred from the logbook's metadata and the user has not confirmed it."""


@dataclass
class CommitOutcome:
    target: Target
    status: Status
    commit: str | None  # the commit made (after replaying onto a moved remote), or the pushed HEAD
    url: str | None = None  # the commit's page on the Hub
    pr_url: str | None = None
    pushed_to: str | None = None  # "origin/main", or "origin/reviews/ada-…" after a conflict
    notes: list[str] = field(default_factory=list)

    @property
    def reference(self) -> str | None:
        """What to show or print: the pull request's URL, the commit's URL, or the commit id."""
        return self.pr_url or self.url or self.commit

    @property
    def complete(self) -> bool:
        """Everything landed where it was asked to go (a push after a conflict did not)."""
        return self.status != "pushed_aside"

    def headline(self) -> str:
        short = self.commit[:12] if self.commit else ""
        return {
            "committed": f"Committed {short}.",
            "pushed": f"Committed {short} and pushed it to {self.pushed_to}.",
            "pushed_aside": f"Committed {short}; it conflicts with the remote, so it was pushed to {self.pushed_to}.",
            "pull_request": f"Opened a pull request: {self.pr_url}",
            "nothing": "Nothing to commit: the review files are as last committed.",
        }[self.status]


class CommitService:
    def __init__(
        self,
        logbook: Logbook,
        *,
        annotator: str | None = None,
        endpoint: str | None = None,
        token: str | None = None,
    ) -> None:
        self.logbook = logbook
        self.annotator = annotator  # names the branch a conflicting push goes to
        self.endpoint = endpoint
        self._token = token

    # -- where reviews can go ------------------------------------------------------------------------------------

    def checkout(self) -> GitCheckout | None:
        return find_checkout(self.logbook.root)

    def git_unavailable(self) -> str | None:
        """Why the reviews cannot be committed with git here, or None when they can."""
        if self.checkout() is None:
            return "the logbook is not in a git checkout that tracks its pages"
        location = locate_reviews(self.logbook.root, logbook_id=self.logbook.logbook_id)
        if location.fallback:
            return f"the logbook folder cannot be written ({location.reason}), so git cannot commit its reviews here"
        return None

    def default_target(self) -> Target:
        return "git" if self.checkout() is not None else "hub"

    def hub_repo(self, repo: str | None = None, repo_type: str | None = None, *, field: str = "--repo") -> HubRepo:
        return hub_repo(self.logbook, repo, repo_type, field=field)

    def hub(self, repo: HubRepo) -> HubCommitter:
        return HubCommitter(repo, endpoint=self.endpoint, token=self._token)

    # -- plans ---------------------------------------------------------------------------------------------------

    def plan_git(self) -> CommitPlan:
        reason = self.git_unavailable()
        checkout = self.checkout()
        if reason is not None or checkout is None:
            raise CommitError(f"cannot commit with git: {reason}")
        repo = GitRepo(checkout.top)
        return build_plan(
            self.logbook,
            target="git",
            prefix=checkout.prefix,
            read_base=lambda local: repo.blobs(checkout.head, list(local)),
            destination=checkout.describe(),
            base_revision=checkout.head,
            keep_remote_lines=False,
            list_committed=lambda folder: repo.files_under(checkout.head, folder),
        )

    def plan_hub(self, repo: HubRepo, revision: str | None = None, *, offline_ok: bool = False) -> CommitPlan:
        """Plan against `revision`, else the commit the logbook was downloaded at, else the repository's head.

        With `offline_ok` (a dry run, the dialog's preview) an unreachable Hub is no error: the plan is made
        against the last remote state known here (the files as downloaded) and its notes say so.
        """
        try:
            return self._plan_hub_online(repo, revision)
        except NetworkUnavailable as exc:
            if not offline_ok:
                raise
            return self._plan_hub_offline(repo, str(exc))

    def _plan_hub_offline(self, repo: HubRepo, why: str) -> CommitPlan:
        known = downloaded_files(self.logbook.root)
        sha = space_sha(self.logbook.root) if known is not None else None
        plan = build_plan(
            self.logbook,
            target="hub",
            prefix=repo.path_in_repo,
            read_base=known.base_reader if known is not None else lambda local: dict.fromkeys(local),
            destination=repo.describe(),
            base_revision=sha,
            keep_remote_lines=True,
            list_committed=known.files_under if known is not None else None,
        )
        plan.offline = True
        if sha is not None:
            plan.notes.insert(
                0,
                f"offline ({why}): compared with the files as downloaded at {sha[:12]}, the last state of "
                f"{repo.describe()} known here; files changed since the download are shown whole",
            )
        else:
            plan.notes.insert(
                0,
                f"offline ({why}): nothing is known here about what {repo.describe()} holds, so every review "
                "file is shown as it would be uploaded",
            )
        return plan

    def _plan_hub_online(self, repo: HubRepo, revision: str | None) -> CommitPlan:
        committer = self.hub(repo)
        downloaded = space_sha(self.logbook.root)  # the Hub cache snapshot's commit, or a --local-dir download's
        # One request without the client's retries first: an unreachable Hub is known in a moment, not after the
        # backoff of the listing calls (tens of seconds).
        head = committer.head()
        parent = revision or downloaded or head
        try:
            return self._hub_plan(repo, committer, parent)
        except NetworkUnavailable:
            raise
        except CommitError:
            if parent != downloaded:
                raise
        plan = self._hub_plan(repo, committer, head)  # the download's commit is not in this repository
        plan.notes.append(f"the commit the logbook was downloaded at ({parent[:12]}) is not in {repo.describe()}")
        return plan

    def _hub_plan(self, repo: HubRepo, committer: HubCommitter, parent: str) -> CommitPlan:
        return build_plan(
            self.logbook,
            target="hub",
            prefix=repo.path_in_repo,
            read_base=committer.base_reader(parent),
            destination=repo.describe(),
            base_revision=parent,
            keep_remote_lines=True,
            list_committed=committer.folder_lister(parent),
        )

    # -- commits -------------------------------------------------------------------------------------------------

    def commit_git(
        self,
        plan: CommitPlan,
        *,
        message: str | None = None,
        push_after: bool = False,
        progress: ProgressCallback | None = None,
    ) -> CommitOutcome:
        checkout = self.checkout()
        if checkout is None:
            raise CommitError("cannot commit with git: the logbook is not in a git checkout that tracks its pages")
        finished = finish_interrupted_replay(GitRepo(checkout.top))
        if finished is not None:
            checkout = self.checkout() or checkout
        if checkout.head != plan.base_revision:  # a pull or a commit since: what was read may be out of date
            plan = self.plan_git()
            plan.notes.append("the branch had moved since the changes were shown, so they were read again")
        if finished is not None:
            plan.notes.append(finished)
        text = _message(message, plan)
        plan.check_secrets(known_secrets(), text)
        _report(progress, "committing the review files")
        commit, notes = commit_plan(checkout, plan, text, self.logbook.root)
        if not push_after:
            status: Status = "committed" if commit else "nothing"
            return CommitOutcome("git", status, commit, notes=[*plan.notes, *notes])
        result = push(find_checkout(self.logbook.root) or checkout, self._slug(plan), progress)
        notes.extend(result.notes)
        if result.replayed:
            notes.append(f"{result.pushed_to} had new commits; your review was replayed on top of them")
        if result.conflict is not None:
            status = "pushed_aside"
        elif commit is None and result.up_to_date:
            status = "nothing"
        else:
            status = "pushed"
        return CommitOutcome("git", status, result.head, pushed_to=result.pushed_to, notes=[*plan.notes, *notes])

    def commit_hub(
        self,
        plan: CommitPlan,
        repo: HubRepo,
        *,
        message: str | None = None,
        pr: bool = False,
        confirmed: bool = False,
        pr_without_write_access: bool = True,
        progress: ProgressCallback | None = None,
    ) -> CommitOutcome:
        if repo.inferred and not confirmed:
            raise RepoNotConfirmed(
                f"the repository {repo.repo_id} ({repo.repo_type}) was taken from the logbook's space_id, which is "
                "sometimes wrong or cut short: confirm it with --yes, or pass --repo OWNER/NAME --repo-type TYPE"
            )
        committer = self.hub(repo)
        result = committer.commit(
            plan,
            _message(message, plan),
            create_pr=pr,
            replan=lambda head: self._hub_plan(repo, committer, head),
            known_secrets=known_secrets(),
            pr_without_write_access=pr_without_write_access,
            progress=progress,
        )
        notes = [*plan.notes, *result.notes]
        if result.commit is None:
            return CommitOutcome("hub", "nothing", None, notes=notes)
        status: Status = "pull_request" if result.pr_url else "committed"
        return CommitOutcome("hub", status, result.commit, result.commit_url, result.pr_url, notes=notes)

    def _slug(self, plan: CommitPlan) -> str:
        """Who the review is by, for the name of a branch: the user, else the one annotator in the plan."""
        names: Sequence[str] = [self.annotator] if self.annotator else plan.summary.annotators()
        if len(names) == 1:
            return annotator_slug(names[0])
        record_files = [f.rel for f in plan.changed_files if f.rel.endswith(".jsonl") and "/" not in f.rel]
        return record_files[0].removesuffix(".jsonl") if len(record_files) == 1 else "reviews"


def _message(message: str | None, plan: CommitPlan) -> str:
    text = (message or "").strip()
    return (text + "\n") if text else plan.message


def _report(progress: ProgressCallback | None, label: str) -> None:
    if progress is not None:
        progress(0, 0, label)
