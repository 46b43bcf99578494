"""Which logbook claim each Logbook Judge claim is about.

The Logbook Judge's claims are the challenge registry's, in registry order, not the logbook's pages. A reviewer's
re-match by hand (an annotation record) always wins. The rest are decided together: every (registry claim,
logbook claim) pair is scored from all its evidence at once (similarity.py: statement, page words, anchors,
numbers, position), and the one-to-one pairing with the largest total is taken (assignment.py, match_board.py).
A pair is kept only when it scores enough and leads the best pairing without it by a margin; otherwise the
registry claim is left for a person, with its best candidates and their scores. A logbook that split a registry
claim into sub-claims (3a, 3b) gets it on each; two registry claims that read alike only one logbook claim share
it (merged). Without any claim text, claims are paired by position only when the counts agree and the logbook
numbers its claims. Anything left stays unmatched, on both sides, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Protocol

from reviewapp.core.logbook.model import CellKind, Logbook
from reviewapp.core.logbook_judge.entries import JudgeClaim, JudgeEntry
from reviewapp.core.logbook_judge.match_board import POSITION_CONFIDENCE, TAKE_MARGIN, TAKE_SCORE, MatchBoard
from reviewapp.core.logbook_judge.match_result import Candidate, ClaimMatch, LogbookClaimText, MatchResult, Method
from reviewapp.core.logbook_judge.registry import RegistryClaim
from reviewapp.core.logbook_judge.similarity import PAGE_LIMIT, TITLE_LIMIT

__all__ = [
    "POSITION_CONFIDENCE",
    "TAKE_MARGIN",
    "TAKE_SCORE",
    "Candidate",
    "ClaimLike",
    "ClaimMatch",
    "LogbookClaimText",
    "MatchResult",
    "Method",
    "claim_texts",
    "logbook_judge_claims_with_text",
    "match_claims",
]
PAGE_TEXT_LIMIT = PAGE_LIMIT


class ClaimLike(Protocol):
    key: str
    n: int | None
    title: str
    page: str
    cells: list[int]


def claim_texts(logbook: Logbook, claims: Iterable[ClaimLike] | None = None) -> list[LogbookClaimText]:
    """The text of each claim the matcher compares with: its title, then its cells, then its page's preamble."""
    chosen = list(logbook.claims if claims is None else claims)
    per_page: dict[str, int] = {}
    for claim in chosen:
        per_page[claim.page] = per_page.get(claim.page, 0) + 1
    texts: list[LogbookClaimText] = []
    for claim in chosen:
        page = logbook.page(claim.page)
        parts: list[str] = []
        size = 0
        if page is not None:
            if per_page[claim.page] == 1:
                parts.append(page.preamble)
            by_ordinal = {c.ordinal: c for c in page.cells}
            for ordinal in claim.cells:
                cell = by_ordinal.get(ordinal)
                if size > PAGE_TEXT_LIMIT:
                    break  # enough to match on: a page of megabytes must not cost its size
                if cell is not None and cell.kind in (CellKind.MARKDOWN, CellKind.GENERIC):
                    parts.append(cell.body[:PAGE_TEXT_LIMIT])
                    size += len(parts[-1])
            if per_page[claim.page] == 1 and not claim.cells:
                parts.extend(c.body[:PAGE_TEXT_LIMIT] for c in page.cells[:50] if c.kind is CellKind.MARKDOWN)
        text = "\n".join(parts)[:PAGE_TEXT_LIMIT]
        numbered = getattr(claim, "numbering", "written") in ("written", "summary table")
        number = getattr(claim, "number", None)
        texts.append(LogbookClaimText(claim.key, claim.n, claim.title[:TITLE_LIMIT], text, numbered, number))
    pages = [c.page for c in chosen]
    for i, (page_slug, found) in enumerate(zip(pages, texts, strict=True)):
        siblings = [t for p, t in zip(pages, texts, strict=True) if p == page_slug and t is not found]
        if found.text and any(t.text == found.text for t in siblings):
            texts[i] = replace(found, own_text=False)
    return texts


def logbook_judge_claims_with_text(
    entry: JudgeEntry, registry: Sequence[RegistryClaim] | None
) -> tuple[list[JudgeClaim], list[str]]:
    """The entry's claims, with registry text where they carry none, and notes on count drift."""
    notes: list[str] = []
    claims = list(entry.claims)
    if registry is None:
        return claims, notes
    if len(registry) != len(claims):
        notes.append(
            f"The Logbook Judge judged {len(claims)} claim(s); the claim registry lists {len(registry)} for paper "
            f"{entry.orid} (the registry changed during the challenge), so registry texts are not used by position."
        )
        return claims, notes
    filled = 0
    for i, claim in enumerate(claims):
        if not claim.text and registry[claim.index - 1].text:
            claims[i] = replace(claim, text=registry[claim.index - 1].text)
            filled += 1
    if filled:
        notes.append(f"{filled} claim text(s) taken from the claim registry (same count, registry order).")
    return claims, notes


def match_claims(
    judge: Sequence[JudgeClaim],
    logbook: Sequence[LogbookClaimText],
    manual: Mapping[int, str | None] | None = None,
    notes: Sequence[str] = (),
) -> MatchResult:
    """Match judge claims to logbook claims; `manual` maps a registry index to a logbook key (None: no claim)."""
    manual = dict(manual or {})
    by_key = {c.key: c for c in logbook}
    board = MatchBoard(judge, logbook)
    result: dict[int, ClaimMatch] = {}
    taken: set[str] = set()
    for claim in judge:
        if claim.index in manual:
            key = manual[claim.index]
            if key is not None and key not in by_key:
                continue  # re-matched to a claim that no longer exists: fall back to automatic matching
            why = "re-matched by hand" if key else "unmatched by hand"
            method: Method = "by hand" if key else "unmatched"
            result[claim.index] = ClaimMatch(claim, key, 1.0, method, why, candidates=board.candidates(claim))
            if key:
                taken.add(key)
    open_judge = [c for c in judge if c.index not in result]
    open_logbook = [c for c in logbook if c.key not in taken]
    out_notes = list(notes)
    if open_judge:
        result.update(board.decide(open_judge, open_logbook, out_notes))
    matches = [result[c.index] for c in judge]
    used = {k for m in matches for k in m.claim_keys}
    unmatched = [c.key for c in logbook if c.key not in used]
    return MatchResult(matches, unmatched, out_notes, board.scores)
