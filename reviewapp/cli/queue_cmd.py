"""`reviewapp queue LIST`: where you stand on every logbook of a queue, and the next claim to look at.

Exit codes: 0 printed; 2 bad usage or a queue that cannot be read; 3 the queue could not be saved; 5 the Hub's
listing could not be reached (--orid).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.cli.common import CommandError, add_download_limit_options, download_limits, fail
from reviewapp.cli.gui_cmd import add_look_options
from reviewapp.cli.output import add_format_option, write_table

if TYPE_CHECKING:
    from reviewapp.core.queue.queue_file import Queue
    from reviewapp.core.queue.queue_row import QueueRow


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "queue",
        help="show a queue of logbooks: claims reviewed by you, your rubric score, status, disagreements",
        description="LIST is a text file of sources (one a line), a CSV file with a `source` column (optional "
        "`paper`, `notes`), or a folder holding many logbooks. Sources in a file are relative to it. Instead of "
        "LIST, --orid ORID queues every published logbook on a paper and --from-verdicts every Space with a "
        "stored Logbook Judge import; --save FILE writes the queue as a CSV file the team can commit and share.",
        epilog="Status: flagged, done (every claim has your verdict and your rubric score is saved), in progress, "
        "not started. Hub and URL sources are downloaded (or their cached copy used); one that cannot be reached "
        "is reported on its row. Exit codes: 0 printed; 2 bad usage or a queue that cannot be read; 3 --save "
        "could not write; 5 the Hub's listing could not be reached.",
    )
    parser.add_argument("queue", metavar="LIST", type=Path, nargs="?", help="queue file or folder")
    parser.add_argument("--orid", metavar="ORID", help="every published logbook on this paper (from the Hub)")
    parser.add_argument("--from-verdicts", action="store_true", help="every Space with a stored Logbook Judge import")
    parser.add_argument("--verdict", metavar="WORD", help="with --from-verdicts: only Spaces with a claim judged so")
    parser.add_argument(
        "--min-points", type=float, metavar="N", help="with --from-verdicts: only Spaces with at least N points"
    )
    parser.add_argument("--save", type=Path, metavar="FILE", help="write the queue to FILE (CSV) as well")
    parser.add_argument("--rubric", type=Path, metavar="FILE", help="with --window: the rubric to score on")
    parser.add_argument("--annotator", metavar="NAME", help="whose progress to show (default: your identity)")
    parser.add_argument("--next", action="store_true", help="print only the next claim you have not reviewed")
    parser.add_argument("--window", action="store_true", help="open the queue window instead of printing")
    parser.add_argument(
        "--disagreements",
        action="store_true",
        help="list the claims where people's verdicts conflict and the logbooks whose rubric scores spread too far",
    )
    parser.add_argument(
        "--max-spread",
        type=float,
        metavar="X",
        help="with --disagreements: normalized rubric scores further apart than X disagree (default 1.5)",
    )
    parser.add_argument(
        "--blind", action="store_true", help="with --disagreements: hide names until a dispute is adjudicated"
    )
    parser.add_argument(
        "--dialog",
        choices=("ranking", "score", "disagreements"),
        help="with --window: open the ranking, the first logbook's score, or the disagreements between people",
    )
    add_download_limit_options(parser)
    add_look_options(parser)
    add_format_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.queue.status import download_entry, next_unreviewed, points_text, queue_status
    from reviewapp.core.review.identity import resolve_identity

    try:
        queue = _queue(args)
        if args.save is not None:
            from reviewapp.core.queue.queue_file import write_queue

            try:
                write_queue(args.save, queue.entries, queue.roster)
            except OSError as exc:
                raise CommandError(f"error: {args.save}: cannot write the queue: {exc.strerror or exc}", 3) from None
            print(f"saved the queue of {len(queue.entries)} logbooks to {args.save}", file=sys.stderr)
    except CommandError as error:
        return fail(error)
    # settled before the window opens too: its progress columns are the reviewer's the review window will save as
    identity = None if args.annotator else resolve_identity(cwd=Path.cwd())
    me = args.annotator or (identity.name if identity else "")
    if args.window or args.screenshot is not None or args.dialog:
        from reviewapp.cli.gui_cmd import open_window

        shown = args.save or args.queue
        if shown is None:
            return fail(CommandError("error: --window with --orid or --from-verdicts needs --save FILE"))
        name = args.dialog or "queue"
        return open_window(args, name, queue=shown, rubric=args.rubric, annotator=me or None)
    if not me:
        print("note: no annotator identity set; progress columns count nobody's verdicts", file=sys.stderr)
    for queue_problem in queue.problems:
        print(f"warning: {args.queue}: {queue_problem}", file=sys.stderr)
    limits = download_limits()
    rows = queue_status(queue, me, open_remote=lambda entry: download_entry(entry, limits=limits))
    if not args.blind:  # blind: the names records claim stay hidden
        for row in rows:
            if row.unverified:
                more = f" (and {len(row.unverified) - 1} more)" if len(row.unverified) > 1 else ""
                print(
                    f"warning: {row.entry.source}: {len(row.unverified)} unverified record(s) set apart, not counted:"
                    f" {row.unverified[0]}{more}",
                    file=sys.stderr,
                )
    if args.disagreements:
        return _print_disputes(rows, args)
    if args.next:
        found = next_unreviewed(rows)
        if found is None:
            print("every claim in the queue has your verdict")
            return 0
        index, key = found
        row = rows[index]
        if args.format == "json":
            json.dump({"source": row.entry.source, "claim": key, "title": row.title}, sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            print(f"{row.entry.source}  claim {key}  ({row.title})")
        return 0
    if args.format == "json":
        json.dump([_json_row(row) for row in rows], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    columns = ["#", "source", "title", "paper", "claims", "reviewed", "my score", "judge points", "status", "disputed"]
    table = []
    for number, row in enumerate(rows, start=1):
        points = points_text(row)
        status = row.status if not row.problem else f"{row.status if row.root else 'unreadable'}: {row.problem}"
        reviewed = f"{row.reviewed_by_me}/{row.claims}" if not row.problem else ""
        table.append(
            [number, row.entry.source, row.title, row.paper, row.claims, reviewed, row.my_score_text, points, status,
             row.disagreements]
        )  # fmt: skip
    write_table(columns, table, args.format)
    return 0


def _print_disputes(rows: list[QueueRow], args: argparse.Namespace) -> int:
    from reviewapp.core.queue.adjudication import DEFAULT_MAX_SPREAD
    from reviewapp.core.queue.disputes import queue_disputes

    spread = DEFAULT_MAX_SPREAD if args.max_spread is None else args.max_spread
    disputes = queue_disputes(rows, max_spread=spread, blind=args.blind)
    if args.format == "json":
        json.dump([d.to_dict() for d in disputes], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    if not disputes and args.format == "text":
        print("people agree everywhere: no conflicting verdicts and no rubric spread above the threshold")
        return 0
    columns = ["source", "claim", "title", "people", "spread", "status", "adjudicated"]
    table = [
        [
            d.source,
            d.label,
            d.title,
            "; ".join(f"{p.name}: {p.verdict}" for p in d.people),
            d.spread,
            d.status,
            f"{d.adjudicated} ({d.adjudicator})" if d.adjudicated else "",
        ]
        for d in disputes
    ]
    write_table(columns, table, args.format, title="Disagreements" if args.format == "markdown" else "")
    return 0


def _queue(args: argparse.Namespace) -> Queue:
    """The queue named by LIST, --orid or --from-verdicts (exactly one); CommandError with the exit code."""
    from reviewapp.core.queue.queue_file import QueueError, read_queue

    given = [
        name
        for name, on in (("LIST", args.queue), ("--orid", args.orid), ("--from-verdicts", args.from_verdicts))
        if on
    ]
    if len(given) != 1:
        raise CommandError(
            "error: give one of LIST, --orid ORID or --from-verdicts" + (f" (got {', '.join(given)})" if given else "")
        )
    if (args.verdict or args.min_points is not None) and not args.from_verdicts:
        raise CommandError("error: --verdict and --min-points filter --from-verdicts")
    where = args.save or Path.cwd() / "queue.csv"
    if args.orid:
        return _paper_queue(args.orid.strip(), where)
    if args.from_verdicts:
        return _judged_queue(args, where)
    try:
        return read_queue(args.queue)
    except QueueError as exc:
        raise CommandError(f"error: {exc}") from None


def _paper_queue(orid: str, where: Path) -> Queue:
    from reviewapp.core.io.source_errors import EXIT_CANCELLED, SourceUnavailable
    from reviewapp.core.progress import Cancelled
    from reviewapp.core.queue.queue_sources import queue_of_spaces
    from reviewapp.core.sources.find import find_logbooks

    if not orid or any(c.isspace() for c in orid):
        raise CommandError(f"error: --orid {orid!r} is not an OpenReview id")
    try:
        found = find_logbooks(orid, count_claims=False)
    except SourceUnavailable as exc:
        raise CommandError(f"error: {exc}", exc.exit_code) from None
    except Cancelled:
        raise CommandError("cancelled", EXIT_CANCELLED) from None
    if not found:
        print(f"note: no logbooks found for paper {orid}", file=sys.stderr)
    return queue_of_spaces(where, [f.repo_id for f in found], paper=orid)


def _judged_queue(args: argparse.Namespace, where: Path) -> Queue:
    from reviewapp.core.queue.queue_sources import judged_spaces, queue_of_spaces, select_judged
    from reviewapp.core.verdicts import parse_verdict

    try:
        verdict = parse_verdict(args.verdict) if args.verdict else None
    except ValueError as exc:
        raise CommandError(f"error: --verdict: {exc}") from None
    spaces, problems = judged_spaces()
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    chosen = select_judged(spaces, verdict=verdict, min_points=args.min_points)
    if not chosen:
        print(
            "note: no stored Logbook Judge import matches; import some with `reviewapp verdicts import`",
            file=sys.stderr,
        )
    queue = queue_of_spaces(where, [s.space_id for s in chosen])
    for entry, space in zip(queue.entries, chosen, strict=True):
        object.__setattr__(entry, "paper", space.orid or "")
    return queue


def _json_row(row: QueueRow) -> dict[str, object]:
    return {
        "source": row.entry.source,
        "location": row.entry.location,
        "title": row.title,
        "paper": row.paper,
        "claims": row.claims,
        "reviewed_by_me": row.reviewed_by_me,
        "my_score": row.my_score,
        "logbook_judge_points": row.points[0] if row.points else None,
        "logbook_judge_max": row.points[1] if row.points else None,
        "logbook_judge_unmatched": row.unmatched_judged,
        "status": row.status,
        "unverified": row.unverified,
        "flag_reason": row.flag_reason,
        "disagreements": row.disagreements,
        "judges": row.judges,
        "problem": row.problem,
    }
