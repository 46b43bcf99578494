"""`reviewapp adjudicate SOURCE --claim N ...` and `reviewapp decide QUEUE`: settle a disagreement between
people with an adjudicated verdict, and record a queue's final ranking with its report.

Exit codes: 0 saved; 2 bad usage, not a logbook or queue, no annotator, nothing to adjudicate, a secret in the
text (nothing saved); 3 the record or report could not be written; 4 git refused the commit (`decide --commit`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewapp.cli.annotate_cmd import add_claim_verdict_arguments
from reviewapp.cli.common import (
    CommandError,
    add_annotator_options,
    add_exit_codes,
    exit_codes_epilog,
    fail,
    load_or_exit,
    print_json,
    say_who,
)
from reviewapp.cli.rank_cmd import add_ranking_arguments

EXIT_USAGE = 2
EXIT_WRITE_FAILED = 3
EXIT_REFUSED = 4
# blind review hides the logbooks a judge has not scored and other reviewers' verdicts; a decision is the opposite
BLIND_REFUSED = (
    "error: a decision cannot be blind: it names every candidate, with every judge's scores and the people's "
    "verdicts, which blind review hides (nothing recorded); to see the ranking as a judge in blind review does, "
    "run `reviewapp rank QUEUE --blind [NAME]`"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    adjudicate = subparsers.add_parser(
        "adjudicate",
        help="settle a claim where people disagree with an adjudicated verdict (role adjudicator)",
        description="Record the adjudicated verdict of a claim whose reviewers' verdicts conflict; it names every "
        "verdict it settles. `reviewapp queue LIST --disagreements` lists such claims.",
    )
    add_claim_verdict_arguments(adjudicate)
    adjudicate.add_argument("--blind", action="store_true", help="say in the record that names were hidden")
    add_annotator_options(adjudicate)
    add_exit_codes(
        adjudicate,
        exit_codes_epilog(
            ok="saved: the record id is printed",
            usage="bad usage, not a logbook, no annotator name, an unknown claim or verdict, no disagreement on\n"
            "     the claim, an empty rationale, or a secret in the text (nothing saved)",
            cannot_write="the review file could not be written (nothing saved)",
        ),
    )
    adjudicate.set_defaults(handler=run_adjudicate)

    decide = subparsers.add_parser(
        "decide",
        help="record a queue's final ranking (a decision record) and write its Markdown and CSV report",
        description="Rank QUEUE as `rank` does (rubric scores normalized per judge), with each candidate's verdicts "
        "(adjudicated where settled), marks (flagged; headline claim adjudicated falsified) and the judges' "
        "rationales; append a decision record to <queue folder>/decisions/<you>.jsonl and write "
        "<queue>-decision.md and .csv beside the queue.",
    )
    add_ranking_arguments(decide)
    decide.add_argument("--commit", action="store_true", help="commit the decision and its report with git")
    decide.add_argument("--push", action="store_true", help="with --commit: push the commit to the branch's remote")
    decide.add_argument(
        "--format",
        choices=("text", "json", "csv", "markdown"),
        default="text",
        help="what to print: the record id (text, default), the record (json), or the report (csv, markdown)",
    )
    decide.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    decide.add_argument(
        "--blind",
        nargs="?",
        const="",
        metavar="NAME",
        help="refused: a decision names every candidate with every judge's scores and the people's verdicts; "
        "`reviewapp rank QUEUE --blind [NAME]` shows the ranking as a judge in blind review sees it",
    )
    add_annotator_options(decide)
    add_exit_codes(
        decide,
        exit_codes_epilog(
            ok="recorded: the decision's id is printed, the report files on stderr",
            usage="bad usage, a queue that cannot be read, no annotator name, no rubric scores to decide on",
            cannot_write="the decision or its report could not be written",
            refused="git refused the commit or the push (the decision and report are kept)",
            network="the git remote could not be reached (the commit is kept)",
        ),
    )
    decide.set_defaults(handler=run_decide)


def run_adjudicate(args: argparse.Namespace) -> int:
    from reviewapp.cli.annotate_cmd import identity_or_exit, warn_about
    from reviewapp.core.queue.adjudication import ADJUDICATOR, adjudicate
    from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
    from reviewapp.core.review.write_errors import SecretInRecord, StoreError

    try:
        logbook = load_or_exit(args.source)
        identity = identity_or_exit(args.annotator, logbook.root, remember=args.remember)
        review = LogbookReview.open(logbook, identity, ADJUDICATOR)
        warn_about(review.loaded)
        record = adjudicate(review, args.claim, args.verdict, args.rationale, blind=args.blind)
    except CommandError as error:
        return fail(error)
    except (AnnotationError, SecretInRecord) as exc:
        return fail(CommandError(f"error: {exc}", EXIT_USAGE))
    except StoreError as exc:
        return fail(CommandError(f"error: nothing saved: {exc}", EXIT_WRITE_FAILED))
    say_who("saved", record.annotator, record.role)
    print(record.id, flush=True)
    return 0


def run_decide(args: argparse.Namespace) -> int:
    from reviewapp.cli.annotate_cmd import identity_or_exit
    from reviewapp.cli.rank_cmd import ranked_queue
    from reviewapp.core.queue.adjudication import ADJUDICATOR
    from reviewapp.core.queue.decision import decision_payload, decisions_file, record_decision, write_reports
    from reviewapp.core.review.write_errors import SecretInRecord

    if args.push and not args.commit:
        return fail(CommandError("error: --push goes with --commit", EXIT_USAGE))
    if args.blind is not None:
        return fail(CommandError(BLIND_REFUSED, EXIT_USAGE))
    try:
        queue, result = ranked_queue(args)
        folder = queue.path if queue.path.is_dir() else queue.path.parent
        identity = identity_or_exit(args.annotator, folder, remember=args.remember)
        if not result.ranking.rows:
            raise CommandError("error: no rubric scores to decide on (judges record them with `reviewapp score`)")
        payload = decision_payload(queue, result)
        record = record_decision(queue, payload, identity.name, ADJUDICATOR, identity.slug)
        written = write_reports(queue, result, record)
        stored = decisions_file(queue, identity.slug)
    except CommandError as error:
        return fail(error)
    except SecretInRecord as exc:
        return fail(CommandError(f"error: {exc}", EXIT_USAGE))
    except OSError as exc:
        return fail(CommandError(f"error: cannot write the decision: {exc.strerror or exc}", EXIT_WRITE_FAILED))
    say_who("decided", record.annotator, record.role)
    print(f"wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    if args.commit:
        code = _commit(queue.path, identity.slug, [stored, *written], args.push)
        if code:
            return code
    if args.format == "json":
        print_json(record.model_dump(mode="json", by_alias=True, exclude_none=True))
    elif args.format in ("csv", "markdown"):
        sys.stdout.write((written[1] if args.format == "csv" else written[0]).read_text(encoding="utf-8"))
    else:
        print(record.id, flush=True)
    return 0


def _commit(queue_path: Path, slug: str, paths: list[Path], push: bool) -> int:
    from reviewapp.core.commit.errors import NetworkUnavailable
    from reviewapp.core.queue.decision_commit import DecisionCommitError, commit_decision

    try:
        done = commit_decision(queue_path, paths, slug, push=push)
    except NetworkUnavailable as exc:
        return fail(CommandError(f"error: {exc}", 5))
    except DecisionCommitError as exc:
        return fail(CommandError(f"error: {exc}", EXIT_REFUSED))
    print(done, file=sys.stderr)
    return 0
