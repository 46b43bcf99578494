"""How much drawing an inline SVG asks for, counted before anything renders it.

Qt's SVG renderer cannot be interrupted, and internal references multiply work: ten `<use>` of a group that
holds ten `<use>` of the level below, seven levels deep, draws ten million shapes from 1.4 KB; a blur filter on
each of 80 large rectangles took 27 s. The window renders figures on the GUI thread, so the SVG is measured first
(one linear pass of expat, no entity expansion since `<!ENTITY` is refused before) and refused with the reason
when over budget:

- drawn elements: each element costs one plus its children; a `<use>` costs what it refers to, a pattern or
  marker reference what the pattern or marker holds times how often it repeats (memoized, so counting stays
  linear; a reference cycle is refused);
- filters: each element drawn with a filter costs its filter region in pixels (at least the whole canvas, since
  its size after transforms is not known without layout) times the filter's primitives, weighted by blur radius.

Measured on Qt 6 offscreen: about a million drawn shapes and ten million filtered pixels per second, so the
budgets below keep any figure to a fraction of a second.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

MAX_DRAWN_ELEMENTS = 100_000
MAX_FILTER_PIXELS = 8_000_000  # filter region pixels x primitives x (1 + blur radius / 8)
RENDER_SIDE = 1600  # the largest side a figure is drawn at (figure_card.SVG_MAX_SIDE)
MAX_PATTERN_TILES = 400  # tiles assumed for a pattern whose tile size is not a plain number

_URL = re.compile(r"url\(\s*['\"]?\s*#([^'\")\s]+)")
_LOCAL_HREF = re.compile(r"\s*#(.+)")
_NUMBERS = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PAINT_ATTRIBUTES = ("fill", "stroke", "style", "mask", "clip-path")
_MARKERS = ("marker-start", "marker-mid", "marker-end", "marker")
_MULTIPLIERS = re.compile(r"<use\b|filter|<pattern\b|marker|url\(", re.IGNORECASE)
_XLINK = "http://www.w3.org/1999/xlink"
_HREFS = ("href", "{http://www.w3.org/1999/xlink}href")


@dataclass(frozen=True)
class SvgCost:
    drawn: int
    filter_work: float

    def refusal(self) -> str | None:
        if self.drawn > MAX_DRAWN_ELEMENTS:
            return (
                f"SVG would draw about {self.drawn:,} shapes (through <use> and patterns), over {MAX_DRAWN_ELEMENTS:,}"
            )
        if self.filter_work > MAX_FILTER_PIXELS:
            megapixels = self.filter_work / 1e6
            return f"SVG filters would process about {megapixels:,.0f} megapixels, over {MAX_FILTER_PIXELS / 1e6:,.0f}"
        return None


class SvgTooComplex(ValueError):
    pass


def svg_budget_refusal(svg: str) -> str | None:
    """Why drawing `svg` would take too long (None when within budget, or when it is not even valid XML)."""
    try:
        return measure_svg(svg).refusal()
    except SvgTooComplex as exc:
        return str(exc)


def measure_svg(svg: str) -> SvgCost:
    try:
        root = ElementTree.fromstring(_with_xlink(svg))
    except ElementTree.ParseError as exc:
        # Qt's parser is more lenient than expat; what cannot be measured is drawn only when it cannot multiply.
        if _MULTIPLIERS.search(svg):
            raise SvgTooComplex(f"SVG is not well-formed XML ({exc}) and uses references or filters") from exc
        return SvgCost(0, 0.0)
    by_id: dict[str, ElementTree.Element] = {}
    for element in root.iter():
        ident = element.get("id")
        if ident is not None and ident not in by_id:
            by_id[ident] = element
        elif ident is not None:  # the same id twice: which one a renderer picks is not specified
            raise SvgTooComplex(f"SVG defines the id {ident!r} twice")
    filters = {ident: _filter_weight(el) for ident, el in by_id.items() if _local(el.tag) == "filter"}
    canvas = _canvas_pixels(root)
    memo: dict[int, tuple[int, float]] = {}
    active: set[int] = set()

    def cost(element: ElementTree.Element) -> tuple[int, float]:
        key = id(element)
        if key in memo:
            return memo[key]
        if key in active:
            raise SvgTooComplex("SVG refers to itself in a cycle (<use> of an element that contains it)")
        active.add(key)
        drawn, work = 1, 0.0
        tag = _local(element.tag)
        for child in element:
            if _local(child.tag) in ("filter", "pattern", "marker", "symbol", "defs", "clipPath", "mask"):
                continue  # drawn only where referenced
            child_drawn, child_work = cost(child)
            drawn, work = drawn + child_drawn, work + child_work
        if tag == "use":
            target = _referenced(element, by_id)
            if target is not None:
                used_drawn, used_work = cost_of_content(target)
                drawn, work = drawn + used_drawn, work + used_work
        for name in _PAINT_ATTRIBUTES:
            for ident in _URL.findall(element.get(name) or ""):
                target = by_id.get(ident)
                if target is not None and _local(target.tag) in ("pattern", "mask", "clipPath"):
                    repeat = _pattern_tiles(target) if _local(target.tag) == "pattern" else 1
                    inner_drawn, inner_work = cost_of_content(target)
                    drawn, work = drawn + repeat * inner_drawn, work + repeat * inner_work
        for name in _MARKERS:
            for ident in _URL.findall(element.get(name) or ""):
                target = by_id.get(ident)
                if target is not None:
                    vertices = max(1, len(_NUMBERS.findall(element.get("d") or element.get("points") or "")) // 2)
                    inner_drawn, inner_work = cost_of_content(target)
                    drawn, work = drawn + vertices * inner_drawn, work + vertices * inner_work
        filtered = [*_URL.findall(element.get("filter") or ""), *_style_filters(element.get("style") or "")]
        if filtered:
            region = max(canvas, _area(element)) * 1.44 * _own_scale(element)  # the default region is 120% a side
            work += sum(filters.get(ident, 1.0) for ident in filtered) * region
        active.discard(key)
        if drawn > MAX_DRAWN_ELEMENTS * 1000:  # stop growing numbers long before they get expensive
            raise SvgTooComplex(f"SVG would draw far more than {MAX_DRAWN_ELEMENTS:,} shapes")
        memo[key] = (drawn, work)
        return drawn, work

    def cost_of_content(target: ElementTree.Element) -> tuple[int, float]:
        if _local(target.tag) in ("pattern", "marker", "symbol", "clipPath", "mask"):
            drawn, work = 0, 0.0
            for child in target:
                child_drawn, child_work = cost(child)
                drawn, work = drawn + child_drawn, work + child_work
            return drawn, work
        return cost(target)

    drawn, work = cost(root)
    return SvgCost(drawn, work)


def _with_xlink(svg: str) -> str:
    """Declare the xlink prefix when the SVG uses it without (browsers and Qt accept that, expat does not)."""
    if "xlink:" in svg and "xmlns:xlink" not in svg:
        return re.sub(r"<svg\b", f'<svg xmlns:xlink="{_XLINK}"', svg, count=1)
    return svg


def _local(tag: object) -> str:
    text = tag if isinstance(tag, str) else ""
    return text.rsplit("}", 1)[-1]


def _referenced(element: ElementTree.Element, by_id: dict[str, ElementTree.Element]) -> ElementTree.Element | None:
    for name in _HREFS:
        match = _LOCAL_HREF.match(element.get(name) or "")
        if match:
            return by_id.get(match.group(1).strip())
    return None


def _style_filters(style: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"filter\s*:\s*url\(\s*['\"]?\s*#([^'\")\s]+)", style)]


def _filter_weight(element: ElementTree.Element) -> float:
    """Primitives of a filter, each weighted by its blur radius (a blur's work grows with it)."""
    weight = 0.0
    for primitive in element:
        radius = 0.0
        if _local(primitive.tag) == "feGaussianBlur":
            radius = max((abs(float(n)) for n in _NUMBERS.findall(primitive.get("stdDeviation") or "")), default=0.0)
        weight += 1.0 + radius / 8.0
    return max(weight, 1.0)


def _number(text: str | None) -> float | None:
    match = _NUMBERS.match((text or "").strip())
    return abs(float(match.group(0))) if match else None


def _canvas_pixels(root: ElementTree.Element) -> float:
    width, height = _number(root.get("width")), _number(root.get("height"))
    if width is None or height is None:
        box = [abs(float(n)) for n in _NUMBERS.findall(root.get("viewBox") or "")]
        width, height = (box[2], box[3]) if len(box) == 4 else (640.0, 480.0)
    scale = min(1.0, RENDER_SIDE / max(width, height, 1.0))
    return max(width * scale, 1.0) * max(height * scale, 1.0)


def _area(element: ElementTree.Element) -> float:
    tag = _local(element.tag)
    if tag in ("rect", "image", "use", "foreignObject", "svg"):
        return (_number(element.get("width")) or 0.0) * (_number(element.get("height")) or 0.0)
    if tag == "circle":
        return (2 * (_number(element.get("r")) or 0.0)) ** 2
    if tag == "ellipse":
        return 4 * (_number(element.get("rx")) or 0.0) * (_number(element.get("ry")) or 0.0)
    return 0.0


def _own_scale(element: ElementTree.Element) -> float:
    """How much the element's own transform enlarges its area (ancestors' transforms are not followed)."""
    factor = 1.0
    for kind, args in re.findall(r"(scale|matrix)\s*\(([^)]*)\)", element.get("transform") or ""):
        numbers = [float(n) for n in _NUMBERS.findall(args)]
        if kind == "scale" and numbers:
            factor *= abs(numbers[0] * (numbers[1] if len(numbers) > 1 else numbers[0]))
        elif kind == "matrix" and len(numbers) >= 4:
            factor *= abs(numbers[0] * numbers[3] - numbers[1] * numbers[2])
    return max(factor, 1.0)


def _pattern_tiles(pattern: ElementTree.Element) -> int:
    """How often a pattern's tile repeats: unknowable without layout, so small tiles count as many."""
    sizes = []
    for name in ("width", "height"):
        match = _NUMBERS.fullmatch((pattern.get(name) or "").strip())
        sizes.append(abs(float(match.group(0))) if match else 0.0)
    if pattern.get("patternUnits", "objectBoundingBox") == "objectBoundingBox":
        tiles = [1.0 / s if s > 0 else MAX_PATTERN_TILES for s in sizes]
    else:
        tiles = [RENDER_SIDE / s if s > 0 else MAX_PATTERN_TILES for s in sizes]
    return max(1, min(int(tiles[0] * tiles[1]), MAX_PATTERN_TILES * MAX_PATTERN_TILES))
