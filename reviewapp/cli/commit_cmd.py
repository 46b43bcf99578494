"""`reviewapp commit SOURCE [--to git|hub] [--message M] [--push] [--pr] [--repo OWNER/NAME --repo-type TYPE]`."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from reviewapp.cli.common import (
    EXIT_CHECK_FAILED,
    EXIT_NETWORK,
    EXIT_OK,
    EXIT_REFUSED,
    EXIT_USAGE,
    CommandError,
    add_source_argument,
    exit_codes_epilog,
    fail,
    load_or_exit,
)

if TYPE_CHECKING:
    from reviewapp.core.commit.hub_repo import HubRepo
    from reviewapp.core.commit.plan import CommitPlan
    from reviewapp.core.commit.service import CommitOutcome, CommitService

EXIT_CODES = exit_codes_epilog(
    ok="committed (and pushed, when asked): the commit id, commit URL or pull-request URL is printed; also when\n"
    "     there is nothing to commit (said on stderr)",
    wrong="the files to commit contain a token, key or password: nothing was committed or sent",
    usage="a flag that does not apply to the target, a bad or unconfirmed repository, not a logbook, not a git\n"
    "     checkout, or no git identity",
    refused="git or the Hub refused (what was committed locally is kept); a push that conflicts with the\n"
    "     remote went to a new branch instead (named on stderr)",
    network="the Hub or the git remote could not be reached (a --dry-run works offline)",
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "commit",
        help="commit the review files to the logbook's git repository or to the Hugging Face Hub",
        description=(
            "Commit the review files (reviews/) of a logbook, and nothing else: with git when the logbook is in\n"
            "a git checkout, else to its Space or dataset on the Hugging Face Hub. Prints the commit id, the\n"
            "commit's URL or the pull request's URL. For the Hub, log in with `hf auth login` or set HF_TOKEN;\n"
            "HF_ENDPOINT selects another server."
        ),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source_argument(parser)
    parser.add_argument(
        "--to", choices=("git", "hub"), help="where to commit (default: git inside a git checkout, else hub)"
    )
    parser.add_argument("--message", "-m", metavar="M", help="commit message (default: a summary of the review)")
    parser.add_argument("--push", action="store_true", help="git: push after committing")
    parser.add_argument("--pr", action="store_true", help="hub: open a pull request instead of committing directly")
    parser.add_argument("--repo", metavar="OWNER/NAME", help="hub: the repository (default: the logbook's space_id)")
    parser.add_argument("--repo-type", choices=("space", "dataset"), help="hub: the repository's type (with --repo)")
    parser.add_argument("--yes", "-y", action="store_true", help="hub: confirm the repository taken from space_id")
    parser.add_argument("--dry-run", action="store_true", help="show what would be committed, and commit nothing")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # imported here so that other commands do not pay for the commit machinery
    from reviewapp.core.commit.errors import CommitError, NetworkUnavailable
    from reviewapp.core.commit.git_commit import IdentityMissing
    from reviewapp.core.commit.hub_repo import RepoIdError
    from reviewapp.core.commit.plan import SecretsFound
    from reviewapp.core.commit.service import CommitService, RepoNotConfirmed
    from reviewapp.core.review.preferences import load_preferences

    try:
        logbook = load_or_exit(args.source)
        service = CommitService(logbook, annotator=load_preferences().annotator)
        target = args.to or service.default_target()
        check_flags(args, target)
        plan, repo = _plan(service, args, target)
        if args.dry_run or (plan.empty and not (target == "git" and args.push)):
            for note in plan.notes:
                print(f"note: {note}", file=sys.stderr)
            if args.dry_run:
                _show(plan, repo)
            else:
                print("nothing to commit: the review files are as last committed", file=sys.stderr)
            return EXIT_OK
        if repo is None:
            outcome = service.commit_git(plan, message=args.message, push_after=args.push)
        else:
            outcome = service.commit_hub(plan, repo, message=args.message, pr=args.pr, confirmed=True)
    except CommandError as error:
        return fail(error)
    except (RepoIdError, RepoNotConfirmed, IdentityMissing) as exc:
        return fail(CommandError(f"error: {exc}", EXIT_USAGE))
    except SecretsFound as exc:
        return fail(CommandError(f"error: {exc}", EXIT_CHECK_FAILED))
    except NetworkUnavailable as exc:
        return fail(CommandError(f"error: {exc}", EXIT_NETWORK))
    except CommitError as exc:
        return fail(CommandError(f"error: {exc}", EXIT_REFUSED))
    return _report(outcome)


def check_flags(args: argparse.Namespace, target: str) -> None:
    """A flag that does not apply to the target is an error, never silently ignored."""
    if args.message is not None and not args.message.strip():
        raise CommandError("error: --message is empty", EXIT_USAGE)
    if args.repo_type and not args.repo:
        raise CommandError("error: --repo-type goes with --repo OWNER/NAME", EXIT_USAGE)
    if target == "hub" and args.push:
        where = "" if args.to else " (the default here, since the logbook is not in a git checkout)"
        raise CommandError(
            f"error: --push applies to --to git, and the target is hub{where}; a Hub commit is published as it is "
            "made (use --pr for a pull request)",
            EXIT_USAGE,
        )
    if target == "git":
        given = [flag for flag, value in (("--pr", args.pr), ("--repo", args.repo), ("--yes", args.yes)) if value]
        if given:
            where = "" if args.to else " (the default here, since the logbook is in a git checkout)"
            verb = "applies" if len(given) == 1 else "apply"
            raise CommandError(
                f"error: {', '.join(given)} {verb} to --to hub, and the target is git{where}", EXIT_USAGE
            )


def _plan(service: CommitService, args: argparse.Namespace, target: str) -> tuple[CommitPlan, HubRepo | None]:
    if target == "git":
        reason = service.git_unavailable()
        if reason is not None:
            raise CommandError(f"error: cannot commit with git: {reason} (use --to hub)", EXIT_USAGE)
        return service.plan_git(), None
    repo = service.hub_repo(args.repo, args.repo_type)
    if repo.inferred and not args.yes and not args.dry_run:
        raise CommandError(
            f"error: the logbook's space_id names {repo.describe()} as its repository, and it is sometimes wrong "
            f"or cut short. Check it, then run again with --yes, or pass --repo OWNER/NAME --repo-type TYPE",
            EXIT_USAGE,
        )
    return service.plan_hub(repo, offline_ok=args.dry_run), repo


def _show(plan: CommitPlan, repo: HubRepo | None) -> None:
    confirm = " (taken from the logbook's space_id: check it, then commit with --yes)" if repo and repo.inferred else ""
    print(f"to: {plan.destination}{confirm}")
    if plan.offline:
        known = f"{plan.base_revision} (as downloaded)" if plan.base_revision else "(nothing known)"
        print(f"against: {known}; offline: the Hub could not be reached")
    else:
        print(f"against: {plan.base_revision or '(no commit yet)'}")
    print()
    print(plan.message.rstrip("\n"))
    print()
    print(plan.readable_diff())


def _report(outcome: CommitOutcome) -> int:
    for note in outcome.notes:
        print(f"note: {note}", file=sys.stderr)
    if outcome.status == "nothing":
        print("nothing to commit: the review files are as last committed", file=sys.stderr)
        return EXIT_OK
    if outcome.status == "pushed_aside":
        print(f"warning: {outcome.headline()}", file=sys.stderr)
    print(outcome.reference, flush=True)
    return EXIT_REFUSED if outcome.status == "pushed_aside" else EXIT_OK
