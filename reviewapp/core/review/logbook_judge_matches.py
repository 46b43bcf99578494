"""Re-matching a Logbook Judge claim to a logbook claim by hand: an annotation record, undoable like any other.

Each Logbook Judge claim (by registry position, for one judged Space) has at most one live re-match per reviewer;
a new one supersedes it, undo restores the earlier one or retracts it. Across reviewers the latest live re-match of a
claim wins, since the Logbook Judge has one verdict per claim.
"""

from __future__ import annotations

from reviewapp.core.review.commands import LOGBOOK_JUDGE_MATCH_KIND, CommandKind
from reviewapp.core.review.history import RecordDraft
from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
from reviewapp.core.review.records import LogbookJudgeMatchPayload, LogbookJudgeMatchRecord, RecordBase, Target
from reviewapp.core.review.state import AnnotationState

KIND = LOGBOOK_JUDGE_MATCH_KIND


def manual_matches(state: AnnotationState, space_id: str) -> dict[int, str | None]:
    """Registry index -> logbook claim key (None: about no claim here), from the live re-match records."""
    wanted = space_id.lower()
    latest: dict[int, LogbookJudgeMatchRecord] = {}
    for record in state.live():
        if not isinstance(record, LogbookJudgeMatchRecord) or record.payload.space_id.lower() != wanted:
            continue
        index = record.payload.registry_index
        if index not in latest or record.created_at >= latest[index].created_at:
            latest[index] = record
    return {index: record.payload.claim for index, record in latest.items()}


def own_rematch(state: AnnotationState, annotator: str, space_id: str, index: int) -> LogbookJudgeMatchRecord | None:
    wanted = space_id.lower()
    for record in state.live():
        if (
            isinstance(record, LogbookJudgeMatchRecord)
            and record.annotator == annotator
            and record.payload.space_id.lower() == wanted
            and record.payload.registry_index == index
        ):
            return record
    return None


def rematch(review: LogbookReview, space_id: str, registry_index: int, claim_ref: str | int | None) -> RecordBase:
    """Say by hand which logbook claim the Logbook Judge's claim `registry_index` is about (None: none of them)."""
    if registry_index < 1:
        raise AnnotationError("a Logbook Judge claim is numbered from 1 (its registry position)")
    claim = review.claim(claim_ref) if claim_ref is not None else None
    payload = review._payload(
        LogbookJudgeMatchPayload, space_id=space_id, registry_index=registry_index, claim=claim.key if claim else None
    )
    target = Target.model_validate({"claim": claim.key, "page": claim.page} if claim else {})
    current = own_rematch(review.state, review.identity.name, space_id, registry_index)
    where = f"to {claim.label}" if claim else "to no claim"
    return review._run(
        f"re-match of Logbook Judge claim {registry_index} {where}",
        current,
        RecordDraft(KIND, target, payload),
        kind=CommandKind.REMATCH_LOGBOOK_JUDGE_CLAIM,
    )
