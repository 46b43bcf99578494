"""Every disagreement between people across a queue: claims whose verdicts conflict, and logbooks whose judges'
normalized rubric scores spread further than a threshold. What `queue --disagreements` prints and the queue
window's Disagreements view lists.

In blind mode the people stay "reviewer 1", "reviewer 2"… (in the order they gave their verdicts) and the logbook
its pseudonym until the dispute is settled by an adjudicated verdict: the adjudicator judges the rationales and the
evidence, not who wrote them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from reviewapp.core.queue.adjudication import DEFAULT_MAX_SPREAD, ClaimDispute, claim_disputes
from reviewapp.core.queue.blind import blinder_for, pseudonym
from reviewapp.core.queue.decision import queue_ranking, review_state
from reviewapp.core.queue.queue_row import QueueRow

Status = Literal["open", "settled", "reopened"]


@dataclass(frozen=True)
class PersonView:
    name: str  # or "reviewer N" in blind mode
    verdict: str
    rationale: str
    confidence: int | None
    record_id: str


@dataclass
class QueueDispute:
    source: str  # the queue entry (its pseudonym in blind mode until settled)
    logbook_id: str
    kind: Literal["verdicts", "rubric"]
    claim_key: str = ""
    label: str = ""  # "claim 2", or "rubric score" for a spread
    title: str = ""
    people: list[PersonView] = field(default_factory=list)
    spread: float | None = None
    status: Status = "open"
    adjudicated: str | None = None  # the adjudicated verdict
    adjudicator: str | None = None
    adjudication_rationale: str | None = None
    row: int = 0  # index of the queue row
    evidence: list[str] = field(default_factory=list)  # the claim's page and cells, for the side-by-side view

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "kind": self.kind,
            "claim": self.claim_key,
            "label": self.label,
            "title": self.title,
            "people": [p.__dict__ for p in self.people],
            "spread": self.spread,
            "status": self.status,
            "adjudicated_verdict": self.adjudicated,
            "adjudicator": self.adjudicator,
            "adjudication_rationale": self.adjudication_rationale,
        }


def queue_disputes(
    rows: list[QueueRow], *, max_spread: float = DEFAULT_MAX_SPREAD, blind: bool = False, include_settled: bool = True
) -> list[QueueDispute]:
    found: list[QueueDispute] = []
    states = [review_state(row) for row in rows]
    for index, (row, state) in enumerate(zip(rows, states, strict=True)):
        if state is None or row.logbook is None:
            continue
        for dispute in claim_disputes(state, include_settled=include_settled):
            found.append(_claim_row(row, index, dispute, blind))
    result = queue_ranking(rows, states=states)
    ranking = result.ranking
    by_source = {row.entry.source: (i, row) for i, row in enumerate(rows)}
    for ranked in ranking.rows:
        if len(ranked.normalized) < 2 or ranked.spread <= max_spread:
            continue
        index, row = by_source[ranked.logbook]
        people = [
            PersonView(
                _name(judge, n, blind), f"{result.score_text(ranked.judges[judge])} ({value:+.2f})", "", None, ""
            )
            for n, (judge, value) in enumerate(ranked.normalized.items(), start=1)
        ]
        found.append(
            QueueDispute(
                _source(row, blind),
                row.logbook_id,
                "rubric",
                label="rubric score",
                title=row.title if not blind else "",
                people=people,
                spread=round(ranked.spread, 3),
                row=index,
            )
        )
    return found


def _claim_row(row: QueueRow, index: int, dispute: ClaimDispute, blind: bool) -> QueueDispute:
    hidden = blind and not dispute.settled
    # text that may name the team (the claim's title, what reviewers wrote) is scrubbed as the queue scrubs it
    shown = blinder_for(row.logbook_id, row.logbook).scrub if hidden else _as_is
    people = [
        PersonView(
            _name(v.annotator, n, hidden),
            v.payload.verdict.value,
            shown(v.payload.rationale),
            v.payload.confidence,
            v.id,
        )
        for n, v in enumerate(dispute.verdicts, start=1)
    ]
    status: Status = "settled" if dispute.settled else "reopened" if dispute.reopened else "open"
    adjudication = dispute.adjudication
    claim = next((c for c in row.logbook.claims if c.key == dispute.claim_key), None) if row.logbook else None
    evidence = [claim_evidence(claim.page, claim.cells)] if claim is not None else []
    return QueueDispute(
        source=_source(row, hidden),
        logbook_id=row.logbook_id,
        kind="verdicts",
        claim_key=dispute.claim_key,
        label=dispute.label,
        title=shown(dispute.title),
        people=people,
        status=status,
        adjudicated=adjudication.payload.verdict.value if adjudication else None,
        adjudicator=adjudication.annotator if adjudication else None,
        adjudication_rationale=adjudication.payload.rationale if adjudication else None,
        row=index,
        evidence=evidence,
    )


def claim_evidence(page: str, cells: Sequence[int]) -> str:
    """Where a claim's evidence is, its page named once: "results, cells 2, 3 and 5" (cell numbers from 1)."""
    numbers = [str(c + 1) for c in cells]
    if not numbers:
        return page
    listed = numbers[0] if len(numbers) == 1 else f"{', '.join(numbers[:-1])} and {numbers[-1]}"
    return f"{page}, {'cell' if len(numbers) == 1 else 'cells'} {listed}"


def _as_is(text: str) -> str:
    return text


def _name(name: str, number: int, hidden: bool) -> str:
    return f"reviewer {number}" if hidden else name


def _source(row: QueueRow, hidden: bool) -> str:
    return pseudonym(row.logbook_id) if hidden else row.entry.source
