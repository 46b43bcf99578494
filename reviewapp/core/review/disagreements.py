"""The disagreement list: every claim where two of agent, Logbook Judge and reviewer state different verdicts.

One row per claim and clashing pair (agent vs Logbook Judge, Logbook Judge vs reviewer, agent vs reviewer), with how
far apart the two verdicts are on the ordinal scale the agreement statistics use, and how sure the Logbook Judge's
claim match is, so that the list sorts by what most needs a look.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from reviewapp.core.logbook_judge.agreement_report import ORDINAL_ORDER
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict, disagree

PAIRS: tuple[tuple[str, str, str], ...] = (
    ("agent", "judge", "Agent vs Logbook Judge"),
    ("judge", "human", "Logbook Judge vs reviewer"),
    ("agent", "human", "Agent vs reviewer"),
)


@dataclass(frozen=True, slots=True)
class Disagreement:
    claim_key: str
    label: str  # "Claim 3" or the title of an unnumbered claim
    title: str
    pair: str  # one of the PAIRS names
    first: Verdict
    second: Verdict
    distance: int  # steps apart on ORDINAL_ORDER, 1..4
    match_confidence: float | None  # of the Logbook Judge's claim match, when the pair involves it
    position: int  # the claim's place in the list, for a stable default order


def ordinal_distance(a: Verdict, b: Verdict) -> int:
    order = {v: i for i, v in enumerate(ORDINAL_ORDER)}
    return abs(order[a] - order[b]) if a in order and b in order else 0


def disagreements(
    claims: Sequence[tuple[str, str, str]],
    slots: Mapping[str, VerdictSlots],
    match_confidence: Mapping[str, float] | None = None,
) -> list[Disagreement]:
    """`claims`: (key, label, title) in list order; `slots`: their verdicts; `match_confidence`: per claim key."""
    rows: list[Disagreement] = []
    for position, (key, label, title) in enumerate(claims):
        slot = slots.get(key)
        if slot is None:
            continue
        values = {"agent": slot.agent, "judge": slot.logbook_judge, "human": slot.human}
        for a, b, name in PAIRS:
            first, second = values[a], values[b]
            if first is None or second is None or not disagree(first, second):
                continue
            confidence = (match_confidence or {}).get(key) if "judge" in (a, b) else None
            rows.append(
                Disagreement(key, label, title, name, first, second, ordinal_distance(first, second), confidence,
                             position)
            )  # fmt: skip
    return rows
