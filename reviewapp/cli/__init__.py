"""The `reviewapp` command line. Headless commands never import Qt; only the window commands do."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from reviewapp import __version__

# Each module defines `register(subparsers, gui_options)`; order is the order of `reviewapp --help`.
COMMAND_MODULES = (
    "reviewapp.cli.gui_cmd",
    "reviewapp.cli.inspect_cmd",
    "reviewapp.cli.annotate_cmd",
    "reviewapp.cli.annotations_cmd",
    "reviewapp.cli.pairs_cmd",
    "reviewapp.cli.commit_cmd",
    "reviewapp.cli.queue_cmd",
    "reviewapp.cli.score_cmd",
    "reviewapp.cli.rank_cmd",
    "reviewapp.cli.verdicts_cmd",
    "reviewapp.cli.agreement_cmd",
    "reviewapp.cli.trace_cmd",
    "reviewapp.cli.find_cmd",
    "reviewapp.cli.paper_cmd",
    "reviewapp.cli.doctor_cmd",
)


def build_parser() -> argparse.ArgumentParser:
    from reviewapp.cli.common import add_exit_codes
    from reviewapp.cli.gui_cmd import WINDOW_EXIT_CODES, add_window_options

    parser = argparse.ArgumentParser(
        prog="reviewapp",
        description="Review a coding agent's Trackio logbook claim by claim. With no command, opens the demo.",
    )
    parser.add_argument("--version", action="version", version=f"reviewapp {__version__}")
    add_window_options(parser)
    add_exit_codes(parser, WINDOW_EXIT_CODES + "\nEvery command's --help lists the exit codes it returns.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    configure = getattr(args, "configure_downloads", None)
    if configure is not None:
        configure(args)
    handler = getattr(args, "handler", None)
    if handler is None:
        from reviewapp.cli.gui_cmd import run_window

        return run_window(args, source=None)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        from reviewapp.cli.common import EXIT_CANCELLED

        print("cancelled", file=sys.stderr)
        return EXIT_CANCELLED
    except BrokenPipeError:
        return 0
