"""Markdown is prepared for display: TeX kept legible as code, the heading that repeats the title dropped."""

from __future__ import annotations

import pytest

from reviewapp.core.logbook.markdown_prep import drop_title_heading, prepare_markdown


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Eq. $\\lambda = 10^{-4}$ holds", "Eq. `$\\lambda = 10^{-4}$` holds"),
        ("$a_1 * b_2$ and $c$", "`$a_1 * b_2$` and `$c$`"),
        ("costs $4 to $9 a day", "costs $4 to $9 a day"),  # money, not math
        ("a $ b $ c", "a $ b $ c"),  # spaces inside the dollars: not math
        ("keep `$x$` as it is", "keep `$x$` as it is"),
        ("escaped \\$5 and $y$", "escaped \\$5 and `$y$`"),
    ],
)
def test_inline_math_becomes_code(text: str, expected: str) -> None:
    assert prepare_markdown(text) == expected


def test_display_math_becomes_a_math_block() -> None:
    out = prepare_markdown("Before\n$$\n\\sum_i x_i\n$$\nafter")
    assert "```math\n\\sum_i x_i\n```" in out
    assert out.startswith("Before") and out.endswith("after")


def test_fenced_code_is_left_alone() -> None:
    text = "```python\nprice = '$5' + '$6'\n```\n~~~\n$x$\n~~~\nthen $y$"
    assert prepare_markdown(text) == "```python\nprice = '$5' + '$6'\n```\n~~~\n$x$\n~~~\nthen `$y$`"


def test_title_heading_is_dropped_like_the_viewer_does() -> None:
    assert drop_title_heading("## **Verdict**\n\nIt holds.", "Verdict") == "It holds."
    assert drop_title_heading("## Setup\n\nx", "Verdict") == "## Setup\n\nx"
    assert prepare_markdown("# Claim and setup\ntext", "Claim and setup") == "text"
