"""What a written verdict means: negation, hedging, qualifiers, quotations and where the statement sits.

Each rule is tested where it must fire and where it must not, on logbooks written in Trackio's format.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.verdicts import Verdict


def one_claim(tmp_path: Path, body: str, title: str = "Claim 1: The widget bound") -> tuple[Verdict, str | None]:
    draft = LogbookDraft("Reproduction: Rules")
    draft.page(title).markdown(body)
    draft.write(tmp_path)
    claim = read_logbook(tmp_path).claims[0]
    return claim.verdict, claim.verdict_raw


@pytest.mark.parametrize(
    ("body", "verdict"),
    [
        # negated and hedged outcomes are inconclusive, never verified
        ("**Verdict: NOT INDEPENDENTLY VERIFIED (paper-reported, infrastructure confirmed)**", Verdict.INCONCLUSIVE),
        ("Verdict: could not be confirmed on our hardware.", Verdict.INCONCLUSIVE),
        ("**Verdict - NOT EXECUTED (0/2).**", Verdict.INCONCLUSIVE),
        ("Status: not attempted (no GPU).", Verdict.INCONCLUSIVE),
        ("Verdict: BLOCKED by missing data.", Verdict.INCONCLUSIVE),
        ("Verdict: deferred to the next round.", Verdict.INCONCLUSIVE),
        ("Verdict: unable to reproduce without the private data.", Verdict.INCONCLUSIVE),
        # plain positives
        ("Verdict: the result matches the paper.", Verdict.VERIFIED),
        ("Verdict: holds.", Verdict.VERIFIED),
        ("Verdict: CONFIRMED at the paper's scale.", Verdict.VERIFIED),
        # qualifiers turn a positive into toy or partial
        ("Verdict: verified at reduced scale.", Verdict.TOY),
        ("Verdict: VERIFIED on a proxy dataset.", Verdict.TOY),
        ("Verdict: supported, but only on a small-scale run.", Verdict.TOY),
        ("Verdict: not fully reproduced.", Verdict.PARTIAL),
        # a remark in parentheses does not overturn the head of the statement
        ("Verdict: SUPPORTED (taxonomy confirmed; pipeline not independently verifiable)", Verdict.VERIFIED),
        ("Verdict: FALSIFIED (the direction of the effect is confirmed)", Verdict.FALSIFIED),
        # a dash label with a score fraction, as some agents write it
        ("**Verdict - PARTIALLY VERIFIED (1/2).**", Verdict.PARTIAL),
        ("Verdict — VERIFIED AS A CONDITIONAL THEOREM (2/2).", Verdict.VERIFIED),
    ],
)
def test_what_a_labelled_verdict_means(tmp_path: Path, body: str, verdict: Verdict) -> None:
    assert one_claim(tmp_path, body)[0] is verdict


@pytest.mark.parametrize(
    "body",
    [
        # quoted from the Logbook Judge or an earlier attempt: not the agent's verdict
        "The Logbook Judge rated this claim TOY in the last round.",
        "The live judge score is 12/12: every claim is `FALSIFIED`.",
        "Our earlier attempt said **VERIFIED**, before the data bug was found.",
        "It was rated **toy** by the grader.",
        # negations and conditions of the words, not verdicts
        "No claim is BLOCKED any more; the run continues.",
        "**Verdict contract:** VERIFIED only if the bound holds for all n.",
        # a dash that is not a label
        "Status-quo baselines - verified elsewhere - are listed below.",
    ],
)
def test_statements_that_are_not_the_agents_verdict(tmp_path: Path, body: str) -> None:
    assert one_claim(tmp_path, body)[0] is Verdict.UNSTATED


def test_a_bold_lead_in_outranks_a_bold_detail_later(tmp_path: Path) -> None:
    body = (
        "**REPRODUCED FROM RELEASED OUTPUTS.** The aggregate matches.\n\n"
        "The paid oracle calls were **not rerun**, so regeneration is not shown."
    )
    assert one_claim(tmp_path, body) == (Verdict.VERIFIED, "REPRODUCED")


def test_the_judges_verdict_next_to_the_agents_own(tmp_path: Path) -> None:
    body = "The Logbook Judge marked this claim toy.\n\n**Verdict: VERIFIED** after the full-scale rerun."
    assert one_claim(tmp_path, body)[0] is Verdict.VERIFIED


def test_the_claim_title_stating_the_claim_is_not_a_verdict(tmp_path: Path) -> None:
    assert one_claim(tmp_path, "We ran it.", title="Claim 1: Property 1 holds at scale")[0] is Verdict.UNSTATED
