"""`reviewapp rank QUEUE`: one leaderboard from every judge's rubric scores, normalized per judge.

Exit codes: 0 printed (also when nobody has scored yet); 2 bad usage or a queue that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.cli.common import (
    CommandError,
    add_download_limit_options,
    blind_reviewer,
    download_limits,
    fail,
)
from reviewapp.cli.output import add_format_option, write_table

if TYPE_CHECKING:
    from reviewapp.core.queue.decision import QueueRanking
    from reviewapp.core.queue.queue_file import Queue, QueueEntry


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "rank",
        help="print the leaderboard of a queue from every judge's rubric scores",
        description="Merge every judge's rubric scores of the logbooks in QUEUE, normalize them per judge (so a "
        "harsh and a lenient judge count the same) and print the ranking with ties flagged.",
        epilog="Normalization: z (default) = (score - judge's mean) / judge's standard deviation; rank = the judge's "
        "mid-ranks on -1..1. A judge who gave every logbook the same score counts as no preference. Beside each "
        "logbook: the people's verdicts (adjudicated ones where a dispute was settled) and marks (flagged, headline "
        "claim adjudicated falsified), which do not move it. Hub and URL logbooks are read from their last "
        "download (nothing is downloaded unless --download is given); one that cannot be read is reported and left "
        "out. Exit codes: 0 printed; 2 bad usage or a queue that cannot be read.",
    )
    add_ranking_arguments(parser)
    add_format_option(parser)
    parser.add_argument(
        "--blind",
        nargs="?",
        const="",
        metavar="NAME",
        help="as judge NAME (default: your name in the settings) sees the ranking in blind review: only the "
        "logbooks NAME has scored, without the verdict counts (they count other reviewers' verdicts)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        reviewer = blind_reviewer(args)
        _queue, result = ranked_queue(args, scored_by=reviewer)
    except CommandError as error:
        return fail(error)
    hide_verdicts = reviewer is not None  # the counts hold other reviewers' verdicts on claims NAME has not judged
    ranking = result.ranking
    titles = {source: c.title for source, c in result.candidates.items()}
    if args.format == "json":
        json.dump(
            {
                "method": ranking.method,
                "judges": ranking.judges,
                "notes": result.notes,
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
                        **_verdicts_and_marks(result, r.logbook, hide_verdicts),
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
    columns = [
        "rank",
        "logbook",
        "title",
        "score",
        "judges",
        "raw mean",
        "spread",
        *ranking.judges,
        "verdicts",
        "marks",
    ]
    table = []
    for r in ranking.rows:
        found = result.candidates.get(r.logbook)
        table.append(
            [
                f"{r.rank}=" if r.tied else r.rank,
                r.logbook,
                titles.get(r.logbook, ""),
                r.score,
                len(r.judges),
                result.score_text(r.raw_mean),
                r.spread,
                *(
                    f"{result.score_text(r.judges[j])} ({r.normalized[j]:+.2f})" if j in r.judges else ""
                    for j in ranking.judges
                ),
                "hidden in blind review" if hide_verdicts else found.summary.text() if found else "",
                "; ".join(found.marks) if found else "",
            ]
        )
    title = "Leaderboard" if args.format == "markdown" else ""
    write_table(columns, table, args.format, title=title)
    if args.format in ("text", "markdown"):
        method = "z-scores per judge" if ranking.method == "z" else "ranks per judge on -1..1"
        lines = [f"Scores are means of {method}; = marks a tie at two decimals.", *result.notes]
        prefix = "\n" if args.format == "markdown" else ""
        sys.stdout.write(prefix + "".join(f"{'- ' if args.format == 'markdown' else ''}{n}\n" for n in lines))
    return 0


def ranked_queue(args: argparse.Namespace, scored_by: str | None = None) -> tuple[Queue, QueueRanking]:
    """The queue of `args.queue` ranked by `args.method` on `args.rubric`; raises CommandError (exit 2).
    `scored_by`: blind review, only the logbooks that judge has scored (as the queue window's ranking shows)."""
    from reviewapp.core.queue.decision import queue_ranking
    from reviewapp.core.queue.queue_file import QueueError, read_queue
    from reviewapp.core.queue.rubric import RubricError, load_rubric
    from reviewapp.core.queue.status import OpenRemote, download_entry, queue_status

    try:
        queue = read_queue(args.queue)
        wanted = load_rubric(args.rubric).sha256 if args.rubric else None
    except (QueueError, RubricError) as exc:
        raise CommandError(f"error: {exc}") from None
    for problem in queue.problems:
        print(f"warning: {args.queue}: {problem}", file=sys.stderr)
    allowed = getattr(args, "download", False)
    limits = download_limits()
    opener: OpenRemote = (lambda entry: download_entry(entry, limits=limits)) if allowed else _cached_entry
    rows = queue_status(queue, me="", logbook_judge=False, open_remote=opener)  # ranking reads the scores only
    for row in rows:
        if row.problem:
            print(f"warning: {row.entry.source}: {row.problem}", file=sys.stderr)
    uncached = [r for r in rows if r.problem and r.entry.remote and r.root is None]
    if uncached and not allowed:
        print(f"note: {len(uncached)} Hub or URL logbook(s) left out; --download reads them", file=sys.stderr)
    held_back = 0
    if scored_by is not None:
        held_back = sum(1 for r in rows if r.scores and scored_by not in r.scores)
        rows = [r for r in rows if scored_by in r.scores]
    result = queue_ranking(rows, args.method, wanted)
    if held_back:
        result.notes.append(
            f"{held_back} logbook(s) {scored_by} has not scored are left out: blind review hides other judges' "
            "scores until yours is given"
        )
    return queue, result


def _verdicts_and_marks(result: QueueRanking, source: str, hidden: bool = False) -> dict[str, object]:
    """The people's verdict counts (None when blind review hides them) and the marks."""
    found = result.candidates.get(source)
    if found is None:
        return {"verdicts": {}, "marks": []}
    if hidden:
        return {"verdicts": None, "adjudicated": None, "marks": found.marks}
    return {"verdicts": found.summary.to_dict(), "adjudicated": found.summary.adjudicated, "marks": found.marks}


def add_ranking_arguments(parser: argparse.ArgumentParser) -> None:
    """QUEUE, --method, --rubric and --download: what ranking a queue needs (`rank`, `decide`)."""
    parser.add_argument("queue", metavar="QUEUE", type=Path, help="a queue file (text or CSV) or a folder of logbooks")
    parser.add_argument("--method", choices=("z", "rank"), default="z", help="per-judge normalization (default z)")
    parser.add_argument("--rubric", type=Path, metavar="FILE", help="rank only scores made on this rubric")
    add_download_option(parser)
    add_download_limit_options(parser)


def add_download_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--download",
        action="store_true",
        help="download Hub and URL logbooks that have no complete cached copy (default: cached copies only)",
    )


def _cached_entry(entry: QueueEntry) -> tuple[Path, str | None]:
    """A Hub or URL entry's last complete download, without a request (saved scores are filed under its id)."""
    from reviewapp.core.sources.opener import open_cached

    opened = open_cached(entry.location)
    return opened.folder, opened.logbook_id
