"""Which claim of the paper each logbook's claim is about: the rows of the paper view.

With the challenge's claim registry imported, the rows are the registry's claims and each logbook's claims are
matched to them as the Logbook Judge's claims are (by number when counts and texts agree, else by text). Without
it, claims are aligned across logbooks: the logbook with the most claims gives the first rows, and every other
logbook's claims join the row they read most alike (its number counting for a little), or start a row of their
own (a claim only one team attempted). A reviewer's hand alignment always wins.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from reviewapp.core.logbook_judge.entries import JudgeClaim
from reviewapp.core.logbook_judge.matching import LogbookClaimText, match_claims
from reviewapp.core.logbook_judge.registry import RegistryClaim
from reviewapp.core.logbook_judge.similarity import content_words, normalize

ALIGN_THRESHOLD = 0.45  # below this two claims of different logbooks are not taken to be the same claim
NUMBER_BONUS = 0.1
_CLAIM_PREFIX = re.compile(r"^\s*claim\s*[\w.]{0,8}\s*[:\u2014\u2013-]?\s*", re.IGNORECASE)
_SHARED = frozenset(
    content_words(
        "claim verdict verified falsified partially partial toy inconclusive reproduced supported holds checked "
        "status result results evidence reduced budget scale run runs python seed"
    )
)


@dataclass(slots=True)
class PaperClaim:
    id: str  # "registry:3" or "aligned:2": what alignment and response records name
    number: int
    text: str
    in_registry: bool


@dataclass(frozen=True, slots=True)
class Placement:
    row: str
    claim_key: str
    method: str  # "by hand", "by number", "by text", "by position", "first logbook", "own row"
    confidence: float


@dataclass(slots=True)
class Alignment:
    rows: list[PaperClaim]
    placements: dict[str, list[Placement]] = field(default_factory=dict)  # logbook id -> its claims' rows
    notes: list[str] = field(default_factory=list)

    def row_of(self, logbook_id: str, claim_key: str) -> str | None:
        return next((p.row for p in self.placements.get(logbook_id, []) if p.claim_key == claim_key), None)

    def cell(self, row: str, logbook_id: str) -> Placement | None:
        return next((p for p in self.placements.get(logbook_id, []) if p.row == row), None)


def align(
    logbooks: Sequence[tuple[str, Sequence[LogbookClaimText]]],
    registry: Sequence[RegistryClaim] | None = None,
    manual: Mapping[tuple[str, str], str | None] | None = None,
) -> Alignment:
    """Rows and each logbook's placement. `manual` maps (logbook id, claim key) to a row id, or None for a row
    of its own."""
    manual = dict(manual or {})
    alignment = _to_registry(logbooks, registry, manual) if registry else _across(logbooks, manual)
    _apply_manual(alignment, logbooks, manual)
    return alignment


def _to_registry(
    logbooks: Sequence[tuple[str, Sequence[LogbookClaimText]]],
    registry: Sequence[RegistryClaim],
    manual: Mapping[tuple[str, str], str | None],
) -> Alignment:
    rows = [PaperClaim(f"registry:{c.index}", c.index, c.text, True) for c in registry]
    alignment = Alignment(rows)
    judge = [JudgeClaim(c.index, c.text, None, None) for c in registry]
    for logbook_id, claims in logbooks:
        open_claims = [c for c in claims if (logbook_id, c.key) not in manual]
        result = match_claims(judge, open_claims)
        alignment.placements[logbook_id] = [
            Placement(f"registry:{m.judge.index}", key, m.method, m.confidence)
            for m in result.matches
            for key in m.claim_keys
        ]
        for key in result.unmatched_claims:
            _own_row(alignment, logbook_id, next(c for c in claims if c.key == key), "not in the registry")
    return alignment


def _across(
    logbooks: Sequence[tuple[str, Sequence[LogbookClaimText]]],
    manual: Mapping[tuple[str, str], str | None],
) -> Alignment:
    alignment = Alignment([])
    if not logbooks:
        return alignment
    pivot = max(range(len(logbooks)), key=lambda i: (len(logbooks[i][1]), -i))
    order = [pivot, *(i for i in range(len(logbooks)) if i != pivot)]
    row_text: dict[str, _Reading] = {}
    for position, index in enumerate(order):
        logbook_id, claims = logbooks[index]
        alignment.placements.setdefault(logbook_id, [])
        open_claims = [c for c in claims if (logbook_id, c.key) not in manual]
        readings = {c.key: _Reading.of(c) for c in open_claims}
        if position == 0:
            for claim in open_claims:
                row = _own_row(alignment, logbook_id, claim, "first logbook")
                row_text[row] = readings[claim.key]
            continue
        scored = sorted(
            (
                (_alike(readings[claim.key], row_text[row.id], row.number), claim.key, row.id)
                for claim in open_claims
                for row in alignment.rows
                if row.id in row_text
            ),
            reverse=True,
        )
        taken_rows: set[str] = set()
        placed: set[str] = set()
        for score, key, row_id in scored:
            if score < ALIGN_THRESHOLD or key in placed or row_id in taken_rows:
                continue
            alignment.placements[logbook_id].append(Placement(row_id, key, "by text", round(min(1.0, score), 2)))
            placed.add(key)
            taken_rows.add(row_id)
        for claim in open_claims:
            if claim.key not in placed:
                row = _own_row(alignment, logbook_id, claim, "own row")
                row_text[row] = readings[claim.key]
    return alignment


@dataclass(frozen=True, slots=True)
class _Reading:
    """What comparing a claim needs, worked out once per claim (its page text can be long)."""

    n: int | None
    grams: frozenset[str]  # the normalized statement's character trigrams
    words: frozenset[str]
    page_words: frozenset[str]

    @classmethod
    def of(cls, claim: LogbookClaimText) -> _Reading:
        statement = _statement(claim.title)
        text = f" {normalize(statement)} "
        return cls(
            claim.n,
            frozenset(text[i : i + 3] for i in range(len(text) - 2)),
            frozenset(content_words(statement) - _SHARED),
            frozenset(content_words(claim.text) - _SHARED),
        )


def _alike(claim: _Reading, row_claim: _Reading, row_number: int) -> float:
    """How alike two teams' claims read: their statements first, their pages' words a little; the words every
    claim page shares (claim, verdict, verified, ...) count for nothing."""
    words_a, words_b = claim.words, row_claim.words
    overlap = len(words_a & words_b) / max(1, min(len(words_a), len(words_b))) if words_a and words_b else 0.0
    page_a, page_b = claim.page_words, row_claim.page_words
    page = len(page_a & page_b) / max(1, len(page_a | page_b)) if page_a and page_b else 0.0
    bonus = NUMBER_BONUS if claim.n is not None and claim.n == row_number else 0.0
    # how alike the statements read letter by letter (Dice over trigrams: word order and endings count a little)
    grams_a, grams_b = claim.grams, row_claim.grams
    ratio = 2 * len(grams_a & grams_b) / (len(grams_a) + len(grams_b)) if grams_a and grams_b else 0.0
    return 0.7 * max(overlap, ratio) + 0.3 * page + bonus


def _statement(title: str) -> str:
    return _CLAIM_PREFIX.sub("", title, count=1)


def _own_row(alignment: Alignment, logbook_id: str, claim: LogbookClaimText, method: str) -> str:
    number = len(alignment.rows) + 1
    row = PaperClaim(f"aligned:{number}", number, _statement(claim.title), False)
    alignment.rows.append(row)
    alignment.placements.setdefault(logbook_id, []).append(Placement(row.id, claim.key, method, 1.0))
    return row.id


def _apply_manual(
    alignment: Alignment,
    logbooks: Sequence[tuple[str, Sequence[LogbookClaimText]]],
    manual: Mapping[tuple[str, str], str | None],
) -> None:
    known_rows = {r.id for r in alignment.rows}
    for logbook_id, claims in logbooks:
        for claim in claims:
            if (logbook_id, claim.key) not in manual:
                continue
            row = manual[(logbook_id, claim.key)]
            placements = alignment.placements.setdefault(logbook_id, [])
            if row is not None and row in known_rows:
                for other in [p for p in placements if p.row == row]:
                    placements.remove(other)  # the hand-placed claim takes the cell; the other gets its own row
                    bumped = next(c for c in claims if c.key == other.claim_key)
                    _own_row(alignment, logbook_id, bumped, "own row")
                placements.append(Placement(row, claim.key, "by hand", 1.0))
            else:
                if row is not None:
                    alignment.notes.append(f"{logbook_id} {claim.key}: aligned by hand to {row}, which is gone")
                _own_row(alignment, logbook_id, claim, "by hand")
