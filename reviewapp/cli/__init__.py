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
    "reviewapp.cli.decide_cmd",
    "reviewapp.cli.verdicts_cmd",
    "reviewapp.cli.agreement_cmd",
    "reviewapp.cli.trace_cmd",
    "reviewapp.cli.find_cmd",
    "reviewapp.cli.paper_cmd",
    "reviewapp.cli.search_cmd",
    "reviewapp.cli.key_cmd",
    "reviewapp.cli.doctor_cmd",
)


# The module that registers each command, so that running one imports only its module (importing them all
# cost a sixth of a second, more than `inspect` takes to answer from the parse cache). A module missing here still
# works, registered with all the others; tests/core/test_cli_commands.py keeps the table complete.
COMMAND_OWNERS = {
    "open": "reviewapp.cli.gui_cmd",
    "inspect": "reviewapp.cli.inspect_cmd",
    "annotate": "reviewapp.cli.annotate_cmd",
    "annotations": "reviewapp.cli.annotations_cmd",
    "pairs": "reviewapp.cli.pairs_cmd",
    "commit": "reviewapp.cli.commit_cmd",
    "queue": "reviewapp.cli.queue_cmd",
    "score": "reviewapp.cli.score_cmd",
    "flag": "reviewapp.cli.score_cmd",
    "rank": "reviewapp.cli.rank_cmd",
    "adjudicate": "reviewapp.cli.decide_cmd",
    "decide": "reviewapp.cli.decide_cmd",
    "verdicts": "reviewapp.cli.verdicts_cmd",
    "agreement": "reviewapp.cli.agreement_cmd",
    "trace": "reviewapp.cli.trace_cmd",
    "find": "reviewapp.cli.find_cmd",
    "paper": "reviewapp.cli.paper_cmd",
    "search": "reviewapp.cli.search_cmd",
    "key": "reviewapp.cli.key_cmd",
    "doctor": "reviewapp.cli.doctor_cmd",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line; when `argv` starts with a command, only that command's module is registered."""
    from reviewapp.cli.common import add_exit_codes
    from reviewapp.cli.gui_cmd import WINDOW_EXIT_CODES, add_window_options

    parser = argparse.ArgumentParser(
        prog="reviewapp",
        description="Review a coding agent's Trackio logbook claim by claim. With no command, opens the demo.",
    )
    parser.add_argument("--version", action="version", version=f"reviewapp {__version__}")
    add_window_options(parser, top=True)
    add_exit_codes(parser, WINDOW_EXIT_CODES + "\nEvery command's --help lists the exit codes it returns.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    owner = COMMAND_OWNERS.get(argv[0]) if argv else None
    for name in (owner,) if owner else COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from reviewapp.cli.gui_cmd import screenshot_problem

    parser = build_parser(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if (problem := screenshot_problem(args)) is not None:
        print(problem, file=sys.stderr)
        return 2
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
    finally:
        _finish_command()


def _finish_command() -> None:
    """A command returns once what it left for after its answer is done (load_or_exit)."""
    common = sys.modules.get("reviewapp.cli.common")
    if common is not None:
        common.finish_command()
