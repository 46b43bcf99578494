"""`reviewapp score` and `reviewapp flag`: a judge's rubric score of a whole logbook, and a flag any judge can raise.

Exit codes: 0 saved; 2 bad usage, not a logbook, no annotator, a score off the rubric, or a secret in the text
(nothing saved); 3 the file could not be written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.cli.common import CommandError, add_annotator_options, add_source_argument, fail, load_or_exit
from reviewapp.core.review.roles import ROLES

if TYPE_CHECKING:
    from reviewapp.core.review.logbook_review import LogbookReview
    from reviewapp.core.review.records import RecordBase

EXIT_CODES = (
    "exit codes: 0 saved; 2 bad usage, not a logbook, no annotator, a score off the rubric or a secret in the "
    "text (nothing saved); 3 the file could not be written"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    score = subparsers.add_parser(
        "score",
        help="record your rubric score of a whole logbook (prints the record id once it is saved)",
        description="Score a logbook on a rubric (default: rigor, scale, honesty, clarity on 1-5) and print the "
        "record's id once it is on disk. A new score replaces your previous one.",
        epilog=EXIT_CODES,
    )
    add_source_argument(score)
    score.add_argument("--rubric", type=Path, metavar="FILE", help="a rubric TOML file (default: the built-in one)")
    score.add_argument(
        "--criterion", action="append", default=[], metavar="NAME=VALUE", help="one criterion's score (repeatable)"
    )
    score.add_argument(
        "--criterion-comment", action="append", default=[], metavar="NAME=TEXT", help="a comment on one criterion"
    )
    score.add_argument("--overall", type=float, metavar="VALUE", help="one overall score instead of criteria")
    score.add_argument("--comment", metavar="TEXT", help="a comment on the whole score")
    score.add_argument("--blind", action="store_true", help="record that you scored without seeing who made it")
    score.add_argument("--role", choices=ROLES, default="judge", help="your role (default: judge)")
    add_annotator_options(score)
    score.set_defaults(handler=run_score)

    flag = subparsers.add_parser(
        "flag",
        help="raise (or --clear) a flag on a logbook that needs a second look",
        description="Raise a flag on a logbook with a reason, or clear it. Any judge can raise and clear a flag; "
        "the latest one counts.",
        epilog="exit codes: 0 saved; 2 bad usage, not a logbook, no annotator or no reason; 3 cannot write",
    )
    add_source_argument(flag)
    flag.add_argument("--reason", metavar="TEXT", help="why (required to raise)")
    flag.add_argument("--clear", action="store_true", help="clear the flag instead of raising it")
    flag.add_argument("--role", choices=ROLES, default="judge", help="your role (default: judge)")
    add_annotator_options(flag)
    flag.set_defaults(handler=run_flag)


def _pairs(values: list[str], option: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip():
            raise CommandError(f"error: {option} takes NAME=VALUE, got {value!r}")
        if name.strip() in found:
            raise CommandError(f"error: {option} {name.strip()} given twice")
        found[name.strip()] = rest.strip()
    return found


def run_score(args: argparse.Namespace) -> int:
    from reviewapp.core.queue.rubric import DEFAULT_RUBRIC, OVERALL_ONLY, RubricError, load_rubric
    from reviewapp.core.queue.scoring import record_rubric_score, score_payload

    try:
        criteria = _pairs(args.criterion, "--criterion")
        comments = _pairs(args.criterion_comment, "--criterion-comment")
        if args.overall is not None and (criteria or args.rubric):
            raise CommandError("error: --overall is a single-criterion score; give either it or --criterion values")
        if args.overall is None and not criteria:
            raise CommandError("error: give --criterion NAME=VALUE for each criterion, or --overall VALUE")
        try:
            rubric = OVERALL_ONLY if args.overall is not None else load_rubric(args.rubric) if args.rubric else None
            rubric = rubric or DEFAULT_RUBRIC
            values = {"overall": args.overall} if args.overall is not None else _numbers(criteria)
            payload = score_payload(rubric, values, comments, args.comment, blind=args.blind)
        except RubricError as exc:
            raise CommandError(f"error: {exc}") from None
        return _write(args, lambda review: record_rubric_score(review, payload), "rubric score")
    except CommandError as error:
        return fail(error)


def _numbers(values: dict[str, str]) -> dict[str, float]:
    try:
        return {name: float(value) for name, value in values.items()}
    except ValueError:
        bad = next(f"{n}={v}" for n, v in values.items() if not _is_number(v))
        raise CommandError(f"error: --criterion {bad}: the value must be a number") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def run_flag(args: argparse.Namespace) -> int:
    from reviewapp.core.queue.scoring import set_flag

    if not args.clear and not (args.reason or "").strip():
        return fail(CommandError("error: --reason TEXT says why the logbook is flagged"))
    what = "clearing of the flag" if args.clear else "flag"
    return _write(args, lambda review: set_flag(review, not args.clear, args.reason), what)


def _write(args: argparse.Namespace, action: Callable[[LogbookReview], RecordBase], what: str) -> int:
    from reviewapp.cli.annotate_cmd import identity_or_exit, warn_about
    from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
    from reviewapp.core.review.write_errors import SecretInRecord, StoreError

    try:
        logbook = load_or_exit(args.source)
        identity = identity_or_exit(args.annotator, logbook.root, remember=args.remember)
        review = LogbookReview.open(logbook, identity, args.role)
        warn_about(review.loaded)
        record = action(review)
    except CommandError as error:
        return fail(error)
    except (AnnotationError, SecretInRecord, ValueError) as exc:
        return fail(CommandError(f"error: nothing saved: {exc}"))
    except StoreError as exc:
        return fail(CommandError(f"error: nothing saved: {exc}", 3))
    print(f"saved {what} as {identity.name} ({args.role})", file=sys.stderr)
    print(record.id, flush=True)
    return 0
