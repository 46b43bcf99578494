"""The three verdicts a claim can carry side by side (agent, Logbook Judge, human reviewer) and whether they clash."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reviewapp.core.logbook.model import Claim
from reviewapp.core.verdicts import Verdict, disagree

SLOT_NAMES = {"agent": "Agent", "judge": "Logbook Judge", "human": "Reviewer"}


@dataclass(frozen=True, slots=True)
class VerdictSlots:
    agent: Verdict
    logbook_judge: Verdict | None = None  # None: not imported yet
    human: Verdict | None = None  # None: the reviewer has not judged this claim
    agent_contradicted: bool = False  # the logbook states another verdict for this claim elsewhere

    def stated(self) -> dict[str, Verdict]:
        values = {"agent": self.agent, "judge": self.logbook_judge, "human": self.human}
        return {k: v for k, v in values.items() if v is not None and v is not Verdict.UNSTATED}

    def disagreements(self) -> list[str]:
        """Why this claim is marked as disputed, one sentence per clash; empty when all stated verdicts agree."""
        reasons: list[str] = []
        if self.agent_contradicted:
            reasons.append("The logbook states a different verdict for this claim elsewhere.")
        stated = list(self.stated().items())
        if any(disagree(a, b) for i, (_, a) in enumerate(stated) for _, b in stated[i + 1 :]):
            # one sentence naming each side once: "Logbook Judge says falsified; Agent and Reviewer say partial."
            sides: dict[Verdict, list[str]] = {}
            for name, verdict in stated:
                sides.setdefault(verdict, []).append(SLOT_NAMES[name])
            said = [f"{' and '.join(names)} {'say' if len(names) > 1 else 'says'} {verdict.value}"
                    for verdict, names in sides.items()]  # fmt: skip
            reasons.append("; ".join(said) + ".")
        return reasons

    @property
    def disagreement(self) -> bool:
        return bool(self.disagreements())

    def has(self, verdict: Verdict) -> bool:
        """Any slot holds `verdict` (UNSTATED matches a claim nobody has judged yet)."""
        if verdict is Verdict.UNSTATED:
            return not self.stated()
        return verdict in (self.agent, self.logbook_judge, self.human)


def slots_for(claim: Claim, logbook_judge: Mapping[str, Verdict], human: Mapping[str, Verdict]) -> VerdictSlots:
    return VerdictSlots(claim.verdict, logbook_judge.get(claim.key), human.get(claim.key), claim.contradicted)
