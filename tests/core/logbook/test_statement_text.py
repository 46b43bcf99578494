"""A matched statement is shown as text, never as a raw markdown table row."""

from __future__ import annotations

from reviewapp.core.logbook.statement import readable_statement


def test_a_table_row_reads_as_its_cells() -> None:
    assert readable_statement("| 3 | Sharpness predicts the gap | **PARTIAL** |") == (
        "3 · Sharpness predicts the gap · **PARTIAL**"
    )
    assert readable_statement("|---|:---:|") == "|---|:---:|"  # nothing but a separator: left as it is


def test_other_statements_keep_their_words_on_one_line() -> None:
    assert readable_statement("Verdict:\n  VERIFIED.") == "Verdict: VERIFIED."
    assert readable_statement("gap a|b holds") == "gap a|b holds"
