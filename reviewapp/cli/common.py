"""Helpers shared by headless commands: loading a logbook with a one-line error, and output."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Logbook

if TYPE_CHECKING:
    from reviewapp.core.io.hub_download import DownloadLimits
    from reviewapp.core.review.blind_rule import BlindRule
    from reviewapp.core.sources.opened import OpenedSource


# One table for every command (the README has it too); each command's --help lists the codes it can return.
EXIT_OK = 0
EXIT_CHECK_FAILED = 1  # checked and found wrong: invalid records, a failed check, a secret in what was to be sent
EXIT_USAGE = 2  # bad usage or not a logbook
EXIT_NOT_A_LOGBOOK = EXIT_USAGE
EXIT_CANNOT_WRITE = 3
EXIT_REFUSED = 4  # git or the Hub refused
EXIT_NETWORK = 5  # network unavailable
EXIT_CANCELLED = 6


def exit_codes_epilog(
    *,
    ok: str,
    wrong: str | None = None,
    usage: str = "bad usage, or not a logbook",
    cannot_write: str | None = None,
    refused: str | None = None,
    network: str | None = None,
    cancelled: str = "cancelled (Ctrl+C)",
) -> str:
    """The "exit codes:" section of a command's --help: the shared table, in this command's words."""
    rows = [
        (EXIT_OK, ok),
        (EXIT_CHECK_FAILED, wrong),
        (EXIT_USAGE, usage),
        (EXIT_CANNOT_WRITE, cannot_write),
        (EXIT_REFUSED, refused),
        (EXIT_NETWORK, network),
        (EXIT_CANCELLED, cancelled),
    ]
    return "exit codes:\n" + "".join(f"  {code}  {text}\n" for code, text in rows if text)


def add_exit_codes(parser: argparse.ArgumentParser, epilog: str) -> None:
    parser.epilog = epilog
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


SOURCE_HELP = (
    "a logbook folder (workspace, .trackio, logbook or downloaded Space), a Space OWNER/NAME or its URL, a dataset "
    "datasets/OWNER/NAME, or the URL of a published logbook; @REV pins a revision (an existing folder wins)"
)
_download_limits: dict[str, float] = {}


def add_source_argument(parser: argparse.ArgumentParser) -> None:
    """The SOURCE argument every logbook command takes, with the limits of downloading it."""
    parser.add_argument("source", metavar="SOURCE", help=SOURCE_HELP)
    add_download_limit_options(parser)


def add_download_limit_options(parser: argparse.ArgumentParser) -> None:
    """--max-download-mb and --download-timeout, over the limits saved in the preferences."""
    group = parser.add_argument_group("downloading a Space, dataset or URL")
    group.add_argument(
        "--max-download-mb",
        type=_positive,
        metavar="MB",
        help="stop before downloading more than this (default 500, or the window's setting)",
    )
    group.add_argument(
        "--download-timeout",
        type=_positive,
        metavar="SECONDS",
        help="give up a download after this (default 600, or the window's setting)",
    )
    parser.set_defaults(configure_downloads=_configure_downloads)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _configure_downloads(args: argparse.Namespace) -> None:
    _download_limits.clear()  # one command's options never carry over to the next call of main()
    if getattr(args, "max_download_mb", None):
        _download_limits["max_bytes"] = args.max_download_mb * 1024 * 1024
    if getattr(args, "download_timeout", None):
        _download_limits["max_seconds"] = args.download_timeout


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
    """Read the logbook SOURCE names, downloading a Space, dataset or URL first (or reopening its cached copy),
    through the parse cache (the window's too): reading an unchanged logbook again costs no parsing.

    Where a download came from, and whether it is a cached copy, is said on stderr; failures become a
    CommandError carrying the exit code of the shared table (2 not found or not a logbook, 4 refused,
    5 network unavailable, 6 cancelled).
    """
    from reviewapp.core.logbook.parse_cache import read_logbook_cached

    opened = open_or_exit(source)
    try:  # the cache's entry is written by a second process, the claim search once answered (finish_command)
        return read_logbook_cached(
            opened.folder, logbook_id=opened.logbook_id, store_apart=True, index_later=_AFTER_ANSWER.append
        )
    except NotALogbookError as exc:
        raise CommandError(f"error: {exc}", EXIT_NOT_A_LOGBOOK) from exc


_AFTER_ANSWER: list[Callable[[], None]] = []  # what a command does once it has answered (load_or_exit)


def finish_command() -> None:
    """What the command left for after its answer (adding what it read to the claim search), then waiting for the
    children that write the parse cache's entries: a command ends with both done."""
    from reviewapp.core.io.fork_split import wait_apart

    try:
        while _AFTER_ANSWER:
            _AFTER_ANSWER.pop(0)()
    finally:
        wait_apart()


def open_or_exit(source: str) -> OpenedSource:
    """The folder SOURCE names (see `open_for_command`); a failure is a CommandError with its exit code."""
    from reviewapp.core.io.source_errors import EXIT_CANCELLED, SourceUnavailable
    from reviewapp.core.io.source_ref import SourceError
    from reviewapp.core.progress import Cancelled

    try:
        return open_for_command(source)
    except SourceError as exc:
        raise CommandError(f"error: {exc}", EXIT_NOT_A_LOGBOOK) from exc
    except SourceUnavailable as exc:
        raise CommandError(f"error: {exc}", exc.exit_code) from exc
    except (Cancelled, KeyboardInterrupt) as exc:  # Ctrl+C during a download: what is complete stays cached
        raise CommandError(f"cancelled: {source}", EXIT_CANCELLED) from exc


def open_for_command(source: str) -> OpenedSource:
    """The folder SOURCE names, downloading within the command's limits (progress on a terminal); where it came
    from, notes and proposals are said on stderr. Raises SourceError, SourceUnavailable or Cancelled as they
    are, for commands that go on with their other sources."""
    from reviewapp.core.io.source_ref import parse_source
    from reviewapp.core.sources.opener import open_source

    ref = parse_source(source)
    if ref.kind == "path":
        return open_source(ref)
    limits = _limits()
    progress = _TerminalProgress() if sys.stderr.isatty() else None
    try:
        opened = open_source(ref, limits=limits, progress=progress)
    finally:
        if progress is not None:
            progress.done()
    banner = opened.banner()
    if banner:
        print(banner, file=sys.stderr)
    for note in opened.notes:
        print(f"note: {note}", file=sys.stderr)
    proposals = opened.proposals_line()
    if proposals:
        print(f"note: {proposals}", file=sys.stderr)
    return opened


def download_limits() -> DownloadLimits:
    """The limits every download of this command keeps: the preferences', with its own options over them."""
    return _limits()


def download_limits_given() -> DownloadLimits | None:
    """The limits when this command was given --max-download-mb or --download-timeout (the window's own else)."""
    return _limits() if _download_limits else None


def _limits() -> DownloadLimits:
    """The preferences' limits (500 MB and 10 minutes unless changed), with this command's options over them."""
    from dataclasses import replace

    from reviewapp.core.review.preferences import load_preferences

    limits = load_preferences().download_limits()
    if "max_bytes" in _download_limits:
        limits = replace(limits, max_bytes=int(_download_limits["max_bytes"]))
    if "max_seconds" in _download_limits:
        limits = replace(limits, max_seconds=_download_limits["max_seconds"])
    return limits


class _TerminalProgress:
    """One updating line on a terminal's stderr: files and bytes so far."""

    def __call__(self, done: int, total: int, label: str) -> None:
        sys.stderr.write(f"\r\x1b[Kdownloading {label[:100]}")
        sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def print_json(value: Any) -> None:
    """`value` as indented JSON, in one write: json.dump writes each of a large answer's hundred thousand pieces
    to the stream on its own (the text is json.dumps's, written faster: json_text)."""
    from reviewapp.cli.json_text import dumps_indented

    sys.stdout.write(dumps_indented(value) + "\n")


def fail(error: CommandError) -> int:
    print(str(error), file=sys.stderr)
    return error.exit_code


def add_blind_option(parser: argparse.ArgumentParser) -> None:
    """--blind [NAME]: show what reviewer NAME sees in blind review, as the window shows it."""
    parser.add_argument(
        "--blind",
        nargs="?",
        const="",
        metavar="NAME",
        help="as reviewer NAME (default: your name in the settings) sees it in blind review: the participant's "
        "names replaced by a pseudonym, other reviewers' verdicts and notes only on claims NAME has judged",
    )


def blind_reviewer(args: argparse.Namespace) -> str | None:
    """Who looks blind (None: not blind). Raises CommandError when --blind names nobody and the settings neither."""
    name = getattr(args, "blind", None)
    if name is None:
        return None
    if name.strip():
        return " ".join(name.split())
    from reviewapp.core.review.preferences import load_preferences

    known = load_preferences().annotator
    if not known:
        raise CommandError("error: --blind needs the reviewer's name: --blind NAME, or set your name in the settings")
    return known


def blind_rule(logbook: Logbook, reviewer: str) -> BlindRule:
    """The blind rule the window applies to `logbook` for `reviewer` (`reviewer_rule`)."""
    from reviewapp.core.queue.blind_logbook import reviewer_rule

    return reviewer_rule(logbook, reviewer)
