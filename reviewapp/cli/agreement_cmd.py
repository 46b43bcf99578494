"""`reviewapp agreement SOURCE... [--logbook-judge] [--agent] [--format text|json|csv|markdown]`

Agreement between everyone who judged the same claims of these logbooks (each reviewer's current verdict), and
on request the Logbook Judge (from stored imports) and the agent as two more raters: percent agreement, Cohen's
kappa per pair, Fleiss' kappa, Krippendorff's alpha (nominal and ordinal), bootstrap intervals over claims, and a
Logbook Judge vs people confusion matrix with precision and recall per verdict. --figure draws the calibration
heat maps (people vs Logbook Judge, agent vs Logbook Judge, people vs agent) as PNG and SVG.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reviewapp.cli.common import (
    SOURCE_HELP,
    CommandError,
    add_blind_option,
    blind_reviewer,
    blind_rule,
    fail,
    load_or_exit,
    print_json,
)
from reviewapp.cli.output import add_format_option, write_table

EXIT_CODES = """exit codes:
  0  the statistics were computed (a value is empty when too few claims were rated twice)
  2  bad usage or not a logbook
  1  --figure: the heat maps cannot be drawn here (matplotlib does not load); the statistics are not printed
  3  the --figure files could not be written"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "agreement",
        help="agreement between reviewers (and the Logbook Judge, the agent) on the same claims",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sources", metavar="SOURCE", nargs="+", help=f"one or more logbooks: {SOURCE_HELP}")
    parser.add_argument(
        "--logbook-judge", action="store_true", help="add the Logbook Judge as a rater (stored imports)"
    )
    parser.add_argument("--agent", action="store_true", help="add the agent's own verdicts as a rater")
    parser.add_argument(
        "--figure",
        type=Path,
        metavar="OUT.png",
        help="also write the calibration heat maps (people, agent, Logbook Judge) as OUT.png and OUT.svg",
    )
    parser.add_argument("--theme", choices=("light", "dark"), default="light", help="colours of --figure")
    add_blind_option(parser)
    add_format_option(parser)
    parser.set_defaults(handler=run)


def collect_ratings(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    from reviewapp.core.logbook_judge.agreement_report import AGENT, LOGBOOK_JUDGE
    from reviewapp.core.review.workspace import ReviewWorkspace

    ratings: dict[str, dict[str, Any]] = {}
    reviewer = blind_reviewer(args)  # blind: others' verdicts count only on claims this reviewer judged
    workspace = ReviewWorkspace()  # read-only, and by logbook id: a Hub logbook's reviews are in the data folder
    for source in args.sources:
        logbook = load_or_exit(source)
        rule = blind_rule(logbook, reviewer) if reviewer is not None else None
        logbook_id = workspace.open(logbook, reviewer, logbook_judge=args.logbook_judge, rule=rule)
        problem = workspace.logbook_judge_problem(logbook_id)
        if problem:
            print(f"warning: {source}: Logbook Judge verdicts not used: {problem}", file=sys.stderr)
        elif args.logbook_judge and workspace.logbook_judge(logbook_id) is None:
            print(f"warning: {source}: no Logbook Judge verdicts imported (reviewapp verdicts import)", file=sys.stderr)
        for row in workspace.rows(logbook_id):
            unit: dict[str, Any] = {
                annotator: record.payload.verdict for annotator, record in workspace.people(logbook_id, row.key).items()
            }
            if args.agent:
                unit[AGENT] = row.slots.agent
            if row.slots.logbook_judge is not None:
                unit[LOGBOOK_JUDGE] = row.slots.logbook_judge
            name = f"{rule.alias}#{row.key}" if rule is not None else f"{logbook_id}#{row.key}"
            ratings[name] = unit
    return ratings


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.logbook_judge.agreement_report import agreement_report, render_text, rows_for_table

    try:
        ratings = collect_ratings(args)
    except CommandError as error:
        return fail(error)
    report = agreement_report(ratings)
    if args.figure is not None:
        code = _write_figure(ratings, args.figure, args.theme)
        if code:
            return code
    if args.format == "json":
        print_json(report)
    elif args.format in ("csv", "markdown"):
        columns = ("statistic", "raters", "claims", "value", "ci95_low", "ci95_high")
        rows = rows_for_table(report)
        write_table(columns, rows, args.format)
        confusion = report.get("logbook_judge_vs_people")
        if args.format == "markdown" and confusion:
            verdicts = list(next(iter(confusion["counts"].values())).keys())
            matrix: list[list[Any]] = [[row, *(n[c] for c in verdicts)] for row, n in confusion["counts"].items()]
            matrix.append(["precision", *(confusion["precision"][c] for c in verdicts)])
            matrix.append(["recall", *(confusion["recall"][c] for c in verdicts)])
            print()
            write_table(["people \\ Logbook Judge", *verdicts], matrix, "markdown", title="Logbook Judge vs people")
        if args.format == "markdown":
            print()
            print("\n".join(f"- {n}" for n in report["notes"]))
            b = report["bootstrap"]
            print(f"- Bootstrap: {b['resamples']} resamples of claims, seed {b['seed']}.")
    else:
        print(render_text(report))
    return 0


def _write_figure(ratings: dict[str, dict[str, Any]], out: Path, theme: str) -> int:
    from reviewapp.core.logbook_judge.calibration import calibration_figure, calibration_tables
    from reviewapp.core.plots.figures import FiguresUnavailable, save

    tables = calibration_tables(ratings)
    if not tables:
        print("warning: no claim has two of people, agent and Logbook Judge: no heat map drawn", file=sys.stderr)
        return 0
    try:
        written = save(calibration_figure(tables, "dark" if theme == "dark" else "light"), out.with_suffix(""))
    except FiguresUnavailable as exc:
        return fail(CommandError(f"error: {exc}", 1))
    except OSError as exc:
        return fail(CommandError(f"error: cannot write {out}: {exc.strerror or exc}", 3))
    print(f"wrote {written[0]}, {written[1]}", file=sys.stderr)
    return 0
