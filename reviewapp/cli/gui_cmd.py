"""Window commands: `reviewapp` (the demo), `reviewapp open SOURCE`, and `--screenshot` for both."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from reviewapp.cli.common import add_exit_codes, add_source_argument, exit_codes_epilog

WINDOW_EXIT_CODES = exit_codes_epilog(
    ok="the window was closed, or the screenshot was written",
    wrong="no window can be opened here: no display, a system library Qt needs is missing (named), PySide6\n"
    "     is missing, or the logbook did not load in time for a screenshot",
    usage="bad usage, not a logbook, or no such claim (--claim)",
    cannot_write="the screenshot could not be written",
)


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d{2,5})x(\d{2,5})", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1600x1000, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def add_window_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("window")
    group.add_argument(
        "--screenshot", metavar="OUT.png", type=Path, help="render the window offscreen, save a PNG, exit"
    )
    group.add_argument("--claim", metavar="N|KEY", help="select this claim (its number or key)")
    group.add_argument(
        "--size", metavar="WxH", type=_size, default=(1600, 1000), help="window size (default 1600x1000)"
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("open", help="open a logbook in the review window")
    add_source_argument(parser)
    add_window_options(parser)
    add_exit_codes(parser, WINDOW_EXIT_CODES)
    parser.set_defaults(handler=lambda args: run_window(args, source=args.source))


EXIT_NO_WINDOW = 1


def window_problem_or_none() -> int | None:
    """Exit code 1 with one line when no window can be opened here (Qt would abort with a core dump)."""
    from reviewapp.display_check import display_problem

    problem = display_problem()
    if problem is None:
        return None
    print(f"error: cannot open the window: {problem}", file=sys.stderr)
    return EXIT_NO_WINDOW


def run_window(args: argparse.Namespace, source: str | None) -> int:
    if args.screenshot is None and (code := window_problem_or_none()) is not None:
        return code
    try:
        from reviewapp.qt.app import run
    except ImportError as exc:  # a broken Qt install should say so, not dump a traceback
        print(f"error: the review window needs PySide6: {exc}", file=sys.stderr)
        return 1
    from reviewapp.cli.common import download_limits_given

    limits = download_limits_given()
    return run(source=source, screenshot=args.screenshot, claim=args.claim, size=args.size, limits=limits)
