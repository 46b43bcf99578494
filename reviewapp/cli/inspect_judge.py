"""`inspect SOURCE --verdicts FILE [--registry FILE]`: the Logbook Judge's verdicts beside each claim, one-off.

Nothing is stored: this reads the file, links the entry about the logbook and matches its claims, for a look
before `reviewapp verdicts import`. Without --verdicts, the logbook's stored import is shown when there is one
(like every command that shows Logbook Judge verdicts).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewapp.cli.common import CommandError
from reviewapp.core.logbook.model import Logbook

if TYPE_CHECKING:
    from reviewapp.core.logbook_judge.judged import JudgedLogbook
    from reviewapp.core.logbook_judge.matching import Candidate, ClaimMatch


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Logbook Judge (one-off, nothing is stored)")
    group.add_argument("--verdicts", metavar="FILE", type=Path, help="show the Logbook Judge's verdicts from FILE")
    group.add_argument("--registry", metavar="FILE", type=Path, help="with --verdicts: the claim registry")
    group.add_argument("--paper-index", metavar="FILE", type=Path, help="with --registry: the paper index")
    group.add_argument("--space", metavar="OWNER/NAME", help="with --verdicts: take this Space's entry")


def judge_summary(logbook: Logbook, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The top-level `logbook_judge` object and the judge_* fields per claim key."""
    from reviewapp.core.logbook_judge.entries import VerdictsFileError, read_verdicts
    from reviewapp.core.logbook_judge.import_paths import logbook_id_of
    from reviewapp.core.logbook_judge.judged import hub_owners, judge_logbook, opened_from_space
    from reviewapp.core.logbook_judge.linking import LinkError, SpaceHints, link_entry
    from reviewapp.core.logbook_judge.registry import read_paper_index, read_registry

    try:
        verdicts = read_verdicts(args.verdicts)
        index = read_paper_index(args.paper_index) if args.paper_index else None
        registry = read_registry(args.registry, index) if args.registry else None
        logbook_id = logbook_id_of(logbook)
        hints = SpaceHints.of(logbook, opened_from=opened_from_space(logbook_id), owners=hub_owners(logbook_id))
        link = link_entry(verdicts.entries, hints, forced=args.space)
    except (VerdictsFileError, LinkError) as exc:
        raise CommandError(f"error: {exc}") from exc
    top: dict[str, Any] = {
        "file": str(args.verdicts),
        "problems": [str(p) for p in verdicts.problems],
        "link": link.to_json(),
        "entry": None,
        "notes": [],
        "revision_warning": None,
        "unmatched_judge_claims": [],
        "unmatched_logbook_claims": [],
    }
    per_claim: dict[str, dict[str, Any]] = {}
    if link.entry is None:
        return top, per_claim
    entry = link.entry
    judged = judge_logbook(logbook, entry, registry.for_paper(entry.orid) if registry else None, link=link.to_json())
    missing = registry.missing_note(entry.orid) if registry is not None else None
    return _fill(top, judged, [missing] if missing else [])


def stored_summary(logbook: Logbook) -> tuple[dict[str, Any], dict[str, dict[str, Any]]] | None:
    """The same from the logbook's stored import (re-matches by hand applied); None when nothing was imported."""
    from reviewapp.core.logbook_judge.import_paths import import_path, logbook_id_of

    if not import_path(logbook_id_of(logbook)).exists():
        return None
    # The review modules (records, history) take a third of a second to import: only once there is an import
    from reviewapp.core.review.workspace import ReviewWorkspace

    workspace = ReviewWorkspace()
    logbook_id = workspace.open(logbook)
    problem = workspace.logbook_judge_problem(logbook_id)
    if problem:
        raise CommandError(f"error: {problem}")
    stored, judged = workspace.logbook_judge_import(logbook_id), workspace.logbook_judge(logbook_id)
    if stored is None or judged is None:
        return None
    top: dict[str, Any] = {
        "file": None,
        "stored": str(import_path(logbook_id_of(logbook))),
        "source_file": stored.source_file,
        "problems": list(stored.problems),
        "link": dict(stored.link),
        "entry": None,
        "notes": [],
        "revision_warning": None,
        "unmatched_judge_claims": [],
        "unmatched_logbook_claims": [],
    }
    return _fill(top, judged, [])


def _fill(
    top: dict[str, Any], judged: JudgedLogbook, notes: list[str]
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    entry = judged.entry
    per_claim: dict[str, dict[str, Any]] = {}
    top["entry"] = {
        k: getattr(entry, k)
        for k in ("key", "space_id", "orid", "paper_title", "sha", "judged_at", "model", "overall", "quality")
    }
    top["notes"] = [*judged.result.notes, *notes]
    top["revision_warning"] = judged.revision.warning
    result = judged.result
    for m in result.matches:
        if m.claim_key is None:
            top["unmatched_judge_claims"].append(
                {
                    "index": m.judge.index,
                    "text": m.judge.text,
                    "verdict": m.judge.verdict.value if m.judge.verdict else None,
                    "evidence": m.judge.evidence,
                    "why": m.why,
                    "candidates": [_candidate(c) for c in m.candidates[:2]],
                }
            )
            continue
        for key in m.claim_keys:
            if key in per_claim:
                continue  # merged: the first registry claim's verdict fills the J slot, as in the window
            per_claim[key] = {
                "judge_verdict": m.judge.verdict.value if m.judge.verdict else None,
                "judge_claim": {"index": m.judge.index, "text": m.judge.text},
                "judge_match": _match_fields(m, key, result.candidates_for(key)),
                "judge_evidence": m.judge.evidence,
            }
    top["unmatched_logbook_claims"] = [
        {"key": key, "candidates": [{"index": i, "score": s} for i, s in result.candidates_for(key, 2)]}
        for key in result.unmatched_claims
    ]
    return top, per_claim


def _candidate(c: Candidate) -> dict[str, Any]:
    return {"claim_key": c.claim_key, "score": c.score, "why": c.why}


def _match_fields(m: ClaimMatch, key: str, rivals: list[tuple[int, float]]) -> dict[str, Any]:
    """How registry claim m was matched to logbook claim `key`: its score, lead, the runner-up on each side."""
    runner_up = m.runner_up
    other_registry = next(((i, s) for i, s in rivals if i != m.judge.index), None)
    return {
        "confidence": m.confidence,
        "method": m.method,
        "why": m.why,
        "reason": _reason(m),
        "score": m.score,
        "margin": m.margin,
        "runner_up": _candidate(runner_up) if runner_up else None,
        "runner_up_registry_claim": {"index": other_registry[0], "score": other_registry[1]}
        if other_registry
        else None,
        "split_into": list(m.claim_keys) if m.also else None,
    }


EMPTY_CLAIM = {"judge_verdict": None, "judge_claim": None, "judge_match": None, "judge_evidence": None}


def render_text(top: dict[str, Any], per_claim: dict[str, dict[str, Any]]) -> list[str]:
    link = top["link"]
    lines = ["", "Logbook Judge:"]
    if top["entry"] is None:
        lines.append(f"  not linked ({link['strength']}): {link['method']}")
    else:
        entry = top["entry"]
        lines.append(f"  {entry['space_id']} (paper {entry['orid']}), {link['strength']} link: {link['method']}")
        if entry.get("quality") or entry.get("overall"):
            lines.append(f"  quality {entry.get('quality') or '—'}: {entry.get('overall') or ''}".rstrip())
    lines.extend(f"  note: {n}" for n in [*link["notes"], *top["notes"]])
    if top["revision_warning"]:
        lines.append(f"  warning: {top['revision_warning']}")
    for key, fields in per_claim.items():
        match = fields["judge_match"]
        lines.append(
            f"  {key}: {fields['judge_verdict'] or '?'} (registry claim {fields['judge_claim']['index']}, "
            f"{match['method']}, {match['confidence']:.2f})"
        )
    for claim in top["unmatched_judge_claims"]:
        lines.append(f"  unmatched registry claim {claim['index']}: {claim['verdict'] or '?'} — {claim['why']}")
        for candidate in claim.get("candidates", []):
            lines.append(f"      candidate {candidate['claim_key']}: {candidate['score']:.2f}")
    return lines


def _reason(m: ClaimMatch) -> str:
    """Why this pair was taken, in one phrase."""
    from reviewapp.core.logbook_judge.matching import TAKE_MARGIN, TAKE_SCORE

    if m.method == "by hand":
        return "re-matched by hand"
    if m.method == "by position":
        return "no claim text: same position, equal counts, numbered claims"
    lead = f"{m.margin:.2f}" if m.margin is not None else "?"
    return f"score {m.score:.2f} (needs {TAKE_SCORE}) and lead {lead} over the runner-up pairing (needs {TAKE_MARGIN})"
