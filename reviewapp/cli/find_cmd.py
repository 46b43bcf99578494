"""`reviewapp find --orid ORID [--author NAME] [--tag T] [--format text|json|csv|markdown]`."""

from __future__ import annotations

import argparse
import sys

from reviewapp.cli.common import CommandError, fail
from reviewapp.cli.output import add_format_option, write_table

EXIT_CODES = """\
exit codes:
  0  listed (possibly none; "no logbooks found" goes to stderr)
  2  bad usage
  4  the Hub refused (rate limited: the message says when to retry)
  5  the Hub cannot be reached, or HF_HUB_OFFLINE is set
  6  cancelled
"""
COLUMNS = ("space", "owner", "name", "last_modified", "claims")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "find",
        help="list every published logbook (Space) on a paper",
        description=(
            "List the public Spaces tagged icml2026-repro whose paper-<ORID> tag matches (in any case), newest\n"
            "first, following the Hub's pagination to the end. The claims column counts the claims of Spaces\n"
            "already downloaded (empty otherwise). Open one with `reviewapp open OWNER/NAME`."
        ),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--orid", required=True, metavar="ORID", help="the paper's OpenReview id")
    parser.add_argument("--author", metavar="NAME", help="only Spaces owned by this user or organisation")
    parser.add_argument("--tag", action="append", default=[], metavar="T", help="only Spaces with this tag too")
    add_format_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.io.source_errors import EXIT_CANCELLED, SourceUnavailable
    from reviewapp.core.progress import Cancelled
    from reviewapp.core.sources.find import find_logbooks

    orid = args.orid.strip()
    if not orid or any(c.isspace() for c in orid):
        return fail(CommandError(f"error: --orid {args.orid!r} is not an OpenReview id", 2))
    try:
        found = find_logbooks(orid, author=args.author, tags=args.tag)
    except SourceUnavailable as exc:
        return fail(CommandError(f"error: {exc}", exc.exit_code))
    except Cancelled:
        return fail(CommandError("cancelled", EXIT_CANCELLED))
    if not found:
        print(f"no logbooks found for paper {orid}", file=sys.stderr)
    if args.format == "json":
        rows = [
            {
                "space": f.repo_id,
                "owner": f.owner,
                "name": f.name,
                "last_modified": f.last_modified,
                "sha": f.sha,
                "claims": f.claims,
                "tags": list(f.tags),
            }
            for f in found
        ]
        import json

        json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    write_table(COLUMNS, [(f.repo_id, f.owner, f.name, f.last_modified, f.claims) for f in found], args.format)
    return 0
