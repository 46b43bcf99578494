"""Finding claims and the agent's own verdict, including the traps of free-text verdicts."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.verdicts import Verdict


def write(tmp_path: Path, build) -> list:
    draft = LogbookDraft("Reproduction: Test")
    build(draft)
    draft.write(tmp_path)
    return read_logbook(tmp_path).claims


def verdicts(claims) -> list[tuple[str, Verdict]]:
    return [(c.key, c.verdict) for c in claims]


def test_claim_pages_with_labelled_verdicts(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Executive summary").markdown("Three claims checked.")
        d.page("Claim 1: Widgets are sparse").markdown("Evidence.\n\n**Verdict: VERIFIED as stated.**")
        d.page("Claim 2: Training is fast").markdown("## Verdict: partially verified\n\nOnly on CPU.")
        d.page("Claim 3: Scales up").markdown("Outcome: inconclusive after the budget ran out.")
        d.page("Conclusion").markdown("Done.")

    claims = write(tmp_path, build)
    assert verdicts(claims) == [
        ("claim-1-widgets-are-sparse#1", Verdict.VERIFIED),
        ("claim-2-training-is-fast#2", Verdict.PARTIAL),
        ("claim-3-scales-up#3", Verdict.INCONCLUSIVE),
    ]
    first = claims[0]
    assert first.n == 1 and first.title == "Claim 1: Widgets are sparse" and first.verdict_raw == "VERIFIED"
    assert first.verdict_mention.text == "Verdict: VERIFIED as stated."
    assert first.verdict_mention.line > 1 and first.cells == [0]


def test_the_words_that_are_not_verdicts(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Claim 1: Property 1 holds at scale").markdown("We ran it. No claim remains BLOCKED after the rerun.")
        d.page("Claim 2: Bounds").markdown(
            "| | This reproduction | Full replication |\n|---|---|---|\n| Outcome | measured | NOT ATTEMPTED |"
        )
        d.page("Claim 3: Contract").markdown("**Verdict contract:** `VERIFIED` only if the bound holds for all n.")
        d.page("Claim 4: Negated").markdown("Why not verified: the exclusivity sub-clause fails.")
        d.page("Claim 5: Quoted").markdown("> The widget property holds.\n\nRan the script.")

    assert {v for _, v in verdicts(write(tmp_path, build))} == {Verdict.UNSTATED}


def test_verdict_in_titles(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Claim 1 — four properties jointly — **inconclusive**").markdown("Details.")
        d.page("Claim 2: Second").markdown("Details.", title="TOY: claim 2")
        d.page("Claim 3: Third").markdown("Details.", title="Verdict: Claim 3 FALSIFIED — units mismatch")

    claims = write(tmp_path, build)
    assert [c.verdict for c in claims] == [Verdict.INCONCLUSIVE, Verdict.TOY, Verdict.FALSIFIED]
    assert [c.verdict_mention.source for c in claims] == ["page title", "cell title", "cell title"]


def test_surest_statement_wins_and_later_ones_break_ties(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Claim 1: A").markdown("Early look: TOY results only.").markdown("**Verdict: VERIFIED** at full scale.")
        d.page("Claim 2: B").markdown("Verdict: toy.").markdown("Final verdict: falsified after the fix.")
        d.page("Claim 3: C").markdown("**Verdict: VERIFIED**").markdown("### Result: the claim holds everywhere")
        d.page("Claim 4: D").markdown("Component verdict: falsified for part (b).\n\nVerdict: partial.")

    assert [c.verdict for c in write(tmp_path, build)] == [
        Verdict.VERIFIED,
        Verdict.FALSIFIED,
        Verdict.VERIFIED,
        Verdict.PARTIAL,
    ]


def test_qualified_statements_combine(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Claim 1: A").markdown("**Status: supported within this toy scope.**")
        d.page("Claim 2: B").markdown("**Assessment: source portion supported; the empirics\ninconclusive.** More.")
        d.page("Claim 3: C").markdown("Verdict: not reproduced on our hardware.")

    assert [c.verdict for c in write(tmp_path, build)] == [Verdict.TOY, Verdict.PARTIAL, Verdict.FALSIFIED]


def test_scorecard_contradiction_is_kept_and_flagged(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Claim 1: A").markdown("Verdict: VERIFIED.")
        d.page("Claim 2: B").markdown("Verdict: TOY.")
        d.page("Conclusion").markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |\n| 2 | FALSIFIED |")

    first, second = write(tmp_path, build)
    assert not first.contradicted and first.other_mentions[0].source == "summary table"
    assert second.verdict is Verdict.TOY and second.contradicted
    [other] = second.other_mentions
    assert (other.verdict, other.page, other.source) == (Verdict.FALSIFIED, "conclusion", "summary table")


def test_summary_fills_a_claim_without_its_own_verdict(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Executive summary").markdown("- **Claims 2-3 — NOT REPLICATED:** no verdict is offered.")
        d.page("Claim 1: A").markdown("Verdict: VERIFIED.")
        d.page("Claim 2: B").markdown("Recorded only.")
        d.page("Claim 3: C").markdown("Recorded only.")

    claims = write(tmp_path, build)
    assert [c.verdict for c in claims] == [Verdict.VERIFIED, Verdict.INCONCLUSIVE, Verdict.INCONCLUSIVE]
    assert claims[1].confidence < claims[0].confidence
    assert claims[1].verdict_mention.page == "executive-summary"


def test_several_claims_on_one_page(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Overview").markdown("Intro.")
        d.page("Claim results").markdown(
            "## Claim 1: Convergence\n\nVerdict: VERIFIED.\n\n## Claim 2: Rates\n\nVerdict: TOY.\n\n"
            "## Claim 3: Wasserstein\n\nNothing yet."
        )

    claims = write(tmp_path, build)
    assert verdicts(claims) == [
        ("claim-results#1", Verdict.VERIFIED),
        ("claim-results#2", Verdict.TOY),
        ("claim-results#3", Verdict.UNSTATED),
    ]
    assert claims[0].section_line < claims[1].section_line < claims[2].section_line


def test_claim_sections_in_separate_cells_do_not_share_evidence(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        page = d.page("Claim results")
        page.markdown("## Claim 1: Convergence\n\nVerdict: VERIFIED.", title="First")
        page.run(["python", "one.py"], "ok")
        page.markdown("## Claim 2: Rates\n\nText.", title="Verdict: TOY")
        page.run(["python", "two.py"], "ok")

    first, second = write(tmp_path, build)
    assert (first.cells, second.cells) == ([0, 1], [2, 3])
    assert second.verdict is Verdict.TOY and second.verdict_mention.source == "cell title"
    assert first.verdict is Verdict.VERIFIED


def test_numbered_claims_list_with_a_logbook_wide_verdict(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Overview").markdown("Clean-room reproduction. All claims verified at full scale.")
        d.page("Claims").markdown("## Claims to reproduce\n\n1. Theorem 1 bound.\n2. Theorem 2 relaxation.\n3. Rates.")
        d.page("Evidence").markdown("Logs.")

    claims = write(tmp_path, build)
    assert [c.key for c in claims] == ["claims#1", "claims#2", "claims#3"]
    assert all(c.verdict is Verdict.VERIFIED and c.confidence < 0.5 for c in claims)
    assert claims[1].title == "Theorem 2 relaxation."


def test_pages_between_summary_and_conclusion_without_claim_names(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Executive summary").markdown("Two findings.")
        d.page("Sparse training speed").markdown("Verdict: FALSIFIED.")
        d.page("Methods").markdown("How we ran things.")
        d.page("Robustness under shift").markdown("Status: TOY.")
        d.page("Training runs").markdown("Status: all runs verified to finish.")  # how, not what
        d.page("Data preparation").markdown("Loaded.")
        d.page("Results").markdown("See the findings.")
        d.page("Conclusion").markdown("Verdict overall: mixed.")

    assert verdicts(write(tmp_path, build)) == [
        ("sparse-training-speed#1", Verdict.FALSIFIED),
        ("robustness-under-shift#1", Verdict.TOY),
    ]


def test_a_claims_listing_page_is_not_a_claim_when_claim_pages_exist(tmp_path: Path) -> None:
    def build(d: LogbookDraft) -> None:
        d.page("Claims").markdown("1. One.\n2. Two.")
        d.page("Current verification: Claim 1", slug="current-claim-1").markdown("Status: **VERIFIED**.")
        d.page("Current verification: Claim 2", slug="current-claim-2").markdown("Status: **FALSIFIED**.")

    assert verdicts(write(tmp_path, build)) == [
        ("current-claim-1#1", Verdict.VERIFIED),
        ("current-claim-2#2", Verdict.FALSIFIED),
    ]


def test_keys_are_stable_when_other_pages_change(tmp_path: Path) -> None:
    def build(extra: str):
        def inner(d: LogbookDraft) -> None:
            d.page(extra).markdown("x")
            d.page("Claim 2 — Spectral energy", slug="claim-sstm-energy").markdown("Verdict: toy")
            d.page("DRIVE ablation", slug="claim-drive").markdown("Numbers only.")

        return inner

    one = [c.key for c in write(tmp_path / "a", build("Intro"))]
    two = [c.key for c in write(tmp_path / "b", build("Another intro page"))]
    assert one == two == ["claim-sstm-energy#2", "claim-drive#1"]


def test_logbook_claim_lookup_by_number_or_key(tmp_path: Path) -> None:
    draft = LogbookDraft("R")
    draft.page("Claim 1: A").markdown("Verdict: VERIFIED.")
    draft.page("Claim 2: B").markdown("Verdict: TOY.")
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    assert logbook.claim(2).key == logbook.claim("2").key == "claim-2-b#2"
    assert logbook.claim("claim-1-a#1").n == 1
    assert logbook.claim(7) is None and logbook.claim("nope") is None
