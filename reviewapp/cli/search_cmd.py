"""`reviewapp search WORDS... [--limit N] [--format text|json|csv|markdown]`: every claim of every logbook read."""

from __future__ import annotations

import argparse
import json
import sys

from reviewapp.cli.common import CommandError, fail
from reviewapp.cli.output import add_format_option, write_table

EXIT_CODES = """\
exit codes:
  0  searched (possibly nothing found; "no claim matches" goes to stderr)
  2  bad usage (no word to search for)
  3  the search index in the cache folder cannot be opened or written
"""
COLUMNS = ("logbook", "claim", "verdict", "title", "snippet")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "search",
        help="search every claim of every logbook read on this machine",
        description=(
            "Find claims by their words across every logbook this machine has read (opened, inspected, in a\n"
            "queue or a paper view): each word must occur in the claim's title, its verdict statement or its\n"
            "text, the last may be the start of a word. Best matches first; a search that matches too many\n"
            "claims to rank lists the newest and says so. The index is a cache (claims.sqlite3 in the cache\n"
            "folder): deleting it only forgets logbooks until they are read again."
        ),
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("words", nargs="+", metavar="WORD", help="what to look for")
    parser.add_argument("--limit", type=int, default=20, metavar="N", help="at most N claims (default 20)")
    add_format_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sqlite3

    from reviewapp.core.logbook.claim_index import ClaimIndex, fts_query, index_path

    text = " ".join(args.words)
    if fts_query(text) is None:
        return fail(CommandError(f"error: nothing to search for in {text!r}: give a word", 2))
    try:
        with ClaimIndex() as index:
            found = index.search(text, limit=max(1, args.limit))
    except (sqlite3.Error, OSError) as exc:
        return fail(CommandError(f"error: {index_path()}: the claim index cannot be used ({exc})", 3))
    if not found.hits:
        print(f"no claim matches {text!r}", file=sys.stderr)
    elif not found.ranked:
        print(f"{found.total:,} claims match; the newest {len(found.hits)} are listed: add a word", file=sys.stderr)
    elif found.total > len(found.hits):
        print(f"{found.total:,} claims match; the best {len(found.hits)} are listed", file=sys.stderr)
    if args.format == "json":
        hits = [
            {
                "logbook_id": h.logbook_id,
                "logbook": h.logbook_title,
                "paper_id": h.paper_id,
                "claim": h.claim_key,
                "title": h.title,
                "verdict": h.verdict,
                "snippet": h.snippet,
            }
            for h in found.hits
        ]
        json.dump(
            {"total": found.total, "ranked": found.ranked, "hits": hits}, sys.stdout, ensure_ascii=False, indent=2
        )
        sys.stdout.write("\n")
        return 0
    rows = [(h.logbook_title, h.claim_key, h.verdict, h.title, h.snippet) for h in found.hits]
    write_table(COLUMNS, rows, args.format)
    return 0
