"""A claim's scope holds a cell when a line of the cell's body is in it, however long the body."""

from __future__ import annotations

import pytest

from reviewapp.core.logbook.claim_text import Scope
from reviewapp.core.logbook.model import Cell, CellKind, Page


def _cell(body_line: int, lines: int) -> Cell:
    body = "\n".join(f"line {n}" for n in range(lines))
    return Cell("p", 0, CellKind.CODE, "code", None, "", {}, body, body_line - 1, body_line)


PAGE = Page(slug="p", title="P", file="p.md", preamble="", cells=[], sha256="", size=0)


@pytest.mark.parametrize("body_line", [1, 5, 9, 10, 11, 15, 20, 21, 30])
@pytest.mark.parametrize("lines", [0, 1, 2, 6, 12, 40])
@pytest.mark.parametrize(("first", "last"), [(0, 0), (10, 20), (10, 10)])
def test_a_cell_is_in_a_scope_when_any_of_its_lines_is(body_line: int, lines: int, first: int, last: int) -> None:
    scope = Scope(PAGE, first, last)
    cell = _cell(body_line, lines)
    shown = range(body_line, body_line + max(lines, 1))  # an empty body still sits on its first line
    assert scope.overlaps_cell(cell) == (first == 0 or any(first <= n <= last for n in shown))
