"""Two logbooks' evidence for the same paper claim, cell against cell: runs beside runs, figures beside figures.

Cells are paired within their kind (a run with a run, a figure with a figure, a note with a note) by how alike
they read: a run by its command, a figure or note by its title, then by its text. Pairs keep the left page's
order and never cross (the right page's order is kept too); cells without a partner stand alone in their place.
The comparison view lays the two claim pages out by these pairs and scrolls them together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from reviewapp.core.logbook.model import Cell, CellKind, Claim, Logbook
from reviewapp.core.review.state import EffectiveClaim

PAIR_THRESHOLD = 0.5  # below this two cells are shown apart, not as the same step
_SEED = re.compile(r"--?seed[= ]?\d+|\bseed[_ ]?\d+", re.IGNORECASE)
_KIND_NAMES = {CellKind.CODE: "run", CellKind.FIGURE: "figure", CellKind.MARKDOWN: "note"}


@dataclass(frozen=True, slots=True)
class EvidencePair:
    left: Cell | None
    right: Cell | None
    similarity: float  # 0 for a cell standing alone

    @property
    def kind(self) -> str:
        cell = self.left or self.right
        assert cell is not None
        return _KIND_NAMES.get(cell.kind, cell.kind.value)

    @property
    def label(self) -> str:
        """What the row is about, from whichever side has it: a run's command, else a cell's title."""
        cell = self.left or self.right
        assert cell is not None
        return signature(cell)[:120] or f"{self.kind} {cell.ordinal + 1}"


def evidence_cells(logbook: Logbook, claim: EffectiveClaim | Claim | None) -> list[Cell]:
    if claim is None:
        return []
    page = logbook.page(claim.page)
    if page is None:
        return []
    wanted = set(claim.cells)
    return [c for c in page.cells if c.ordinal in wanted]


def pair_evidence(left: Sequence[Cell], right: Sequence[Cell]) -> list[EvidencePair]:
    """Both cell lists merged into rows: the most alike same-kind cells paired, in order, without crossing."""
    scores = [[_alike(a, b) for b in right] for a in left]
    # longest chain of non-crossing pairs with the most similarity (a weighted common subsequence)
    best = [[0.0] * (len(right) + 1) for _ in range(len(left) + 1)]
    for i in range(len(left) - 1, -1, -1):
        for j in range(len(right) - 1, -1, -1):
            take = scores[i][j] + best[i + 1][j + 1] if scores[i][j] >= PAIR_THRESHOLD else -1.0
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    rows: list[EvidencePair] = []
    i = j = 0
    while i < len(left) and j < len(right):
        score = scores[i][j]
        if score >= PAIR_THRESHOLD and best[i][j] == score + best[i + 1][j + 1]:
            rows.append(EvidencePair(left[i], right[j], round(score, 2)))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            rows.append(EvidencePair(left[i], None, 0.0))
            i += 1
        else:
            rows.append(EvidencePair(None, right[j], 0.0))
            j += 1
    rows += [EvidencePair(c, None, 0.0) for c in left[i:]]
    rows += [EvidencePair(None, c, 0.0) for c in right[j:]]
    return rows


def signature(cell: Cell) -> str:
    """What identifies a cell's step across teams: the command of a run, the title of anything else."""
    command = cell.header.get("command") if isinstance(cell.header, dict) else None
    if cell.kind is CellKind.CODE and isinstance(command, list) and command:
        return " ".join(str(part) for part in command)
    if cell.kind is CellKind.CODE:
        shown = next((line[2:] for line in cell.body.splitlines()[:5] if line.startswith("$ ")), None)
        if shown:
            return shown
    return " ".join(cell.title.split())


def _alike(a: Cell, b: Cell) -> float:
    if a.kind is not b.kind:
        return 0.0
    sig_a, sig_b = _SEED.sub("", signature(a)).lower(), _SEED.sub("", signature(b)).lower()
    by_signature = SequenceMatcher(None, sig_a, sig_b, autojunk=False).ratio() if sig_a or sig_b else 0.0
    body = SequenceMatcher(None, a.body[:400], b.body[:400], autojunk=False).ratio()
    score = max(by_signature, 0.6 * by_signature + 0.4 * body)
    if signature(a) == signature(b) and signature(a):
        score = max(score, 0.9)  # the same command or title: the same step, whatever its output
    return score
