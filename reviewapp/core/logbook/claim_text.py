"""Reading the markdown of pages for claims: their prose without code, tables and their verdict columns."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from reviewapp.core.logbook import verdict_mentions as vm
from reviewapp.core.logbook.model import Cell, CellKind, Page

TABLE_LINK = re.compile(r"\]\(\s*#/(?P<slug>[^)\s#?]+)\s*\)")
ROW_CLAIM = re.compile(r"^\s*(?:\*\*)?\s*(?:claim\s*|c)?#?\s*(\d{1,3})\b", re.IGNORECASE)
VERDICT_COLUMN = re.compile(r"verdict|status|outcome|result|assessment|rating", re.IGNORECASE)
OTHERS_COLUMN = re.compile(
    r"judge|grader|leaderboard|\bpaper(?:'s)?[\s-]+(?:verdict|status|outcome|result|claim)|\bauthors?\b|"
    r"reported|published|claimed|previous|prior|earlier|original|\bold\b|\blast\b|expected|target|predicted",
    re.IGNORECASE,
)
OWN_COLUMN = re.compile(
    r"\b(?:our|ours|this|agent|current|final|overall|new|updated|revised|reproduc\w*|replicat\w*)\b", re.IGNORECASE
)


def page_texts(page: Page) -> list[tuple[str, int, int | None]]:
    texts: list[tuple[str, int, int | None]] = [(page.preamble, page.preamble_line, None)] if page.preamble else []
    texts += [(c.body, c.body_line, c.ordinal) for c in page.cells if c.kind in (CellKind.MARKDOWN, CellKind.GENERIC)]
    return texts


def without_code(text: str) -> str:
    """Blank out fenced code so that line numbers stay right but code and outputs are not read as prose."""
    if "```" not in text and "~~~" not in text:
        return text
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3] * 1
            out.append("")
            continue
        if fence is not None:
            if stripped.startswith(fence) and stripped.strip("`~") == "":
                fence = None
            out.append("")
            continue
        out.append(line)
    return "\n".join(out)


def verdict_column_of(header: list[str]) -> int | None:
    """The column of a table header that holds this reproduction's verdicts, if any."""
    names = [vm.clean(c) for c in header]
    columns = [
        i for i, c in enumerate(names) if len(c) <= 40 and VERDICT_COLUMN.search(c) and not OTHERS_COLUMN.search(c)
    ]
    own = [i for i in columns if OWN_COLUMN.search(names[i])]
    picked = own or columns
    return picked[0] if picked else None


@dataclass
class Scope:
    """Where one claim's own text lives: a whole page, or a line range of it."""

    page: Page
    first_line: int = 0  # 0 means the whole page
    last_line: int = 0

    def covers(self, line: int) -> bool:
        return self.first_line == 0 or self.first_line <= line <= self.last_line

    @cached_property
    def text_cell_ends(self) -> tuple[int | None, int | None]:
        """The ordinals of the page's first and last text (markdown or generic) cells, found once for the many
        candidates a claim's text has."""
        ordinals = [c.ordinal for c in self.page.cells if c.kind in (CellKind.MARKDOWN, CellKind.GENERIC)]
        return (ordinals[0], ordinals[-1]) if ordinals else (None, None)

    def overlaps(self, first: int, last: int) -> bool:
        return self.first_line == 0 or (first <= self.last_line and last >= self.first_line)

    def overlaps_cell(self, cell: Cell) -> bool:
        """Whether a line of `cell`'s body is in the scope. Its lines are counted only when it starts above the
        scope: counting every run output's lines was a twentieth of a second of reading a large logbook."""
        if self.covers(cell.body_line):
            return True
        if cell.body_line > self.last_line:
            return False
        return self.overlaps(cell.body_line, cell.body_line + max(cell.line_count, 1) - 1)
