"""Every kind of command, in one enumeration, and the one function that executes a command.

A listener decides from a change's kind what it has to do again: a verdict save changes one row and nothing else,
a re-match by hand changes the Logbook Judge slot, a split changes the list of claims. Kinds used to be free
strings spelled in six modules, so nothing could ask that of them; here each kind says whether it can be undone,
whether it restructures claims and whether it can change the Logbook Judge slot.

    done = execute(review, CommandKind.SET_VERDICT, "verdict on claim 3", current, draft)
    done.record   # what was appended
    done.change   # the ChangeRecord every listener heard
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.history import Change, Command, History, RecordDraft

if TYPE_CHECKING:
    from reviewapp.core.review.records import RecordBase
    from reviewapp.core.review.state import AnnotationState


class CommandKind(StrEnum):
    SET_VERDICT = "set_verdict"
    CLEAR_VERDICT = "clear_verdict"
    ADD_NOTE = "add_note"
    EDIT_NOTE = "edit_note"
    CORRECT_AGENT_VERDICT = "correct_agent_verdict"
    ADD_CLAIM = "add_claim"
    SPLIT_CLAIM = "split_claim"
    MERGE_CLAIMS = "merge_claims"
    REMATCH_LOGBOOK_JUDGE_CLAIM = "rematch_logbook_judge_claim"
    DELETE_VERDICT = "delete_verdict"
    DELETE_NOTE = "delete_note"
    DELETE_AGENT_VERDICT = "delete_agent_verdict"
    DELETE_CLAIM_ADD = "delete_claim_add"
    DELETE_CLAIM_SPLIT = "delete_claim_split"
    DELETE_CLAIM_MERGE = "delete_claim_merge"
    DELETE_LOGBOOK_JUDGE_MATCH = "delete_logbook_judge_match"
    DELETE_TRACE_EXCERPT = "delete_trace_excerpt"
    DELETE_TRANSCRIPT_LINK = "delete_transcript_link"
    DELETE_RECORD = "delete_record"  # a record of a kind without a deletion of its own
    RUBRIC_SCORE = "rubric_score"
    RAISE_FLAG = "raise_flag"
    CLEAR_FLAG = "clear_flag"
    LINK_TRANSCRIPT = "link_transcript"
    PIN_EXCERPT = "pin_excerpt"
    START_PAIR_PROTOCOL = "start_pair_protocol"
    RATE_PAIR = "rate_pair"
    RETRACT_PAIR_RATING = "retract_pair_rating"
    AUTHOR_RESPONSE = "author_response"
    ALIGN_CLAIM = "align_claim"
    ADJUDICATE_VERDICT = "adjudicate_verdict"  # an adjudicated verdict settling people's conflicting verdicts
    IMPORT_LOGBOOK_JUDGE_VERDICTS = "import_logbook_judge_verdicts"  # a stored import replaced (data folder)
    CHANGE = "change"  # a command built by hand (tests, scripts) that names no kind
    RELOAD = "reload"  # the files were read again: anything may have changed

    @property
    def undoable(self) -> bool:
        """Offered by Undo. Pair ratings are undone by the rating window's own key; an import replaces a file in
        the data folder, not a record; a reload is not a command anyone made."""
        return self not in _NOT_UNDOABLE

    @property
    def restructures(self) -> bool:
        """Claims come or go (undoing one of these restructures too)."""
        return self in _RESTRUCTURING

    @property
    def changes_logbook_judge(self) -> bool:
        """The Logbook Judge slot may change: which claim a Logbook Judge claim is about, the import itself, or
        the claims it is matched against."""
        return self in _LOGBOOK_JUDGE or self.restructures

    @classmethod
    def of(cls, kind: str) -> CommandKind:
        """The kind named by `kind`; an unknown name is a command made by hand (its records say what it did)."""
        try:
            return cls(kind)
        except ValueError:
            return cls.CHANGE

    @classmethod
    def deleting(cls, record_kind: str) -> CommandKind:
        """The kind of deleting one record of `record_kind`."""
        try:
            return cls(f"delete_{record_kind}")
        except ValueError:
            return cls.DELETE_RECORD


_NOT_UNDOABLE = frozenset(
    {
        CommandKind.START_PAIR_PROTOCOL,
        CommandKind.RATE_PAIR,
        CommandKind.RETRACT_PAIR_RATING,
        CommandKind.IMPORT_LOGBOOK_JUDGE_VERDICTS,
        CommandKind.RELOAD,
    }
)
_RESTRUCTURING = frozenset(
    {
        CommandKind.ADD_CLAIM,
        CommandKind.SPLIT_CLAIM,
        CommandKind.MERGE_CLAIMS,
        CommandKind.DELETE_CLAIM_ADD,
        CommandKind.DELETE_CLAIM_SPLIT,
        CommandKind.DELETE_CLAIM_MERGE,
        CommandKind.DELETE_RECORD,
        CommandKind.RELOAD,
    }
)
_LOGBOOK_JUDGE = frozenset(
    {
        CommandKind.REMATCH_LOGBOOK_JUDGE_CLAIM,
        CommandKind.DELETE_LOGBOOK_JUDGE_MATCH,
        CommandKind.IMPORT_LOGBOOK_JUDGE_VERDICTS,
    }
)


def changes_logbook_judge(change: ChangeRecord) -> bool:
    """Whether `change` can change the Logbook Judge slot of its logbook (and so needs a new match): by its kind,
    or by the records it wrote (a command made by hand names no kind)."""
    if change.everything or change.restructures or CommandKind.of(change.kind).changes_logbook_judge:
        return True
    return LOGBOOK_JUDGE_MATCH_KIND in change.record_kinds


LOGBOOK_JUDGE_MATCH_KIND = "logbook_judge_match"  # the record kind of a re-match by hand


class _Reviewed(Protocol):
    """A review commands run on: a logbook's (LogbookReview) or a paper's (PaperReview)."""

    @property
    def history(self) -> History: ...

    @property
    def state(self) -> AnnotationState: ...


@dataclass(frozen=True)
class Done:
    record: RecordBase | None  # the record the command appended (None: a retraction's target was already gone)
    change: ChangeRecord


class CommandFailed(ValueError):
    """The command ran but left no record (nothing to say it happened)."""


def execute(
    review: _Reviewed,
    kind: CommandKind,
    label: str,
    current: RecordBase | None,
    draft: RecordDraft | None,
) -> Done:
    """Replace `current` (None: start a chain) by `draft` (None: retract it), as one command in the history; the
    change record is what every listener heard. Raises what appending raises (StoreError, SecretInRecord, ...)."""
    before = RecordDraft.of(current) if current is not None else None
    change = Change(before, draft, current.id if current is not None else None)
    command = review.history.execute(Command(label, [change], kind=kind, undoable=kind.undoable))
    produced = review.state.record(command.head) if command.head else None
    heard = review.history.last_change
    assert heard is not None  # execute always tells what it did
    return Done(produced, heard)


def produced_record(done: Done, label: str) -> RecordBase:
    """The record a command appended; CommandFailed naming the command when there is none."""
    if done.record is None:
        raise CommandFailed(f"the {label} was not recorded")
    return done.record
