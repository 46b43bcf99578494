"""Figures: PNG and SVG in the light and the dark theme, drawn without a display, loading nothing."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from reviewapp.core.plots.figures import (
    PALETTES,
    THEMES,
    Interval,
    Table,
    forest_plot,
    heat_maps,
    png_bytes,
    strip_plot,
    svg_bytes,
)


def _figures(theme):
    rows = [Interval("a", 0.5, 0.1, 0.9), Interval("b", -0.5, None, None)]
    yield forest_plot(rows, title="t", xlabel="x", theme=theme)
    yield strip_plot(["ann", "bo"], [0.9, None], title="t", xlabel="x", threshold=0.7, theme=theme)
    yield heat_maps([Table("t", "people", "Logbook Judge", ["verified"], ["verified", "toy"], [[1, 3]])], theme=theme)


@pytest.mark.parametrize("theme", THEMES)
def test_each_figure_is_drawn_on_its_theme_background(theme) -> None:
    expected = PALETTES[theme].background.lstrip("#")
    for figure in _figures(theme):
        image = Image.open(io.BytesIO(png_bytes(figure))).convert("RGB")
        assert image.width > 300 and image.height > 100
        assert "".join(f"{v:02x}" for v in image.getpixel((1, 1))) == expected


@pytest.mark.parametrize("theme", THEMES)
def test_svg_runs_nothing_loads_nothing_and_is_stable(theme) -> None:
    for figure in _figures(theme):
        svg = svg_bytes(figure).decode("utf-8")
        assert "<script" not in svg and "@import" not in svg and "url(http" not in svg
        assert not re.search(r'href="(?!#|data:image/png;base64,)', svg)  # only what the file itself holds
        assert svg == svg_bytes(figure).decode("utf-8")


def test_the_themes_differ_and_their_text_contrasts_with_the_background() -> None:
    light, dark = PALETTES["light"], PALETTES["dark"]
    assert light.background != dark.background

    def luminance(colour: str) -> float:  # WCAG 2 relative luminance
        r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        linear = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in (r, g, b)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    for palette in (light, dark):
        for ink in (palette.text, palette.point, palette.flagged):
            high, low = sorted((luminance(ink), luminance(palette.background)), reverse=True)
            assert (high + 0.05) / (low + 0.05) >= 3.0  # WCAG contrast for graphics


def test_without_matplotlib_the_report_is_written_without_figures_and_says_why(tmp_path, monkeypatch) -> None:
    import sys

    from reviewapp.core.pairs.study import combine
    from reviewapp.core.pairs.study_report import write_report
    from reviewapp.core.plots.figures import FiguresUnavailable
    from tests.core.study_fixtures import SimulatedRater, simulate

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # as in a build that lacks it
    with pytest.raises(FiguresUnavailable, match="matplotlib does not load"):
        forest_plot([Interval("a", 0.0, None, None)], title="t", xlabel="x")
    study = combine(simulate({"a": 0.0, "b": 1.0}, [SimulatedRater("ann"), SimulatedRater("bo")]), resamples=20)
    written = write_report(study, tmp_path / "study.md")
    assert written == [tmp_path / "study.md"]
    text = written[0].read_text(encoding="utf-8")
    assert "figures cannot be drawn here" in text and "| a |" in text and "![" not in text
