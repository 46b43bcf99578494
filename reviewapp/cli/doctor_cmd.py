"""`reviewapp doctor [--format text|json|csv|markdown]`: whether this machine can run reviewapp, with the fix
for each problem found.

Checks that the Qt platform plugin loads (and, on Linux, which system libraries Qt's X11 support lacks), that
git runs, that the data, log, preferences and cache folders are writable, and whether a Hub token is present.
It works offline: it cannot say whether a token works, and not being logged in is not a problem.
"""

from __future__ import annotations

import argparse
import json
import sys

from reviewapp.cli.output import add_format_option, write_table

EXIT_CODES = """exit codes:
  0  no problem found
  1  a problem was found (each is printed with its fix)
  2  bad usage"""
MARKS = {"ok": "ok     ", "problem": "PROBLEM", "note": "note   "}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check that this machine can run reviewapp, and how to fix what it lacks",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_format_option(parser)
    parser.add_argument("--probe-platform", metavar="NAME", help=argparse.SUPPRESS)  # the child process Qt runs in
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.probe_platform:
        from reviewapp.qt.platform_probe import probe

        return probe(args.probe_platform)
    from reviewapp.doctor import problems, run_checks

    checks = run_checks()
    found = problems(checks)
    if args.format == "json":
        json.dump({"ok": not found, "checks": [c.to_dict() for c in checks]}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.format in ("csv", "markdown"):
        write_table(
            ["check", "status", "detail", "fix"], [(c.name, c.status, c.detail, c.fix) for c in checks], args.format
        )
    else:
        for check in checks:
            print(f"{MARKS[check.status]}  {check.name}: {check.detail}")
            if check.fix:
                print(f"         fix: {check.fix}")
        print()
        print(f"{len(found)} problem{'s' if len(found) != 1 else ''} found" if found else "no problems found")
    return 1 if found else 0
