"""What a written verdict means: negation, hedging, qualifiers, quotations and where the statement sits.

Each rule is tested where it must fire and where it must not, on logbooks written in Trackio's format.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
        ("Verdict: could not reproduce (out of memory).", Verdict.INCONCLUSIVE),
        ("Verdict: not confirmed.", Verdict.INCONCLUSIVE),
        ("Status: pending.", Verdict.INCONCLUSIVE),
        ("Verdict: UNRESOLVED", Verdict.INCONCLUSIVE),
        ("Verdict: disproved by the ablation.", Verdict.FALSIFIED),
        ("Verdict: disconfirmed.", Verdict.FALSIFIED),
        ("Verdict: insufficient evidence.", Verdict.INCONCLUSIVE),
        ("Verdict: INDETERMINATE", Verdict.INCONCLUSIVE),
        ("Verdict: REPLICATED", Verdict.VERIFIED),
        ("**Status:** Validated on all three datasets.", Verdict.VERIFIED),
        ("Verdict: mostly reproduced (2 of 3 datasets).", Verdict.PARTIAL),
        ("Verdict: qualitatively reproduced; magnitudes differ.", Verdict.PARTIAL),
        # plain positives
        ("Verdict: the result matches the paper.", Verdict.VERIFIED),
        ("Verdict: holds.", Verdict.VERIFIED),
        ("Verdict: CONFIRMED at the paper's scale.", Verdict.VERIFIED),
        # qualifiers turn a positive into toy or partial
        ("Verdict: verified at reduced scale.", Verdict.TOY),
        ("Verdict: VERIFIED on a proxy dataset.", Verdict.TOY),
        ("Verdict: supported, but only on a small-scale run.", Verdict.TOY),
        ("Verdict: not fully reproduced.", Verdict.PARTIAL),
        ("Verdict: supported in a scaled-down setting.", Verdict.TOY),
        # another claim named in the statement does not mix its verdict into this one
        ("**Verdict: VERIFIED.** Unlike claim 2, which was falsified.", Verdict.VERIFIED),
        ("Verdict: verified, whereas claim 3 was refuted.", Verdict.VERIFIED),
        # a remark in parentheses does not overturn the head of the statement
        ("Verdict: SUPPORTED (taxonomy confirmed; pipeline not independently verifiable)", Verdict.VERIFIED),
        ("Verdict: FALSIFIED (the direction of the effect is confirmed)", Verdict.FALSIFIED),
        # a dash label with a score fraction, as some agents write it
        ("**Verdict - PARTIALLY VERIFIED (1/2).**", Verdict.PARTIAL),
        ("Verdict — VERIFIED AS A CONDITIONAL THEOREM (2/2).", Verdict.VERIFIED),
        # the paper named inside the agent's own label does not make it the paper's
        ("On the paper's benchmark, verdict: VERIFIED.", Verdict.VERIFIED),
        ("**Verdict (paper scale): FALSIFIED**", Verdict.FALSIFIED),
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
        "It is likely **VERIFIED**, but we ran one seed.",  # a hedge before a bold word
        "**Verdict contract:** VERIFIED only if the bound holds for all n.",
        # a dash that is not a label
        "Status-quo baselines - verified elsewhere - are listed below.",
        # a verdict hoped for or aimed at is not given
        "Expected verdict: VERIFIED",
        "**Target outcome:** reproduced within 1%.",
        # a claim's own words, not a verdict on it
        "The paper claims the method is verified on ImageNet, as the authors report.",
        "The model is validated on held-out data as in the paper.",
        # the paper's or the authors' statements, labelled like a verdict
        "The paper's conclusion: the bound holds for all n.",
        "**Paper's verdict:** VERIFIED",
        "Conclusion of the paper: the method is verified on ImageNet.",
        "The authors' result: reproduced in three labs.",
    ],
)
def test_statements_that_are_not_the_agents_verdict(tmp_path: Path, body: str) -> None:
    assert one_claim(tmp_path, body)[0] is Verdict.UNSTATED


@pytest.mark.parametrize(
    "body",
    [
        "**Verdict: Likely verified** (single seed).",
        "Verdict: probably FALSIFIED.",
        "Status: appears to be reproduced.",
        "Verdict: likely **VERIFIED**, one seed only.",
    ],
)
def test_a_hedged_verdict_is_unstated_with_the_statement_as_a_candidate(tmp_path: Path, body: str) -> None:
    draft = LogbookDraft("Reproduction: Hedges")
    draft.page("Claim 1: Widgets").markdown(body)
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.UNSTATED and claim.verdict_mention is None
    [candidate] = claim.candidates
    assert candidate.text and candidate.confidence < 0.35


@pytest.mark.parametrize(
    "body",
    [
        # must not fire: the hedge qualifies something else, or comes after the verdict
        "**Verdict: VERIFIED** (likely to hold at larger scale too).",
        "Verdict: VERIFIED. The gap is probably due to seeds.",
    ],
)
def test_a_hedge_elsewhere_in_the_statement_leaves_the_verdict(tmp_path: Path, body: str) -> None:
    assert one_claim(tmp_path, body)[0] is Verdict.VERIFIED


def test_a_hedged_statement_does_not_outvote_a_plain_one(tmp_path: Path) -> None:
    body = "Early on: likely verified.\n\n**Verdict: FALSIFIED.**"
    assert one_claim(tmp_path, body)[0] is Verdict.FALSIFIED


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


# --- where the verdict is written, and which place wins -------------------------------------------------------


def write_page(tmp_path: Path, title: str, text_after_h1: str, cells: list[tuple[dict, str]]) -> list:
    """A claim page written by hand: free text between the H1 and the first cell, then cells as given."""
    draft = LogbookDraft("Reproduction: Places")
    page = draft.page(title)
    for header, body in cells:
        page.raw_cell(header, body)
    root = draft.write(tmp_path)
    file = root / "pages" / page.slug / "page.md"
    text = file.read_text(encoding="utf-8")
    file.write_text(text.replace(f"# {title}\n\n", f"# {title}\n\n{text_after_h1}\n", 1), encoding="utf-8")
    return read_logbook(tmp_path).claims


def output_cell(json_text: str) -> tuple[dict, str]:
    return {"type": "code", "title": "verifier"}, f"````output\n{json_text}\n````"


def test_a_verdict_in_the_preamble_before_the_first_cell(tmp_path: Path) -> None:
    [claim] = write_page(
        tmp_path, "Claim 1: Widgets", "**Verdict: FALSIFIED. Confidence: HIGH.**", [({"type": "markdown"}, "Notes.")]
    )
    assert (claim.verdict, claim.verdict_mention.cell, claim.verdict_mention.source) == (
        Verdict.FALSIFIED,
        None,
        "claim text",
    )


def test_a_heading_inside_a_cell_body(tmp_path: Path) -> None:
    body = "Ran the sweep.\n\n### Verdict\n\nPartially verified: only d ≤ 5 was reached."
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [({"type": "markdown", "title": "Evidence"}, body)])
    assert claim.verdict is Verdict.PARTIAL and claim.verdict_mention.source == "verdict section"


def test_verifier_json_in_a_code_output_is_the_last_resort(tmp_path: Path) -> None:
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [output_cell('{"status": "verified", "checks": 9}')])
    assert (claim.verdict, claim.verdict_mention.source) == (Verdict.VERIFIED, "code output")
    assert claim.confidence < 0.6


def test_a_verdict_line_printed_by_a_run_points_at_its_line_of_the_page(tmp_path: Path) -> None:
    body = "````bash\n$ python check.py\n````\n\n````output\nloading\nstep 3 loss 0.2\nverdict: falsified\n````"
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [({"type": "code", "title": "check"}, body)])
    [mention] = [m for m in claim.considered if "output line" in m.features]
    assert mention.verdict is Verdict.FALSIFIED
    page_lines = next(tmp_path.rglob("claim-1-widgets/page.md")).read_text(encoding="utf-8").split("\n")
    assert page_lines[mention.line - 1] == "verdict: falsified"


@pytest.mark.parametrize(
    ("json_text", "verdict"),
    [
        ('{"status": "pending", "job": 7}', Verdict.UNSTATED),  # a job's state
        ('{"status": "NOT_EXECUTED"}', Verdict.UNSTATED),
        ('{"verdict": "NOT_EXECUTED"}', Verdict.INCONCLUSIVE),  # a verdict key means it
        ('{"status": "inconclusive"}', Verdict.INCONCLUSIVE),
    ],
)
def test_a_status_key_holding_a_jobs_state_is_not_a_verdict(tmp_path: Path, json_text: str, verdict: Verdict) -> None:
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [output_cell(json_text)])
    assert claim.verdict is verdict


def test_nested_json_verdicts_are_about_sub_checks(tmp_path: Path) -> None:
    data = '{"finite_penalty": {"verdict": "FALSIFIED"}, "score": 1}'
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [output_cell(data)])
    assert claim.verdict is Verdict.UNSTATED


@pytest.mark.parametrize(
    ("markdown", "json_text", "verdict", "source"),
    [
        # labelled statement > table > code output, whatever their order on the page
        ("| Check | Verdict |\n|---|---|\n| bound | TOY |\n\nVerdict: falsified.", '{"verdict": "VERIFIED"}',
         Verdict.FALSIFIED, "claim text"),
        ("| Verdict | TOY |\n|---|---|", '{"verdict": "VERIFIED"}', Verdict.TOY, "claim table"),
        ("| Claim | Status |\n|---|---|\n| 1 | PARTIAL |\n| 2 | VERIFIED |", '{"status": "FALSIFIED"}',
         Verdict.PARTIAL, "claim table"),
        ("Ran it.", '{"verdict": "NOT_EXECUTED"}', Verdict.INCONCLUSIVE, "code output"),
    ],
)  # fmt: skip
def test_precedence_of_places_on_the_claims_page(
    tmp_path: Path, markdown: str, json_text: str, verdict: Verdict, source: str
) -> None:
    cells = [output_cell(json_text), ({"type": "markdown"}, markdown)]
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", cells)
    assert (claim.verdict, claim.verdict_mention.source) == (verdict, source)


def test_a_table_about_something_else_is_not_a_verdict(tmp_path: Path) -> None:
    table = "| | This reproduction | Full replication |\n|---|---|---|\n| Outcome | measured | NOT ATTEMPTED |"
    rows = "| Step | Result |\n|---|---|\n| install | confirmed |\n| run | confirmed |"  # several rows, no claim column
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [({"type": "markdown"}, f"{table}\n\n{rows}")])
    assert claim.verdict is Verdict.UNSTATED


@pytest.mark.parametrize(
    ("title", "verdict"),
    [
        ("Claim 1 (FALSIFIED): The widget bound", Verdict.FALSIFIED),
        ("[TOY] Claim 1: The widget bound", Verdict.TOY),
        ("Claim 1: The widget bound [partially verified]", Verdict.PARTIAL),
        # must not fire: a bracket that says more than a verdict, or a negated one
        ("Claim 1: Accuracy (toy datasets excluded)", Verdict.UNSTATED),
        ("Claim 1: The bound, not (verified)", Verdict.UNSTATED),
        ("Claim 1 — Verdict: likely verified", Verdict.UNSTATED),  # hedged in the title too
    ],
)
def test_a_verdict_in_brackets_in_the_title(tmp_path: Path, title: str, verdict: Verdict) -> None:
    assert one_claim(tmp_path, "We ran it.", title=title)[0] is verdict


def summary_then_claims(tmp_path: Path, table: str, claim_bodies: list[str]) -> list:
    draft = LogbookDraft("Reproduction: Tables")
    draft.page("Executive summary").markdown(table)
    for n, body in enumerate(claim_bodies, 1):
        draft.page(f"Claim {n}: Widgets {n}").markdown(body)
    draft.write(tmp_path)
    return read_logbook(tmp_path).claims


@pytest.mark.parametrize(
    "header",
    [
        "| Claim | Logbook Judge verdict | Our verdict |",
        "| Claim | Paper result | Reproduction result |",
        "| Claim | Expected outcome | Status |",
    ],
)
def test_a_summary_column_about_someone_elses_verdict_is_not_the_agents(tmp_path: Path, header: str) -> None:
    table = f"{header}\n|---|---|---|\n| 1 | TOY | VERIFIED |\n| 2 | VERIFIED | FALSIFIED |"
    claims = summary_then_claims(tmp_path, table, ["We ran it.", "We ran it."])
    assert [c.verdict for c in claims] == [Verdict.VERIFIED, Verdict.FALSIFIED]
    assert all(c.verdict_mention.source == "summary table" for c in claims)


def test_a_summary_table_whose_only_verdict_column_is_the_judges_gives_nothing(tmp_path: Path) -> None:
    table = "| Claim | Judge verdict |\n|---|---|\n| 1 | TOY |"
    [claim] = summary_then_claims(tmp_path, table, ["We ran it."])
    assert claim.verdict is Verdict.UNSTATED and not claim.other_mentions


def test_a_previous_verdict_column_is_history_not_a_contradiction(tmp_path: Path) -> None:
    table = "| Claim | Previous verdict | Current verdict |\n|---|---|---|\n| 1 | TOY | VERIFIED |"
    [claim] = summary_then_claims(tmp_path, table, ["**Verdict: VERIFIED.**"])
    assert claim.verdict is Verdict.VERIFIED and not claim.contradicted
    assert [(m.verdict, m.page) for m in claim.history] == [(Verdict.TOY, "executive-summary")]


# --- precision before recall ----------------------------------------------------------------------------------


def test_weak_and_conflicting_evidence_is_unstated_with_the_candidates(tmp_path: Path) -> None:
    body = "The small run looked VERIFIED.\n\nThe larger run came out INCONCLUSIVE."
    draft = LogbookDraft("Reproduction: Weak")
    draft.page("Claim 1: Widgets").markdown(body)
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.UNSTATED and claim.verdict_mention is None
    assert [m.verdict for m in claim.candidates] == [Verdict.INCONCLUSIVE, Verdict.VERIFIED]
    assert all(m.text for m in claim.candidates)


def test_two_equally_sure_verdicts_keep_the_later_and_show_the_conflict(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Conflict")
    draft.page("Claim 1: Widgets").markdown("Verdict: toy.").markdown("Verdict: verified.")
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.VERIFIED and claim.confidence < 0.9
    assert [m.verdict for m in claim.other_mentions] == [Verdict.TOY]


def test_summaries_that_disagree_do_not_fill_a_missing_verdict(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Summaries")
    draft.page("Executive summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |")
    draft.page("Claim 1: Widgets").markdown("We ran the sweep.")
    draft.page("Conclusion").markdown("| Claim | Verdict |\n|---|---|\n| 1 | FALSIFIED |")
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.UNSTATED
    assert {m.verdict for m in claim.candidates} == {Verdict.VERIFIED, Verdict.FALSIFIED}


def test_one_summary_fills_a_missing_verdict_with_its_sentence_and_a_lower_confidence(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Summary")
    draft.page("Executive summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |")
    draft.page("Claim 1: Widgets").markdown("We ran the sweep.")
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.VERIFIED and 0 < claim.confidence < 0.7
    assert (claim.verdict_mention.text, claim.verdict_mention.source) == ("| 1 | VERIFIED |", "summary table")


@pytest.mark.parametrize(
    ("first_page", "second"),
    [
        # a logbook-wide statement that a claim's own page contradicts is not true of each claim: no fill
        ("**Verdict: VERIFIED.**", Verdict.UNSTATED),
        # must still fill when every stated claim agrees with it
        ("**Verdict: TOY.**", Verdict.TOY),
        ("We ran it.", Verdict.TOY),
    ],
)
def test_a_logbook_wide_statement_fills_only_when_no_claim_page_says_otherwise(
    tmp_path: Path, first_page: str, second: Verdict
) -> None:
    draft = LogbookDraft("Reproduction: Global")
    draft.page("Executive summary").markdown("Both claims were verified at reduced scale.")
    draft.page("Claim 1: Widgets").markdown(first_page)
    draft.page("Claim 2: Gadgets").markdown("We ran the sweep.")
    draft.write(tmp_path)
    claims = read_logbook(tmp_path).claims
    assert claims[1].verdict is second
    if second is Verdict.UNSTATED:
        assert [(m.verdict, m.source) for m in claims[1].candidates] == [(Verdict.TOY, "logbook summary")]


def test_a_summary_row_that_links_the_claims_page_instead_of_numbering_it(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Linked rows")
    draft.page("Executive summary").markdown(
        "| Claim | Verdict |\n|---|---|\n| [Sparse attention](#/sparse-attention) | VERIFIED |\n"
        "| [Setup](#/setup) | DEFERRED |"  # must not fire: a linked page that is not a claim
    )
    draft.page("Sparse attention").markdown("We ran it.")
    draft.page("Setup").markdown("Installed.")
    draft.page("Conclusion").markdown("Done.")
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert (claim.page, claim.verdict, claim.verdict_mention.source) == (
        "sparse-attention",
        Verdict.VERIFIED,
        "summary table",
    )


def test_a_bold_lead_in_after_an_emoji_is_still_a_lead_in(tmp_path: Path) -> None:
    [claim] = write_page(tmp_path, "Claim 1: Widgets", "", [({"type": "markdown"}, "✅ **Reproduced.** Within 1%.")])
    assert (claim.verdict, claim.confidence) == (Verdict.VERIFIED, 0.75)


@pytest.mark.parametrize(
    "body",
    [
        # a section holding someone else's verdict, after the agent's own
        "**Verdict: VERIFIED**\n\n## Logbook Judge feedback\n\nVerdict: TOY. Scale too small.",
        "Verdict: VERIFIED.\n\n### Judge's assessment (round 1)\n\n**Status: INCONCLUSIVE**",
        "Verdict: VERIFIED.\n\n## Reviewer comments\n\n| Verdict | FALSIFIED |\n|---|---|",
        # an earlier attempt's section, before the current one
        "## Previous attempt\n\nVerdict: FALSIFIED.\n\n## Current result\n\nVerdict: VERIFIED.",
        "## History\n\n- v1: **TOY**\n- v2: **FALSIFIED**\n\n## Verdict\n\nVerified at the paper's scale.",
        # must not fire: headings that only mention judges, feedback or prior work
        "## Judge agreement results\n\n**Verdict: VERIFIED**",
        "## Feedback ablation\n\nVerdict: VERIFIED.",
        "## Prior work\n\nAn earlier study found it falsified [3].\n\n## Verdict\n\nVerified.",
    ],
)
def test_sections_that_hold_someone_elses_or_an_earlier_verdict(tmp_path: Path, body: str) -> None:
    assert one_claim(tmp_path, body)[0] is Verdict.VERIFIED


def test_an_earlier_attempts_section_is_the_claims_history(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Sections")
    draft.page("Claim 1: Widgets").markdown(
        "## Previous attempt\n\nVerdict: FALSIFIED.\n\n## Now\n\nVerdict: VERIFIED."
    )
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.VERIFIED and not claim.contradicted and claim.confidence == 0.9
    assert [(m.verdict, m.source) for m in claim.history] == [(Verdict.FALSIFIED, "history")]


def test_a_mention_scored_keeps_every_other_field() -> None:
    """`with_score` spells out the fields that `dataclasses.replace` would copy: a field added later and left out
    there would be dropped from every scored candidate."""
    import dataclasses

    from reviewapp.core.logbook.model import VerdictMention

    values = {
        "verdict": Verdict.TOY,
        "raw": "TOY",
        "text": "Verdict: toy (two seeds).",
        "page": "claim-3",
        "line": 12,
        "cell": 4,
        "source": "claim text",
        "confidence": 0.9,
        "features": ("labelled", "negated"),
        "score": 0.25,
    }
    assert set(values) == {f.name for f in dataclasses.fields(VerdictMention)}
    mention = VerdictMention(**values)  # type: ignore[arg-type]
    assert mention.with_score(0.75) == dataclasses.replace(mention, score=0.75)
    assert mention.with_score(0.75).score == 0.75 and mention.score == 0.25


_ATTRIBUTION_PIECES = st.sampled_from(
    [
        "judges", "judged", "the grader", "leaderboard", "earlier", "previous run", "prior attempt", "original",
        "first version", "was rated", "had been graded", "expected", "target outcome", "planned-result", "paper's",
        "authors'", "published verdict", "**", "__", "’s", "verdict", " ", " ", "\n", ".", ";", "!", "?", "|", "x",
        "prejudges", "e", "Verdict: VERIFIED", "it",
    ]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(_ATTRIBUTION_PIECES, max_size=40), st.integers(min_value=0, max_value=400))
def test_attribution_is_read_as_its_three_patterns_read_the_window(pieces: list[str], cut: int) -> None:
    """attributed searches from the sentence's start only: the answer is the three patterns' on the whole window."""
    text = "".join(pieces)
    _attributed_as_the_window_reads(text, min(cut, len(text)))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("prejudges" + " " * 154, True),  # the window starts inside a word, at "judges"
        ("As the paper's\nverdict", True),  # a label over a line break
        ("The earlier\n\nattempt", True),
        ("Judges said so. Now", False),
        ("Judges said so| now", False),
    ],
)
def test_attribution_at_the_edges_of_its_window(text: str, expected: bool) -> None:
    assert _attributed_as_the_window_reads(text, len(text)) is expected


def _attributed_as_the_window_reads(text: str, at: int) -> bool:
    from reviewapp.core.logbook import verdict_mentions as vm

    window = text[max(0, at - vm._ATTRIBUTION_WINDOW) : at]
    expected = any(p.search(window) for p in (vm._ATTRIBUTED, vm._NOT_GIVEN, vm._OWNED_LABEL))
    assert vm.attributed(text, at) == expected
    return expected
