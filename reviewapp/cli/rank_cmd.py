"""`reviewapp rank QUEUE`: one leaderboard from every judge's rubric scores, normalized per judge.

Exit codes: 0 printed (also when nobody has scored yet); 2 bad usage or a queue that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from reviewapp.cli.common import CommandError, fail
from reviewapp.cli.output import add_format_option, write_table


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rank",
        help="print the leaderboard of a queue from every judge's rubric scores",
        description="Merge every judge's rubric scores of the logbooks in QUEUE, normalize them per judge (so a "
        "harsh and a lenient judge count the same) and print the ranking with ties flagged.",
        epilog="Normalization: z (default) = (score - judge's mean) / judge's standard deviation; rank = the judge's "
        "mid-ranks on -1..1. A judge who gave every logbook the same score counts as no preference. "
        "Exit codes: 0 printed; 2 bad usage or a queue that cannot be read.",
    )
    parser.add_argument("queue", metavar="QUEUE", type=Path, help="a queue file (text or CSV) or a folder of logbooks")
    parser.add_argument("--method", choices=("z", "rank"), default="z", help="per-judge normalization (default z)")
    parser.add_argument("--rubric", type=Path, metavar="FILE", help="rank only scores made on this rubric")
    add_format_option(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.queue.queue_file import QueueError, read_queue
    from reviewapp.core.queue.ranking import JudgeScore, rank_logbooks
    from reviewapp.core.queue.rubric import RubricError, load_rubric
    from reviewapp.core.queue.status import queue_status
    from reviewapp.core.review.records import RubricScoreRecord

    try:
        try:
            queue = read_queue(args.queue)
            wanted = load_rubric(args.rubric).sha256 if args.rubric else None
        except (QueueError, RubricError) as exc:
            raise CommandError(f"error: {exc}") from None
    except CommandError as error:
        return fail(error)
    for problem in queue.problems:
        print(f"warning: {args.queue}: {problem}", file=sys.stderr)
    rows = queue_status(queue, me="")
    titles: dict[str, str] = {}
    records: list[tuple[str, RubricScoreRecord]] = []
    for row in rows:
        if row.problem:
            print(f"warning: {row.entry.source}: {row.problem}", file=sys.stderr)
            continue
        assert row.logbook is not None
        titles[row.entry.source] = row.title
        records.extend((row.entry.source, r) for r in row.scores.values())
    rubrics = Counter(r.payload.rubric_sha256 for _, r in records)
    chosen = wanted or (rubrics.most_common(1)[0][0] if rubrics else None)
    notes = []
    if len(rubrics) > 1 or (wanted and rubrics and wanted not in rubrics):
        other = sum(n for sha, n in rubrics.items() if sha != chosen)
        notes.append(f"{other} score(s) made on another rubric are left out")
    scores = [
        JudgeScore(r.annotator, source, r.payload.overall) for source, r in records if r.payload.rubric_sha256 == chosen
    ]
    ranking = rank_logbooks(scores, args.method)
    notes = [*ranking.warnings, *notes]
    if args.format == "json":
        json.dump(
            {
                "method": ranking.method,
                "judges": ranking.judges,
                "notes": notes,
                "ranking": [
                    {
                        "rank": r.rank,
                        "logbook": r.logbook,
                        "title": titles.get(r.logbook, ""),
                        "score": r.score,
                        "tied": r.tied,
                        "raw_mean": round(r.raw_mean, 3),
                        "spread": round(r.spread, 3),
                        "judges": r.judges,
                        "normalized": {k: round(v, 3) for k, v in r.normalized.items()},
                    }
                    for r in ranking.rows
                ],
            },
            sys.stdout,
            ensure_ascii=False,
            indent=2,
        )
        sys.stdout.write("\n")
        return 0
    if not ranking.rows:
        print("no rubric scores yet: judges record them with `reviewapp score SOURCE` or in the window")
        return 0
    columns = ["rank", "logbook", "title", "score", "judges", "raw mean", "spread", *ranking.judges]
    table = [
        [
            f"{r.rank}=" if r.tied else r.rank,
            r.logbook,
            titles.get(r.logbook, ""),
            r.score,
            len(r.judges),
            r.raw_mean,
            r.spread,
            *(f"{r.judges[j]:g} ({r.normalized[j]:+.2f})" if j in r.judges else "" for j in ranking.judges),
        ]
        for r in ranking.rows
    ]
    title = "Leaderboard" if args.format == "markdown" else ""
    write_table(columns, table, args.format, title=title)
    if args.format in ("text", "markdown"):
        method = "z-scores per judge" if ranking.method == "z" else "ranks per judge on -1..1"
        lines = [f"Scores are means of {method}; = marks a tie at two decimals.", *notes]
        prefix = "\n" if args.format == "markdown" else ""
        sys.stdout.write(prefix + "".join(f"{'- ' if args.format == 'markdown' else ''}{n}\n" for n in lines))
    return 0
