"""What matching says about each Logbook Judge claim: its logbook claim(s), score, margin, candidates and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from reviewapp.core.logbook_judge.entries import JudgeClaim

Method = Literal["by hand", "by number", "by text", "by position", "unmatched"]


@dataclass(frozen=True, slots=True)
class LogbookClaimText:
    key: str
    n: int | None
    title: str
    text: str  # the claim's own text on its page (its cells; the page preamble when the page is the claim's alone)
    numbered: bool = True  # the logbook wrote this number (not counted from the manifest order)
    number: str | None = None  # as written: "3", or "3a" for a sub-claim
    own_text: bool = True  # False: the claim shares its page, and this text, with other claims (a claims list)


@dataclass(frozen=True, slots=True)
class Candidate:
    claim_key: str
    score: float
    why: str


@dataclass(frozen=True, slots=True)
class ClaimMatch:
    judge: JudgeClaim  # text filled in from the registry where the entry had none
    claim_key: str | None
    confidence: float  # 0..1
    method: Method
    why: str
    score: float = 0.0  # the pair's evidence, 0..1 (0 for a match by hand or none)
    margin: float | None = None  # its lead over the best pairing without it
    candidates: tuple[Candidate, ...] = ()  # the best logbook claims for this registry claim, best first
    also: tuple[str, ...] = ()  # further logbook claims, where the logbook split this registry claim

    @property
    def matched(self) -> bool:
        return self.claim_key is not None

    @property
    def claim_keys(self) -> tuple[str, ...]:
        return ((self.claim_key,) if self.claim_key else ()) + self.also

    @property
    def runner_up(self) -> Candidate | None:
        """The best candidate other than the match (the second best when unmatched)."""
        others = [c for c in self.candidates if c.claim_key not in self.claim_keys]
        if self.claim_key is None:
            return others[1] if len(others) > 1 else None
        return others[0] if others else None


@dataclass
class MatchResult:
    matches: list[ClaimMatch]  # one per Logbook Judge claim, in registry order
    unmatched_claims: list[str]  # logbook claim keys no judge claim was matched to
    notes: list[str] = field(default_factory=list)  # count drift, texts taken from the registry, ...
    scores: dict[tuple[int, str], float] = field(default_factory=dict)  # (registry index, claim key) -> score

    def for_claim(self, key: str) -> ClaimMatch | None:
        return next((m for m in self.matches if key in m.claim_keys), None)

    def candidates_for(self, key: str, limit: int = 3) -> list[tuple[int, float]]:
        """The registry claims that best fit logbook claim `key`: (registry index, score), best first."""
        found = sorted(((i, s) for (i, k), s in self.scores.items() if k == key and s > 0), key=lambda p: -p[1])
        return found[:limit]

    @property
    def unmatched_judge(self) -> list[ClaimMatch]:
        return [m for m in self.matches if not m.matched]
