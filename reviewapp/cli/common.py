"""Helpers shared by headless commands: loading a logbook with a one-line error, and output."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Logbook

EXIT_NOT_A_LOGBOOK = 2


def add_source_argument(parser: argparse.ArgumentParser) -> None:
    """The SOURCE argument every logbook command takes."""
    parser.add_argument("source", metavar="SOURCE", help="logbook folder (workspace, .trackio, logbook or Space)")


def add_annotator_options(parser: argparse.ArgumentParser) -> None:
    """--annotator names the reviewer of this one command; --remember keeps it for later commands."""
    parser.add_argument(
        "--annotator", metavar="NAME", help="your name as annotator, for this command only (see --remember)"
    )
    parser.add_argument(
        "--remember", action="store_true", help="save --annotator as your name for later commands and the window"
    )


def say_who(action: str, name: str, role: str) -> None:
    """Every command that writes says under which name and role, on stderr (stdout stays for ids)."""
    print(f"{action} as {name} ({role})", file=sys.stderr, flush=True)


class CommandError(Exception):
    """A user-facing failure: printed as one line, exit code attached."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def load_or_exit(source: str) -> Logbook:
    from reviewapp.core.logbook.reader import read_logbook

    try:
        return read_logbook(Path(source))
    except NotALogbookError as exc:
        raise CommandError(f"error: {exc}", EXIT_NOT_A_LOGBOOK) from exc


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def fail(error: CommandError) -> int:
    print(str(error), file=sys.stderr)
    return error.exit_code
