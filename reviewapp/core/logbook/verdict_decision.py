"""One scored decision: which of a claim's candidate statements is the agent's verdict, or why there is none.

Every candidate (a `VerdictMention`) carries features: the first names where it was found (its kind: a labelled
line, a title or heading, a bold lead-in, a table column named verdict/status, a code cell's JSON, a plain
mention in prose, or elsewhere: a summary table, an index title, a logbook-wide sentence), the rest where on the
page and how (``before the first cell``, ``first cell``, ``last cell``, ``near the claim heading``, ``names the
claim``, ``output line``; ``negated``, ``conditional``, ``quoted``, ``hedged``). A candidate's score is

    score = base confidence of the place it was found (verdict_mentions, claim_finder)
          + offset[feature] for each of its features     (tunables, 0 unless fitted)
          + agreement * min(2, other takeable candidates with the same verdict)
          (0 when negated, quoted, conditional or hedged: shown, never taken)

and the decision over a claim's own candidates is:

* nothing scores ``candidate_only`` or more: unstated, with the reason (no candidate; only hedged statements;
  only passing mentions or statements voided by negation, quotation or a condition);
* else the best score wins (the last among equals: final verdicts close a page); candidates of another verdict
  within ``rival_gap`` of it are its rivals; a best under ``weak`` with rivals is unstated (the candidates
  conflict);
* its confidence is the best score, lowered towards ``conflict_factor`` times it as the margin to the best other
  verdict shrinks from ``2 * rival_gap`` to ``rival_gap``.

A claim whose own page states nothing takeable is filled from statements elsewhere (``fallback_factor`` times
their score) unless they disagree among themselves. The numbers are tunables: `benchmarks/reader_accuracy.py
--cross-validate` fits them without one owner's logbooks and scores them on that owner's.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from reviewapp.core.logbook.model import VerdictMention
from reviewapp.core.verdicts import Verdict

# Kinds of place a candidate is found in (the first feature of a candidate).
LABELLED = "labelled"
HEDGED = "hedged label"  # a labelled statement whose verdict is hedged ("Verdict: likely verified")
TITLE = "title"
HEADING = "heading"
BOLD = "bold"
UPPER = "upper-case"
CLAIM_TABLE = "claim table"
CODE_OUTPUT = "code output"
MENTION = "mention"
ELSEWHERE_KINDS = ("summary table", "summary", "index title", "logbook summary", "raw data")
KINDS = (LABELLED, HEDGED, TITLE, HEADING, BOLD, UPPER, CLAIM_TABLE, CODE_OUTPUT, MENTION, *ELSEWHERE_KINDS)
# Features that void a candidate: it is shown to the reviewer, never taken.
VOIDING = frozenset({"negated", "quoted", "conditional", "hedged"})


# What a feature adds to a candidate's score (fitted by the benchmark's cross-validation).
_FITTED_OFFSETS: dict[str, float] = {"names the claim": 0.05}


@dataclass(frozen=True)
class Weights:
    """The tunables of the decision (see the module docstring). Defaults are the fitted values."""

    candidate_only: float = 0.35
    weak: float = 0.6
    rival_gap: float = 0.1
    conflict_factor: float = 0.7
    fallback_factor: float = 0.8
    agreement: float = 0.0
    offsets: dict[str, float] = field(default_factory=lambda: dict(_FITTED_OFFSETS))

    def with_value(self, name: str, value: float) -> Weights:
        """A copy with one tunable changed: a field name, or `offset:<kind>`."""
        if name.startswith("offset:"):
            return replace(self, offsets={**self.offsets, name.split(":", 1)[1]: value})
        changed: dict[str, Any] = {name: value}
        return replace(self, **changed)

    def value(self, name: str) -> float:
        if name.startswith("offset:"):
            return self.offsets.get(name.split(":", 1)[1], 0.0)
        return float(getattr(self, name))

    def describe(self) -> dict[str, float]:
        plain = {f.name: float(getattr(self, f.name)) for f in fields(self) if f.name != "offsets"}
        return plain | {f"offset:{k}": v for k, v in sorted(self.offsets.items()) if v}


DEFAULT_WEIGHTS = Weights()
_SURE = 0.85  # a statement this sure that says something else is shown beside the verdict


def kind_of(mention: VerdictMention) -> str:
    return mention.features[0] if mention.features else mention.source


def voided(mention: VerdictMention) -> bool:
    return bool(VOIDING.intersection(mention.features))


def base_score(mention: VerdictMention, weights: Weights) -> float:
    if voided(mention):
        return 0.0
    offset = sum(weights.offsets.get(feature, 0.0) for feature in dict.fromkeys(mention.features))
    return max(0.0, round(mention.confidence + offset, 3))


def scored(mentions: list[VerdictMention], weights: Weights) -> list[VerdictMention]:
    """The mentions with their score as `score`, agreement between takeable candidates included."""
    bases = [base_score(m, weights) for m in mentions]
    out: list[VerdictMention] = []
    for index, (mention, base) in enumerate(zip(mentions, bases, strict=True)):
        agreeing = 0
        if base >= weights.candidate_only and weights.agreement:
            agreeing = sum(
                1
                for other, other_base in enumerate(bases)
                if other != index
                and other_base >= weights.candidate_only
                and mentions[other].verdict == mention.verdict
            )
        out.append(mention.with_score(round(base + weights.agreement * min(2, agreeing), 3)))
    return out


@dataclass
class Decision:
    """What the decision over one claim's candidates gave."""

    chosen: VerdictMention | None
    confidence: float = 0.0
    others: list[VerdictMention] = field(default_factory=list)  # statements that say something else
    candidates: list[VerdictMention] = field(default_factory=list)  # when undecided: what a reviewer should read
    reason: str | None = None  # why no verdict was taken
    blocks_fallback: bool = False  # hedged or conflicting own statements: statements elsewhere do not fill in


def decide_own(mentions: list[VerdictMention], weights: Weights = DEFAULT_WEIGHTS) -> Decision:
    """The verdict of a claim from the candidates on its own page (see the module docstring)."""
    return decide_scored(scored(mentions, weights), weights)


def decide_scored(ranked: list[VerdictMention], weights: Weights = DEFAULT_WEIGHTS) -> Decision:
    """`decide_own` of the mentions `ranked` holds as `scored` gave them, for a caller that keeps them too."""
    if not ranked:
        return Decision(None, reason="no verdict word in the claim's text")
    takeable = [m for m in ranked if m.score >= weights.candidate_only]
    if not takeable:
        hedges = [m for m in ranked if kind_of(m) == HEDGED or "hedged" in m.features]
        listed = sorted(hedges or ranked, key=lambda m: -m.score)
        if hedges:  # a hedged labelled statement is the agent's word: nothing elsewhere overrides it
            blocks = any(kind_of(m) == HEDGED for m in hedges)
            return Decision(None, candidates=listed, reason="only hedged statements", blocks_fallback=blocks)
        return Decision(None, candidates=listed, reason="verdict words only in passing, negated, quoted or conditional")
    best_index = max(range(len(takeable)), key=lambda i: (takeable[i].score, i))
    best = takeable[best_index]
    rivals = [m for m in takeable if m.verdict != best.verdict and m.score >= best.score - weights.rival_gap]
    if best.score < weights.weak and rivals:
        verdicts = ", ".join(sorted({m.verdict.value for m in [best, *rivals]}))
        return Decision(
            None, candidates=[best, *rivals], reason=f"candidates conflict ({verdicts})", blocks_fallback=True
        )
    others = [
        m
        for i, m in enumerate(takeable)
        if i != best_index and m.verdict != best.verdict and (m.score >= _SURE or m in rivals)
    ]
    return Decision(best, confidence=_confidence(best, takeable, weights), others=others)


def _confidence(best: VerdictMention, takeable: list[VerdictMention], weights: Weights) -> float:
    """The best score, lowered as the margin to the best statement of another verdict shrinks."""
    other = max((m.score for m in takeable if m.verdict != best.verdict), default=None)
    factor = 1.0
    if other is not None and weights.rival_gap > 0:
        margin = best.score - other
        closeness = min(1.0, max(0.0, (2 * weights.rival_gap - margin) / weights.rival_gap))
        factor = 1.0 - (1.0 - weights.conflict_factor) * closeness
    return round(min(1.0, best.score) * factor, 3)


def decide_elsewhere(
    mentions: list[VerdictMention], stated: set[Verdict], weights: Weights = DEFAULT_WEIGHTS
) -> Decision:
    """A claim whose page states nothing, filled from summary tables, index titles and logbook-wide sentences.

    `stated`: the verdicts the claims' own pages state; a logbook-wide "all claims verified" that one of them
    contradicts is not true of each claim."""
    ranked = [m for m in scored(mentions, weights) if m.score > 0]
    if not ranked:
        return Decision(None, reason="no verdict word in the claim's text or about it elsewhere")
    best = max(ranked, key=lambda m: m.score)
    rivals = [m for m in ranked if m is not best and m.verdict != best.verdict and m.score >= best.score]
    if rivals:
        verdicts = ", ".join(sorted({m.verdict.value for m in [best, *rivals]}))
        return Decision(None, candidates=[best, *rivals], reason=f"statements elsewhere conflict ({verdicts})")
    if kind_of(best) == "logbook summary" and any(v != best.verdict for v in stated):
        return Decision(
            None, candidates=[best], reason="a logbook-wide statement that another claim's page contradicts"
        )
    return Decision(best, confidence=round(min(1.0, best.score) * weights.fallback_factor, 3))
