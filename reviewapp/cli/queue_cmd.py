"""`reviewapp queue LIST`: where you stand on every logbook of a queue, and the next claim to look at.

Exit codes: 0 printed; 2 bad usage or a queue that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.cli.common import CommandError, fail
from reviewapp.cli.output import add_format_option, write_table

if TYPE_CHECKING:
    from reviewapp.core.queue.status import QueueRow


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "queue",
        help="show a queue of logbooks: claims reviewed by you, your rubric score, status, disagreements",
        description="LIST is a text file of sources (one a line), a CSV file with a `source` column (optional "
        "`paper`, `notes`), or a folder holding many logbooks. Sources in a file are relative to it.",
        epilog="Status: flagged, done (every claim has your verdict and your rubric score is saved), in progress, "
        "not started. Exit codes: 0 printed; 2 bad usage or a queue that cannot be read.",
    )
    parser.add_argument("queue", metavar="LIST", type=Path, help="queue file or folder")
    parser.add_argument("--annotator", metavar="NAME", help="whose progress to show (default: your identity)")
    parser.add_argument("--next", action="store_true", help="print only the next claim you have not reviewed")
    parser.add_argument("--window", action="store_true", help="open the queue window instead of printing")
    add_format_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.queue.queue_file import QueueError, read_queue
    from reviewapp.core.queue.status import next_unreviewed, queue_status
    from reviewapp.core.review.identity import resolve_identity
    from reviewapp.core.review.logbook_judge_matches import stored_logbook_judge_verdicts

    if args.window:
        from reviewapp.cli.gui_cmd import window_problem_or_none
        from reviewapp.qt.app import run as run_app

        problem = window_problem_or_none()
        if problem is not None:
            return problem
        if not args.queue.exists():
            return fail(CommandError(f"error: {args.queue}: no such queue file or folder"))
        return run_app(source=None, queue=args.queue)
    try:
        try:
            queue = read_queue(args.queue)
        except QueueError as exc:
            raise CommandError(f"error: {exc}") from None
    except CommandError as error:
        return fail(error)
    identity = None if args.annotator else resolve_identity(cwd=Path.cwd())
    me = args.annotator or (identity.name if identity else "")
    if not me:
        print("note: no annotator identity set; progress columns count nobody's verdicts", file=sys.stderr)
    for problem in queue.problems:
        print(f"warning: {args.queue}: {problem}", file=sys.stderr)
    rows = queue_status(queue, me, judge_verdicts=stored_logbook_judge_verdicts)
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
        points = f"{row.points[0]}/{row.points[1]}" if row.points else ""
        status = row.status if not row.problem else f"unreadable: {row.problem}"
        reviewed = f"{row.reviewed_by_me}/{row.claims}" if not row.problem else ""
        table.append(
            [number, row.entry.source, row.title, row.paper, row.claims, reviewed, row.my_score, points, status,
             row.disagreements]
        )  # fmt: skip
    write_table(columns, table, args.format)
    return 0


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
        "status": row.status,
        "flag_reason": row.flag_reason,
        "disagreements": row.disagreements,
        "judges": row.judges,
        "problem": row.problem,
    }
