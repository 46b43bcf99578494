"""`reviewapp trace attach SOURCE FILE [--session ID]`: attach an agent's raw transcript to a logbook.

The transcript is copied by sha256 into the user data folder (never into the logbook: it may hold secrets) and
linked to the logbook and a session by one review record. A session id that the manifest lists, whose trace
files are absent, is filled by the transcript; any other id is a new session.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewapp.cli.annotate_cmd import identity_or_exit, warn_about
from reviewapp.cli.common import (
    CommandError,
    add_annotator_options,
    add_source_argument,
    fail,
    load_or_exit,
    print_json,
    say_who,
)

EXIT_USAGE = 2
EXIT_WRITE_FAILED = 3
EXIT_CODES = """exit codes:
  0  attached (or already attached)
  2  bad usage, not a logbook, unreadable transcript, no annotator identity
  3  the transcript or its link record could not be written"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "trace",
        help="agent traces: attach a raw transcript (Claude Code, Codex, Pi, opencode) to a logbook",
        description="Work with the agent sessions behind a logbook.",
    )
    commands = parser.add_subparsers(dest="trace_command", metavar="SUBCOMMAND", required=True)
    attach = commands.add_parser(
        "attach",
        help="copy a transcript into the data folder and link it to the logbook",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_source_argument(attach)
    attach.add_argument("file", metavar="FILE", type=Path, help="the transcript (JSON lines)")
    attach.add_argument("--session", metavar="ID", help="the session it is (default: the id the file names)")
    add_annotator_options(attach)
    attach.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    attach.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    attach.set_defaults(handler=run_attach)


def run_attach(args: argparse.Namespace) -> int:
    from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
    from reviewapp.core.review.preferences import load_preferences
    from reviewapp.core.review.trace_links import attach_transcript
    from reviewapp.core.review.write_errors import SecretInRecord, StoreError
    from reviewapp.core.trace.transcripts import TranscriptError

    try:
        if not args.file.is_file():
            raise CommandError(f"error: {args.file}: no such transcript file", EXIT_USAGE)
        logbook = load_or_exit(args.source)
        identity = identity_or_exit(args.annotator, logbook.root, remember=args.remember)
        review = LogbookReview.open(logbook, identity, load_preferences().role)
        warn_about(review.loaded)
        attached = attach_transcript(review, args.file, args.session)
    except CommandError as error:
        return fail(error)
    except TranscriptError as exc:
        code = EXIT_WRITE_FAILED if "changed while" not in str(exc) and args.file.is_file() else EXIT_USAGE
        return fail(CommandError(f"error: {exc}", code))
    except (AnnotationError, SecretInRecord) as exc:
        return fail(CommandError(f"error: {exc}", EXIT_USAGE))
    except StoreError as exc:
        return fail(CommandError(f"error: nothing linked: {exc}", EXIT_WRITE_FAILED))
    except OSError as exc:
        return fail(CommandError(f"error: {args.file}: {exc.strerror or exc}", EXIT_USAGE))
    say_who("linked", identity.name, review.role)
    for problem in attached.index.problems:
        print(f"warning: {problem}", file=sys.stderr)
    payload = attached.record.payload
    result = {
        "record_id": attached.record.id,
        "session": payload.session,
        "fills_listed_session": attached.fills_listed,
        "already_attached": attached.already_linked,
        "format": payload.format,
        "events": payload.events,
        "sha256": payload.sha256,
        "stored_at": str(attached.stored.path),
        "unreadable_lines": [{"file": p.file, "line": p.line, "problem": p.message} for p in attached.index.problems],
    }
    if args.format == "json":
        print_json(result)
    elif args.format == "csv":
        keys = [k for k in result if k != "unreadable_lines"]
        print(",".join(keys))
        print(",".join(str(result[k]) for k in keys))
    else:
        how = "fills the listed session" if attached.fills_listed else "a new session"
        again = " (already attached)" if attached.already_linked else ""
        bullet = "- " if args.format == "markdown" else ""
        print(f"{bullet}attached {args.file.name}{again}: {payload.format}, {payload.events} events")
        print(f"{bullet}session {payload.session}: {how}")
        print(f"{bullet}stored as {attached.stored.path}")
        print(f"{bullet}record {attached.record.id}")
    return 0
