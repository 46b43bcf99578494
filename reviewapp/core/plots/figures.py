"""The figures of study results and of agreement: a forest plot, a strip of per-rater values, confusion heat maps.

Every figure is built on a `matplotlib.figure.Figure` of its own (never pyplot's global state), so figures can be
drawn from any thread, and rendered to PNG and SVG bytes. SVG text is drawn as paths: the file needs no fonts and
loads nothing. Colours are chosen to read on both themes: a blue and an orange that keep their contrast on white
and on near-black, and the viridis map (perceptually even, readable in grey) for counts.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.paths import user_cache_dir

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Theme = Literal["light", "dark"]
THEMES: tuple[Theme, ...] = ("light", "dark")


@dataclass(frozen=True, slots=True)
class Palette:
    background: str
    text: str
    grid: str
    point: str
    flagged: str


PALETTES: dict[Theme, Palette] = {
    "light": Palette(background="#ffffff", text="#1f2328", grid="#d0d7de", point="#1f6feb", flagged="#bc4c00"),
    "dark": Palette(background="#1e1f22", text="#e6edf3", grid="#3d444d", point="#58a6ff", flagged="#f0883e"),
}


@dataclass(frozen=True, slots=True)
class Interval:
    label: str
    value: float
    low: float | None
    high: float | None


class FiguresUnavailable(RuntimeError):
    """matplotlib cannot be loaded here: the figures are left out, never the numbers they show."""


def _figure(width: float, height: float, theme: Theme) -> tuple[Figure, Palette]:
    # matplotlib keeps its font list in a folder of its own; ours, unless the user chose one
    os.environ.setdefault("MPLCONFIGDIR", str(user_cache_dir() / "matplotlib"))
    try:
        from matplotlib.figure import Figure
    except (ImportError, OSError) as exc:  # a build without it, or a library of numpy's that does not load
        cause = str(exc.__cause__ or exc).strip()
        reason = cause.splitlines()[0] if cause else type(exc).__name__
        raise FiguresUnavailable(f"figures cannot be drawn here: matplotlib does not load ({reason})") from exc

    palette = PALETTES[theme]
    figure = Figure(figsize=(width, height), dpi=100, facecolor=palette.background, layout="constrained")
    return figure, palette


def _style(axes: object, palette: Palette) -> None:
    from matplotlib.axes import Axes

    assert isinstance(axes, Axes)
    axes.set_facecolor(palette.background)
    for spine in axes.spines.values():
        spine.set_color(palette.grid)
    axes.tick_params(colors=palette.text, labelcolor=palette.text)
    axes.xaxis.label.set_color(palette.text)
    axes.yaxis.label.set_color(palette.text)
    axes.title.set_color(palette.text)


def forest_plot(
    rows: Sequence[Interval], *, title: str, xlabel: str, reference: float | None = None, theme: Theme = "light"
) -> Figure:
    """One row per estimate, top to bottom in the given order: a point and its interval as a line."""
    figure, palette = _figure(6.4, 1.2 + 0.45 * max(1, len(rows)), theme)
    axes = figure.add_subplot()
    _style(axes, palette)
    positions = list(range(len(rows)))[::-1]
    for y, row in zip(positions, rows, strict=True):
        if row.low is not None and row.high is not None:
            axes.hlines(y, row.low, row.high, color=palette.point, linewidth=2.2)
        axes.plot([row.value], [y], marker="o", markersize=7, color=palette.point, linestyle="none")
    if reference is not None:
        axes.axvline(reference, color=palette.grid, linewidth=1, linestyle="--")
    axes.set_yticks(positions, [row.label for row in rows])
    axes.set_ylim(-0.7, len(rows) - 0.3)
    axes.set_xlabel(xlabel)
    axes.set_title(title, loc="left", fontsize=11, color=palette.text)
    axes.grid(axis="x", color=palette.grid, linewidth=0.6)
    axes.set_axisbelow(True)
    return figure


def strip_plot(
    labels: Sequence[str],
    values: Sequence[float | None],
    *,
    title: str,
    xlabel: str,
    threshold: float | None = None,
    theme: Theme = "light",
) -> Figure:
    """One dot per rater on a 0..1 axis; those below the threshold drawn in the warning colour, unmeasured ones
    named at the left edge."""
    figure, palette = _figure(6.4, 1.2 + 0.4 * max(1, len(labels)), theme)
    axes = figure.add_subplot()
    _style(axes, palette)
    positions = list(range(len(labels)))[::-1]
    for y, value in zip(positions, values, strict=True):
        if value is None:
            axes.text(0.01, y, "not measured", va="center", color=palette.text, fontsize=8, alpha=0.8)
            continue
        below = threshold is not None and value < threshold
        colour = palette.flagged if below else palette.point
        axes.plot([value], [y], marker="X" if below else "o", markersize=8, color=colour, linestyle="none")
    if threshold is not None:
        axes.axvline(threshold, color=palette.flagged, linewidth=1, linestyle="--")
        axes.text(threshold, len(labels) - 0.45, f" threshold {threshold:.0%}", color=palette.flagged, fontsize=8)
    axes.set_xlim(-0.02, 1.02)
    axes.set_yticks(positions, list(labels))
    axes.set_ylim(-0.7, len(labels) - 0.1)
    axes.set_xlabel(xlabel)
    axes.set_title(title, loc="left", fontsize=11, color=palette.text)
    axes.grid(axis="x", color=palette.grid, linewidth=0.6)
    axes.set_axisbelow(True)
    return figure


@dataclass(frozen=True, slots=True)
class Table:
    """Counts of one rater's categories (rows) against another's (columns)."""

    title: str
    row_name: str
    column_name: str
    rows: Sequence[str]
    columns: Sequence[str]
    counts: Sequence[Sequence[int]]


def heat_maps(tables: Sequence[Table], *, theme: Theme = "light") -> Figure:
    """Confusion heat maps side by side; each cell is shaded by its share of its row (so a row's pattern shows
    whatever the row's size) and labelled with its count."""
    figure, palette = _figure(4.2 * max(1, len(tables)), 4.2, theme)
    grid = figure.subplots(1, max(1, len(tables)), squeeze=False)[0]
    for axes, table in zip(grid, tables, strict=False):
        _style(axes, palette)
        shares = []
        for row in table.counts:
            total = sum(row)
            shares.append([count / total if total else 0.0 for count in row])
        axes.imshow(shares, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto")
        for r, row in enumerate(table.counts):
            for c, count in enumerate(row):
                light_cell = shares[r][c] > 0.6  # viridis turns yellow: dark text reads there
                axes.text(
                    c, r, str(count), ha="center", va="center", fontsize=9, color="#111111" if light_cell else "#f5f5f5"
                )
        axes.set_xticks(range(len(table.columns)), list(table.columns), rotation=35, ha="right")
        axes.set_yticks(range(len(table.rows)), list(table.rows))
        axes.set_xlabel(table.column_name)
        axes.set_ylabel(table.row_name)
        axes.set_title(table.title, loc="left", fontsize=10, color=palette.text)
    for axes in grid[len(tables) :]:
        axes.set_visible(False)
    return figure


def png_bytes(figure: Figure, dpi: int = 110) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # named here so that a bundle carries it

    out = io.BytesIO()
    FigureCanvasAgg(figure).print_figure(out, format="png", dpi=dpi, facecolor=figure.get_facecolor())
    return out.getvalue()


def svg_bytes(figure: Figure) -> bytes:
    from matplotlib import rc_context
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    out = io.BytesIO()
    with rc_context({"svg.fonttype": "path", "svg.hashsalt": "reviewapp"}):  # a stable file for the same figure
        FigureCanvasSVG(figure).print_figure(
            out, format="svg", facecolor=figure.get_facecolor(), metadata={"Date": None}
        )
    return out.getvalue()


def save(figure: Figure, stem: Path) -> tuple[Path, Path]:
    """Write `<stem>.png` and `<stem>.svg` (each atomically); returns both paths."""
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    atomic_write(png, png_bytes(figure))
    atomic_write(svg, svg_bytes(figure))
    return png, svg


def finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None
