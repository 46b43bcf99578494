"""The decisions of matching, on a board of scores: every (registry claim, logbook claim) pair scored once, the best
one-to-one pairing, the margin each pair needs, split and merged claims, and the reason for each outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from reviewapp.core.logbook_judge.assignment import best_assignment, margins
from reviewapp.core.logbook_judge.entries import JudgeClaim
from reviewapp.core.logbook_judge.match_result import Candidate, ClaimMatch, LogbookClaimText, Method
from reviewapp.core.logbook_judge.similarity import Features, Rarity, Reading, features, score

TAKE_SCORE = 0.3  # below this a pair is no better than chance on the benchmark's generated cases
TAKE_MARGIN = 0.05  # a pair must lead the best pairing without it by this much
CANDIDATE_FLOOR = 0.1  # pairs below this are not offered to the assignment at all
CLEAR_LEAD = 0.1  # a text pair this far ahead of the next tells whether the logbook keeps the registry's order
POSITION_CONFIDENCE = 0.3
EXACT_MARGINS_UP_TO = 40  # claims (0.1 s at 40); beyond, a lead is taken over the nearest rival alone


class MatchBoard:
    """Every (registry claim, logbook claim) pair scored once, and the decisions taken on those scores."""

    def __init__(self, judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText]) -> None:
        self.judge = list(judge)
        self.logbook = list(logbook)
        self.counts_agree = len(judge) == len(logbook)
        numbers = [c.n for c in logbook]
        self.numbered = (
            bool(logbook)
            and all(c.numbered and c.n is not None for c in logbook)
            and len({c.number or c.n for c in logbook}) == len(logbook)
        )
        self.rank = {c.key: (c.n if self.numbered else i + 1) for i, c in enumerate(logbook)}
        self.sub_numbered = self.numbered and len(set(numbers)) < len(numbers)  # 3a and 3b: a split claim
        self.labels = {c.key: _label(c) for c in logbook}
        # Claims listed on one page with no text of their own: the page says nothing about which is which.
        readings = [Reading.of_claim(c.title, c.text if c.own_text else "") for c in logbook]
        rarity = Rarity(readings)
        self.features: dict[tuple[int, str], Features] = {}
        self.scores: dict[tuple[int, str], float] = {}
        text_scores: dict[tuple[int, str], float] = {}
        for j in judge:
            statement = Reading.of_statement(j.text) if j.text else None
            for c, reading in zip(logbook, readings, strict=True):
                same = 1.0 if self.rank[c.key] == j.index else 0.0
                if statement is None:
                    by_position = self.counts_agree and self.numbered and same == 1.0
                    self.scores[(j.index, c.key)] = POSITION_CONFIDENCE if by_position else 0.0
                    continue
                f = features(statement, reading, rarity, same)
                self.features[(j.index, c.key)] = f
                text_scores[(j.index, c.key)] = score(replace(f, position=None), 0.0)
        self.position_note: str | None = None
        position_weight = self._position_weight(text_scores)
        for pair, f in self.features.items():
            f = f if position_weight > 0 else replace(f, position=None)
            self.features[pair] = f
            self.scores[pair] = score(f, position_weight)
        if self.position_note:  # the order is not the registry's: claims without text cannot go by position either
            for pair in self.scores.keys() - self.features.keys():
                self.scores[pair] = 0.0

    def _position_weight(self, text_scores: Mapping[tuple[int, str], float]) -> float:
        """How much the registry position counts: most when the counts agree and the logbook numbers its claims,
        and nothing when the claims the text pairs clearly are mostly not at their registry position (the logbook
        keeps another order, and position would only mislead)."""
        base = (0.25 if self.counts_agree else 0.1) if self.numbered else (0.1 if self.counts_agree else 0.0)
        if base == 0:
            return 0.0
        clear = []
        for j in self.judge:
            pairs = [(text_scores[(j.index, c.key)], c) for c in self.logbook if (j.index, c.key) in text_scores]
            ranked = sorted(pairs, key=lambda p: -p[0])
            if not ranked or ranked[0][0] < TAKE_SCORE:
                continue
            if len(ranked) == 1 or ranked[0][0] - ranked[1][0] >= CLEAR_LEAD:
                clear.append(self.rank[ranked[0][1].key] == j.index)
        if clear and sum(clear) * 2 < len(clear):
            self.position_note = (
                f"{len(clear) - sum(clear)} of the {len(clear)} claims the text pairs clearly sit at another position "
                "than in the registry: position is not used."
            )
            return 0.0
        return base

    def candidates(self, j: JudgeClaim, among: Sequence[LogbookClaimText] | None = None) -> tuple[Candidate, ...]:
        pool = self.logbook if among is None else among
        ranked = sorted(pool, key=lambda c: -self.scores.get((j.index, c.key), 0.0))
        out = []
        for c in ranked[:3]:
            s = self.scores.get((j.index, c.key), 0.0)
            if s <= 0:
                break
            f = self.features.get((j.index, c.key))
            out.append(Candidate(c.key, s, f.why() if f else "same position"))
        return tuple(out)

    def decide(
        self, judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText], notes: list[str]
    ) -> dict[int, ClaimMatch]:
        if not any(j.text for j in judge):
            return self._by_position(judge, logbook, notes)
        if self.position_note:
            notes.append(self.position_note)
        weights = [
            [s if (s := self.scores[(j.index, c.key)]) >= CANDIDATE_FLOOR else 0.0 for c in logbook] for j in judge
        ]
        total, pairs = best_assignment(weights)
        siblings = self._siblings(logbook)
        leads = (
            margins(weights, pairs, total, siblings)
            if max(len(judge), len(logbook)) <= EXACT_MARGINS_UP_TO
            else _nearest_rival_leads(weights, pairs, siblings)
        )
        out: dict[int, ClaimMatch] = {}
        for row, j in enumerate(judge):
            candidates = self.candidates(j, logbook)
            col = pairs.get(row)
            if col is None:
                out[j.index] = self._unmatched(j, candidates)
                continue
            c = logbook[col]
            s = self.scores[(j.index, c.key)]
            lead = round(leads.get(row, 0.0), 3)
            if s < TAKE_SCORE or lead < TAKE_MARGIN:
                out[j.index] = self._unmatched(j, candidates, close=(c, s, lead))
                continue
            out[j.index] = self._matched(j, c, s, lead, candidates)
        self._by_number_when_all_agree(out, logbook)
        self._splits(out, judge, logbook)
        self._merges(out, judge, logbook)
        self._say_who_took_the_best(out)
        return out

    def _say_who_took_the_best(self, out: dict[int, ClaimMatch]) -> None:
        """An unmatched registry claim whose best candidate fits another registry claim better says so."""
        owners = {k: m.judge.index for m in out.values() for k in m.claim_keys}
        for index, m in out.items():
            if m.matched or not m.candidates or m.candidates[0].score < TAKE_SCORE or "no logbook claim" not in m.why:
                continue
            best = m.candidates[0]
            owner = owners.get(best.claim_key)
            if owner is None:
                continue
            why = (
                f"its best candidate, {self.labels[best.claim_key]} ({best.score:.2f}), fits registry claim {owner} "
                f"better, and no other claim scores {TAKE_SCORE} with a lead of {TAKE_MARGIN}"
            )
            out[index] = replace(m, why=why)

    def _by_number_when_all_agree(self, out: dict[int, ClaimMatch], logbook: Sequence[LogbookClaimText]) -> None:
        """ "By number" when the counts agree and every pair the text chose has the same number on both sides."""
        numbers = {c.key: c.n for c in logbook}
        taken = [m for m in out.values() if m.method == "by text"]
        if not (self.counts_agree and self.numbered and taken):
            return
        if all(len(taken) == len(out) and numbers[m.claim_key or ""] == m.judge.index for m in taken):
            for m in taken:
                out[m.judge.index] = replace(m, method="by number")

    def _siblings(self, logbook: Sequence[LogbookClaimText]) -> dict[int, list[int]]:
        """Column -> the other parts of the same split claim (3a and 3b share the number 3)."""
        if not self.sub_numbered:
            return {}
        by_n: dict[int | None, list[int]] = {}
        for col, c in enumerate(logbook):
            by_n.setdefault(c.n, []).append(col)
        return {col: [o for o in group if o != col] for group in by_n.values() if len(group) > 1 for col in group}

    def _matched(
        self, j: JudgeClaim, c: LogbookClaimText, s: float, lead: float, candidates: tuple[Candidate, ...]
    ) -> ClaimMatch:
        if not j.text:
            return ClaimMatch(
                j, c.key, POSITION_CONFIDENCE, "by position", f"no claim text; position {j.index}", s, lead, candidates
            )
        f = self.features[(j.index, c.key)]
        method: Method = "by text"
        why = f"{f.why()}; leads the runner-up pairing by {lead:.2f}"
        rival = next((x for x in candidates if x.claim_key != c.key), None)
        if rival is not None:
            why += f"; next best {self.labels[rival.claim_key]} {rival.score:.2f}"
        return ClaimMatch(j, c.key, round(min(s, 0.95), 2), method, why, s, lead, candidates)

    def _unmatched(
        self,
        j: JudgeClaim,
        candidates: tuple[Candidate, ...],
        close: tuple[LogbookClaimText, float, float] | None = None,
    ) -> ClaimMatch:
        if not j.text:
            why = "no claim text, and counts or numbers do not line up"
        elif close is not None and close[1] >= TAKE_SCORE:
            c, s, lead = close
            rival = next((x for x in candidates if x.claim_key != c.key), None)
            why = f"too close to call: {self.labels[c.key]} {s:.2f}"
            why += f" vs {self.labels[rival.claim_key]} {rival.score:.2f}" if rival else ""
            why += f" (lead {lead:.2f}, needs {TAKE_MARGIN}); left for a person"
        elif close is not None and candidates and candidates[0].claim_key != close[0].key:
            c, s, _ = close
            best = candidates[0]
            why = (
                f"the best pairing of all claims gives it {self.labels[c.key]} ({s:.2f}, needs {TAKE_SCORE}), not its "
                f"own best {self.labels[best.claim_key]} ({best.score:.2f}); left for a person"
            )
        else:
            best_score = candidates[0].score if candidates else 0.0
            why = f"no logbook claim reads like it (best {best_score:.2f}, needs {TAKE_SCORE})"
        return ClaimMatch(j, None, 0.0, "unmatched", why, candidates[0].score if candidates else 0.0, None, candidates)

    def _splits(
        self, out: dict[int, ClaimMatch], judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText]
    ) -> None:
        """A sub-claim (3b) left over whose best registry claim is its sibling's (3a): the logbook split it."""
        if not self.sub_numbered:
            return
        used = {k for m in out.values() for k in m.claim_keys}
        by_key = {c.key: c for c in logbook}
        for c in logbook:
            if c.key in used:
                continue
            ranked = sorted(judge, key=lambda j: -self.scores[(j.index, c.key)])
            best = ranked[0]
            s = self.scores[(best.index, c.key)]
            rival = self.scores[(ranked[1].index, c.key)] if len(ranked) > 1 else 0.0
            match = out.get(best.index)
            if match is None or match.claim_key is None or s < TAKE_SCORE or s - rival < TAKE_MARGIN:
                continue
            if by_key[match.claim_key].n != c.n:
                continue
            why = f"{match.why}; the logbook split it: also {self.labels[c.key]} ({s:.2f})"
            out[best.index] = replace(match, also=(*match.also, c.key), why=why)

    def _merges(
        self, out: dict[int, ClaimMatch], judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText]
    ) -> None:
        """A registry claim left over whose clear best is a claim another registry claim took: the logbook merged
        them. Only on strong evidence (its anchors on that page, a lead over every other claim)."""
        for j in judge:
            match = out[j.index]
            if match.matched or not j.text or not match.candidates:
                continue
            best = match.candidates[0]
            rival = match.candidates[1].score if len(match.candidates) > 1 else 0.0
            owner = next((m for m in out.values() if best.claim_key in m.claim_keys and m is not match), None)
            f = self.features[(j.index, best.claim_key)]
            strong = best.score >= TAKE_SCORE and best.score - rival >= 2 * TAKE_MARGIN and (f.anchor or 0) >= 0.5
            if owner is None or not strong:
                continue
            why = (
                f"{f.why()}; the logbook merged it with registry claim "
                f"{owner.judge.index} into {self.labels[best.claim_key]}"
            )
            out[j.index] = replace(
                match,
                claim_key=best.claim_key,
                confidence=round(min(best.score, 0.95), 2),
                method="by text",
                why=why,
                margin=round(best.score - rival, 3),
            )

    def _by_position(
        self, judge: Sequence[JudgeClaim], logbook: Sequence[LogbookClaimText], notes: list[str]
    ) -> dict[int, ClaimMatch]:
        if self.counts_agree and self.numbered and len(judge) == len(logbook):
            by_rank = {self.rank[c.key]: c for c in logbook}
            if all(j.index in by_rank for j in judge):
                notes.append("No claim text: matched by position (equal counts, numbered claims); check each match.")
                return {
                    j.index: self._matched(j, by_rank[j.index], POSITION_CONFIDENCE, 0.0, self.candidates(j, logbook))
                    for j in judge
                }
        if not self.counts_agree:
            why = (
                f"no claim text, and the Logbook Judge has {len(self.judge)} claim(s) where the logbook has "
                f"{len(self.logbook)}"
            )
        else:
            why = "no claim text, and the logbook does not number its claims, so position says nothing"
        notes.append(f"Unmatched: {why}; re-match by hand.")
        return {j.index: ClaimMatch(j, None, 0.0, "unmatched", why) for j in judge}


def _nearest_rival_leads(
    weights: Sequence[Sequence[float]], pairs: Mapping[int, int], siblings: Mapping[int, Sequence[int]]
) -> dict[int, float]:
    """Each pair's lead over the best other claim for its registry claim and the best other registry claim for its
    logbook claim: a cheaper, stricter stand-in for the exact margin on large logbooks."""
    leads: dict[int, float] = {}
    for row, col in pairs.items():
        own = weights[row][col]
        same = {col, *siblings.get(col, ())}
        rival_cols = [w for k, w in enumerate(weights[row]) if k not in same]
        rival_rows = [weights[r][col] for r in range(len(weights)) if r != row]
        leads[row] = own - max([0.0, *rival_cols, *rival_rows])
    return leads


def _label(claim: LogbookClaimText) -> str:
    title = claim.title if len(claim.title) <= 60 else claim.title[:59] + "…"
    return f"“{title}” ({claim.key})"
