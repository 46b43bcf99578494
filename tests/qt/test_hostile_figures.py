"""Figures that would stall the GUI thread for hours: an SVG whose `<use>` references multiply to ten million
shapes, and large rectangles each drawn through a blur filter. Each must be refused with the reason before Qt's
uninterruptible renderer sees it, while an ordinary SVG on the same page is still drawn.

The window runs in a child process with a generous deadline (a minute, for a case that used to take hours):
a freeze has no other symptom.
"""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.io.svg_budget import MAX_DRAWN_ELEMENTS, measure_svg, svg_budget_refusal
from reviewapp.core.io.untrusted_images import svg_refusal
from reviewapp.core.logbook.writer import LogbookDraft
from tests.qt.window_child import show_first_claim

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="300">'


def use_bomb(levels: int = 7, per_level: int = 10, attribute: str = "href") -> str:
    defs = ['<rect id="l0" width="1" height="1"/>']
    for level in range(1, levels + 1):
        uses = "".join(f'<use {attribute}="#l{level - 1}" x="{j}"/>' for j in range(per_level))
        defs.append(f'<g id="l{level}">{uses}</g>')
    return f'{SVG}<defs>{"".join(defs)}</defs><use href="#l{levels}"/></svg>'


def blur_bomb(count: int = 80, side: int = 4000) -> str:
    rects = "".join(f'<rect x="{i}" y="{i}" width="{side}" height="{side}" filter="url(#b)"/>' for i in range(count))
    return f'{SVG}<defs><filter id="b"><feGaussianBlur stdDeviation="30"/></filter></defs>{rects}</svg>'


def pattern_bomb() -> str:
    inner = use_bomb(3).split("<defs>", 1)[1].split("</defs>", 1)[0]
    return (
        f'{SVG}<defs>{inner}<pattern id="p" width="1" height="1" patternUnits="userSpaceOnUse">'
        '<use href="#l3"/></pattern></defs><rect width="400" height="300" fill="url(#p)"/></svg>'
    )


ORDINARY = (
    f'{SVG}<defs><g id="dot"><circle r="4"/></g></defs>'
    + "".join(f'<use href="#dot" x="{10 * i}" y="20"/>' for i in range(30))
    + "</svg>"
)


def test_the_budget_counts_expansion_in_linear_time() -> None:
    assert measure_svg(use_bomb()).drawn > 10_000_000  # counted, never expanded
    assert measure_svg(ORDINARY).drawn < MAX_DRAWN_ELEMENTS
    for bomb in (use_bomb(), use_bomb(attribute="xlink:href"), blur_bomb(), pattern_bomb()):
        assert svg_refusal(bomb) is not None
    assert svg_refusal(ORDINARY) is None
    cycle = f'{SVG}<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>'
    assert "cycle" in (svg_budget_refusal(cycle) or "")
    twice = f'{SVG}<rect id="x"/><g id="x"><use href="#l"/></g></svg>'
    assert "twice" in (svg_budget_refusal(twice) or "")


FIGURES_SHOWN = """
from reviewapp.qt.widgets.figure_card import FigureCard
# the cards shown (a card replaced is only hidden until the event loop deletes it; this script runs none)
figures = [f for card in window.evidence.cards if isinstance(card, FigureCard) for f in card.figures]
print(json.dumps([(f.image is not None, f.text()) for f in figures]))
"""


def test_the_window_refuses_svg_bombs_and_still_draws_an_ordinary_figure(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Hostile figures")
    page = draft.page("Claim 1: Figures stay responsive").markdown("**Verdict: VERIFIED.**", title="Verdict")
    for title, svg in (("uses", use_bomb()), ("blur", blur_bomb()), ("pattern", pattern_bomb()), ("ok", ORDINARY)):
        page.figure_html(svg, title)
    draft.write(tmp_path / "ws")
    shown = show_first_claim(tmp_path / "ws", tmp_path, FIGURES_SHOWN)
    assert isinstance(shown, list)
    assert len(shown) == 4
    refused = [text for drawn, text in shown if not drawn]
    assert len(refused) == 3 and all(text.startswith("Image not shown: SVG") for text in refused)
    assert sum(drawn for drawn, _ in shown) == 1  # the ordinary figure is drawn
