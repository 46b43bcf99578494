"""Decoded pixels per page: images past the page's budget are refused with the reason, the rest are shown.

Sixty 25-megapixel images on one page took 2.3 GB; the budget (100 megapixels a page) is lowered here so that
small images show the rule. Each image is charged once, so showing the page again refuses nothing new.
"""

from __future__ import annotations

import base64
from pathlib import Path

from PIL import Image

from reviewapp.core.io.pixel_budget import PixelBudget
from reviewapp.core.logbook.writer import LogbookDraft, png_bytes
from tests.qt.test_hostile_figures import FIGURES_SHOWN
from tests.qt.window_child import show_first_claim

LOWERED = "import reviewapp.core.io.pixel_budget as budget\nbudget.PAGE_PIXELS = 250_000\n"


def test_the_budget_charges_each_image_once_per_page() -> None:
    budget = PixelBudget(per_page=100)
    assert budget.take("p", "a", 60) and budget.take("p", "a", 60)  # the same image again costs nothing
    assert not budget.take("p", "b", 60)
    assert budget.take("q", "b", 60)  # another page has its own budget
    assert "60 of the 100 decoded pixels" in budget.refusal("p")


def four_figures(tmp_path: Path) -> Path:
    """A claim page of four 300x300 figures: two fit the lowered budget of 250,000 pixels, a third would not."""
    draft = LogbookDraft("Reproduction: Many large figures")
    page = draft.page("Claim 1: Figures stay within budget").markdown("**Verdict: VERIFIED.**", title="Verdict")
    for number in range(4):
        page.figure_png(png_bytes(Image.new("RGB", (300, 300), (number * 60, 90, 120))), f"figure {number}")
    draft.write(tmp_path / "ws")
    return tmp_path / "ws"


def test_images_past_the_pages_budget_are_refused_and_the_first_are_shown(tmp_path: Path) -> None:
    shown = show_first_claim(four_figures(tmp_path), tmp_path, FIGURES_SHOWN, before=LOWERED)
    assert isinstance(shown, list)
    assert len(shown) == 4
    assert sum(drawn for drawn, _ in shown) == 2  # 2 x 90,000 pixels fit in 250,000; a third would not
    refused = [text for drawn, text in shown if not drawn]
    assert all("of the 250,000 decoded pixels a page may use" in text for text in refused), refused


def test_a_logbook_opened_again_shows_no_more_of_a_page_than_its_budget(tmp_path: Path) -> None:
    """Images served from the image cache are charged to the page's new budget too: the page shows what fits."""
    shown = show_first_claim(four_figures(tmp_path), tmp_path, FIGURES_SHOWN, before=LOWERED, opens=2)
    assert isinstance(shown, list)
    assert len(shown) == 4
    assert sum(drawn for drawn, _ in shown) == 2, shown


MARKDOWN_IMAGES = """
from reviewapp.qt.safe_browser import SafeBrowser
browsers = window.evidence.findChildren(SafeBrowser)
print(json.dumps({
    "shown": [n[-24:] for b in browsers for n in b.shown_images],
    "refused": sorted(r for b in browsers for r in b.refused.values()),
}))
"""


def test_images_in_markdown_count_against_the_same_budget_as_figures(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Pictures in the notes")
    page = draft.page("Claim 1: Notes with pictures").markdown("**Verdict: VERIFIED.**", title="Verdict")
    page.figure_png(png_bytes(Image.new("RGB", (300, 300), (10, 90, 120))), "figure")  # 90,000 pixels
    for number in range(3):  # 90,000 pixels each: the budget of 250,000 has room for one more after the figure
        picture = base64.b64encode(png_bytes(Image.new("RGB", (300, 300), (number * 70, 40, 40)))).decode()
        page.markdown(f"Picture {number}:\n\n![p{number}](data:image/png;base64,{picture})", title=f"Note {number}")
    draft.write(tmp_path / "ws")
    figures = show_first_claim(tmp_path / "ws", tmp_path, FIGURES_SHOWN, before=LOWERED)
    markdown = show_first_claim(tmp_path / "ws", tmp_path, MARKDOWN_IMAGES, before=LOWERED)
    assert isinstance(figures, list) and isinstance(markdown, dict)
    assert sum(shown for shown, _ in figures) + len(markdown["shown"]) == 2, (figures, markdown)
    assert len(markdown["refused"]) == 2  # each refused picture shows a placeholder with the reason
    assert all("of the 250,000 decoded pixels a page may use" in text for text in markdown["refused"])


def test_a_refused_pictures_placeholder_says_the_whole_reason(qapp: object) -> None:
    from PySide6.QtGui import QFont, QFontMetrics

    from reviewapp.qt.safe_browser import placeholder_image, wrapped_lines

    reason = PixelBudget(per_page=100_000_000).refusal("p").replace(" 0 of", " 100,000,000 of")
    metrics = QFontMetrics(QFont())
    lines = wrapped_lines(f"Image not shown: {reason}", metrics, 440, most=3)
    assert 1 < len(lines) <= 3 and " ".join(lines) == f"Image not shown: {reason}"  # nothing cut off
    assert all(metrics.horizontalAdvance(line) <= 440 for line in lines)
    many = wrapped_lines("word " * 400, metrics, 440, most=3)
    assert len(many) == 3 and many[-1].endswith("…")  # past three lines: the last one says there is more
    taller = placeholder_image("data:image/png;base64,AAAA", reason)
    shorter = placeholder_image("data:image/png;base64,AAAA", "remote image not loaded")
    assert taller.height() > shorter.height() and taller.width() == shorter.width() == 460
