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


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Logbook Judge (one-off, nothing is stored)")
    group.add_argument("--verdicts", metavar="FILE", type=Path, help="show the Logbook Judge's verdicts from FILE")
    group.add_argument("--registry", metavar="FILE", type=Path, help="with --verdicts: the claim registry")
    group.add_argument("--paper-index", metavar="FILE", type=Path, help="with --registry: the paper index")
    group.add_argument("--space", metavar="OWNER/NAME", help="with --verdicts: take this Space's entry")


def judge_summary(logbook: Logbook, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The top-level `logbook_judge` object and the judge_* fields per claim key."""
    from reviewapp.core.logbook_judge.entries import VerdictsFileError, read_verdicts
    from reviewapp.core.logbook_judge.judged import hub_owners, judge_logbook, logbook_id_of, opened_from_space
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
    from reviewapp.core.logbook_judge.judged import logbook_id_of
    from reviewapp.core.logbook_judge.stored import StoredImportError, import_path, load_import

    try:
        stored = load_import(logbook_id_of(logbook))
        if stored is None:
            return None
        # The review modules (records, history) take a third of a second to import: only once there is an import
        from reviewapp.core.review.logbook_judge_matches import judged_logbook
        from reviewapp.core.review.state import AnnotationState
        from reviewapp.core.review.store import AnnotationStore

        state = AnnotationState(logbook.claims)
        store = AnnotationStore(logbook.root, writable=False, logbook_id=logbook.logbook_id)
        state.add_all(store.load(repair=False).records)
        judged = judged_logbook(logbook, state)
    except StoredImportError as exc:
        raise CommandError(f"error: {exc}") from exc
    if judged is None:
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
    for m in judged.result.matches:
        if m.claim_key is None:
            top["unmatched_judge_claims"].append(
                {
                    "index": m.judge.index,
                    "text": m.judge.text,
                    "verdict": m.judge.verdict.value if m.judge.verdict else None,
                    "evidence": m.judge.evidence,
                    "why": m.why,
                }
            )
            continue
        per_claim[m.claim_key] = {
            "judge_verdict": m.judge.verdict.value if m.judge.verdict else None,
            "judge_claim": {"index": m.judge.index, "text": m.judge.text},
            "judge_match": {"confidence": m.confidence, "method": m.method, "why": m.why},
            "judge_evidence": m.judge.evidence,
        }
    return top, per_claim


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
    return lines
