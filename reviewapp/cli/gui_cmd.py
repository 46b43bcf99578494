"""Window commands: `reviewapp` (the demo), `reviewapp open SOURCE`, and `--screenshot` for both."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewapp.cli.common import add_exit_codes, add_source_argument, exit_codes_epilog

WINDOW_EXIT_CODES = exit_codes_epilog(
    ok="the window was closed, or the screenshot was written",
    wrong="no window can be opened here: no display, a system library Qt needs is missing (named), PySide6\n"
    "     is missing, or the logbook did not load in time for a screenshot",
    usage="bad usage, not a logbook, or no such claim (--claim)",
    cannot_write="the screenshot could not be written",
)


if TYPE_CHECKING:
    from reviewapp.qt.app import Look


def _size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d{2,5})x(\d{2,5})", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1600x1000, got {text!r}")
    return int(match.group(1)), int(match.group(2))


def add_look_options(parser: argparse.ArgumentParser, *, top: bool = False, theme: bool = True) -> None:
    """--screenshot, --size and --theme, given before the command (`top`) or after it: on a command they keep
    what was given before it unless given again (a suppressed default sets nothing). `theme=False`: the command's
    own --theme (its figures' colours) is the window's too."""
    group = parser.add_argument_group("window")
    group.add_argument(
        "--screenshot",
        metavar="OUT.png",
        type=Path,
        default=None if top else argparse.SUPPRESS,
        help="render the window offscreen, save a PNG, exit",
    )
    group.add_argument(
        "--size",
        metavar="WxH",
        type=_size,
        default=DEFAULT_SIZE if top else argparse.SUPPRESS,
        help="window size (default 1600x1000)",
    )
    if not theme:
        parser.set_defaults(has_window=True)
        return
    group.add_argument(
        "--theme",
        dest="window_theme",  # apart from a command's own --theme (the colours of a figure it writes)
        choices=("light", "dark"),
        default=None if top else argparse.SUPPRESS,
        help="colours for this window (default: REVIEWAPP_THEME, else View > Theme's setting, else the system's)",
    )
    if not top:
        parser.set_defaults(has_window=True)


def add_window_options(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    add_look_options(parser, top=top)
    parser.add_argument(
        "--claim",
        metavar="N|KEY",
        default=None if top else argparse.SUPPRESS,
        help="select this claim (its number or key)",
    )


def look_of(args: argparse.Namespace) -> Look:
    from reviewapp.qt.app import Look

    return Look(args.screenshot, args.size, args.window_theme)


def screenshot_problem(args: argparse.Namespace) -> str | None:
    """--screenshot, --size or --theme given to a command that has no window."""
    given = [option for option, name in (("--screenshot", "screenshot"), ("--theme", "window_theme"))
             if getattr(args, name, None) is not None]  # fmt: skip
    if args.command is None or getattr(args, "has_window", False) or not given:
        return None
    return (
        f"error: {' and '.join(given)}: `{args.command}` has no window; the windows are opened by `open`, "
        "`queue --window`, `paper --window`, `pairs rate` and `pairs study --window`"
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("open", help="open a logbook in the review window")
    add_source_argument(parser)
    add_window_options(parser)
    add_exit_codes(parser, WINDOW_EXIT_CODES)
    parser.set_defaults(handler=lambda args: run_window(args, source=args.source))


EXIT_NO_WINDOW = 1
DEFAULT_SIZE = (1600, 1000)


def window_problem_or_none() -> int | None:
    """Exit code 1 with one line when no window can be opened here (Qt would abort with a core dump)."""
    from reviewapp.display_check import display_problem

    problem = display_problem()
    if problem is None:
        return None
    print(f"error: cannot open the window: {problem}", file=sys.stderr)
    return EXIT_NO_WINDOW


def run_window(args: argparse.Namespace, source: str | None) -> int:
    return open_window(args, "review", source=source, claim=args.claim)


def open_window(args: argparse.Namespace, name: str, **request: Any) -> int:
    """Open (or with --screenshot, render) the registered window `name` on what the command asked for (the
    fields of a WindowRequest): exit 1 when no window can be opened here. The one way commands reach Qt."""
    if args.screenshot is None and (code := window_problem_or_none()) is not None:
        return code
    try:
        from reviewapp.qt.app import run_window as run_named
    except ImportError as exc:  # a broken Qt install should say so, not dump a traceback
        print(f"error: the window needs PySide6: {exc}", file=sys.stderr)
        return 1
    from reviewapp.cli.common import download_limits_given
    from reviewapp.qt.window_kinds import WindowRequest

    return run_named(name, WindowRequest(**request), look_of(args), download_limits_given())
