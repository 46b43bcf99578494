"""Disagreements between people, and the adjudicated verdicts that settle them.

People disagree on a claim when their current verdicts fall in different classes: *supported* (verified, partial),
*refuted* (falsified) and *undetermined* (toy, inconclusive). Verified against partial is a difference of degree,
not a disagreement; verified against toy is one (one says the claim holds, the other that nothing at the paper's
scale showed it). On a whole logbook people disagree when the spread of the judges' normalized rubric scores is
above a threshold (the ranking's `spread`).

An adjudicated verdict is a record of an adjudicator's own (`adjudicated_verdict`), naming the verdict records it
settles; a new one by the same adjudicator supersedes the previous one, and undo and redo work as for any record.
A dispute is settled while the adjudicated verdict names every current verdict of it; a reviewer who changes their
verdict afterwards reopens it. The people's verdict on a claim is then: the adjudicated verdict when there is one,
else the verdict everyone gave (or the supported class's lower verdict, partial, when some said verified and some
partial), else none (disputed).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reviewapp.core.review.commands import CommandKind, execute
from reviewapp.core.review.history import RecordDraft
from reviewapp.core.review.logbook_review import AnnotationError
from reviewapp.core.review.records import AdjudicatedVerdictPayload, AdjudicatedVerdictRecord, VerdictRecord
from reviewapp.core.review.targets import claim_label, claim_target
from reviewapp.core.verdicts import VERDICT_CLASS, Verdict

if TYPE_CHECKING:
    from reviewapp.core.review.logbook_review import LogbookReview
    from reviewapp.core.review.state import AnnotationState, EffectiveClaim

ADJUDICATOR = "adjudicator"
DEFAULT_MAX_SPREAD = 1.5  # normalized rubric scores further apart than this (1.5 standard deviations) disagree

DISPUTED = "disputed"


@dataclass
class ClaimDispute:
    claim_key: str
    label: str  # "claim 3"
    title: str
    verdicts: list[VerdictRecord]  # every person's current verdict on the claim, in replay order
    adjudication: AdjudicatedVerdictRecord | None = None
    position: int = 0  # the claim's place in the list

    @property
    def classes(self) -> list[str]:
        return sorted({VERDICT_CLASS[v.payload.verdict] for v in self.verdicts if v.payload.verdict in VERDICT_CLASS})

    @property
    def settled(self) -> bool:
        if self.adjudication is None:
            return False
        settles = set(self.adjudication.payload.settles)
        return all(v.id in settles for v in self.verdicts)

    @property
    def reopened(self) -> bool:
        return self.adjudication is not None and not self.settled


def people_verdicts(state: AnnotationState, claim_key: str) -> list[VerdictRecord]:
    """Every reviewer's current verdict on the claim (an adjudicator's own plain verdicts count as a person's)."""
    return sorted(state.verdicts(claim_key).values(), key=lambda r: r.created_at)


def adjudications(state: AnnotationState) -> dict[str, AdjudicatedVerdictRecord]:
    """The latest live adjudicated verdict of each claim, by anyone."""
    found: dict[str, AdjudicatedVerdictRecord] = {}
    for record in state.live():  # replay order: a later one wins
        if isinstance(record, AdjudicatedVerdictRecord) and record.target.claim is not None:
            found[record.target.claim] = record
    return found


def claim_disputes(state: AnnotationState, *, include_settled: bool = True) -> list[ClaimDispute]:
    """Every claim whose people's verdicts fall in two or more classes, in claim order."""
    settled_by = adjudications(state)
    found = []
    for position, claim in enumerate(state.effective_claims()):
        verdicts = people_verdicts(state, claim.key)
        dispute = ClaimDispute(
            claim.key, claim_label(claim), claim.title, verdicts, settled_by.get(claim.key), position
        )
        if len(dispute.classes) >= 2 and (include_settled or not dispute.settled):
            found.append(dispute)
    return found


def people_verdict(state: AnnotationState, claim_key: str) -> tuple[Verdict | None, str]:
    """(verdict, how): how is "adjudicated", "agreed", "disputed" or "" (nobody gave one)."""
    verdicts = people_verdicts(state, claim_key)
    adjudication = adjudications(state).get(claim_key)
    dispute = ClaimDispute(claim_key, "", "", verdicts, adjudication)
    if adjudication is not None and (dispute.settled or len(dispute.classes) < 2):
        return adjudication.payload.verdict, "adjudicated"
    if not verdicts:
        return None, ""
    if len(dispute.classes) >= 2:
        return None, DISPUTED
    values = {v.payload.verdict for v in verdicts}
    if values == {Verdict.VERIFIED, Verdict.PARTIAL}:
        return Verdict.PARTIAL, "agreed"
    if len(values) == 1:
        return values.pop(), "agreed"
    return sorted(values)[0], "agreed"  # toy and inconclusive: the same class, named in a fixed order


@dataclass
class VerdictSummary:
    """The people's verdicts on a logbook's claims, counted; what a ranking shows beside the scores."""

    counts: Counter[str] = field(default_factory=Counter)  # verdict (or "disputed") -> claims
    adjudicated: int = 0
    headline: Verdict | None = None  # the people's verdict on the first claim
    headline_adjudicated: bool = False

    @property
    def headline_falsified_by_adjudication(self) -> bool:
        return self.headline_adjudicated and self.headline == Verdict.FALSIFIED

    def text(self) -> str:
        order = [*(v.value for v in VERDICT_CLASS), DISPUTED]
        text = ", ".join(f"{self.counts[name]} {name}" for name in order if self.counts.get(name)) or "no verdicts"
        return f"{text} ({self.adjudicated} adjudicated)" if self.adjudicated else text

    def to_dict(self) -> dict[str, int]:
        return dict(sorted(self.counts.items()))


def verdict_summary(state: AnnotationState) -> VerdictSummary:
    summary = VerdictSummary()
    for position, claim in enumerate(state.effective_claims()):
        verdict, how = people_verdict(state, claim.key)
        if how == DISPUTED:
            summary.counts[DISPUTED] += 1
        elif verdict is not None:
            summary.counts[verdict.value] += 1
        summary.adjudicated += how == "adjudicated"
        if position == 0:
            summary.headline, summary.headline_adjudicated = verdict, how == "adjudicated"
    return summary


def adjudicate(
    review: LogbookReview, claim_ref: str | int, verdict: Verdict | str, rationale: str, *, blind: bool = False
) -> AdjudicatedVerdictRecord:
    """Record the adjudicated verdict of a disputed claim, settling every current verdict of it; undoable through
    `review.history`. Raises AnnotationError (not an adjudicator, no dispute, bad verdict or rationale)."""
    if review.role != ADJUDICATOR:
        raise AnnotationError(f"only an adjudicator records an adjudicated verdict (you are {review.role})")
    claim = review.claim(claim_ref)
    dispute = _dispute_of(review.state, claim)
    if dispute is None:
        raise AnnotationError(f"people do not disagree on {claim_label(claim)}: there is nothing to adjudicate")
    try:
        value = Verdict(str(verdict).lower())
        payload = AdjudicatedVerdictPayload(
            verdict=value, rationale=rationale, settles=[v.id for v in dispute.verdicts], blind=blind
        )
    except ValueError as exc:
        raise AnnotationError(f"cannot adjudicate {claim_label(claim)}: {_first_error(exc)}") from None
    latest = adjudications(review.state).get(claim.key)
    mine = latest if latest is not None and latest.annotator == review.identity.name else None
    draft = RecordDraft("adjudicated_verdict", claim_target(claim), payload)
    label = f"adjudicated verdict on {claim_label(claim)}"
    produced = execute(review, CommandKind.ADJUDICATE_VERDICT, label, mine, draft).record
    if not isinstance(produced, AdjudicatedVerdictRecord):
        raise AnnotationError("the adjudicated verdict was not recorded")
    return produced


def _dispute_of(state: AnnotationState, claim: EffectiveClaim) -> ClaimDispute | None:
    return next((d for d in claim_disputes(state) if d.claim_key == claim.key), None)


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        first = errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
    return str(exc)
