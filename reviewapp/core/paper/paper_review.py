"""One person's actions on a paper's records: author responses and hand alignments, each undoable.

review = PaperReview.open("GW3umRqsZZ", identity, role="author")
review.respond("registry:3", "disagree", "The units differ: ms, not s.", [EvidenceLink(url="https://…")])
review.history.undo()
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewapp.core.paper.paper_store import PaperStore
from reviewapp.core.review.commands import CommandKind, execute
from reviewapp.core.review.history import History, RecordDraft
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.records import (
    AuthorResponsePayload,
    AuthorResponseRecord,
    ClaimAlignmentPayload,
    ClaimAlignmentRecord,
    EvidenceLink,
    RecordBase,
    RecordError,
    RetractionPayload,
    RetractionRecord,
    Target,
    make_record,
)
from reviewapp.core.review.replay import LoadResult
from reviewapp.core.review.signing import signed
from reviewapp.core.review.state import AnnotationState


class PaperCommandError(ValueError):
    """An action that cannot be done as asked; the message says why."""


class PaperReview:
    def __init__(self, orid: str, identity: Identity, role: str) -> None:
        self.orid = orid
        self.identity = identity
        self.role = role
        self.store = PaperStore(orid)
        self.state = AnnotationState()
        self.loaded = LoadResult()
        self.history = History(self)

    @classmethod
    def open(cls, orid: str, identity: Identity, role: str = "author") -> PaperReview:
        """`role` is written into hand alignments; responses are always written with role author."""
        review = cls(orid, identity, role)
        review.reload()
        return review

    def reload(self) -> LoadResult:
        self.loaded = self.store.load()
        state = AnnotationState()
        state.add_all(self.loaded.records)
        self.state = state
        return self.loaded

    def response(self, row: str) -> AuthorResponseRecord | None:
        """My current response to the finding on `row`."""
        mine = [
            r
            for r in self.state.live()
            if isinstance(r, AuthorResponseRecord) and r.target.claim == row and r.annotator == self.identity.name
        ]
        return mine[-1] if mine else None

    def respond(self, row: str, response: str, comment: str = "", evidence: Sequence[EvidenceLink] = ()) -> RecordBase:
        """Record (or change) my response to a finding; undoable."""
        try:
            payload = AuthorResponsePayload.model_validate(
                {"paper": self.orid, "response": response, "comment": comment, "evidence": list(evidence)}
            )
        except ValueError as exc:
            raise PaperCommandError(_message(exc)) from None
        current = self.response(row)
        label = f"response to claim {row.split(':')[-1]}"
        return self._run(
            label, current, RecordDraft("author_response", Target(claim=row), payload), CommandKind.AUTHOR_RESPONSE
        )

    def align(self, logbook_id: str, claim_key: str, row: str | None) -> RecordBase:
        """Say by hand which paper claim a logbook's claim is about (None: a row of its own); undoable."""
        current = next(
            (
                r
                for r in reversed(self.state.live())
                if isinstance(r, ClaimAlignmentRecord)
                and r.payload.logbook == logbook_id
                and r.target.claim == claim_key
                and r.annotator == self.identity.name
            ),
            None,
        )
        payload = ClaimAlignmentPayload(paper=self.orid, logbook=logbook_id, row=row)
        draft = RecordDraft("claim_alignment", Target(claim=claim_key), payload)
        return self._run("alignment of a claim", current, draft, CommandKind.ALIGN_CLAIM)

    # -- the Transitions protocol History drives --------------------------------------------------------------

    def transition(self, head: str | None, draft: RecordDraft | None) -> str | None:
        if draft is None:
            current = self.state.record(head) if head else None
            if current is None or isinstance(current, RetractionRecord):
                return head
            return self._append(RecordDraft("retraction", current.target, RetractionPayload()), head).id
        return self._append(draft, head).id

    def head_id(self, record_id: str) -> str | None:
        head = self.state.head(record_id)
        return head.id if head else None

    def chain_id(self, record_id: str) -> str | None:
        return self.state.chain_id(record_id)

    def _append(self, draft: RecordDraft, supersedes: str | None) -> RecordBase:
        try:
            record = make_record(
                draft.kind,
                annotator=self.identity.name,
                role="author" if draft.kind == "author_response" else self.role,  # an answer is always an author's
                target=draft.target,
                payload=draft.payload,
                supersedes=supersedes,
            )
        except RecordError as exc:
            raise PaperCommandError(str(exc)) from None
        record = signed(record)
        self.store.append(record, self.identity.slug)
        self.state.add(record, "")
        return record

    def _run(self, label: str, current: RecordBase | None, draft: RecordDraft, kind: CommandKind) -> RecordBase:
        produced = execute(self, kind, label, current, draft).record
        if produced is None:
            raise PaperCommandError(f"the {label} was not recorded")
        return produced


def _message(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if errors is None:
        return str(exc)
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in errors())
