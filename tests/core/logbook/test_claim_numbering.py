"""Claim numbers in the forms agents write them, a number for every claim, and keys that stay valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.review.history import RecordDraft
from reviewapp.core.review.records import Target, VerdictPayload
from reviewapp.core.verdicts import Verdict
from tests.core.annotation_helpers import open_review


def claims_of(tmp_path: Path, pages: list[tuple[str, str | None]], summary: str | None = None) -> list:
    draft = LogbookDraft("Reproduction: Numbers")
    if summary is not None:
        draft.page("Executive summary").markdown(summary)
    for title, slug in pages:
        draft.page(title, slug=slug).markdown("Verdict: verified.")
    draft.write(tmp_path)
    return read_logbook(tmp_path).claims


@pytest.mark.parametrize(
    ("title", "slug", "n", "number", "key"),
    [
        ("Claim 3: Widgets", None, 3, "3", "claim-3-widgets#3"),
        ("Claim #4 — Widgets", "widgets-four", 4, "4", "widgets-four#4"),
        ("Claim no. 5: Widgets", "fifth", 5, "5", "fifth#5"),
        ("Claim C2: Widgets", "c-two", 2, "2", "c-two#2"),
        ("C7: Widgets are sparse", "sparse", 7, "7", "sparse#7"),
        ("Claim 3a: The first half", None, 3, "3a", "claim-3a-the-first-half#3a"),
        ("Claim 3.2 — A sub-claim", "sub-claim", 3, "3.2", "sub-claim#3.2"),
        ("Claim B: Widgets", "claim-b", 2, "B", "claim-b#B"),
        ("Claim III: Widgets", "claim-iii", 3, "3", "claim-iii#3"),
        ("Claim XIV — Widgets", "widgets-xiv", 14, "14", "widgets-xiv#14"),
        ("Widgets are sparse", "claim-06-widgets", 6, "6", "claim-06-widgets#6"),
        ("Widgets are sparse", "c4-widgets", 4, "4", "c4-widgets#4"),
        ("Widgets are sparse", "claim-2b-widgets", 2, "2b", "claim-2b-widgets#2b"),
    ],
)
def test_written_numbers(tmp_path: Path, title: str, slug: str | None, n: int, number: str, key: str) -> None:
    [claim] = claims_of(tmp_path, [(title, slug)])
    assert (claim.n, claim.number, claim.key, claim.numbering) == (n, number, key, "written")


@pytest.mark.parametrize(
    ("title", "slug", "expected"),
    [
        # a number in the claim's own statement is not its number: it is numbered after the written ones
        ("Claim: widgets scale to 300 layers", "claim-widgets-scale", [(2, "after the written numbers")]),
        ("Claims about 3 widgets", "claims-about-3-widgets", []),  # a page listing claims, not claim 3
        ("Claim I think matters: widgets", "claim-i-think", [(2, "after the written numbers")]),
        ("Claim IIII: not a numeral", "claim-iiii", [(2, "after the written numbers")]),
    ],
)
def test_numbers_that_are_not_claim_numbers(tmp_path: Path, title: str, slug: str, expected: list) -> None:
    claims = claims_of(tmp_path, [(title, slug), ("Claim 1: Other", None)])
    assert [(c.n, c.numbering) for c in claims if c.page == slug] == expected


def test_sub_claims_are_reachable_by_their_key_and_the_shared_number_is_ambiguous(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Sub-claims")
    draft.page("Claim 3a: First half").markdown("Verdict: verified.")
    draft.page("Claim 3b: Second half").markdown("Verdict: falsified.")
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    assert [(c.number, c.verdict) for c in logbook.claims] == [("3a", Verdict.VERIFIED), ("3b", Verdict.FALSIFIED)]
    assert logbook.claim("3b").verdict is Verdict.FALSIFIED
    assert logbook.claim("Claim 3a").number == "3a"
    assert logbook.claim("3") is None  # two claims share it: the user must say which


def test_sub_claims_as_sections_of_one_page(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Sections")
    draft.page("Claim 2: Two parts").markdown("## Claim 2a\n\nVerdict: verified.\n\n## Claim 2b\n\nVerdict: toy.")
    draft.write(tmp_path)
    claims = read_logbook(tmp_path).claims
    assert [(c.key, c.verdict) for c in claims] == [
        ("claim-2-two-parts#2a", Verdict.VERIFIED),
        ("claim-2-two-parts#2b", Verdict.TOY),
    ]


def test_numbers_only_in_a_summary_table(tmp_path: Path) -> None:
    summary = (
        "| # | Claim | Verdict |\n|---|---|---|\n"
        "| 1 | [Sparsity](#/claim-sparsity) | VERIFIED |\n| 2 | [Speed](#/claim-speed) | FALSIFIED |"
    )
    claims = claims_of(tmp_path, [("Claim: speed", "claim-speed"), ("Claim: sparsity", "claim-sparsity")], summary)
    assert [(c.page, c.n, c.numbering, c.key) for c in claims] == [
        ("claim-speed", 2, "summary table", "claim-speed#1"),  # keys keep the page ordinal: records stay valid
        ("claim-sparsity", 1, "summary table", "claim-sparsity#1"),
    ]


def test_no_numbers_anywhere_numbers_by_manifest_order_and_says_so(tmp_path: Path) -> None:
    claims = claims_of(tmp_path, [("Claim: speed", "claim-speed"), ("Claim: sparsity", "claim-sparsity")])
    assert [(c.n, c.numbering) for c in claims] == [(1, "manifest order"), (2, "manifest order")]


def test_an_unnumbered_claim_among_numbered_ones_gets_the_next_free_number(tmp_path: Path) -> None:
    claims = claims_of(tmp_path, [("Claim 2: B", None), ("Claim: extra ablation", "claim-extra"), ("Claim 1: A", None)])
    assert [(c.n, c.numbering) for c in claims] == [(2, "written"), (3, "after the written numbers"), (1, "written")]


def test_a_changed_key_keeps_the_old_one_and_old_records_still_attach(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Renumbered")
    draft.page("Claim 3a: First half").markdown("Verdict: verified.")
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    [claim] = logbook.claims
    old_key = "claim-3a-first-half#1"  # how the reader keyed it before sub-claims were read
    assert claim.key == "claim-3a-first-half#3a" and claim.aliases == (old_key,)
    assert logbook.claim(old_key) is claim

    # A review written under the old key, as an earlier version of the app wrote it, loads onto the claim.
    review = open_review(tmp_path)
    payload = VerdictPayload(verdict=Verdict.FALSIFIED, rationale="rerun disagrees", tags=[])
    review.append(RecordDraft("verdict", Target(claim=old_key, page=claim.page), payload))
    reopened = open_review(tmp_path)
    assert reopened.state.verdict(claim.key).payload.verdict is Verdict.FALSIFIED
    assert reopened.claim(old_key).key == claim.key
    assert reopened.claim("3a").key == claim.key


def test_claim_sections_on_a_page_that_lists_all_claims(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: One page")
    draft.page("Overview").markdown("## Claim 1\n\nThe first.\n\n## Claim 2\n\nThe second.")  # an overview repeats
    draft.page("Claims").markdown(
        "## Claim 1: Sparse\n\nVerdict: verified.\n\n## Claim 2: Fast\n\nVerdict: falsified.\n\n"
        "## Claim 3: Robust\n\nRan."
    )
    draft.write(tmp_path)
    claims = read_logbook(tmp_path).claims
    assert [(c.key, c.verdict) for c in claims] == [
        ("claims#1", Verdict.VERIFIED),
        ("claims#2", Verdict.FALSIFIED),
        ("claims#3", Verdict.UNSTATED),
    ]


def test_an_overview_with_claim_sections_adds_no_claims_beside_claim_pages(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Pages and overview")
    draft.page("Claims").markdown("## Claim 1: Sparse\n\nVerdict: toy.\n\n## Claim 2: Fast\n\nVerdict: toy.")
    draft.page("Claim 1: Sparse").markdown("Verdict: verified.")
    draft.page("Claim 2: Fast").markdown("Verdict: falsified.")
    draft.write(tmp_path)
    claims = read_logbook(tmp_path).claims
    assert [(c.key, c.verdict) for c in claims] == [
        ("claim-1-sparse#1", Verdict.VERIFIED),
        ("claim-2-fast#2", Verdict.FALSIFIED),
    ]


def test_pages_about_the_claims_and_supplements_of_one_are_not_claims(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Extra pages")
    draft.page("Claim summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |")
    draft.page("Claim-by-claim overview", slug="claim-by-claim-overview").markdown("Text.")
    draft.page("Claim verification methodology", slug="claim-verification-methodology").markdown("How.")
    draft.page("Claim 1: Widgets").markdown("Verdict: verified.")
    draft.page("Claim 2: Gadgets").markdown("Verdict: toy.")
    draft.page("Claim 2 — appendix: extra figures", slug="claim-2-appendix").markdown("More plots.")
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    assert [c.key for c in logbook.claims] == ["claim-1-widgets#1", "claim-2-gadgets#2"]
    assert logbook.claim(2).verdict is Verdict.TOY


@pytest.mark.parametrize(
    "title",
    [
        # must not fire: a claim's own statement, or a supplement-like page that is the only page of its claim
        "Claim: evidence lower bound is tight",
        "Claim 2: Extra layers help",
        "Claim 2 (continued from the first round)",
        "Claim 2: Details matter",
    ],
)
def test_claim_statements_that_look_like_pages_about_claims_stay_claims(tmp_path: Path, title: str) -> None:
    claims = claims_of(tmp_path, [("Claim 1: Widgets", None), (title, "the-claim")])
    assert [c.page for c in claims] == ["claim-1-widgets", "the-claim"]
