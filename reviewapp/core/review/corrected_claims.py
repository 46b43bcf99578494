"""Claims as reviewers corrected them, in the shape the window shows (a reader Claim), and how they were changed."""

from __future__ import annotations

import dataclasses

from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.state import EffectiveClaim


def as_claim(effective: EffectiveClaim) -> Claim:
    """The reader's claim (with the corrected agent verdict), or a claim made from a reviewer's add/split/merge."""
    if effective.claim is not None:
        if effective.claim.verdict == effective.agent_verdict:
            return effective.claim
        return dataclasses.replace(effective.claim, verdict=effective.agent_verdict)
    return Claim(
        key=effective.key,
        n=effective.n,
        title=effective.title,
        page=effective.page,
        cells=list(effective.cells),
        verdict=effective.agent_verdict,
    )


def claim_mark(effective: EffectiveClaim | None) -> str:
    """A word for the claim list: how reviewers changed the claim ("" when they did not)."""
    if effective is None:
        return ""
    words = {"added": "added", "split": "split", "merged": "merged"}.get(effective.origin, "")
    if effective.agent_verdict_corrected:
        words = f"{words} · A corrected" if words else "A corrected"
    return words


def correction_lines(effective: EffectiveClaim | None) -> list[str]:
    """Sentences saying how reviewers changed the claim, for tool tips and the evidence header."""
    if effective is None:
        return []
    lines: list[str] = []
    source = effective.source
    if source is not None:
        what = {"added": "Added", "split": "Split from", "merged": "Merged from"}[effective.origin]
        if effective.origin == "added":
            lines.append(f"Added by {source.annotator}: {_rationale(source)}")
        else:
            lines.append(f"{what} {', '.join(effective.replaces)} by {source.annotator}: {_rationale(source)}")
    correction = effective.correction
    if correction is not None:
        read = effective.agent_verdict_read.value if effective.agent_verdict_read else "nothing"
        lines.append(
            f"Agent verdict corrected by {correction.annotator}: read as {read}, the agent said "
            f"{correction.payload.verdict.value} — {correction.payload.rationale}"
        )
    return lines


def _rationale(record: object) -> str:
    payload = getattr(record, "payload", None)
    return str(getattr(payload, "rationale", "") or "")
