"""`reviewapp verdicts import FILE [--registry FILE] [--paper-index FILE] [--space ID] SOURCE...`

Stores the Logbook Judge's verdicts for the given logbooks in the user's data folder (never in a logbook's
repository, which could forge them). Each logbook is linked to the entry about it: the Space it was opened from,
else the space_id its metadata or manifest names, else its paper and owner; an ambiguous or weak link is reported
and not taken, and --space forces one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from reviewapp.cli.common import SOURCE_HELP, CommandError, fail, load_or_exit, print_json
from reviewapp.cli.output import add_format_option, write_table

EXIT_NOT_LINKED = 1
EXIT_USAGE = 2
EXIT_WRITE_FAILED = 3

EXIT_CODES = """exit codes:
  0  every logbook was linked to an entry and its verdicts stored
  1  some logbook had no entry, an ambiguous or a weak link (nothing stored for it), or the file had bad entries
     (named; the rest was imported)
  2  bad usage, not a logbook, or FILE / --registry / --paper-index unreadable
  3  the data folder could not be written"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "verdicts",
        help="import the Logbook Judge's verdicts for logbooks",
        description="Logbook Judge verdicts: import them into your data folder for the logbooks named.",
    )
    commands = parser.add_subparsers(dest="verdicts_command", metavar="COMMAND", required=True)
    imp = commands.add_parser(
        "import",
        help="store the Logbook Judge's verdicts for these logbooks",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    imp.add_argument("file", metavar="FILE", type=Path, help="verdicts.json, or our CSV / JSON Lines form")
    imp.add_argument("sources", metavar="SOURCE", nargs="+", help=f"one or more logbooks: {SOURCE_HELP}")
    imp.add_argument("--registry", metavar="FILE", type=Path, help="the claim registry (claims_anchored.json)")
    imp.add_argument("--paper-index", metavar="FILE", type=Path, help="the paper index (index.json), for numeric ids")
    imp.add_argument("--space", metavar="OWNER/NAME", help="take this Space's entry (one SOURCE only)")
    add_format_option(imp)
    imp.set_defaults(handler=run_import)


def run_import(args: argparse.Namespace) -> int:
    from reviewapp.core.logbook_judge.entries import VerdictsFileError
    from reviewapp.core.logbook_judge.importer import import_verdicts
    from reviewapp.core.logbook_judge.linking import LinkError

    if args.space and len(args.sources) > 1:
        return fail(CommandError("error: --space names one Space; give one SOURCE with it"))
    if args.paper_index and not args.registry:
        return fail(CommandError("error: --paper-index resolves numeric ids of a --registry; give one"))
    try:
        logbooks = [load_or_exit(source) for source in args.sources]
        result = import_verdicts(
            args.file, logbooks, registry_file=args.registry, paper_index_file=args.paper_index, space=args.space
        )
    except CommandError as error:
        return fail(error)
    except (VerdictsFileError, LinkError) as exc:
        name = f"{args.file.name}: " if isinstance(exc, LinkError) else ""
        return fail(CommandError(f"error: {name}{exc}", EXIT_USAGE))
    except OSError as exc:
        return fail(CommandError(f"error: cannot write to the data folder: {exc}", EXIT_WRITE_FAILED))
    for problem in result.problems:
        print(f"warning: {problem}", file=sys.stderr)
    registry = result.registry
    if registry and registry.unsupported and args.registry:
        shown = ", ".join(sorted(registry.unsupported)[:5])
        more = f" and {len(registry.unsupported) - 5} more" if len(registry.unsupported) > 5 else ""
        reason = next(iter(registry.unsupported.values()))
        print(f"warning: {args.registry.name}: papers {shown}{more} unsupported: {reason}", file=sys.stderr)
    for report, source in zip(result.reports, args.sources, strict=True):
        report["source"] = source
    _print(result.reports, args.format)
    return 0 if result.all_stored and not result.problems else EXIT_NOT_LINKED


def _print(reports: list[dict[str, Any]], fmt: str) -> None:
    if fmt == "json":
        print_json({"imports": reports})
        return
    columns = ("source", "space_id", "link", "how", "matched", "stored")
    rows = []
    for r in reports:
        claims = r["claims"] or []
        matched = f"{sum(1 for c in claims if c['claim_key'])}/{len(claims)}" if r["claims"] is not None else ""
        rows.append(
            (
                r["source"],
                r["link"]["space_id"],
                r["link"]["strength"],
                r["link"]["method"],
                matched,
                r["stored"] or "not stored",
            )
        )
    if fmt in ("csv", "markdown"):
        write_table(columns, rows, fmt)
        return
    for r in reports:
        link = r["link"]
        print(f"{r['source']}  ({r['logbook_id']})")
        if r["stored"]:
            print(f"  Logbook Judge entry {link['space_id']}: {link['strength']} link, {link['method']}")
        else:
            candidates = ", ".join(link["candidates"]) or "none"
            print(f"  not linked ({link['strength']}): {link['method']}; candidates: {candidates}")
        for note in [*link["notes"], *(r.get("notes") or [])]:
            print(f"  note: {note}")
        if r.get("revision_warning"):
            print(f"  warning: {r['revision_warning']}")
        for c in r["claims"] or []:
            target = c["claim_key"] or "—"
            print(
                f"  registry claim {c['index']}: {c['verdict'] or '?':<12} -> {target}  [{c['method']}, "
                f"{c['confidence']:.2f}] {c['why']}"
            )
        if r.get("unmatched_logbook_claims"):
            print(f"  logbook claims without a Logbook Judge claim: {', '.join(r['unmatched_logbook_claims'])}")
        if r["stored"]:
            print(f"  stored: {r['stored']}")
