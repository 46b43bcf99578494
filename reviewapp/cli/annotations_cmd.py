"""`reviewapp annotations SOURCE [--json] [--export csv|jsonl [--out FILE]]`: current review state, validated.

Exit codes: 0 every record is valid (a torn last line left by a killed writer is set aside with a warning);
1 an invalid record was found (named by file and line; the rest is still shown); 2 usage or not a logbook.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewapp.cli.common import (
    EXIT_CANNOT_WRITE,
    CommandError,
    add_blind_option,
    add_exit_codes,
    add_source_argument,
    blind_reviewer,
    blind_rule,
    exit_codes_epilog,
    fail,
    load_or_exit,
    print_json,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from reviewapp.core.logbook.model import Logbook
    from reviewapp.core.review.blind_rule import BlindRule
    from reviewapp.core.review.replay import ReplayedReview
    from reviewapp.core.verdicts import Verdict

EXIT_INVALID = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "annotations",
        help="show the current review state of a logbook and validate its annotation files",
        description="Replay the logbook's annotation files, print the current state, and validate every line.",
    )
    add_source_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--export", choices=("csv", "jsonl"), help="write one row per claim and reviewer instead")
    parser.add_argument("--out", metavar="FILE", type=Path, help="with --export: write here instead of stdout")
    parser.add_argument("--annotator", metavar="NAME", help="only this reviewer's verdicts")
    add_blind_option(parser)
    add_exit_codes(
        parser,
        exit_codes_epilog(
            ok="every record is valid",
            wrong="an invalid record was found (named with its file and line; the others are shown)",
            cannot_write="the --out file could not be written",
        ),
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # imported here so that `reviewapp --help` and other commands do not pay for pydantic models
    from reviewapp.core.io.durable import atomic_write
    from reviewapp.core.review.export import export_rows, write_csv, write_jsonl
    from reviewapp.core.review.replay import read_review

    if args.out is not None and args.export is None:
        return fail(CommandError("error: --out needs --export csv|jsonl"))
    from reviewapp.core.review.blind_rule import BlindRule

    try:
        logbook = load_or_exit(args.source)
        reviewer = blind_reviewer(args)
    except CommandError as error:
        return fail(error)
    rule = blind_rule(logbook, reviewer) if reviewer is not None else BlindRule.SEEING_ALL
    replayed = read_review(logbook, writable=None)  # a torn last line is set aside, as the window does
    loaded, state = replayed.loaded, replayed.state
    for issue in loaded.issues:
        print(f"{'error' if issue.severity == 'error' else 'warning'}: {rule.text(str(issue))}", file=sys.stderr)
    for problem in [*state.problems, *state.claim_problems()]:
        print(f"warning: {rule.text(str(problem))}", file=sys.stderr)
    logbook_judge = _logbook_judge(logbook, replayed)
    if args.export:
        buffer = io.StringIO()
        rows = export_rows(state, args.annotator, logbook_judge, rule)
        (write_csv if args.export == "csv" else write_jsonl)(rows, buffer)
        if args.out is None:
            sys.stdout.write(buffer.getvalue())
        else:
            try:
                atomic_write(args.out, buffer.getvalue().encode("utf-8"))
            except OSError as exc:
                return fail(CommandError(f"error: cannot write {args.out}: {exc.strerror or exc}", EXIT_CANNOT_WRITE))
    elif args.json:
        print_json(summary(logbook, replayed, args.annotator, logbook_judge, rule))
    else:
        print(render_text(logbook, replayed, args.annotator, logbook_judge, rule))
    return EXIT_INVALID if loaded.errors else 0


def _logbook_judge(logbook: Logbook, replayed: ReplayedReview) -> dict[str, Verdict]:
    """The J slot as the workspace fills it from the stored import (reviewapp verdicts import); empty when none."""
    from reviewapp.core.review.workspace import ReviewWorkspace

    workspace = ReviewWorkspace()
    logbook_id = workspace.open(logbook, replayed=replayed)
    problem = workspace.logbook_judge_problem(logbook_id)
    if problem:
        print(f"warning: Logbook Judge verdicts not shown: {problem}", file=sys.stderr)
    return {
        row.key: row.slots.logbook_judge for row in workspace.rows(logbook_id) if row.slots.logbook_judge is not None
    }


def summary(
    logbook: Logbook,
    replayed: ReplayedReview,
    annotator: str | None,
    logbook_judge: Mapping[str, Verdict] | None = None,
    rule: BlindRule | None = None,
) -> dict[str, Any]:
    """`rule`: blind review's (paths relative to the logbook, names scrubbed, others' records only where the
    reviewer has a verdict); None shows everything."""
    from reviewapp.core.review.blind_rule import BlindRule
    from reviewapp.core.review.export import export_rows
    from reviewapp.core.review.targets import describe_target

    rule = rule or BlindRule.SEEING_ALL
    store, loaded, state = replayed.store, replayed.loaded, replayed.state
    claims = state.effective_claims()
    text = rule.text
    return {
        "logbook": rule.path(logbook.root),
        "folders": [rule.path(f) for f in store.read_folders()],
        "files": [rule.path(f) for f in loaded.files],
        "records": len(loaded.records),
        "valid": not loaded.errors,
        "claims": export_rows(state, annotator, logbook_judge, rule),
        "notes": [
            {
                "id": note.id,
                "annotator": note.annotator,
                "on": text(describe_target(note.target, claims)),
                "target": note.target.model_dump(mode="json", exclude_none=True),
                "text": text(note.payload.text),
                "tags": note.payload.tags,
                "created_at": note.created_at.isoformat(),
            }
            for note in rule.shown(state, state.notes(annotator=annotator))
        ],
        "problems": [
            {"file": rule.path(i.file), "line": i.line, "message": text(i.message), "severity": i.severity}
            for i in loaded.issues
        ]
        + [
            {"file": _file(p.where, rule), "line": _line(p.where), "message": text(p.message), "severity": "warning"}
            for p in [*state.problems, *state.claim_problems()]
        ],
        "set_aside": [rule.path(r.set_aside) for r in loaded.repairs if r.set_aside is not None],
        "records_checked": loaded.trust.label if loaded.trust is not None else None,
        "unverified": [  # blind: who a record claims to be is a name too
            {
                "id": r.id,
                "claims_to_be": None if rule.blind else r.annotator,
                "kind": r.kind,
                "file": _file(where, rule),
                "line": _line(where),
            }
            for r, where in loaded.unverified
        ],
        "unknown_kinds": sorted({r.kind for r in state.unknown}),
    }


def _file(where: str, rule: BlindRule | None = None) -> str | None:
    file = where.rsplit(":", 1)[0] if where else None
    return rule.path(file) if file and rule is not None else file


def _line(where: str) -> int | None:
    tail = where.rsplit(":", 1)[-1] if where else ""
    return int(tail) if tail.isdigit() else None


def render_text(
    logbook: Logbook,
    replayed: ReplayedReview,
    annotator: str | None,
    logbook_judge: Mapping[str, Verdict] | None = None,
    rule: BlindRule | None = None,
) -> str:
    from reviewapp.core.review.blind_rule import BlindRule
    from reviewapp.core.review.export import export_rows
    from reviewapp.core.review.targets import describe_target

    rule = rule or BlindRule.SEEING_ALL
    store, loaded, state = replayed.store, replayed.loaded, replayed.state
    lines = [rule.text(logbook.title)]
    folders = ", ".join(rule.path(f) for f in store.read_folders()) or "none yet"
    lines.append(f"  {len(loaded.records)} records in {len(loaded.files)} files ({folders})")
    if loaded.trust is not None:
        apart = f"; {len(loaded.unverified)} unverified, not counted" if loaded.unverified else ""
        lines.append(f"  records {loaded.trust.label}{apart}")
    lines.append("")
    claims = state.effective_claims()
    lines.append(f"Claims ({len(claims)}):")
    for row in export_rows(state, annotator, logbook_judge, rule):
        human = row["human_verdict"] or "—"
        if row["annotator"]:
            confidence = f", confidence {row['confidence']}" if row["confidence"] else ""
            human += f" ({row['annotator']}{confidence})"
        origin = "" if row["origin"] == "logbook" else f" [{row['origin']}]"
        lines.append(f"  {row['key']}{origin}")
        lines.append(f"      agent {row['agent_verdict'] or '—'} · judge {row['judge_verdict'] or '—'} · human {human}")
        if row["rationale"]:
            lines.append(f"      {_one_line(row['rationale'])}")
        if row["tags"]:
            lines.append(f"      tags: {', '.join(row['tags'])}")
    notes = rule.shown(state, state.notes(annotator=annotator))
    if notes:
        lines.append("")
        lines.append(f"Notes ({len(notes)}):")
        for note in notes:
            tags = f" [{', '.join(note.payload.tags)}]" if note.payload.tags else ""
            text = _one_line(note.payload.text) if note.payload.text else ""
            lines.append(
                f"  {note.annotator} on {rule.text(describe_target(note.target, claims))}: {rule.text(text)}{tags}"
            )
    if loaded.issues:
        lines.append("")
        lines.append(f"{len(loaded.issues)} problems (listed on stderr)")
    return "\n".join(lines)


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
