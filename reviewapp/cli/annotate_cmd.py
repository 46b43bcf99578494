"""`reviewapp annotate SOURCE --claim N|KEY --verdict V --rationale TEXT ...`: append one verdict record.

The record's id is printed only once the record is on disk. Exit codes: 0 saved; 2 usage, not a logbook, no
annotator identity, unknown claim or verdict, or a secret in the text (nothing saved); 3 the file could not be
written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.cli.common import (
    CommandError,
    add_annotator_options,
    add_exit_codes,
    add_source_argument,
    exit_codes_epilog,
    fail,
    load_or_exit,
    say_who,
)
from reviewapp.core.review.roles import ROLES
from reviewapp.core.verdicts import HUMAN_VERDICTS

if TYPE_CHECKING:
    from reviewapp.core.review.identity import Identity
    from reviewapp.core.review.replay import LoadResult

EXIT_USAGE = 2
EXIT_WRITE_FAILED = 3


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "annotate",
        help="record your verdict on a claim (headless; prints the record id once it is saved)",
        description="Append one verdict record to the logbook's annotations and print its id once it is on disk.",
    )
    add_claim_verdict_arguments(parser)
    parser.add_argument("--confidence", type=int, choices=(1, 2, 3), help="1 unsure, 2 fairly sure, 3 certain")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG", help="a tag (repeatable)")
    parser.add_argument("--role", choices=ROLES, help="your role (default: from preferences, else judge)")
    parser.add_argument("--blind", action="store_true", help="say in the record that it was given in blind review")
    add_annotator_options(parser)
    add_exit_codes(
        parser,
        exit_codes_epilog(
            ok="saved: the record id is printed (and on stderr the name and role it was saved under)",
            usage="bad usage, not a logbook, no annotator name, an unknown claim or verdict, an empty rationale,\n"
            "     or a secret in the text (nothing saved)",
            cannot_write="the review file could not be written (nothing saved)",
        ),
    )
    parser.set_defaults(handler=run)


def add_claim_verdict_arguments(parser: argparse.ArgumentParser) -> None:
    """SOURCE, --claim, --verdict and --rationale: what a verdict of any kind on one claim needs."""
    add_source_argument(parser)
    parser.add_argument("--claim", required=True, metavar="N|KEY", help="the claim's number or key")
    parser.add_argument(
        "--verdict", required=True, metavar="VERDICT", help=f"one of: {', '.join(v.value for v in HUMAN_VERDICTS)}"
    )
    parser.add_argument("--rationale", required=True, metavar="TEXT", help="why (required)")


def run(args: argparse.Namespace) -> int:
    # imported here so that `reviewapp --help` and other commands do not pay for pydantic models
    from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
    from reviewapp.core.review.preferences import load_preferences
    from reviewapp.core.review.write_errors import SecretInRecord, StoreError

    try:
        logbook = load_or_exit(args.source)
        identity = identity_or_exit(args.annotator, logbook.root, remember=args.remember)
        role = args.role or load_preferences().role
        review = LogbookReview.open(logbook, identity, role)
        review.blind = args.blind
        warn_about(review.loaded)
        record = review.set_verdict(args.claim, args.verdict, args.rationale, args.confidence, args.tag)
    except CommandError as error:
        return fail(error)
    except (AnnotationError, SecretInRecord) as exc:
        return fail(CommandError(f"error: {exc}", EXIT_USAGE))
    except StoreError as exc:
        return fail(CommandError(f"error: nothing saved: {exc}", EXIT_WRITE_FAILED))
    for repair in review.repairs:
        print(f"warning: {repair.issue}", file=sys.stderr)
    say_who("saved", record.annotator, record.role)
    print(record.id, flush=True)
    return 0


def identity_or_exit(explicit: str | None, logbook_root: Path, *, remember: bool = False) -> Identity:
    from reviewapp.core.review.identity import HOW_TO_SET, resolve_identity

    if remember and explicit is None:
        raise CommandError("error: --remember goes with --annotator NAME", EXIT_USAGE)
    try:
        identity = resolve_identity(explicit=explicit, remember=remember, cwd=logbook_root)
    except ValueError as exc:
        raise CommandError(f"error: {exc}", EXIT_USAGE) from exc
    if identity is None:
        raise CommandError(f"error: {HOW_TO_SET}", EXIT_USAGE)
    return identity


def warn_about(loaded: LoadResult) -> None:
    """Torn lines set aside and invalid lines, on stderr: they do not stop a new record from being saved."""
    for issue in loaded.issues:
        print(f"{'error' if issue.severity == 'error' else 'warning'}: {issue}", file=sys.stderr)
