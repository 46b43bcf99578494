"""Generated must-fire and must-not-fire cases for each feature of the verdict decision.

Every case is one generated logbook. A must-fire case states a verdict in one kind of place (a heading, a labelled
line, a verdict column, a title bracket, a sentence that names the claim) in several markups; the reader must take
it. A must-not-fire case writes the same words where they are no verdict of the agent's (negated, quoted from the
Logbook Judge, hedged, on a historical page, in a table about something else); the reader must leave the claim
unstated, say why, and still list the words as candidates with the feature that voided them.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from reviewapp.core.logbook.model import Claim
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.verdicts import Verdict

WORDS: dict[str, Verdict] = {
    "verified": Verdict.VERIFIED,
    "reproduced": Verdict.VERIFIED,
    "confirmed": Verdict.VERIFIED,
    "falsified": Verdict.FALSIFIED,
    "refuted": Verdict.FALSIFIED,
    "partial": Verdict.PARTIAL,
    "mixed": Verdict.PARTIAL,
    "toy": Verdict.TOY,
    "inconclusive": Verdict.INCONCLUSIVE,
    "blocked": Verdict.INCONCLUSIVE,
}
MARKUPS = {
    "plain": lambda w: w,
    "upper": lambda w: w.upper(),
    "bold": lambda w: f"**{w.upper()}**",
    "title-case": lambda w: w.title(),
}


def claims_of(tmp_path: Path, pages: list[tuple[str, str]]) -> list[Claim]:
    draft = LogbookDraft("Reproduction: Generated")
    for title, body in pages:
        draft.page(title).markdown(body)
    draft.write(tmp_path)
    return read_logbook(tmp_path).claims


def the_claim(tmp_path: Path, body: str, title: str = "Claim 1: Widgets") -> Claim:
    [claim] = claims_of(tmp_path, [(title, body)])
    return claim


def cases(*templates: str) -> list:
    return [
        pytest.param(template.format(word=MARKUPS[markup](word)), verdict, id=f"{word}-{markup}-{index}")
        for (index, template), (word, verdict), markup in product(enumerate(templates), WORDS.items(), MARKUPS)
    ]


# --- must fire ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "verdict"),
    cases(
        "# Claim 1 — {word}\n\nWe ran the sweep.",  # a heading read like a title
        "## Outcome: {word}\n\nWe ran the sweep.",
        "We ran the sweep.\n\nVerdict: {word}.",  # a labelled line
        "Status: {word} (three seeds).",
        "| Claim | Verdict |\n|---|---|\n| 1 | {word} |",  # a table column named verdict
    ),
)
def test_a_stated_verdict_is_taken(tmp_path: Path, body: str, verdict: Verdict) -> None:
    claim = the_claim(tmp_path, body)
    assert claim.verdict is verdict, [(m.verdict, m.features, m.text) for m in claim.considered]
    assert claim.verdict_mention is not None and claim.unstated_reason is None
    assert 0 < claim.confidence <= 1
    assert any(m.verdict is verdict and m.score >= claim.confidence for m in claim.considered)


@pytest.mark.parametrize(("word", "verdict"), list(WORDS.items()))
def test_a_verdict_in_the_title_brackets_is_taken(tmp_path: Path, word: str, verdict: Verdict) -> None:
    assert the_claim(tmp_path, "We ran the sweep.", title=f"Claim 1 ({word.upper()}): Widgets").verdict is verdict


@pytest.mark.parametrize("sentence", ["This verifies the claim.", "The results support the widget claim."])
def test_a_sentence_that_names_the_claim_is_taken(tmp_path: Path, sentence: str) -> None:
    claim = the_claim(tmp_path, f"We ran the sweep on three seeds. {sentence}")
    assert claim.verdict is Verdict.VERIFIED
    assert claim.verdict_mention is not None and "names the claim" in claim.verdict_mention.features


@pytest.mark.parametrize(("mark", "verdict"), [("✅", Verdict.VERIFIED), ("❌", Verdict.FALSIFIED)])
def test_a_mark_in_a_verdict_column_is_taken(tmp_path: Path, mark: str, verdict: Verdict) -> None:
    assert the_claim(tmp_path, f"| Claim | Status |\n|---|---|\n| 1 | {mark} |").verdict is verdict


# --- must not fire --------------------------------------------------------------------------------------------


def assert_unstated_with_candidates(claim: Claim, feature: str | None) -> None:
    assert claim.verdict is Verdict.UNSTATED and claim.verdict_mention is None
    assert claim.unstated_reason, "an unstated claim says why"
    assert claim.candidates, "the words on the page are listed for the reviewer"
    if feature is not None:
        assert any(feature in m.features for m in claim.considered), [m.features for m in claim.considered]


@pytest.mark.parametrize(
    ("body", "verdict"),
    cases(
        "We ran the sweep. Nothing suggests the bound is {word} yet.",
        "We never called the bound {word}.",
        "The sweep ran, but no claim here is {word} so far.",
    ),
)
def test_a_negated_word_is_a_candidate_not_the_verdict(tmp_path: Path, body: str, verdict: Verdict) -> None:
    assert_unstated_with_candidates(the_claim(tmp_path, body), "negated")


@pytest.mark.parametrize(
    ("body", "verdict"),
    cases(
        "We ran the sweep. The Logbook Judge rated this claim {word} last week.",
        "We ran the sweep. An earlier attempt was graded {word}.",
    ),
)
def test_a_verdict_quoted_from_someone_else_is_a_candidate_not_the_verdict(
    tmp_path: Path, body: str, verdict: Verdict
) -> None:
    assert_unstated_with_candidates(the_claim(tmp_path, body), "quoted")


@pytest.mark.parametrize(
    ("body", "verdict"),
    cases("Verdict: likely {word}.", "Status: appears to be {word}.", "We ran the sweep; it is probably {word}."),
)
def test_a_hedged_word_is_a_candidate_not_the_verdict(tmp_path: Path, body: str, verdict: Verdict) -> None:
    claim = the_claim(tmp_path, body)
    assert_unstated_with_candidates(claim, None)
    assert claim.unstated_reason == "only hedged statements"


@pytest.mark.parametrize(("word", "verdict"), list(WORDS.items()))
def test_a_historical_page_is_history_not_the_verdict(tmp_path: Path, word: str, verdict: Verdict) -> None:
    claims = claims_of(
        tmp_path,
        [("Claim 1: Widgets", "We ran the sweep again."), ("Historical attempt: Claim 1", f"Verdict: {word}.")],
    )
    [claim] = claims
    assert claim.verdict is Verdict.UNSTATED and claim.unstated_reason
    assert verdict in {m.verdict for m in claim.history}


@pytest.mark.parametrize(
    ("body", "verdict"),
    cases(
        "| Step | Result |\n|---|---|\n| install | {word} |\n| run | {word} |",  # several rows, no claim column
        "| | This reproduction | Full replication |\n|---|---|---|\n| Outcome | measured | {word} |",
        "| Claim | Paper result | Expected outcome |\n|---|---|---|\n| 1 | {word} | {word} |",  # someone else's
    ),
)
def test_a_table_about_something_else_is_not_the_verdict(tmp_path: Path, body: str, verdict: Verdict) -> None:
    claim = the_claim(tmp_path, body)
    assert claim.verdict is Verdict.UNSTATED and claim.unstated_reason
    assert claim.candidates or claim.considered


@pytest.mark.parametrize(("word", "verdict"), list(WORDS.items()))
def test_a_condition_is_not_the_verdict(tmp_path: Path, word: str, verdict: Verdict) -> None:
    claim = the_claim(tmp_path, f"Verdict contract: {word.upper()} only if the bound holds for every seed.")
    assert claim.verdict is Verdict.UNSTATED and claim.unstated_reason


def test_a_page_with_no_verdict_word_says_so(tmp_path: Path) -> None:
    claim = the_claim(tmp_path, "Document setup, runs, and results for Claim 1.")
    assert claim.verdict is Verdict.UNSTATED and not claim.candidates and not claim.considered
    assert claim.unstated_reason and "no verdict word" in claim.unstated_reason


# --- claim structures ---------------------------------------------------------------------------------------------


def test_several_claims_on_one_page_each_read_their_own_statement(tmp_path: Path) -> None:
    claims = claims_of(
        tmp_path,
        [("Claims 10 & 11: Widgets and gadgets", "Claim 10: **VERIFIED** on every seed.\n\nClaim 11: FALSIFIED.")],
    )
    assert [(c.key, c.n, c.verdict) for c in claims] == [
        ("claims-10-11-widgets-and-gadgets#10", 10, Verdict.VERIFIED),
        ("claims-10-11-widgets-and-gadgets#11", 11, Verdict.FALSIFIED),
    ]


def test_several_claims_on_one_page_share_a_verdict_stated_once(tmp_path: Path) -> None:
    claims = claims_of(tmp_path, [("Claims 2, 3 and 4: Bounds", "**Verdict: TOY** for all three.")])
    assert [(c.n, c.verdict) for c in claims] == [(2, Verdict.TOY), (3, Verdict.TOY), (4, Verdict.TOY)]


def index_only_space(tmp_path: Path, index: str) -> Path:
    """A hand-made static Space: pages/index.md and nothing else, no manifest."""
    (tmp_path / "pages").mkdir(parents=True)
    (tmp_path / "pages" / "index.md").write_text(index, encoding="utf-8")
    return tmp_path


def test_an_index_only_space_with_claim_sections(tmp_path: Path) -> None:
    index = (
        "# Widgets reproduction\n\n## Claim 1\n\nThe bound holds on every seed. This verifies the claim.\n\n"
        "## Claim 2\n\nCounts only.\n\n## Claim 3\n\n**Verdict: FALSIFIED** at n=5.\n"
    )
    logbook = read_logbook(index_only_space(tmp_path, index))
    assert [(c.key, c.verdict) for c in logbook.claims] == [
        ("index#1", Verdict.VERIFIED),
        ("index#2", Verdict.UNSTATED),
        ("index#3", Verdict.FALSIFIED),
    ]


def test_an_index_only_space_with_a_numbered_claim_list(tmp_path: Path) -> None:
    index = (
        "# Widgets reproduction\n\nWhat we checked:\n\n"
        "1. The widget bound holds for n up to 100 — **VERIFIED**\n"
        "2. Widgets are faster than gadgets — FALSIFIED (3x slower)\n"
        "3. The gadget limit — not run\n"
    )
    logbook = read_logbook(index_only_space(tmp_path, index))
    claims = logbook.claims
    assert [(c.n, c.verdict) for c in claims] == [(1, Verdict.VERIFIED), (2, Verdict.FALSIFIED), (3, Verdict.UNSTATED)]
    assert [c.verdict_mention.line for c in claims[:2] if c.verdict_mention] == [5, 6]  # each points at its line
    assert claims[2].unstated_reason


def test_claim_pages_numbered_only_by_manifest_order(tmp_path: Path) -> None:
    claims = claims_of(
        tmp_path,
        [
            ("Executive summary", "Two claims checked."),
            ("Sparse training matches dense accuracy", "**Verdict: VERIFIED.**"),
            ("Training is three times faster", "**Verdict: FALSIFIED.**"),
            ("Conclusion", "Done."),
        ],
    )
    assert [(c.n, c.numbering, c.verdict) for c in claims] == [
        (1, "manifest order", Verdict.VERIFIED),
        (2, "manifest order", Verdict.FALSIFIED),
    ]


# --- look-alikes of the classes found in ../shared/corpus-more ----------------------------------------------------


@pytest.mark.parametrize(
    ("body", "verdict"),
    cases(
        "**{word} - 1/2.** The release adds an offset to the global parameters.",  # a bold score line
        "## Verdict\n\n{word} under the explicit finite claim contract.\n\n# Source audit\n\nRetrieved today.",
        "**Setup.** We reimplemented it.\n\n**Verdict — {word}, with a finding.** Equation 8 has a typo.",
    ),
)
def test_look_alikes_of_real_verdict_places(tmp_path: Path, body: str, verdict: Verdict) -> None:
    assert the_claim(tmp_path, body).verdict is verdict


def test_unsupported_with_no_points_is_inconclusive(tmp_path: Path) -> None:
    claim = the_claim(tmp_path, "**UNSUPPORTED - 0/2.** The cohort and checkpoints are not released.")
    assert (claim.verdict, claim.verdict_raw) == (Verdict.INCONCLUSIVE, "UNSUPPORTED")


@pytest.mark.parametrize(("word", "verdict"), list(WORDS.items()))
def test_a_status_column_on_the_index_fills_a_claim_whose_page_states_nothing(
    tmp_path: Path, word: str, verdict: Verdict
) -> None:
    draft = LogbookDraft("Reproduction: Status column")
    draft.page("Claim 1: Perplexity").markdown("Plan: train, then evaluate.")
    draft.page("Claim 2: Speed-up").markdown("Plan: run the kernels.")
    root = draft.write(tmp_path)
    (root / "pages" / "index.md").write_text(
        "# Reproduction: Status column\n\n## Pages\n\n| Page | Status |\n| --- | --- |\n"
        f"| [Claim 1: Perplexity](#/claim-1-perplexity) | {word.title()} - see the page |\n"
        "| [Claim 2: Speed-up](#/claim-2-speed-up) | At risk (quant path broken) |\n",
        encoding="utf-8",
    )
    first, second = read_logbook(tmp_path).claims
    assert first.verdict is verdict and first.verdict_mention is not None
    assert first.verdict_mention.source == "summary table" and first.confidence < 0.7
    assert second.verdict is Verdict.UNSTATED and second.unstated_reason


def test_a_page_that_repeats_verdict_words_keeps_a_bounded_list_of_candidates(tmp_path: Path) -> None:
    from reviewapp.core.logbook.claim_statements import PASSING_LIMIT

    claim = the_claim(tmp_path, ("verified and falsified in passing. " * 40 + "\n\n") * 50)
    assert claim.verdict is Verdict.UNSTATED and claim.unstated_reason
    assert 0 < len(claim.considered) <= PASSING_LIMIT


def test_a_summary_row_naming_the_claim_by_its_title_fills_it(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Titles")
    draft.page("Executive summary").markdown(
        "| Claim | Outcome |\n|---|---|\n| Sparse training matches dense accuracy | Verified |\n"
        "| Training speed | Falsified |\n| Widget gadget bound | Toy |"
    )
    draft.page("Claim 1: Sparse training matches dense accuracy").markdown("We ran it on three seeds.")
    draft.page("Claim 2: Training speed of sparse widgets").markdown("We timed it.")
    draft.page("Claim 3: The gadget bound").markdown("We checked it.")
    draft.page("Claim 4: The widget bound").markdown("We checked it.")
    draft.write(tmp_path)
    claims = read_logbook(tmp_path).claims
    assert [c.verdict for c in claims] == [Verdict.VERIFIED, Verdict.FALSIFIED, Verdict.UNSTATED, Verdict.UNSTATED]
    assert claims[0].verdict_mention is not None and claims[0].verdict_mention.source == "summary table"
    # "Widget gadget bound" covers claims 3 and 4 equally: it names neither
    assert all(c.unstated_reason for c in claims[2:])


@pytest.mark.parametrize(
    "sentence",
    [
        "Claim 3 of the paper says the bound is verified on ImageNet.",
        "The authors claim the speed-up is confirmed on every GPU.",
        "The claim contract: it passes when the gap closes.",
    ],
)
def test_a_sentence_about_the_papers_claim_is_not_the_verdict(tmp_path: Path, sentence: str) -> None:
    claim = the_claim(tmp_path, f"We ran the sweep. {sentence}")
    assert claim.verdict is Verdict.UNSTATED and claim.unstated_reason
    assert all("names the claim" not in m.features for m in claim.considered)


@pytest.mark.parametrize(
    ("heading", "verdict"),
    [("## ✅ Verified", Verdict.VERIFIED), ("### FALSIFIED ❌", Verdict.FALSIFIED), ("## Partial", Verdict.PARTIAL)],
)
def test_a_heading_that_is_only_a_verdict_is_taken(tmp_path: Path, heading: str, verdict: Verdict) -> None:
    assert the_claim(tmp_path, f"We ran the sweep.\n\n{heading}\n\nThe gap closes on every seed.").verdict is verdict


@pytest.mark.parametrize("answer", ["No.", "Not yet: the run is queued."])
def test_a_bold_question_is_not_the_verdict(tmp_path: Path, answer: str) -> None:
    claim = the_claim(tmp_path, f"**Reproduced?** {answer}")
    assert claim.verdict is Verdict.UNSTATED and claim.unstated_reason


def test_a_section_of_work_still_to_do_is_not_the_verdict(tmp_path: Path) -> None:
    claim = the_claim(tmp_path, "We ran the sweep.\n\n## Pending\n\n- the large model\n- the second dataset")
    assert claim.verdict is Verdict.UNSTATED and claim.candidates


@pytest.mark.parametrize(
    ("summary", "verdicts"),
    [
        ("**Claim 1 reproduced analytically.** Claims 2 and 3 are empirical and blocked.",
         [Verdict.VERIFIED, Verdict.INCONCLUSIVE, Verdict.INCONCLUSIVE]),
        ("Claims 1-3 verified on the full grid.", [Verdict.VERIFIED] * 3),
        # must not fire: negated, or the number names something else
        ("Claim 1 was never verified; nothing else ran.", [Verdict.UNSTATED] * 3),
        ("Claim 2 of the paper is verified by its authors only.", [Verdict.UNSTATED] * 3),
    ],
)  # fmt: skip
def test_a_summary_sentence_naming_claims_fills_their_gaps(
    tmp_path: Path, summary: str, verdicts: list[Verdict]
) -> None:
    pages = [("Executive summary", summary)] + [(f"Claim {n}: Part {n}", "We ran it.") for n in (1, 2, 3)]
    claims = claims_of(tmp_path, pages)
    assert [c.verdict for c in claims] == verdicts
    assert not any(c.contradicted for c in claims)


def test_a_summary_sentence_never_contradicts_a_claims_own_verdict(tmp_path: Path) -> None:
    pages = [("Executive summary", "Claim 1 verified at scale."), ("Claim 1: Part 1", "**Verdict: FALSIFIED.**")]
    [claim] = claims_of(tmp_path, pages)
    assert claim.verdict is Verdict.FALSIFIED and not claim.contradicted
