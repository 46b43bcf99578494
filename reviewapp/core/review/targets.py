"""Targets for annotations built from what the reader loaded, checked against it, and described for people."""

from __future__ import annotations

from collections.abc import Sequence

from reviewapp.core.logbook.model import Cell, Logbook
from reviewapp.core.review.records import CellAnchor, FigureAnchor, LineRange, Target, TraceAnchor
from reviewapp.core.review.state import EffectiveClaim


class TargetError(ValueError):
    """The thing to annotate is not in the logbook (a page, cell or claim that is not there)."""


def claim_target(claim: EffectiveClaim) -> Target:
    return Target(claim=claim.key, page=claim.page)


def page_target(logbook: Logbook, slug: str, claims: Sequence[EffectiveClaim] = ()) -> Target:
    if logbook.page(slug) is None:
        raise TargetError(f"no page {slug!r} in this logbook")
    on_page = [c for c in claims if c.page == slug]
    return Target(claim=on_page[0].key if len(on_page) == 1 else None, page=slug)


def cell_target(logbook: Logbook, slug: str, ordinal: int, claims: Sequence[EffectiveClaim] = ()) -> Target:
    cell = _cell(logbook, slug, ordinal)
    claim = claim_of_cell(claims, slug, ordinal)
    return Target(claim=claim.key if claim else None, page=slug, cell=_anchor(cell))


def lines_target(
    logbook: Logbook, slug: str, ordinal: int, first: int, last: int, claims: Sequence[EffectiveClaim] = ()
) -> Target:
    """Lines `first`..`last` (1-based, inclusive) of the cell's output as the GUI numbers them."""
    base = cell_target(logbook, slug, ordinal, claims)
    if first < 1 or last < first:
        raise TargetError(f"not a line range: {first}-{last}")
    return base.model_copy(update={"lines": LineRange(first=first, last=last)})


def figure_target(
    logbook: Logbook, slug: str, ordinal: int, index: int = 0, claims: Sequence[EffectiveClaim] = ()
) -> Target:
    base = cell_target(logbook, slug, ordinal, claims)
    return base.model_copy(update={"figure": FigureAnchor(index=index)})


def trace_target(logbook: Logbook, session: str, sequence: int, claim: EffectiveClaim | None = None) -> Target:
    if logbook.trace(session) is None:
        raise TargetError(f"no trace session {session!r} in this logbook")
    return Target(
        claim=claim.key if claim else None,
        page=claim.page if claim else None,
        trace=TraceAnchor(session=session, sequence=sequence),
    )


def claim_of_cell(claims: Sequence[EffectiveClaim], slug: str, ordinal: int) -> EffectiveClaim | None:
    """The claim whose evidence includes the cell, else the only claim on its page."""
    on_page = [c for c in claims if c.page == slug]
    holding = [c for c in on_page if ordinal in c.cells]
    if len(holding) == 1:
        return holding[0]
    return on_page[0] if len(on_page) == 1 else None


def claim_label(claim: EffectiveClaim | None, key: str | None = None) -> str:
    """ "claim 3", or the title in quotes when the claim has no number."""
    if claim is None:
        return f"claim {key}" if key else "the logbook"
    if claim.n is not None and not claim.replaces:
        return f"claim {claim.n}"
    title = claim.title if len(claim.title) <= 40 else claim.title[:39] + "…"
    return f"claim “{title}”"


def describe_target(target: Target, claims: Sequence[EffectiveClaim] = ()) -> str:
    """A short phrase naming the target: "lines 4–9 of cell 2 of claim 3", "trace event 17", "claim 3"."""
    claim = next((c for c in claims if c.key == target.claim), None) if target.claim else None
    owner = claim_label(claim, target.claim) if target.claim else (f"page {target.page}" if target.page else "")
    if target.trace is not None:
        event = f"trace event {target.trace.sequence}"
        return f"{event} ({owner})" if target.claim else event
    if target.cell is not None:
        cell = f"cell {target.cell.ordinal + 1}"
        if target.lines is not None:
            lines = target.lines
            span = f"line {lines.first}" if lines.first == lines.last else f"lines {lines.first}–{lines.last}"
            cell = f"{span} of {cell}"
        elif target.figure is not None:
            cell = f"figure in {cell}"
        return f"{cell} of {owner}" if target.claim else f"{cell} on {owner}"
    if target.figure is not None and target.figure.file:
        return f"figure {target.figure.file}"
    return owner or "the logbook"


def _cell(logbook: Logbook, slug: str, ordinal: int) -> Cell:
    page = logbook.page(slug)
    if page is None:
        raise TargetError(f"no page {slug!r} in this logbook")
    if not 0 <= ordinal < len(page.cells):
        raise TargetError(f"page {slug!r} has no cell {ordinal + 1} (it has {len(page.cells)})")
    return page.cells[ordinal]


def _anchor(cell: Cell) -> CellAnchor:
    return CellAnchor(ordinal=cell.ordinal, id=cell.id, content_hash=cell.content_hash)
