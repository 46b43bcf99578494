"""Which logbook claim each Logbook Judge claim is about.

The Logbook Judge's claims are the challenge registry's, in registry order, not the logbook's pages. They are
matched to the logbook's claims, most trusted first:

1. by hand: a reviewer's re-match (an annotation record) always wins;
2. by number: the counts agree and each judge claim's text fits the logbook claim of the same number best;
3. by text: the closest claim statement, anchor ("Table 1") and page text, one logbook claim per judge claim;
4. by position: no claim text at all and equal counts (low confidence);

and anything left stays unmatched, on both sides, with the reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, Protocol

from reviewapp.core.logbook.model import CellKind, Logbook
from reviewapp.core.logbook_judge.entries import JudgeClaim, JudgeEntry
from reviewapp.core.logbook_judge.registry import RegistryClaim, anchor_of
from reviewapp.core.logbook_judge.similarity import Similarity, similarity

Method = Literal["by hand", "by number", "by text", "by position", "unmatched"]
TEXT_THRESHOLD = 0.3  # below this a text match is no better than chance on our fixtures
NUMBER_THRESHOLD = 0.25  # each numbered pair must still read alike to be matched by number
AMBIGUOUS_MARGIN = 0.05
POSITION_CONFIDENCE = 0.3
PAGE_TEXT_LIMIT = 6000


class ClaimLike(Protocol):
    key: str
    n: int | None
    title: str
    page: str
    cells: list[int]


@dataclass(frozen=True, slots=True)
class LogbookClaimText:
    key: str
    n: int | None
    title: str
    text: str  # the claim's own text on its page (its cells; the page preamble when the page is the claim's alone)


@dataclass(frozen=True, slots=True)
class ClaimMatch:
    judge: JudgeClaim  # text filled in from the registry where the entry had none
    claim_key: str | None
    confidence: float  # 0..1
    method: Method
    why: str

    @property
    def matched(self) -> bool:
        return self.claim_key is not None


@dataclass
class MatchResult:
    matches: list[ClaimMatch]  # one per Logbook Judge claim, in registry order
    unmatched_claims: list[str]  # logbook claim keys no judge claim was matched to
    notes: list[str] = field(default_factory=list)  # count drift, texts taken from the registry, ...

    def for_claim(self, key: str) -> ClaimMatch | None:
        return next((m for m in self.matches if m.claim_key == key), None)

    @property
    def unmatched_judge(self) -> list[ClaimMatch]:
        return [m for m in self.matches if not m.matched]


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
        if page is not None:
            if per_page[claim.page] == 1:
                parts.append(page.preamble)
            by_ordinal = {c.ordinal: c for c in page.cells}
            for ordinal in claim.cells:
                cell = by_ordinal.get(ordinal)
                if cell is not None and cell.kind in (CellKind.MARKDOWN, CellKind.GENERIC):
                    parts.append(cell.body)
            if per_page[claim.page] == 1 and not claim.cells:
                parts.extend(c.body for c in page.cells if c.kind is CellKind.MARKDOWN)
        text = "\n".join(parts)[:PAGE_TEXT_LIMIT]
        texts.append(LogbookClaimText(claim.key, claim.n, claim.title, text))
    return texts


def judge_claims_with_text(
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
    result: dict[int, ClaimMatch] = {}
    taken: set[str] = set()
    for claim in judge:
        if claim.index in manual:
            key = manual[claim.index]
            if key is not None and key not in by_key:
                continue  # re-matched to a claim that no longer exists: fall back to automatic matching
            result[claim.index] = ClaimMatch(
                claim, key, 1.0, "by hand" if key else "unmatched", "re-matched by hand" if key else "unmatched by hand"
            )
            if key:
                taken.add(key)
    open_judge = [c for c in judge if c.index not in result]
    open_logbook = [c for c in logbook if c.key not in taken]
    out_notes = list(notes)
    if open_judge:
        if any(c.text for c in open_judge):
            result.update(_by_number_or_text(open_judge, open_logbook, len(judge) == len(logbook)))
        else:
            result.update(_by_position(open_judge, open_logbook, len(judge), len(logbook), out_notes))
    matches = [result[c.index] for c in judge]
    used = {m.claim_key for m in matches if m.claim_key}
    unmatched = [c.key for c in logbook if c.key not in used]
    return MatchResult(matches, unmatched, out_notes)


def _by_position(
    judge: Sequence[JudgeClaim],
    logbook: Sequence[LogbookClaimText],
    judge_count: int,
    logbook_count: int,
    notes: list[str],
) -> dict[int, ClaimMatch]:
    if judge_count == logbook_count and len(judge) == len(logbook):
        notes.append("No claim text: matched by position (equal counts); check each match.")
        ordered = _in_number_order(logbook)
        return {
            j.index: ClaimMatch(j, c.key, POSITION_CONFIDENCE, "by position", f"no claim text; position {j.index}")
            for j, c in zip(judge, ordered, strict=True)
        }
    why = f"no claim text, and the Logbook Judge has {judge_count} claim(s) where the logbook has {logbook_count}"
    notes.append(f"Unmatched: {why}; re-match by hand.")
    return {j.index: ClaimMatch(j, None, 0.0, "unmatched", why) for j in judge}


def _in_number_order(claims: Sequence[LogbookClaimText]) -> list[LogbookClaimText]:
    numbers = [c.n for c in claims]
    if all(n is not None for n in numbers) and len(set(numbers)) == len(numbers):
        return sorted(claims, key=lambda c: c.n or 0)
    return list(claims)


def _by_number_or_text(
    judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText], counts_agree: bool
) -> dict[int, ClaimMatch]:
    scores: dict[tuple[int, str], Similarity] = {}
    for j in judge:
        if not j.text:
            continue
        anchor = anchor_of(j.text)
        for c in logbook:
            scores[(j.index, c.key)] = similarity(j.text, anchor, c.title, c.text)
    numbered = _by_number(judge, logbook, scores) if counts_agree else None
    if numbered is not None:
        return numbered
    return _by_text(judge, logbook, scores)


def _by_number(
    judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText], scores: Mapping[tuple[int, str], Similarity]
) -> dict[int, ClaimMatch] | None:
    """Same count, every judge claim has text, and the logbook claim of its number reads like it at least as well as
    any other claim does."""
    if len(judge) != len(logbook) or not all(j.text for j in judge):
        return None
    numbered = {c.n: c for c in logbook if c.n is not None}
    if len(numbered) != len(logbook):
        return None
    out: dict[int, ClaimMatch] = {}
    for j in judge:
        c = numbered.get(j.index)
        if c is None:
            return None
        own = scores[(j.index, c.key)].score
        best = max(scores[(j.index, other.key)].score for other in logbook)
        if own < NUMBER_THRESHOLD or own + 1e-9 < best:
            return None
        sim = scores[(j.index, c.key)]
        confidence = round(min(1.0, 0.75 + 0.25 * own), 2)
        out[j.index] = ClaimMatch(
            j, c.key, confidence, "by number", f"claim {j.index} = Claim {c.n}; " + sim.why(anchor_of(j.text))
        )
    return out


def _by_text(
    judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText], scores: Mapping[tuple[int, str], Similarity]
) -> dict[int, ClaimMatch]:
    """Greedy: the most alike pair first, each side used once; close seconds are named in `why`."""
    out: dict[int, ClaimMatch] = {}
    pairs = sorted(scores.items(), key=lambda item: (-item[1].score, item[0][0]))
    used_judge: set[int] = set()
    used_claims: set[str] = set()
    by_index = {j.index: j for j in judge}
    titles = {c.key: c for c in logbook}
    for (index, key), sim in pairs:
        if index in used_judge or key in used_claims or sim.score < TEXT_THRESHOLD:
            continue
        j = by_index[index]
        rivals = [
            (k, s.score)
            for (i, k), s in scores.items()
            if i == index and k != key and k not in used_claims and s.score > sim.score - AMBIGUOUS_MARGIN
        ]
        why = sim.why(anchor_of(j.text))
        confidence = sim.score
        if rivals:
            rival = max(rivals, key=lambda r: r[1])[0]
            why += f"; almost as close to {_label(titles[rival])}"
            confidence *= 0.7
        out[index] = ClaimMatch(j, key, round(min(confidence, 0.95), 2), "by text", why)
        used_judge.add(index)
        used_claims.add(key)
    for j in judge:
        if j.index in out:
            continue
        if not j.text:
            out[j.index] = ClaimMatch(j, None, 0.0, "unmatched", "no claim text, and counts or texts do not line up")
            continue
        best = max((s.score for (i, _), s in scores.items() if i == j.index), default=0.0)
        out[j.index] = ClaimMatch(
            j, None, 0.0, "unmatched", f"no logbook claim reads like it (best {best:.2f}, needs {TEXT_THRESHOLD})"
        )
    return out


def _label(claim: LogbookClaimText) -> str:
    return f"“{claim.title}” ({claim.key})"
