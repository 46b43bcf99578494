"""Rubric scores and flags on a whole logbook, as annotation records, undoable like every other action.

A judge's current rubric score of a logbook is the head of their `rubric_score` chain (a new score supersedes
their previous one). A flag is a shared marker any judge can raise or clear: each raise or clear is a record of
its own, and the latest one (by time) decides whether the logbook is flagged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from reviewapp.core.queue.rubric import Rubric, RubricError
from reviewapp.core.review.commands import CommandKind, execute
from reviewapp.core.review.history import RecordDraft
from reviewapp.core.review.records import (
    CriterionScore,
    FlagPayload,
    FlagRecord,
    RubricScorePayload,
    RubricScoreRecord,
    Target,
)

if TYPE_CHECKING:
    from reviewapp.core.review.logbook_review import LogbookReview
    from reviewapp.core.review.state import AnnotationState

LOGBOOK = Target()


def rubric_scores(state: AnnotationState) -> dict[str, RubricScoreRecord]:
    """Every annotator's current rubric score of the logbook."""
    found: dict[str, RubricScoreRecord] = {}
    for record in state.live():
        if isinstance(record, RubricScoreRecord):
            found[record.annotator] = record  # live() is in replay order: the later one wins
    return found


def current_flag(state: AnnotationState) -> FlagRecord | None:
    """The latest live flag record by anyone; the logbook is flagged when it raises the flag."""
    flags = [r for r in state.live() if isinstance(r, FlagRecord)]
    return max(flags, key=lambda r: r.created_at) if flags else None


def score_payload(
    rubric: Rubric,
    values: Mapping[str, float],
    comments: Mapping[str, str] | None = None,
    comment: str | None = None,
    *,
    blind: bool = False,
) -> RubricScorePayload:
    """Check the values against the rubric and build the record's payload; raise RubricError."""
    comments = dict(comments or {})
    for name in (*values, *comments):
        rubric.criterion(name)
    criteria = []
    for criterion in rubric.criteria:
        if criterion.name not in values:
            continue
        value = rubric.check_value(float(values[criterion.name]), criterion.name)
        note = (comments.get(criterion.name) or "").strip() or None
        criteria.append(CriterionScore(name=criterion.name, value=value, weight=criterion.weight, comment=note))
    overall = rubric.overall(values)
    return RubricScorePayload(
        rubric=rubric.name,
        rubric_sha256=rubric.sha256,
        scale=rubric.scale,
        criteria=criteria,
        overall=overall,
        comment=(comment or "").strip() or None,
        blind=blind,
    )


def record_rubric_score(review: LogbookReview, payload: RubricScorePayload) -> RubricScoreRecord:
    """Append the reviewer's rubric score (superseding their previous one); undoable through review.history."""
    mine = rubric_scores(review.state).get(review.identity.name)
    label = "rubric score" if mine is None else "change of rubric score"
    draft = RecordDraft("rubric_score", LOGBOOK, payload)
    produced = execute(review, CommandKind.RUBRIC_SCORE, label, mine, draft).record
    if not isinstance(produced, RubricScoreRecord):
        raise RubricError("the rubric score was not recorded")
    return produced


def set_flag(review: LogbookReview, raised: bool, reason: str | None) -> FlagRecord:
    """Raise or clear the logbook's flag: a record of this reviewer's own, undoable (undo retracts it)."""
    payload = FlagPayload(raised=raised, reason=(reason or "").strip() or None)
    label = "flag" if raised else "clearing of the flag"
    kind = CommandKind.RAISE_FLAG if raised else CommandKind.CLEAR_FLAG
    produced = execute(review, kind, label, None, RecordDraft("flag", LOGBOOK, payload)).record
    if not isinstance(produced, FlagRecord):
        raise RubricError("the flag was not recorded")
    return produced
