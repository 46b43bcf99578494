"""One reviewer annotating one logbook: the API the GUI and the headless commands use.

    review = LogbookReview.open(logbook, identity, role="judge")
    review.set_verdict(3, "partial", "Only the small model was run.", confidence=2, tags=["scale below paper"])
    review.add_note(review.cell_target(page_slug, 2), "padding counted", tags=["padding in evaluation"])
    review.history.undo_label      # "Undo note on cell 3 of claim 3"
    review.history.undo()
    review.state.verdict(claim_key, review.identity.name)

Every action is on disk (fsync) when the call returns, and undoable through `review.history`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.revision import LogbookRevision, logbook_revision
from reviewapp.core.review import targets as targets
from reviewapp.core.review.commands import CommandKind, execute
from reviewapp.core.review.history import History, RecordDraft
from reviewapp.core.review.identity import Identity, lookalike_of
from reviewapp.core.review.input_errors import plain_errors
from reviewapp.core.review.preferences import load_preferences, update_preferences
from reviewapp.core.review.records import (
    AgentVerdictPayload,
    ClaimAddPayload,
    ClaimMergePayload,
    ClaimPart,
    ClaimSplitPayload,
    NotePayload,
    RecordBase,
    RecordError,
    RetractionPayload,
    RetractionRecord,
    Revision,
    Target,
    VerdictPayload,
    make_record,
)
from reviewapp.core.review.replay import read_review, review_store
from reviewapp.core.review.signing import signed
from reviewapp.core.review.state import AnnotationState, EffectiveClaim
from reviewapp.core.review.store import AnnotationStore, LoadResult, TailRepair
from reviewapp.core.review.tags import tag_choices
from reviewapp.core.review.trust import Trust
from reviewapp.core.verdicts import HUMAN_VERDICTS, Verdict, parse_verdict

REVISION_TTL = 10.0  # seconds a looked-up git HEAD / Space sha is reused; a pull in a terminal shows up after that


class AnnotationError(ValueError):
    """An action that cannot be done as asked (unknown claim, someone else's note, invalid text)."""


class LogbookReview:
    def __init__(
        self,
        logbook: Logbook,
        identity: Identity,
        role: str = "judge",
        *,
        store: AnnotationStore | None = None,
        revision: Callable[[], LogbookRevision] | None = None,
    ) -> None:
        self.logbook = logbook
        self.identity = identity
        self.role = role
        self.store = store or AnnotationStore(logbook.root, logbook_id=logbook.logbook_id)
        self.state = AnnotationState(logbook.claims)
        self.loaded = LoadResult()
        self.repairs: list[TailRepair] = []  # torn lines set aside while appending, for the GUI to report
        self.history = History(self, logbook_id=str(logbook.logbook_id))
        self._revision_source = revision or (lambda: logbook_revision(logbook.root))
        self._revision: tuple[float, LogbookRevision] | None = None
        self.blind = False  # reviewing blind: verdicts given now say so (`blind` in their payload)

    @classmethod
    def open(
        cls,
        logbook: Logbook,
        identity: Identity,
        role: str = "judge",
        *,
        writable: bool | None = None,
        trust: Trust | None = None,
    ) -> LogbookReview:
        """Load every annotation of the logbook (setting aside torn last lines) and get ready to append. `trust`:
        which records count (a queue's roster); None: the reviewer's settings."""
        review = cls(logbook, identity, role, store=review_store(logbook, writable=writable, trust=trust))
        review.reload()
        return review

    def reload(self) -> LoadResult:
        """Re-read the files (another window or a script may have appended)."""
        replayed = read_review(self.logbook, store=self.store, repair=True)
        self.loaded, self.state = replayed.loaded, replayed.state
        return self.loaded

    # -- reading ----------------------------------------------------------------------------------------------

    def claims(self) -> list[EffectiveClaim]:
        return self.state.effective_claims()

    def claim(self, ref: str | int) -> EffectiveClaim:
        """A claim by number or key; raise AnnotationError listing what exists."""
        found = self.state.effective_claim(ref)
        if found is None:
            known = ", ".join(str(c.n) if c.n is not None else c.key for c in self.claims()) or "none"
            raise AnnotationError(f"no claim {ref!r} in this logbook (claims: {known})")
        return found

    def label(self, target: Target) -> str:
        return targets.describe_target(target, self.claims())

    def claim_target(self, claim_ref: str | int) -> Target:
        return targets.claim_target(self.claim(claim_ref))

    def page_target(self, slug: str) -> Target:
        return targets.page_target(self.logbook, slug, self.claims())

    def cell_target(self, slug: str, ordinal: int) -> Target:
        return targets.cell_target(self.logbook, slug, ordinal, self.claims())

    def lines_target(self, slug: str, ordinal: int, first: int, last: int) -> Target:
        return targets.lines_target(self.logbook, slug, ordinal, first, last, self.claims())

    def figure_target(self, slug: str, ordinal: int, index: int = 0) -> Target:
        return targets.figure_target(self.logbook, slug, ordinal, index, self.claims())

    def trace_target(self, session_id: str, sequence: int, claim_ref: str | int | None = None) -> Target:
        claim = self.claim(claim_ref) if claim_ref is not None else None
        return targets.trace_target(self.logbook, session_id, sequence, claim)

    def tag_choices(self) -> list[str]:
        return tag_choices(load_preferences().extra_tags)

    # -- actions (each one undoable) --------------------------------------------------------------------------

    def set_verdict(
        self,
        claim_ref: str | int,
        verdict: Verdict | str,
        rationale: str,
        confidence: int | None = None,
        tags: Iterable[str] = (),
    ) -> RecordBase:
        """Record (or replace) this reviewer's verdict on a claim."""
        claim = self.claim(claim_ref)
        value = _human_verdict(verdict)
        payload = self._payload(
            VerdictPayload,
            verdict=value,
            rationale=rationale,
            confidence=confidence,
            tags=list(tags),
            blind=self.blind or None,
        )
        current = self.state.verdict(claim.key, self.identity.name)
        draft = RecordDraft("verdict", targets.claim_target(claim), payload)
        return self._run(f"verdict on {targets.claim_label(claim)}", current, draft, kind=CommandKind.SET_VERDICT)

    def clear_verdict(self, claim_ref: str | int) -> None:
        claim = self.claim(claim_ref)
        current = self.state.verdict(claim.key, self.identity.name)
        if current is None:
            raise AnnotationError(f"you have no verdict on {targets.claim_label(claim)}")
        self._run(
            f"removal of the verdict on {targets.claim_label(claim)}", current, None, kind=CommandKind.CLEAR_VERDICT
        )

    def add_note(self, target: Target, text: str, tags: Iterable[str] = ()) -> RecordBase:
        payload = self._payload(NotePayload, text=text, tags=list(tags))
        return self._run(
            f"note on {self.label(target)}", None, RecordDraft("note", target, payload), kind=CommandKind.ADD_NOTE
        )

    def edit_note(self, record_id: str, text: str | None = None, tags: Iterable[str] | None = None) -> RecordBase:
        current = self._own(record_id, "note")
        old = current.payload
        assert isinstance(old, NotePayload)
        payload = self._payload(
            NotePayload, text=old.text if text is None else text, tags=old.tags if tags is None else list(tags)
        )
        draft = RecordDraft("note", current.target, payload)
        return self._run(f"edit of note on {self.label(current.target)}", current, draft, kind=CommandKind.EDIT_NOTE)

    def delete(self, record_id: str) -> None:
        """Delete one of this reviewer's annotations (a note, a verdict, a claim correction)."""
        current = self._own(record_id, None)
        self._run(
            _deletion_label(current, self.label(current.target)), current, None, kind=CommandKind.deleting(current.kind)
        )

    def correct_agent_verdict(self, claim_ref: str | int, verdict: Verdict | str, rationale: str) -> RecordBase:
        """The reader mis-read the agent's verdict for this claim; record what the agent actually said."""
        claim = self.claim(claim_ref)
        try:
            value = parse_verdict(verdict) if isinstance(verdict, str) else verdict
        except ValueError as exc:
            raise AnnotationError(str(exc)) from None
        payload = self._payload(AgentVerdictPayload, verdict=value, rationale=rationale)
        current = claim.correction if claim.correction and claim.correction.annotator == self.identity.name else None
        draft = RecordDraft("agent_verdict", targets.claim_target(claim), payload)
        return self._run(
            f"correction of agent verdict of {targets.claim_label(claim)}",
            current,
            draft,
            kind=CommandKind.CORRECT_AGENT_VERDICT,
        )

    def add_claim(
        self,
        page: str,
        title: str,
        rationale: str,
        *,
        cells: Sequence[int] = (),
        n: int | None = None,
        agent_verdict: Verdict = Verdict.UNSTATED,
        key: str | None = None,
    ) -> RecordBase:
        """A claim the reader missed, on `page`."""
        target = targets.page_target(self.logbook, page)
        key = key or self._free_key(page, n)
        payload = self._payload(
            ClaimAddPayload,
            key=key,
            title=title,
            n=n,
            cells=list(cells),
            agent_verdict=agent_verdict,
            rationale=rationale,
        )
        draft = RecordDraft("claim_add", target.model_copy(update={"claim": None}), payload)
        return self._run(f"addition of claim “{title}”", None, draft, kind=CommandKind.ADD_CLAIM)

    def split_claim(
        self, claim_ref: str | int, parts: Sequence[ClaimPart | dict[str, Any]], rationale: str
    ) -> RecordBase:
        """Replace a claim by several; parts without a key get `<key>.1`, `<key>.2`, ... and the agent's verdict."""
        claim = self.claim(claim_ref)
        made: list[ClaimPart] = []
        for number, part in enumerate(parts, start=1):
            data = part.model_dump() if isinstance(part, BaseModel) else dict(part)
            data.setdefault("key", f"{claim.key}.{number}")
            data.setdefault("agent_verdict", claim.agent_verdict)
            made.append(self._payload(ClaimPart, **data))
        payload = self._payload(ClaimSplitPayload, parts=made, rationale=rationale)
        draft = RecordDraft("claim_split", targets.claim_target(claim), payload)
        return self._run(f"split of {targets.claim_label(claim)}", None, draft, kind=CommandKind.SPLIT_CLAIM)

    def merge_claims(
        self,
        claim_refs: Sequence[str | int],
        title: str,
        rationale: str,
        *,
        key: str | None = None,
        n: int | None = None,
        agent_verdict: Verdict | None = None,
    ) -> RecordBase:
        """Replace several claims by one, at the place of the first."""
        claims = [self.claim(ref) for ref in claim_refs]
        if len({c.key for c in claims}) < 2:
            raise AnnotationError("merging needs at least two different claims")
        keys = [c.key for c in claims]
        payload = self._payload(
            ClaimMergePayload,
            claims=keys,
            key=key or "+".join(keys),
            title=title,
            n=n,
            cells=sorted({cell for c in claims if c.page == claims[0].page for cell in c.cells}),
            agent_verdict=agent_verdict if agent_verdict is not None else _common_verdict(claims),
            rationale=rationale,
        )
        draft = RecordDraft("claim_merge", targets.claim_target(claims[0]), payload)
        return self._run(f"merge of {_claims_label(claims)}", None, draft, kind=CommandKind.MERGE_CLAIMS)

    # -- appending (the Transitions protocol History drives) --------------------------------------------------

    def transition(self, head: str | None, draft: RecordDraft | None) -> str | None:
        if draft is None:
            current = self.state.record(head) if head else None
            if current is None or isinstance(current, RetractionRecord):
                return head
            return self.append(RecordDraft("retraction", current.target, RetractionPayload()), supersedes=head).id
        return self.append(draft, supersedes=head).id

    def head_id(self, record_id: str) -> str | None:
        head = self.state.head(record_id)
        return head.id if head else None

    def chain_id(self, record_id: str) -> str | None:
        return self.state.chain_id(record_id)

    def append(self, draft: RecordDraft, supersedes: str | None = None) -> RecordBase:
        """Write one record now (not undoable by itself: actions go through `history`). Raises SecretInRecord,
        StoreError or AnnotationError."""
        try:
            record = make_record(
                draft.kind,
                annotator=self.identity.name,
                role=self.role,
                target=draft.target,
                payload=draft.payload,
                revision=self.revision(draft.target),
                supersedes=supersedes,
            )
        except RecordError as exc:
            raise AnnotationError(str(exc)) from None
        self._check_not_a_lookalike()
        record = signed(record)  # with the reviewer's key, when she has one
        repair = self.store.append(record, self.identity.slug)
        if repair is not None:
            self.repairs.append(repair)
        self.state.add(record, "")
        self._remember_tags(getattr(record.payload, "tags", ()))
        return record

    def _check_not_a_lookalike(self) -> None:
        """Refuse a name that reads as, or shares a review file with, someone who already reviewed this logbook."""
        others = {record.annotator for record, _ in self.loaded.records}
        clash = lookalike_of(self.identity.name, others)
        if clash is not None:
            raise AnnotationError(
                f"the name {self.identity.name!r} looks like {clash!r}, who already reviewed this logbook, or would "
                f"share their review file ({self.identity.slug}.jsonl); nothing saved. If you are {clash}, use "
                "exactly that name; otherwise pick a name others can tell apart"
            )

    def refresh_revision(self) -> None:
        """Look the git HEAD / Space sha up again on the next append (after a commit, a pull, a download)."""
        self._revision = None

    def revision(self, target: Target) -> Revision:
        now = time.monotonic()
        if self._revision is None or now - self._revision[0] > REVISION_TTL:
            self._revision = (now, self._revision_source())
        found = self._revision[1]
        slug = target.page
        if slug is None and target.claim is not None:
            claim = self.state.effective_claim(target.claim)
            slug = claim.page if claim else None
        page = self.logbook.page(slug) if slug else None
        return Revision(git_head=found.git_head, space_sha=found.space_sha, page_sha256=page.sha256 if page else None)

    # -- helpers ----------------------------------------------------------------------------------------------

    def _run(
        self, label: str, current: RecordBase | None, draft: RecordDraft | None, *, kind: CommandKind
    ) -> RecordBase:
        done = execute(self, kind, label, current, draft)
        assert done.record is not None
        return done.record

    def _own(self, record_id: str, kind: str | None) -> RecordBase:
        current = self.state.current(record_id)
        if current is None:
            raise AnnotationError(f"no annotation {record_id} (it may have been deleted)")
        if kind is not None and current.kind != kind:
            raise AnnotationError(f"{record_id} is a {current.kind}, not a {kind}")
        if current.annotator != self.identity.name:
            raise AnnotationError(f"{record_id} is {current.annotator}'s; only they can change it")
        return current

    @staticmethod
    def _payload(model: type[Any], **values: Any) -> Any:
        try:
            return model.model_validate(values)
        except ValueError as exc:  # pydantic's ValidationError is a ValueError
            errors = getattr(exc, "errors", None)
            raise AnnotationError(plain_errors(errors()) if errors else str(exc)) from None

    def _free_key(self, page: str, n: int | None) -> str:
        taken = {c.key for c in self.claims()}
        if n is not None and f"{page}#{n}" not in taken:
            return f"{page}#{n}"
        number = 1
        while f"{page}#added-{number}" in taken:
            number += 1
        return f"{page}#added-{number}"

    def _remember_tags(self, tags: Iterable[str]) -> None:
        """Tags beyond the defaults join the user's own list, so the picker offers them next time."""
        new = [t for t in tags if t.casefold() not in {c.casefold() for c in self.tag_choices()}]
        if new:
            update_preferences(lambda p: p.model_copy(update={"extra_tags": [*p.extra_tags, *new]}))


def _human_verdict(verdict: Verdict | str) -> Verdict:
    try:
        value = parse_verdict(verdict) if isinstance(verdict, str) else verdict
    except ValueError as exc:
        raise AnnotationError(str(exc)) from None
    if value not in HUMAN_VERDICTS:
        raise AnnotationError(f"a reviewer's verdict is one of: {', '.join(HUMAN_VERDICTS)}")
    return value


def _common_verdict(claims: Sequence[EffectiveClaim]) -> Verdict:
    verdicts = {c.agent_verdict for c in claims}
    return verdicts.pop() if len(verdicts) == 1 else Verdict.UNSTATED


def _claims_label(claims: Sequence[EffectiveClaim]) -> str:
    """ "claims 3 and 4", "claims 3, 4 and 5"; titles where claims have no number."""
    if all(c.n is not None and not c.replaces for c in claims):
        names = [str(c.n) for c in claims]
        return "claims " + ", ".join(names[:-1]) + " and " + names[-1]
    names = [targets.claim_label(c) for c in claims]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _deletion_label(record: RecordBase, where: str) -> str:
    if record.kind == "verdict":
        return f"removal of the verdict on {where}"
    if record.kind == "note":
        return f"deletion of note on {where}"
    if record.kind == "claim_add":
        return f"removal of added claim “{getattr(record.payload, 'title', '')}”"
    nouns = {"agent_verdict": "agent verdict correction", "claim_split": "split", "claim_merge": "merge"}
    return f"removal of {nouns.get(record.kind, record.kind)} of {where}"
