"""`reviewapp key init|show|roster`: the reviewer's signing key and the roster of reviewers' keys records are
checked against.

Exit codes: 0 done; 2 bad usage, no key yet (`show`), or a roster that cannot be used (nothing saved).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reviewapp.cli.common import add_exit_codes

EXIT_USAGE = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "key",
        help="your signing key and the roster of reviewers' public keys",
        description="Records you write are signed with your key (kept in your config folder, never in a "
        "repository). With a roster (one `ed25519:<key> <name>` a line, held by the judges), a record counts "
        "only when a key the roster lists for its name signed it.",
    )
    actions = parser.add_subparsers(dest="key_action", metavar="ACTION", required=True)
    init = actions.add_parser("init", help="make your signing key (kept if you have one) and print your roster line")
    init.add_argument("--annotator", metavar="NAME", help="the name for the roster line (default: your saved name)")
    show = actions.add_parser("show", help="print your roster line")
    show.add_argument("--annotator", metavar="NAME", help="the name for the roster line (default: your saved name)")
    roster = actions.add_parser("roster", help="check records against this roster file from now on")
    roster.add_argument("file", nargs="?", type=Path, metavar="FILE")
    roster.add_argument("--clear", action="store_true", help="stop checking against a roster")
    for command in (init, show, roster):
        add_exit_codes(command, "0 done\n2 bad usage, no key yet, or a roster that cannot be used")
        command.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.review.preferences import load_preferences, update_preferences
    from reviewapp.core.review.signing import (
        RosterError,
        create_signing_key,
        key_path,
        load_signing_key,
        public_key_text,
        read_roster,
    )

    if args.key_action in ("init", "show"):
        key = create_signing_key() if args.key_action == "init" else load_signing_key()
        if key is None:
            print(f"no signing key yet ({key_path()}); make one with `reviewapp key init`", file=sys.stderr)
            return EXIT_USAGE
        name = args.annotator or load_preferences().annotator or "YOUR NAME"
        print(f"{public_key_text(key)} {name}")
        if args.key_action == "init":
            print(f"key kept in {key_path()}; give the line above to the judges' roster", file=sys.stderr)
        return 0
    if args.clear:
        update_preferences(lambda p: p.model_copy(update={"roster": None}))
        print("records are no longer checked against a roster (they count as unsigned)", file=sys.stderr)
        return 0
    if args.file is None:
        current = load_preferences().roster
        print(current or "no roster: records count as unsigned")
        return 0
    try:
        roster = read_roster(args.file.resolve())
    except RosterError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    update_preferences(lambda p: p.model_copy(update={"roster": str(roster.path)}))
    print(f"records are checked against {roster.path} ({len(roster.names)} keys)", file=sys.stderr)
    return 0
