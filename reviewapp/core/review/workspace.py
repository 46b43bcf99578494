"""ReviewWorkspace: every open logbook and its review state, in one place, without Qt.

A judge's queue, an author's paper view and the review window all show rows of the same thing: a claim as
reviewers left it, with its three verdict slots (agent A, Logbook Judge J, this reviewer H), how reviewers
changed it and whether the slots disagree. The workspace derives those rows once, keyed by (logbook id, claim
key), and re-derives only the rows a change names:

    workspace = ReviewWorkspace()
    logbook_id = workspace.add(logbook, review)           # review: None until the reviewer has given a name
    workspace.rows(logbook_id)                            # ReviewedClaim rows, in claim-list order
    workspace.listeners.append(lambda update: ...)        # RowUpdate after every action, undo, redo, reload
    workspace.review(logbook_id).set_verdict(3, "toy", "a 10% proxy only")

Logbooks are told apart by their logbook id (where they were opened from); opening the same source twice gives
the same id and the same review state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from reviewapp.core.logbook.model import Claim, Logbook
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.corrected_claims import as_claim, claim_mark, correction_lines
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.review.state import EffectiveClaim
from reviewapp.core.verdicts import Verdict


class WorkspaceError(KeyError):
    """A logbook id that is not open in the workspace."""


@dataclass(frozen=True, slots=True)
class ReviewedClaim:
    """One claim of one open logbook as reviewers left it, with its three verdict slots."""

    logbook_id: str
    claim: Claim  # the reader's claim with reviewers' corrections applied (or a claim reviewers made)
    slots: VerdictSlots
    mark: str = ""  # how reviewers changed the claim ("split", "A corrected"), "" when they did not
    corrections: tuple[str, ...] = ()  # sentences saying how, for tool tips and the claim header
    stands_for: tuple[str, ...] = ()  # the claim itself and the claims it replaces (split, merge)

    @property
    def key(self) -> str:
        return self.claim.key

    @property
    def disagreement(self) -> bool:
        return self.slots.disagreement


@dataclass(frozen=True)
class RowUpdate:
    """What a change did to the rows of one logbook: which rows to redraw, or that rows came and went."""

    logbook_id: str
    keys: tuple[str, ...] = ()  # rows whose content changed (same claims, same order)
    restructured: bool = False  # claims were added, split, merged or re-read: list them again
    change: ChangeRecord | None = None


@dataclass
class _Open:
    logbook: Logbook
    review: LogbookReview | None
    logbook_judge: dict[str, Verdict] = field(default_factory=dict)
    rows: list[ReviewedClaim] = field(default_factory=list)
    position: dict[str, int] = field(default_factory=dict)


class ReviewWorkspace:
    def __init__(self) -> None:
        self._open: dict[str, _Open] = {}
        self.listeners: list[Callable[[RowUpdate], None]] = []

    # -- opening and closing ----------------------------------------------------------------------------------

    def add(self, logbook: Logbook, review: LogbookReview | None = None) -> str:
        """Open `logbook` (replacing what was open under the same id); returns its logbook id."""
        logbook_id = str(logbook.logbook_id)
        previous = self._open.get(logbook_id)
        if previous is not None:
            self.close(logbook_id)
        self._open[logbook_id] = _Open(logbook, None, dict(previous.logbook_judge) if previous else {})
        self.set_review(logbook_id, review)
        return logbook_id

    def set_review(self, logbook_id: str, review: LogbookReview | None) -> None:
        """The reviewer's review of an open logbook (after they gave their name, or changed it)."""
        opened = self._get(logbook_id)
        if opened.review is not None and self._heard in opened.review.history.listeners:
            opened.review.history.listeners.remove(self._heard)
        opened.review = review
        if review is not None:  # first: rows are current before anything else hears of the change
            review.history.listeners.insert(0, self._heard)
        self._derive(opened)

    def close(self, logbook_id: str) -> None:
        opened = self._open.pop(logbook_id, None)
        if opened is not None and opened.review is not None and self._heard in opened.review.history.listeners:
            opened.review.history.listeners.remove(self._heard)

    @property
    def logbook_ids(self) -> list[str]:
        return list(self._open)

    def logbook(self, logbook_id: str) -> Logbook:
        return self._get(logbook_id).logbook

    def review(self, logbook_id: str) -> LogbookReview | None:
        return self._get(logbook_id).review

    # -- the Logbook Judge's slot -------------------------------------------------------------------------------

    def set_logbook_judge(self, logbook_id: str, verdicts: Mapping[str, Verdict]) -> RowUpdate:
        """The Logbook Judge's verdict per claim key (from a stored import); rows whose J slot changed update."""
        opened = self._get(logbook_id)
        opened.logbook_judge = dict(verdicts)
        return self._update(opened, logbook_id, [row.key for row in opened.rows], None)

    # -- rows -------------------------------------------------------------------------------------------------

    def rows(self, logbook_id: str) -> list[ReviewedClaim]:
        return list(self._get(logbook_id).rows)

    def row(self, logbook_id: str, key: str) -> ReviewedClaim | None:
        opened = self._get(logbook_id)
        position = opened.position.get(key)
        return opened.rows[position] if position is not None else None

    def find(self, logbook_id: str, ref: str | int) -> ReviewedClaim | None:
        """A claim by key, an earlier key of it, or its number ("3", "3a") when exactly one claim has it: the
        review's rule when reviewers may have changed the claims, the reader's otherwise."""
        opened = self._get(logbook_id)
        if opened.review is not None:
            found: Claim | EffectiveClaim | None = opened.review.state.effective_claim(ref)
        else:
            found = opened.logbook.claim(ref)
        return self.row(logbook_id, found.key) if found is not None else None

    def stands_for(self, logbook_id: str, key: str) -> tuple[str, ...]:
        """The claim's key and the keys of the claims it replaces: a split or merged claim inherits what was
        tied to those (trace excerpts, pair sets, search hits)."""
        row = self.row(logbook_id, key)
        return row.stands_for if row is not None else (key,)

    def my_progress(self, logbook_id: str) -> tuple[int, int]:
        """(claims this reviewer has a verdict on, claims)."""
        rows = self._get(logbook_id).rows
        return sum(1 for r in rows if r.slots.human is not None), len(rows)

    # -- changes ----------------------------------------------------------------------------------------------

    def apply(self, change: ChangeRecord) -> RowUpdate:
        """Bring the rows up to date with `change` (the history tells the workspace itself; this is for a change
        made while the workspace was not listening, and for tests)."""
        opened = self._open.get(change.logbook_id)
        if opened is None:
            return RowUpdate(change.logbook_id, change=change)
        if change.everything or change.restructures:
            self._derive(opened)
            return RowUpdate(change.logbook_id, restructured=True, change=change)
        return self._update(opened, change.logbook_id, change.claim_keys, change)

    def refresh(self, logbook_id: str) -> RowUpdate:
        """Derive every row again (after the review files were read again)."""
        opened = self._get(logbook_id)
        self._derive(opened)
        update = RowUpdate(logbook_id, restructured=True)
        self._notify(update)
        return update

    def _heard(self, change: ChangeRecord) -> None:
        self._notify(self.apply(change))

    def _notify(self, update: RowUpdate) -> None:
        for listener in list(self.listeners):
            listener(update)

    # -- deriving ---------------------------------------------------------------------------------------------

    def _get(self, logbook_id: str) -> _Open:
        try:
            return self._open[logbook_id]
        except KeyError:
            raise WorkspaceError(f"no logbook {logbook_id!r} is open") from None

    def _derive(self, opened: _Open) -> None:
        logbook_id = str(opened.logbook.logbook_id)
        if opened.review is None:
            opened.rows = [self._row(logbook_id, opened, claim, None) for claim in opened.logbook.claims]
        else:
            opened.rows = [self._row(logbook_id, opened, as_claim(e), e) for e in opened.review.claims()]
        opened.position = {row.key: i for i, row in enumerate(opened.rows)}

    def _update(
        self, opened: _Open, logbook_id: str, keys: tuple[str, ...] | list[str], change: ChangeRecord | None
    ) -> RowUpdate:
        changed: list[str] = []
        for key in dict.fromkeys(keys):
            position = opened.position.get(key)
            if position is None:
                continue  # a claim this change names but the list does not show (one a split replaced)
            effective = opened.review.state.effective_claim(key) if opened.review is not None else None
            old = opened.rows[position]
            claim = as_claim(effective) if effective is not None else old.claim
            new = self._row(logbook_id, opened, claim, effective)
            if new != old:
                opened.rows[position] = new
                changed.append(key)
        return RowUpdate(logbook_id, tuple(changed), change=change)

    def _row(self, logbook_id: str, opened: _Open, claim: Claim, effective: EffectiveClaim | None) -> ReviewedClaim:
        human = None
        review = opened.review
        if review is not None:
            record = review.state.verdict(claim.key, review.identity.name)
            human = record.payload.verdict if record is not None else None
        slots = VerdictSlots(claim.verdict, opened.logbook_judge.get(claim.key), human, claim.contradicted)
        return ReviewedClaim(
            logbook_id,
            claim,
            slots,
            claim_mark(effective),
            tuple(correction_lines(effective)),
            effective.stands_for if effective is not None else (claim.key,),
        )
