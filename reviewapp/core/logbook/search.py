"""Text search across claims and their evidence (cell text, run commands and outputs, figure data).

The index is built once per load (off the GUI thread) as one case-folded text per claim, so that a query is a
few substring scans rather than a walk over every cell. Figure HTML is left out: it is mostly base64.
"""

from __future__ import annotations

import re
import shlex

from reviewapp.core.logbook.cell_details import fences
from reviewapp.core.logbook.model import Cell, CellKind, Claim, Logbook
from reviewapp.core.progress import CancelToken

_TERMS = re.compile(r'"([^"]+)"|(\S+)')


def query_terms(query: str) -> list[str]:
    """Case-folded terms of a query; "quoted phrases" stay one term."""
    return [(phrase or word).casefold() for phrase, word in _TERMS.findall(query) if (phrase or word).strip()]


def cell_search_text(cell: Cell) -> str:
    parts = [cell.title]
    if cell.kind is CellKind.FIGURE:
        parts.extend(f.text for f in fences(cell.body) if f.lang != "html")
    else:
        command = cell.header.get("command")
        if isinstance(command, list):
            parts.append(shlex.join(str(c) for c in command))
        parts.append(cell.body)
    return "\n".join(parts)


_PIECE = 1 << 20  # characters folded in one call: a worker holds the interpreter for a moment, not 50 ms


def folded_pieces(text: str) -> list[str]:
    """`text` case-folded in pieces of about a megabyte cut at line ends (no search term spans a line end)."""
    pieces = []
    start = 0
    while start < len(text):
        end = start + _PIECE
        if end < len(text):
            cut = text.rfind("\n", start, end)
            end = cut + 1 if cut > start else (text.find("\n", end) + 1 or len(text))
        piece = text[start:end]
        pieces.append(piece.lower() if piece.isascii() else piece.casefold())  # the same for ASCII, and faster
        start = end
    return pieces


class SearchIndex:
    def __init__(self, logbook: Logbook, cancel: CancelToken | None = None) -> None:
        self._texts: dict[str, list[str]] = {}
        for claim in logbook.claims:
            if cancel is not None:
                cancel.check()
            self._texts[claim.key] = folded_pieces(_claim_text(logbook, claim))

    def matching(self, query: str) -> set[str] | None:
        """Keys of the claims whose title or evidence contains every term; None for an empty query (no filter)."""
        terms = query_terms(query)
        if not terms:
            return None
        return {
            key for key, pieces in self._texts.items() if all(any(term in piece for piece in pieces) for term in terms)
        }


def _claim_text(logbook: Logbook, claim: Claim) -> str:
    parts = [claim.label, claim.title, claim.verdict_raw or "", claim.verdict.value]
    page = logbook.page(claim.page)
    if page is not None:
        parts.append(page.title)
        if claim.section_line is None:
            parts.append(page.preamble)
        wanted = set(claim.cells)
        parts.extend(cell_search_text(cell) for cell in page.cells if cell.ordinal in wanted)
    return "\n".join(parts)
