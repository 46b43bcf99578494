"""`reviewapp inspect SOURCE [--json]`: what the reader found in a logbook."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from reviewapp.cli import inspect_judge
from reviewapp.cli.common import (
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
from reviewapp.core.logbook.model import Claim, Logbook, VerdictMention


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("inspect", help="summarize a logbook: pages, cells, claims, verdicts, problems")
    add_source_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    inspect_judge.add_options(parser)
    add_blind_option(parser)
    add_exit_codes(
        parser,
        exit_codes_epilog(ok="the folder is a logbook (problems with its pages are listed, with file and line)"),
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if (args.registry or args.space) and not args.verdicts:
        return fail(CommandError("error: --registry and --space go with --verdicts FILE"))
    try:
        logbook = load_or_exit(args.source)
        reviewer = blind_reviewer(args)
        judge = inspect_judge.judge_summary(logbook, args) if args.verdicts else inspect_judge.stored_summary(logbook)
    except CommandError as error:
        return fail(error)
    rule = blind_rule(logbook, reviewer) if reviewer is not None else None
    if args.json:
        result = summary(logbook)
        if judge is not None:
            top, per_claim = judge
            for claim in result["claims"]:
                claim.update(per_claim.get(claim["key"], inspect_judge.EMPTY_CLAIM))
            result["logbook_judge"] = top
        if rule is not None:  # blind: every text scrubbed of the participant's names, the folder not shown
            result = _scrubbed(result, rule.text) | {"root": rule.path(logbook.root)}
        print_json(result)
    else:
        text = render_text(logbook)
        text = text if judge is None else "\n".join([text, *inspect_judge.render_text(*judge)])
        print(rule.text(text) if rule is not None else text)
    return 0


def _scrubbed(value: Any, scrub: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [_scrubbed(item, scrub) for item in value]
    if isinstance(value, dict):
        return {key: _scrubbed(item, scrub) for key, item in value.items()}
    return value


def summary(logbook: Logbook) -> dict[str, Any]:
    return {
        "title": logbook.title,
        "paper_id": logbook.paper_id,
        "space_id": logbook.space_id,
        "tags": logbook.tags,
        "layout": logbook.layout,
        "root": str(logbook.root),
        "schema_version": logbook.schema_version,
        "pages": [
            {
                "slug": p.slug,
                "title": p.title,
                "cells": len(p.cell_types),
                "in_manifest": p.in_manifest,
                "status": p.status,
            }
            for p in logbook.pages
        ],
        "cells": logbook.cell_counts(),
        "claims": [
            {
                "key": c.key,
                "n": c.n,
                "number": c.number,
                "numbering": c.numbering,
                "aliases": list(c.aliases),
                "title": c.title,
                "page": c.page,
                "verdict": c.verdict.value,
                "verdict_raw": c.verdict_raw,
                "confidence": c.confidence,
                "verdict_text": c.verdict_mention.text if c.verdict_mention else None,
                "verdict_line": c.verdict_mention.line if c.verdict_mention else None,
                "contradicted_by": sorted(
                    {m.verdict.value for m in c.other_mentions if m.elsewhere and m.verdict != c.verdict}
                )
                if c.contradicted
                else [],
                "history": [{"verdict": m.verdict.value, "page": m.page, "line": m.line} for m in c.history],
                "unstated_reason": c.unstated_reason,
                # every candidate statement, chosen or not, with what the decision scored it and why
                "candidates": [_candidate(m, c) for m in (c.considered or c.candidates)],
            }
            for c in logbook.claims
        ],
        "traces": [{"id": t.id, "events": t.event_count, "available": t.available} for t in logbook.traces],
        "workspace_files": len(logbook.workspace_files),
        "problems": [{"file": p.file, "line": p.line, "message": p.message} for p in logbook.problems],
    }


_SHOWN_CANDIDATES = 5


def _candidate(mention: VerdictMention, claim: Claim) -> dict[str, object]:
    chosen = claim.verdict_mention
    return {
        "verdict": mention.verdict.value,
        "raw": mention.raw,
        "text": mention.text,
        "page": mention.page,
        "line": mention.line,
        "cell": mention.cell,
        "source": mention.source,
        "features": list(mention.features),
        "score": mention.score,
        "chosen": chosen is not None
        and (mention.page, mention.line, mention.raw, mention.source)
        == (chosen.page, chosen.line, chosen.raw, chosen.source),
        "undecided_candidate": mention in claim.candidates,
    }


def render_text(logbook: Logbook) -> str:
    lines = [logbook.title]
    facts = [
        f"paper {logbook.paper_id}" if logbook.paper_id else None,
        f"space {logbook.space_id}" if logbook.space_id else None,
        f"{logbook.layout} layout",
    ]
    lines.append("  " + " · ".join(f for f in facts if f))
    counts = ", ".join(f"{n} {kind}" for kind, n in sorted(logbook.cell_counts().items()))
    lines.append(f"  {len(logbook.pages)} pages, {counts or 'no cells'}")
    lines.append("")
    lines.append(f"Claims ({len(logbook.claims)}):")
    width = max((len(c.key) for c in logbook.claims), default=10)
    for claim in logbook.claims:
        flag = "  (logbook contradicts itself)" if claim.contradicted else ""
        raw = f"  [{claim.verdict_raw}]" if claim.verdict_raw else ""
        sure = f"  {claim.confidence:.0%} sure" if claim.verdict_mention is not None else ""
        lines.append(f"  {claim.key:<{width}}  {claim.verdict.value:<12}{raw}{sure}{flag}")
        why = f" ({claim.unstated_reason})" if claim.unstated_reason else ""
        if claim.candidates:  # weak or conflicting statements: the reviewer reads them instead of a guess
            shown = list(dict.fromkeys(f"{m.verdict.value} ({m.page} line {m.line})" for m in claim.candidates))
            found = ", ".join(shown[:_SHOWN_CANDIDATES]) + (
                f", … {len(shown) - _SHOWN_CANDIDATES} more" if len(shown) > _SHOWN_CANDIDATES else ""
            )
            lines.append(f"  {'':<{width}}  not decided{why}; candidates: {found}")
        elif claim.verdict_mention is None and why:
            lines.append(f"  {'':<{width}}  not decided{why}")
        if claim.history:
            earlier = ", ".join(dict.fromkeys(f"{m.verdict.value} ({m.page})" for m in claim.history))
            lines.append(f"  {'':<{width}}  earlier attempts said: {earlier}")
    unwritten = sorted({c.numbering for c in logbook.claims if c.numbering != "written"})
    if unwritten:
        lines.append(f"  (some claim numbers are not written in the logbook: numbered by {', '.join(unwritten)})")
    history_pages = [p.slug for p in logbook.pages if not p.is_current]
    if history_pages:
        lines.append(f"  Earlier attempts and orphan pages, read as history only: {', '.join(history_pages)}")
    if logbook.traces:
        lines.append("")
        lines.append("Traces:")
        for trace in logbook.traces:
            state = "available" if trace.available else "files missing"
            lines.append(f"  {trace.id}  {trace.event_count if trace.event_count is not None else '?'} events, {state}")
    if logbook.problems:
        lines.append("")
        lines.append(f"Problems ({len(logbook.problems)}):")
        lines.extend(f"  {problem}" for problem in logbook.problems)
    return "\n".join(lines)
