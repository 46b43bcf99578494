"""Generated logbooks of one paper by several teams, for the paper view's tests and benchmark."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reviewapp.core.logbook.writer import LogbookDraft

ORID = "FlatMin123"
PAPER = {"openreview_id": ORID, "title": "Flat minima generalize"}

#: the paper's claims, each in two wordings (teams write them their own way)
CLAIMS = [
    ("Sharpness predicts the generalization gap", "The generalization gap grows with the sharpness of the minimum"),
    ("SAM reduces test error on CIFAR-10", "Sharpness-aware minimization lowers CIFAR-10 test error"),
    ("Flat minima survive weight noise", "Accuracy under Gaussian weight noise is higher at flat minima"),
    ("Large batches find sharper minima", "Training with large batch sizes converges to sharper minima"),
    ("The effect holds for transformers", "Vision transformers show the same flatness effect"),
    ("Warmup hides the early sharpness spike", "Learning-rate warmup masks the sharpness spike early in training"),
]
WORDS = {"verified": "VERIFIED", "falsified": "FALSIFIED", "toy": "TOY", "partial": "PARTIALLY VERIFIED",
         "inconclusive": "INCONCLUSIVE"}  # fmt: skip


def write_team_logbook(
    folder: Path,
    team: str,
    verdicts: Sequence[tuple[int, str]],
    *,
    wording: int = 0,
    number_from: int = 1,
    runs: int = 1,
) -> Path:
    """A logbook by `team` on the paper with one page per (claim index, verdict); claims are numbered in page
    order from `number_from`, so a team that skips or reorders claims renumbers them."""
    draft = LogbookDraft(
        f"Reproduction of flat minima by {team}",
        metadata={"space_id": f"{team}/flat-minima-repro", "paper": PAPER, "tags": [f"paper-{ORID}"]},
    )
    for number, (index, verdict) in enumerate(verdicts, start=number_from):
        statement = CLAIMS[index][wording]
        page = draft.page(f"Claim {number}: {statement}")
        page.markdown(f"> {statement}.", title="Claim")
        for run in range(runs):
            page.run(["python", f"check_{index}.py", f"--seed={run}"], f"seed {run}: metric {0.5 + index / 10:.2f}")
        page.markdown(f"**Verdict: {WORDS[verdict]}.** Checked at reduced budget.", title="Verdict")
    draft.write(folder)
    return folder
