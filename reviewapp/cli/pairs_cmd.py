"""`reviewapp pairs ...`: blinded image-pair rating.

  pairs list SOURCE [--json]                       the pair sets of a logbook, with per-pair problems
  pairs rate SOURCE [--set NAME] [--annotator N]   open the rating window (resumes where you stopped)
  pairs check RESULTS.csv [--json] [--min-consistency X]
                                                   validate committed results against their protocol
  pairs study RESULTS.csv... [--format text|json|markdown] [--out REPORT.md] [--min-consistency X] [--window]
                                                   every rater's results combined into condition scores

`check` exits 0 when the results are valid (and consistent enough, when a threshold is given), 1 when the file
is invalid, altered, missing its protocol, or below the threshold, 2 on usage errors. `list` and `check` never
import Qt.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reviewapp.cli.common import (
    CommandError,
    add_annotator_options,
    add_exit_codes,
    add_source_argument,
    exit_codes_epilog,
    fail,
    load_or_exit,
    print_json,
    say_who,
)
from reviewapp.cli.gui_cmd import add_look_options

EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_CANNOT_WRITE = 3


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return value


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("pairs", help="rate image pairs blind, and check committed ratings")
    commands = parser.add_subparsers(dest="pairs_command", metavar="SUBCOMMAND", required=True)

    listing = commands.add_parser("list", help="list a logbook's pair sets and the problems of their pairs")
    add_source_argument(listing)
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    add_exit_codes(listing, exit_codes_epilog(ok="listed (pairs that cannot be shown are listed with their problem)"))
    listing.set_defaults(handler=run_list)

    rate = commands.add_parser("rate", help="open the blinded rating window for a pair set")
    add_source_argument(rate)
    rate.add_argument("--set", dest="set_name", metavar="NAME", help="the pair set (needed when there are several)")
    add_annotator_options(rate)
    add_look_options(rate)
    add_exit_codes(
        rate,
        exit_codes_epilog(
            ok="the rating window was closed (every answer is saved as it is given)",
            wrong="no window can be opened here: no display, or a system library Qt needs is missing (named)",
            usage="bad usage, not a logbook, no annotator name, or no such pair set",
        ),
    )
    rate.set_defaults(handler=run_rate)

    check = commands.add_parser("check", help="validate a results CSV against its protocol and print the summary")
    check.add_argument("results", metavar="RESULTS.csv", type=Path, help="reviews/pairs/<set>-<annotator>.csv")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.add_argument(
        "--min-consistency",
        type=_fraction,
        metavar="X",
        help="also fail when the rater's consistency on control trials is below X (0..1)",
    )
    add_exit_codes(
        check,
        exit_codes_epilog(
            ok="the results are valid",
            wrong="invalid, altered, missing their protocol, or consistency below --min-consistency",
            usage="bad usage, or the results file cannot be read",
        ),
    )
    check.set_defaults(handler=run_check)

    study = commands.add_parser("study", help="combine every rater's results into scores per condition")
    study.add_argument("results", metavar="RESULTS.csv", type=Path, nargs="+", help="reviews/pairs/<set>-<rater>.csv")
    study.add_argument("--format", choices=("text", "json", "markdown"), default="text", help="output format")
    study.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    study.add_argument(
        "--min-consistency",
        type=_fraction,
        metavar="X",
        help="raters below this consistency on control trials are listed and left out of the scores (default 0.7)",
    )
    study.add_argument(
        "--out", type=Path, metavar="REPORT.md", help="also write the Markdown report, with its figures beside it"
    )
    study.add_argument(
        "--theme", choices=("light", "dark"), help="colours of the figures (and of the window); default light"
    )
    study.add_argument("--window", action="store_true", help="show the study in its window instead of printing")
    add_look_options(study, theme=False)
    add_exit_codes(
        study,
        exit_codes_epilog(
            ok="every results file was valid",
            wrong="some results files were invalid and left out (named); the others were combined",
            usage="bad usage, or no valid results to combine",
            cannot_write="the report or its figures could not be written",
        ),
    )
    study.set_defaults(handler=run_study)


def run_list(args: argparse.Namespace) -> int:
    from reviewapp.core.pairs.sets import PairSetError, find_manifests, load_manifest

    try:
        logbook = load_or_exit(args.source)
    except CommandError as error:
        return fail(error)
    sets: list[dict[str, Any]] = []
    for name, manifest in sorted(find_manifests(logbook).items()):
        try:
            pair_set = load_manifest(logbook, manifest)
        except PairSetError as exc:
            sets.append({"name": name, "manifest": str(manifest), "error": str(exc)})
            continue
        sets.append(
            {
                "name": pair_set.name,
                "source": pair_set.source,
                "claim": pair_set.claim,
                "question": pair_set.question,
                "conditions": list(pair_set.conditions),
                "pairs": len(pair_set.pairs),
                "rateable": len(pair_set.rateable),
                "problems": [{"pair": p.pair_id, "message": p.message} for p in pair_set.problems],
                "set_problems": pair_set.set_problems,
            }
        )
    if args.json:
        print_json({"sets": sets})
        return 0
    if not sets:
        print("No pair sets (add a <name>-pairs.csv or <name>-pairs.json to the logbook's folder).")
    for entry in sets:
        if "error" in entry:
            print(f"{entry['name']}: cannot be loaded: {entry['error']}")
            continue
        claim = f", claim {entry['claim']}" if entry["claim"] else ""
        print(f"{entry['name']}: {entry['rateable']} of {entry['pairs']} pairs can be rated ({entry['source']}{claim})")
        print(f"  {entry['conditions'][0]} vs {entry['conditions'][1]}: {entry['question']}")
        for problem in entry["set_problems"]:
            print(f"  {problem}")
        for problem in entry["problems"]:
            print(f"  pair {problem['pair']}: {problem['message']}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    from reviewapp.core.pairs.check import check_results
    from reviewapp.core.pairs.stats import render_summary

    report = check_results(args.results, args.min_consistency)
    if args.json:
        print_json(report.to_dict())
    else:
        protocol = report.protocol or {}
        named = protocol.get("set")
        pair_set = named if isinstance(named, dict) else {}
        if report.valid:
            print(f"{args.results}: valid ({pair_set.get('name')}, rated by {protocol.get('annotator')})")
        else:
            # the verdict is the result: on stdout with the summary, so that a reader of stdout alone sees it
            print(f"{args.results}: INVALID")
            for error in report.errors:
                print(f"  {error}")
        for warning in report.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        if report.summary is not None:
            print("\n".join(render_summary(report.summary)))
        if report.below_threshold:
            value = report.consistency
            shown = "not measurable (no control trials)" if value is None else f"{value:.1%}"
            print(f"consistency {shown} is below the required {args.min_consistency:.1%}", file=sys.stderr)
    return 0 if report.passed else EXIT_INVALID


def run_study(args: argparse.Namespace) -> int:
    from reviewapp.core.pairs.study import DEFAULT_MIN_CONSISTENCY, study_from_files
    from reviewapp.core.pairs.study_report import render_markdown, render_text, write_report

    threshold = DEFAULT_MIN_CONSISTENCY if args.min_consistency is None else args.min_consistency
    study = study_from_files(args.results, min_consistency=threshold)
    if not study.raters:
        for problem in study.problems:
            print(f"error: {problem}", file=sys.stderr)
        return fail(CommandError("error: no valid results to combine", EXIT_USAGE))
    if args.window or getattr(args, "screenshot", None) is not None:
        from reviewapp.cli.gui_cmd import open_window

        args.window_theme = args.theme or getattr(args, "window_theme", None)
        return open_window(args, "study", study=study)
    if args.out is not None:
        try:
            written = write_report(study, args.out, args.theme or "light")
        except OSError as exc:
            return fail(CommandError(f"error: cannot write {args.out}: {exc.strerror or exc}", EXIT_CANNOT_WRITE))
        print(f"wrote {', '.join(str(p) for p in written)}", file=sys.stderr)
    if args.format == "json":
        print_json(study.to_dict())
    elif args.format == "markdown":
        sys.stdout.write(render_markdown(study))
    else:
        print("\n".join(render_text(study)))
    return EXIT_INVALID if study.problems else 0


def run_rate(args: argparse.Namespace) -> int:
    from reviewapp.cli.annotate_cmd import identity_or_exit, warn_about
    from reviewapp.core.pairs.sets import PairSetError, load_set
    from reviewapp.core.review.logbook_review import LogbookReview

    try:
        logbook = load_or_exit(args.source)
        identity = identity_or_exit(args.annotator, logbook.root, remember=args.remember)
        pair_set = load_set(logbook, args.set_name)
    except CommandError as error:
        return fail(error)
    except PairSetError as exc:
        return fail(CommandError(f"error: {exc}", EXIT_USAGE))
    for set_problem in pair_set.set_problems:
        print(f"warning: {set_problem}", file=sys.stderr)
    if pair_set.problems:  # named only here, before rating: the window never shows file names
        print(f"warning: {len({p.pair_id for p in pair_set.problems})} pairs are left out:", file=sys.stderr)
        for problem in pair_set.problems:
            print(f"  {problem}", file=sys.stderr)
    from reviewapp.cli.gui_cmd import open_window

    review = LogbookReview.open(logbook, identity, "participant")
    say_who("rating", identity.name, "participant")
    warn_about(review.loaded)
    return open_window(args, "pairs", pairs=(review, pair_set))
