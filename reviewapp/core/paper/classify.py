"""The challenge's paper classes, decided per claim and per paper from the verdict that decides each cell.

A cell is one logbook's verdict on one paper claim. It is decided by a person's verdict over the Logbook Judge's
over the agent's. People (any role but author: authors are interested parties and their responses never decide a
class) who disagree on a cell (verdicts in different classes, as everywhere: verified and partial only differ in
degree) make it *disputed*: verified against falsified makes the claim contested; falsified against anything else
leaves the cell undecided; otherwise, and between verdicts of one class, the most cautious verdict decides
(inconclusive < toy < partial < verified).

Per claim, over its cells, in this order: **contested** (one cell verified, another falsified, or a cell disputed
between the two), **falsified**, **verified** (some cell verified, none falsified), **partially verified** (some
partial), **toy only** (some toy), **nothing established**.

Per paper, in this order: **contested** (any claim contested), **falsified** (at least one claim falsified; "all
falsified" when every claim is), **fully verified** (every claim verified: every registry claim when the registry is
imported, else every aligned claim), **partially verified** (some claims verified or partially verified, none
falsified), **toy only** (nothing verified or falsified, at least one toy), **nothing established**.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from reviewapp.core.verdicts import Verdict, dispute

DecidedBy = Literal["person", "Logbook Judge", "agent"]
ClaimClass = Literal["contested", "falsified", "verified", "partially verified", "toy only", "nothing established"]
PaperClass = Literal[
    "contested", "falsified", "fully verified", "partially verified", "toy only", "nothing established"
]
_CAUTION = (Verdict.INCONCLUSIVE, Verdict.TOY, Verdict.PARTIAL, Verdict.VERIFIED)


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict | None  # None: nothing decides this cell (or people disagree too far)
    decided_by: DecidedBy | None
    disputed: bool = False  # people disagree on this cell
    verified_vs_falsified: bool = False  # ... and one of them says verified, another falsified


def decide(people: Mapping[str, Verdict], logbook_judge: Verdict | None, agent: Verdict | None) -> Decision:
    """The verdict of one cell: a person's over the Logbook Judge's over the agent's."""
    said = {v for v in people.values() if v is not Verdict.UNSTATED}
    if said:
        if len(said) == 1:
            return Decision(next(iter(said)), "person")
        if {Verdict.VERIFIED, Verdict.FALSIFIED} <= said:
            return Decision(None, "person", disputed=True, verified_vs_falsified=True)
        if Verdict.FALSIFIED in said:
            return Decision(None, "person", disputed=True)
        cautious = min(said, key=_CAUTION.index)  # verified and partial: a difference of degree, not a dispute
        return Decision(cautious, "person", disputed=any(dispute(a, b) for a in said for b in said))
    if logbook_judge is not None and logbook_judge is not Verdict.UNSTATED:
        return Decision(logbook_judge, "Logbook Judge")
    if agent is not None and agent is not Verdict.UNSTATED:
        return Decision(agent, "agent")
    return Decision(None, None)


def classify_claim(cells: Iterable[Decision]) -> ClaimClass:
    decisions = list(cells)
    verdicts = {d.verdict for d in decisions if d.verdict is not None}
    if any(d.verified_vs_falsified for d in decisions) or {Verdict.VERIFIED, Verdict.FALSIFIED} <= verdicts:
        return "contested"
    if Verdict.FALSIFIED in verdicts:
        return "falsified"
    if Verdict.VERIFIED in verdicts:
        return "verified"
    if Verdict.PARTIAL in verdicts:
        return "partially verified"
    if Verdict.TOY in verdicts:
        return "toy only"
    return "nothing established"


def classify_paper(claims: Mapping[str, ClaimClass], counted: Iterable[str] | None = None) -> tuple[PaperClass, bool]:
    """(class, all falsified). `counted` are the claims "fully verified" needs (the registry's, when imported)."""
    classes = list(claims.values())
    needed = list(counted) if counted is not None else list(claims)
    if "contested" in classes:
        return "contested", False
    if "falsified" in classes:
        return "falsified", bool(classes) and all(c == "falsified" for c in classes)
    if needed and all(claims.get(key) == "verified" for key in needed):
        return "fully verified", False
    if any(c in ("verified", "partially verified") for c in classes):
        return "partially verified", False
    if "toy only" in classes:
        return "toy only", False
    return "nothing established", False
