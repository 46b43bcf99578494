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

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.logbook.model import Claim, Logbook
from reviewapp.core.logbook.search import query_terms
from reviewapp.core.logbook_judge.judged import JudgedLogbook
from reviewapp.core.logbook_judge.stored import StoredImport
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.commands import CommandKind, changes_logbook_judge
from reviewapp.core.review.corrected_claims import as_claim, claim_mark, correction_lines
from reviewapp.core.review.disagreements import Disagreement, disagreements
from reviewapp.core.review.logbook_judge_slot import LogbookJudgeSlot
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import VerdictRecord
from reviewapp.core.review.replay import ReplayedReview, read_review
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.review.state import AnnotationState, EffectiveClaim
from reviewapp.core.review.store import LoadResult
from reviewapp.core.review.trust import Trust
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
    origin: str = "logbook"  # "logbook", or how reviewers made it: "added", "split", "merged"

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
    review: LogbookReview | None  # the reviewer's own, writable review (the window)
    logbook_judge: LogbookJudgeSlot
    replayed: ReplayedReview | None = None  # read-only review state (the queue, the paper view, the CLI)
    reviewer: str | None = None  # whose verdicts fill H when the review is read-only
    rule: BlindRule | None = None  # blind review (read-only): others' verdicts only where the reviewer gave theirs
    rows: list[ReviewedClaim] = field(default_factory=list)
    position: dict[str, int] = field(default_factory=dict)
    # the last row listed under each key, gone ones too: where a claim went is known however often the rows were
    # derived since it was shown
    before: dict[str, ReviewedClaim] = field(default_factory=dict)

    @property
    def state(self) -> AnnotationState | None:
        if self.review is not None:
            return self.review.state
        return self.replayed.state if self.replayed is not None else None

    @property
    def me(self) -> str | None:
        return self.review.identity.name if self.review is not None else self.reviewer


class ReviewWorkspace:
    def __init__(self, *, data_dir: Path | None = None, trust: Trust | None = None) -> None:
        self._open: dict[str, _Open] = {}
        self.listeners: list[Callable[[RowUpdate], None]] = []
        self.data_dir = data_dir  # where stored Logbook Judge imports are (None: the user data folder)
        self.trust = trust  # which records count when replaying (a queue's roster); None: the settings'

    # -- opening and closing ----------------------------------------------------------------------------------

    def add(self, logbook: Logbook, review: LogbookReview | None = None) -> str:
        """Open `logbook` with the reviewer's own review (replacing what was open under the same id); returns its
        logbook id."""
        logbook_id = str(logbook.logbook_id)
        if logbook_id in self._open:
            self.close(logbook_id)
        self._open[logbook_id] = _Open(logbook, None, LogbookJudgeSlot(logbook, self.data_dir))
        self.set_review(logbook_id, review)
        return logbook_id

    def open(
        self,
        logbook: Logbook,
        reviewer: str | None = None,
        *,
        replayed: ReplayedReview | None = None,
        logbook_judge: bool = True,
        rule: BlindRule | None = None,
    ) -> str:
        """Open `logbook` read-only: every reviewer's records replayed, `reviewer`'s verdicts in the H slot (None:
        nobody's). Nothing is written, repaired or created. `logbook_judge=False` leaves the J slot empty (no
        import read). `rule`: the blind rule of `reviewer` in blind review, which `people` applies, as the window
        does. Returns its logbook id."""
        logbook_id = str(logbook.logbook_id)
        if logbook_id in self._open:
            self.close(logbook_id)
        opened = _Open(
            logbook,
            None,
            LogbookJudgeSlot(logbook, self.data_dir, enabled=logbook_judge),
            replayed or read_review(logbook, trust=self.trust),
            reviewer,
            dataclasses.replace(rule, me=reviewer or "") if rule is not None else None,
        )
        self._open[logbook_id] = opened
        opened.logbook_judge.update(opened.state)
        self._derive(opened)
        return logbook_id

    def set_review(self, logbook_id: str, review: LogbookReview | None) -> None:
        """The reviewer's review of an open logbook (after they gave their name, or changed it)."""
        opened = self._get(logbook_id)
        if opened.review is not None and self._heard in opened.review.history.listeners:
            opened.review.history.listeners.remove(self._heard)
        opened.review = review
        if review is not None:  # first: rows are current before anything else hears of the change
            review.history.listeners.insert(0, self._heard)
        opened.logbook_judge.update(opened.state)
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

    def state(self, logbook_id: str) -> AnnotationState | None:
        """The replayed review of an open logbook (None: opened without one, before the reviewer was named)."""
        return self._get(logbook_id).state

    def loaded(self, logbook_id: str) -> LoadResult | None:
        """What reading the review files found (files, invalid lines, torn tails)."""
        opened = self._get(logbook_id)
        if opened.review is not None:
            return opened.review.loaded
        return opened.replayed.loaded if opened.replayed is not None else None

    def reviewer(self, logbook_id: str) -> str | None:
        return self._get(logbook_id).me

    # -- the Logbook Judge's slot -------------------------------------------------------------------------------

    def logbook_judge(self, logbook_id: str) -> JudgedLogbook | None:
        """The stored import matched to the claims as reviewers left them, re-matches by hand applied."""
        return self._get(logbook_id).logbook_judge.judged

    def logbook_judge_import(self, logbook_id: str) -> StoredImport | None:
        return self._get(logbook_id).logbook_judge.stored

    def logbook_judge_problem(self, logbook_id: str) -> str | None:
        """Why the stored import could not be read (None: it could, or there is none)."""
        return self._get(logbook_id).logbook_judge.problem

    def logbook_judge_matches_made(self, logbook_id: str) -> int:
        """How often the Logbook Judge's claims were matched for this logbook since it was opened."""
        return self._get(logbook_id).logbook_judge.matches_made

    def reload_logbook_judge(self, logbook_id: str) -> RowUpdate:
        """Read the stored import again (after `verdicts import`) and update the rows whose J slot changed."""
        opened = self._get(logbook_id)
        opened.logbook_judge.reread()
        change = ChangeRecord(CommandKind.IMPORT_LOGBOOK_JUDGE_VERDICTS, "import of Logbook Judge verdicts", logbook_id)
        update = self._update(opened, logbook_id, self._logbook_judge_keys(opened), change)
        self._notify(update)
        return update

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
        state = opened.state
        if state is not None:
            found: Claim | EffectiveClaim | None = state.effective_claim(ref)
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

    progress = my_progress

    def disagreements(self, logbook_id: str) -> list[Disagreement]:
        """Every claim whose stated verdicts clash, one row per clashing pair, in claim-list order."""
        opened = self._get(logbook_id)
        claims = [(r.key, r.claim.label, r.claim.title) for r in opened.rows]
        slots = {r.key: r.slots for r in opened.rows}
        return disagreements(claims, slots, opened.logbook_judge.match_confidence())

    def people(self, logbook_id: str, key: str) -> dict[str, VerdictRecord]:
        """Every reviewer's current verdict record on the claim, by annotator, in replay order; opened blind, only
        those the reviewer may see (others' once theirs is in, by the blind rule)."""
        opened = self._get(logbook_id)
        state = opened.state
        if state is None:
            return {}
        return dict(opened.rule.verdicts(state, key) if opened.rule is not None else state.verdicts(key))

    def blind_rule(self, logbook_id: str) -> BlindRule:
        """The rule the logbook was opened with (everything shown when it was not opened blind)."""
        return self._get(logbook_id).rule or BlindRule(me=self._get(logbook_id).me or "")

    def visible_verdicts(self, logbook_id: str, key: str, rule: BlindRule | None = None) -> list[VerdictRecord]:
        """Other reviewers' verdicts on the claim as this reviewer may see them, by the blind rule (no anchoring:
        while blind they are seen only once this reviewer has said what they think). `rule`: the view's (its
        reviewer is this workspace's); None: not blind."""
        opened = self._get(logbook_id)
        state, me = opened.state, opened.me or ""
        if state is None:
            return []
        rule = dataclasses.replace(rule, me=me) if rule is not None else BlindRule(me=me)
        return [record for name, record in sorted(rule.verdicts(state, key).items()) if name != me]

    def search(self, logbook_id: str, matching: set[str] | None, query: str) -> set[str] | None:
        """`matching` (claim keys the search index found, None for an empty query) with the claims reviewers
        made: found through the claims they replace, or by their own title."""
        if matching is None:
            return None
        found = set(matching)
        terms = query_terms(query)
        for row in self._get(logbook_id).rows:
            if row.origin == "logbook":
                continue
            if set(row.stands_for) & matching or all(t in row.claim.title.casefold() for t in terms):
                found.add(row.key)
        return found

    def follow(self, logbook_id: str, key: str) -> str | None:
        """Where the claim `key` is now: itself; the parts it was split into or the claim it was merged into;
        the claims it stood for when its split or merge was undone; a claim on its page; else the first claim."""
        opened = self._get(logbook_id)
        if key in opened.position:
            return key
        made = [r.key for r in opened.rows if key in r.stands_for[1:]]
        previous = opened.before.get(key)
        back = [k for k in (previous.stands_for[1:] if previous else ()) if k in opened.position]
        page = [r.key for r in opened.rows if previous is not None and r.claim.page == previous.claim.page]
        return next(iter([*made, *back, *page, *(r.key for r in opened.rows[:1])]), None)

    # -- changes ----------------------------------------------------------------------------------------------

    def apply(self, change: ChangeRecord) -> RowUpdate:
        """Bring the rows up to date with `change` (the history tells the workspace itself; this is for a change
        made while the workspace was not listening, and for tests)."""
        opened = self._open.get(change.logbook_id)
        if opened is None:
            return RowUpdate(change.logbook_id, change=change)
        if change.everything:
            opened.logbook_judge.reread()
        if change.everything or change.restructures:
            opened.logbook_judge.update(opened.state)
            self._derive(opened)
            return RowUpdate(change.logbook_id, restructured=True, change=change)
        keys = list(change.claim_keys)
        if changes_logbook_judge(change):  # only these can change the match: a verdict save never re-matches
            keys.extend(self._logbook_judge_keys(opened))
        return self._update(opened, change.logbook_id, keys, change)

    def refresh(self, logbook_id: str) -> RowUpdate:
        """Derive every row again (after the review files were read again), the stored import read again too."""
        opened = self._get(logbook_id)
        opened.logbook_judge.reread()
        opened.logbook_judge.update(opened.state)
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

    def _logbook_judge_keys(self, opened: _Open) -> list[str]:
        """Match the Logbook Judge again if what it depends on changed; the claims whose J verdict changed."""
        before = opened.logbook_judge.verdicts()
        if not opened.logbook_judge.update(opened.state):
            return []
        after = opened.logbook_judge.verdicts()
        return [row.key for row in opened.rows if before.get(row.key) != after.get(row.key)]

    def _derive(self, opened: _Open) -> None:
        logbook_id = str(opened.logbook.logbook_id)
        opened.before.update((row.key, row) for row in opened.rows)
        state = opened.state
        if state is None:
            opened.rows = [self._row(logbook_id, opened, claim, None) for claim in opened.logbook.claims]
        else:
            opened.rows = [self._row(logbook_id, opened, as_claim(e), e) for e in state.effective_claims()]
        opened.position = {row.key: i for i, row in enumerate(opened.rows)}

    def _update(
        self, opened: _Open, logbook_id: str, keys: tuple[str, ...] | list[str], change: ChangeRecord | None
    ) -> RowUpdate:
        changed: list[str] = []
        state = opened.state
        for key in dict.fromkeys(keys):
            position = opened.position.get(key)
            if position is None:
                continue  # a claim this change names but the list does not show (one a split replaced)
            effective = state.effective_claim(key) if state is not None else None
            old = opened.rows[position]
            claim = as_claim(effective) if effective is not None else old.claim
            new = self._row(logbook_id, opened, claim, effective)
            if new != old:
                opened.rows[position] = new
                changed.append(key)
        return RowUpdate(logbook_id, tuple(changed), change=change)

    def _row(self, logbook_id: str, opened: _Open, claim: Claim, effective: EffectiveClaim | None) -> ReviewedClaim:
        human: Verdict | None = None
        state, me = opened.state, opened.me
        if state is not None and me is not None:
            record = state.verdict(claim.key, me)
            human = record.payload.verdict if record is not None else None
        logbook_judge = opened.logbook_judge.verdict(claim.key)
        slots = VerdictSlots(claim.verdict, logbook_judge, human, claim.contradicted)
        return ReviewedClaim(
            logbook_id,
            claim,
            slots,
            claim_mark(effective),
            tuple(correction_lines(effective)),
            effective.stands_for if effective is not None else (claim.key,),
            effective.origin if effective is not None else "logbook",
        )
