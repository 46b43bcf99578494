"""Current state of a logbook's annotations, derived by replaying records in order.

Records form chains: a record that `supersedes` another replaces it (an edit, an undo, a restore), and a
retraction at the head of a chain deletes what the chain holds. Only a chain's head counts; everything else
is history. If two records supersede the same one (two windows of the same reviewer), the later one is the
head. A record may only supersede a record by the same annotator and of the same kind (or a retraction).

Per claim and annotator the current human verdict is the latest live verdict chain for that claim. Claim
corrections (add, split, merge, agent-verdict corrections) are applied to the reader's claims in replay order
to give the effective claims.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reviewapp.core.logbook.model import Claim, claim_number_text
from reviewapp.core.review.records import (
    AgentVerdictRecord,
    ClaimAddRecord,
    ClaimMergeRecord,
    ClaimPart,
    ClaimSplitRecord,
    NoteRecord,
    RecordBase,
    RetractionRecord,
    UnknownRecord,
    VerdictRecord,
)
from reviewapp.core.review.tags import unique_tags
from reviewapp.core.verdicts import Verdict

Origin = Literal["logbook", "added", "split", "merged"]


@dataclass(frozen=True)
class StateProblem:
    """A record that is valid on its own but cannot apply (supersedes a missing record, splits a missing claim)."""

    record_id: str
    message: str
    where: str = ""  # "reviews/alice.jsonl:12" when known

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


@dataclass
class EffectiveClaim:
    """A claim as reviewers corrected it; for untouched claims, the reader's claim."""

    key: str
    n: int | None
    title: str
    page: str
    cells: list[int]
    agent_verdict: Verdict  # after any correction
    agent_verdict_read: Verdict | None  # what the reader found; None for claims reviewers made
    origin: Origin = "logbook"
    source: RecordBase | None = None  # the add/split/merge record it comes from
    correction: AgentVerdictRecord | None = None
    replaces: tuple[str, ...] = ()  # keys of the claims it stands in for (split, merge)
    claim: Claim | None = None  # the reader's claim, for claims from the logbook

    @property
    def label(self) -> str:
        return f"Claim {self.n}" if self.n is not None else self.title

    @property
    def agent_verdict_corrected(self) -> bool:
        return self.correction is not None

    @property
    def stands_for(self) -> tuple[str, ...]:
        """Its key and the keys of the claims it replaces: a split or merged claim inherits what was tied to
        those (trace excerpts, pair sets, search hits)."""
        return (self.key, *self.replaces)


@dataclass
class _Chain:
    root: str
    kind: str
    annotator: str
    leaves: list[str] = field(default_factory=list)  # records nothing supersedes; the latest is the head


class AnnotationState:
    """Replay of records added in order (file order per annotator, merged across files by time)."""

    def __init__(self, claims: Sequence[Claim] = ()) -> None:
        self.claims = list(claims)
        # Earlier keys the reader kept for a claim whose key changed: records written under them still attach.
        current = {c.key for c in self.claims}
        self._aliases = {a: c.key for c in self.claims for a in c.aliases if a not in current}
        self.records: list[RecordBase] = []
        self.problems: list[StateProblem] = []
        self.unknown: list[UnknownRecord] = []
        self._by_id: dict[str, RecordBase] = {}
        self._order: dict[str, int] = {}
        self._where: dict[str, str] = {}
        self._chain_of: dict[str, _Chain] = {}
        self._chains: dict[str, _Chain] = {}
        self._cache: dict[str, object] = {}

    # -- building ---------------------------------------------------------------------------------------------

    def add_all(self, records: Iterable[tuple[RecordBase, str]]) -> None:
        for record, where in records:
            self.add(record, where)

    def add(self, record: RecordBase, where: str = "") -> bool:
        """Apply one record; returns False when it is a duplicate or cannot apply (a problem is recorded)."""
        record = self._under_current_key(record)
        known = self._by_id.get(record.id)
        if known is not None:
            if known != record:
                self._problem(record, f"id {record.id} is used by two different records; the first one counts", where)
            return False  # the same line twice (a union merge can duplicate lines) is harmless
        if isinstance(record, UnknownRecord):
            self.unknown.append(record)
            self._remember(record, where)
            return True
        chain = self._link(record, where)
        if chain is None:
            return False
        self._remember(record, where)
        self._chain_of[record.id] = chain
        self._cache.clear()
        return True

    def _under_current_key(self, record: RecordBase) -> RecordBase:
        target = getattr(record, "target", None)
        key = getattr(target, "claim", None)
        if target is None or key is None or key not in self._aliases:
            return record
        return record.model_copy(update={"target": target.model_copy(update={"claim": self._aliases[key]})})

    def _remember(self, record: RecordBase, where: str) -> None:
        self._by_id[record.id] = record
        self._order[record.id] = len(self.records)
        self._where[record.id] = where
        self.records.append(record)

    def _link(self, record: RecordBase, where: str) -> _Chain | None:
        if record.supersedes is None:
            if isinstance(record, RetractionRecord):
                self._problem(record, "a retraction must supersede a record", where)
                return None
            started = _Chain(record.id, record.kind, record.annotator, [record.id])
            self._chains[record.id] = started
            return started
        previous = self._by_id.get(record.supersedes)
        chain = self._chain_of.get(record.supersedes)
        if previous is None or chain is None:
            self._problem(record, f"supersedes {record.supersedes}, which is not in any annotation file", where)
            return None
        if previous.annotator != record.annotator:
            self._problem(record, f"supersedes a record by {previous.annotator!r}; only its author can", where)
            return None
        if record.kind not in (chain.kind, "retraction"):
            self._problem(record, f"a {record.kind} record cannot replace a {chain.kind} record", where)
            return None
        if record.supersedes in chain.leaves:
            chain.leaves.remove(record.supersedes)
        chain.leaves.append(record.id)
        return chain

    def _problem(self, record: RecordBase, message: str, where: str) -> None:
        self.problems.append(StateProblem(record.id, message, where))

    # -- chains -----------------------------------------------------------------------------------------------

    def record(self, record_id: str) -> RecordBase | None:
        return self._by_id.get(record_id)

    def where(self, record_id: str) -> str:
        """File and line the record was read from ("" for records appended since the review was read)."""
        return self._where.get(record_id, "")

    def head(self, record_id: str) -> RecordBase | None:
        """The current record of the chain `record_id` belongs to (a retraction when it was deleted)."""
        chain = self._chain_of.get(record_id)
        if chain is None:
            return None
        return self._by_id[max(chain.leaves, key=self._order.__getitem__)]

    def chain_id(self, record_id: str) -> str | None:
        """The id of the first record of the chain `record_id` belongs to: what identifies one annotation."""
        chain = self._chain_of.get(record_id)
        return chain.root if chain else None

    def current(self, record_id: str) -> RecordBase | None:
        """The live version of the annotation `record_id` belongs to, or None when deleted or unknown."""
        head = self.head(record_id)
        return None if head is None or isinstance(head, RetractionRecord) else head

    def history(self, record_id: str) -> list[RecordBase]:
        """Every record of the chain, oldest first: what an annotation was and how it changed."""
        chain = self._chain_of.get(record_id)
        if chain is None:
            return []
        return [r for r in self.records if self._chain_of.get(r.id) is chain]

    def live(self) -> list[RecordBase]:
        """The head of every chain that was not deleted, in replay order."""
        cached = self._cache.get("live")
        if cached is None:
            heads = [self.head(root) for root in self._chains]
            cached = sorted(
                (h for h in heads if h is not None and not isinstance(h, RetractionRecord)),
                key=lambda r: self._order[r.id],
            )
            self._cache["live"] = cached
        return cached  # type: ignore[return-value]

    # -- verdicts, notes, tags --------------------------------------------------------------------------------

    def _verdicts(self) -> dict[str, dict[str, VerdictRecord]]:
        cached = self._cache.get("verdicts")
        if cached is None:
            table: dict[str, dict[str, VerdictRecord]] = {}
            for record in self.live():  # replay order: a later verdict for the same claim wins
                if isinstance(record, VerdictRecord) and record.target.claim is not None:
                    table.setdefault(record.target.claim, {})[record.annotator] = record
            self._cache["verdicts"] = cached = table
        return cached  # type: ignore[return-value]

    def verdicts(self, claim_key: str) -> dict[str, VerdictRecord]:
        """Every annotator's current verdict on the claim."""
        return dict(self._verdicts().get(claim_key, {}))

    def verdict(self, claim_key: str, annotator: str | None = None) -> VerdictRecord | None:
        """The annotator's current verdict, or (annotator None) the latest by anyone."""
        by_annotator = self._verdicts().get(claim_key, {})
        if annotator is not None:
            return by_annotator.get(annotator)
        if not by_annotator:
            return None
        return max(by_annotator.values(), key=lambda r: self._order[r.id])

    def verdict_claims(self) -> list[str]:
        """Keys of claims anyone gave a verdict on."""
        return list(self._verdicts())

    def notes(
        self, *, claim: str | None = None, page: str | None = None, annotator: str | None = None
    ) -> list[NoteRecord]:
        return [
            r
            for r in self.live()
            if isinstance(r, NoteRecord)
            and (claim is None or r.target.claim == claim)
            and (page is None or r.target.page == page)
            and (annotator is None or r.annotator == annotator)
        ]

    def tags(self, claim_key: str, annotator: str | None = None) -> list[str]:
        """Tags on the claim's verdicts and on notes anchored to it (or to anything inside it)."""
        found: list[str] = []
        for record in self.verdicts(claim_key).values():
            if annotator is None or record.annotator == annotator:
                found.extend(record.payload.tags)
        for note in self.notes(claim=claim_key, annotator=annotator):
            found.extend(note.payload.tags)
        return unique_tags(found)

    def annotators(self) -> list[str]:
        return list(dict.fromkeys(r.annotator for r in self.records))

    # -- effective claims -------------------------------------------------------------------------------------

    def effective_claims(self) -> list[EffectiveClaim]:
        cached = self._cache.get("claims")
        if cached is None:
            cached, problems = self._derive_claims()
            self._cache["claims"] = cached
            self._cache["claim_problems"] = problems
        return cached  # type: ignore[return-value]

    def claim_problems(self) -> list[StateProblem]:
        """Corrections that could not apply (a split of a claim that is not there any more, a key used twice),
        and reviewers' verdicts and notes on claims this logbook no longer lists."""
        self.effective_claims()
        return [*self._cache["claim_problems"], *self._orphaned()]  # type: ignore[misc]

    def _orphaned(self) -> list[StateProblem]:
        """A rewritten logbook can turn a claim page into an earlier attempt: what reviewers said about that claim
        is kept (and exported) but no claim shows it, so it is reported instead of silently hidden."""
        if not self.claims:
            return []  # a paper's records name rows, not claims
        known = {c.key for c in self.claims} | set(self._aliases)
        for claim in self.effective_claims():
            known.add(claim.key)
            known.update(claim.replaces)
        found = []
        for record in self.live():
            key = record.target.claim if record.kind in ("verdict", "note", "agent_verdict") else None
            if key is not None and key not in known:
                found.append(
                    StateProblem(
                        record.id,
                        f"{record.annotator}'s {record.kind.replace('_', ' ')} is about claim {key}, which this "
                        "logbook no longer lists as a claim (its page may now be an earlier attempt); it is kept "
                        "in the review files and in exports",
                        self._where.get(record.id, ""),
                    )
                )
        return found

    def effective_claim(self, ref: str | int) -> EffectiveClaim | None:
        """By key (or an earlier key of it), or by number ("3", "3a") when exactly one claim has it."""
        text = str(ref).strip()
        text = self._aliases.get(text, text)
        claims = self.effective_claims()
        for claim in claims:
            if claim.key == text:
                return claim
        label = claim_number_text(text)
        labelled = [c for c in claims if c.claim is not None and (c.claim.number or "").lower() == label]
        if len(labelled) == 1:
            return labelled[0]
        text = label
        if text.isdigit():
            matches = [c for c in claims if c.n == int(text)]
            if len(matches) == 1:
                return matches[0]
        return None

    def _derive_claims(self) -> tuple[list[EffectiveClaim], list[StateProblem]]:
        claims = [
            EffectiveClaim(c.key, c.n, c.title, c.page, list(c.cells), c.verdict, c.verdict, claim=c)
            for c in self.claims
        ]
        problems: list[StateProblem] = []

        def fail(record: RecordBase, message: str) -> None:
            problems.append(StateProblem(record.id, message, self.where(record.id)))

        corrections: dict[str, AgentVerdictRecord] = {}
        for record in self.live():
            keys = {c.key: i for i, c in enumerate(claims)}
            if isinstance(record, ClaimAddRecord):
                part = record.payload
                if part.key in keys:
                    fail(record, f"added claim key {part.key!r} is already taken")
                    continue
                assert record.target.page is not None
                made = _from_part(part, record.target.page, "added", record, ())
                on_page = [i for i, c in enumerate(claims) if c.page == made.page]
                claims.insert(on_page[-1] + 1 if on_page else len(claims), made)
            elif isinstance(record, ClaimSplitRecord):
                split_key = record.target.claim
                if split_key not in keys:
                    fail(record, f"split of claim {split_key!r}, which is not there (any more)")
                    continue
                taken = [p.key for p in record.payload.parts if p.key in keys and p.key != split_key]
                if taken or len({p.key for p in record.payload.parts}) < len(record.payload.parts):
                    fail(record, f"split parts reuse claim keys: {', '.join(taken) or 'duplicates'}")
                    continue
                original = claims[keys[split_key]]
                parts = [_from_part(p, original.page, "split", record, (split_key,)) for p in record.payload.parts]
                claims[keys[split_key] : keys[split_key] + 1] = parts
            elif isinstance(record, ClaimMergeRecord):
                merged = record.payload.claims
                missing = [k for k in merged if k not in keys]
                if missing:
                    fail(record, f"merge of claims that are not there (any more): {', '.join(missing)}")
                    continue
                if record.payload.key in keys and record.payload.key not in merged:
                    fail(record, f"merged claim key {record.payload.key!r} is already taken")
                    continue
                first = claims[keys[merged[0]]]
                made = _from_part(record.payload, first.page, "merged", record, tuple(merged))
                claims[keys[merged[0]]] = made
                claims = [c for c in claims if c is made or c.key not in merged]
            elif isinstance(record, AgentVerdictRecord) and record.target.claim is not None:
                corrections[record.target.claim] = record  # replay order: the latest correction wins
        present = {c.key for c in claims}
        for key, correction in corrections.items():
            if key not in present:
                fail(correction, f"agent verdict correction for claim {key!r}, which is not there (any more)")
        for claim in claims:
            latest = corrections.get(claim.key)
            if latest is not None:
                claim.correction = latest
                claim.agent_verdict = latest.payload.verdict
        return claims, problems


def _from_part(
    part: ClaimPart, page: str, origin: Origin, record: RecordBase, replaces: tuple[str, ...]
) -> EffectiveClaim:
    return EffectiveClaim(
        key=part.key,
        n=part.n,
        title=part.title,
        page=page,
        cells=list(part.cells),
        agent_verdict=part.agent_verdict,
        agent_verdict_read=None,
        origin=origin,
        source=record,
        replaces=replaces,
    )
