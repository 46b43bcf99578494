"""Search across claims and their evidence: titles, prose, run commands and outputs, figure data."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook.demo import write_demo
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.search import SearchIndex, folded_pieces, query_terms
from reviewapp.core.logbook.writer import LogbookDraft


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    return read_logbook(write_demo(tmp_path_factory.mktemp("demo")))


def keys(index: SearchIndex, query: str) -> set[str] | None:
    found = index.matching(query)
    return None if found is None else {k.split("#")[1] for k in found}


def test_empty_query_filters_nothing(demo) -> None:
    assert SearchIndex(demo).matching("   ") is None


def test_finds_claims_by_evidence_text(demo) -> None:
    index = SearchIndex(demo)
    assert keys(index, "triton") == {"2"}  # only in a run's output
    assert keys(index, "--sparsity") == {"1"}  # a run command
    assert keys(index, "ImageNet-C") == {"3"}  # a markdown table
    assert keys(index, "TRAINING is") == {"2"}  # the title, any case
    assert keys(index, "no such words") == set()


def test_all_terms_must_match_and_phrases_stay_together(demo) -> None:
    index = SearchIndex(demo)
    assert keys(index, "kernel speed-up") == {"2"}
    assert keys(index, "kernel sparsity-robust") == set()
    assert query_terms('"exact claim" Prune') == ["exact claim", "prune"]


def test_figure_html_is_not_searched_but_its_raw_data_is(tmp_path: Path) -> None:
    draft = LogbookDraft("L")
    draft.page("Claim 1: A").figure_html('<img src="data:image/png;base64,QUJDREVGR0g=">', "Fig", raw="step,zebra\n1,2")
    index = SearchIndex(read_logbook(draft.write(tmp_path)))
    assert keys(index, "zebra") == {"1"}
    assert keys(index, "QUJDREVGR0g") == set()


def test_claims_sharing_a_page_search_only_their_own_cells(tmp_path: Path) -> None:
    draft = LogbookDraft("L")
    page = draft.page("Claim results")
    page.markdown("## Claim 1: First\n\nApples are **VERIFIED**.", title="One")
    page.markdown("## Claim 2: Second\n\nOranges are **FALSIFIED**.", title="Two")
    logbook = read_logbook(draft.write(tmp_path))
    assert [c.section_line is not None for c in logbook.claims] == [True, True]
    index = SearchIndex(logbook)
    assert keys(index, "apples") == {"1"}  # claim 1's text is not searched as claim 2's evidence
    assert "2" in (keys(index, "oranges") or set())


def test_long_outputs_are_searched_to_their_end_in_any_case(tmp_path: Path) -> None:
    draft = LogbookDraft("L")
    filler = "\n".join(f"step {n} loss 0.{n % 97:02d}" for n in range(200_000))  # several megabytes of output
    draft.page("Claim 1: Long run").run(["python", "train.py"], filler + "\nfinal Straße SENTINEL reached")
    draft.page("Claim 2: Other").markdown("Nothing here.")
    index = SearchIndex(read_logbook(draft.write(tmp_path)))
    assert keys(index, "sentinel") == {"1"}  # past the first folded piece
    assert keys(index, "strasse reached") == {"1"}  # casefolded where the text is not ASCII
    assert keys(index, '"loss 0.05"') == {"1"}
    assert keys(index, "sentinel nothing") == set()


def test_folded_pieces_cut_at_line_ends() -> None:
    text = ("x" * 700_000 + "\n") * 4 + "ÉTÉ"
    pieces = folded_pieces(text)
    assert len(pieces) > 1 and "".join(pieces) == text.casefold()
    assert all(piece.endswith("\n") for piece in pieces[:-1])
    one_line = "y" * 3_000_000
    assert folded_pieces(one_line) == [one_line]  # no line end to cut at: one piece
