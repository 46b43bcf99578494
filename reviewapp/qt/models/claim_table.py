"""The claims of the loaded logbook as a list model, and the proxy that filters it by verdict, dispute and search.

The model shows the workspace's rows (ReviewedClaim: the claim as reviewers left it, its verdict slots, its mark)
and keeps no claims of its own: each row holds the workspace's row it was told, with the title and tool tip
computed once per change so that data() is a tuple lookup.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.review.workspace import ReviewedClaim
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.plain import plain_tooltip

_Index = QModelIndex | QPersistentModelIndex
_LABEL_PREFIX = re.compile(r"^\s*claim\s*#?\s*(\d{1,3})\s*[:.—–-]\s*", re.IGNORECASE)


def short_title(claim: Claim) -> str:
    """The title without its "Claim N:" prefix when the number is shown beside it anyway."""
    match = _LABEL_PREFIX.match(claim.title)
    if match and claim.n is not None and int(match.group(1)) == claim.n and match.end() < len(claim.title):
        return claim.title[match.end() :]
    return claim.title


class ClaimRole(IntEnum):
    CLAIM = Qt.ItemDataRole.UserRole + 1
    KEY = Qt.ItemDataRole.UserRole + 2
    SLOTS = Qt.ItemDataRole.UserRole + 3
    NUMBER = Qt.ItemDataRole.UserRole + 4
    DISAGREEMENT = Qt.ItemDataRole.UserRole + 5
    MARK = Qt.ItemDataRole.UserRole + 6  # how reviewers changed the claim ("split", "A corrected"), or ""


@dataclass(frozen=True, slots=True)
class ClaimRow:
    reviewed: ReviewedClaim  # the workspace's row, as it was last told
    number: str  # "2", or "·" for an unnumbered claim
    title: str
    tooltip: str

    @property
    def claim(self) -> Claim:
        return self.reviewed.claim

    @property
    def slots(self) -> VerdictSlots:
        return self.reviewed.slots

    @property
    def mark(self) -> str:
        return self.reviewed.mark


class ClaimTableModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ClaimRow] = []
        self._position: dict[str, int] = {}

    def set_rows(self, rows: Sequence[ReviewedClaim]) -> None:
        """List these rows (a logbook opened, or claims came and went)."""
        self.beginResetModel()
        self._rows = [_row(r) for r in rows]
        self._position = {row.claim.key: i for i, row in enumerate(self._rows)}
        self.endResetModel()

    def update_rows(self, rows: Sequence[ReviewedClaim]) -> None:
        """Redraw the rows of these claims only (a save names the claims it changed); other rows are untouched."""
        for reviewed in rows:
            position = self._position.get(reviewed.key, -1)
            if position < 0:
                continue
            old = self._rows[position]
            if old.reviewed == reviewed:  # derived again, the same: hold the new row, nothing to redraw
                self._rows[position] = dataclasses.replace(old, reviewed=reviewed)
                continue
            self._rows[position] = _row(reviewed)
            self.dataChanged.emit(self.index(position), self.index(position))

    def keys(self) -> list[str]:
        """The claim keys listed, in order."""
        return [row.claim.key for row in self._rows]

    def row_info(self, row: int) -> ClaimRow:
        return self._rows[row]

    def row_of(self, key: str) -> int:
        return self._position.get(key, -1)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip
        if role == ClaimRole.CLAIM:
            return row.claim
        if role == ClaimRole.KEY:
            return row.claim.key
        if role == ClaimRole.SLOTS:
            return row.slots
        if role == ClaimRole.NUMBER:
            return row.number
        if role == ClaimRole.DISAGREEMENT:
            return row.slots.disagreement
        if role == ClaimRole.MARK:
            return row.mark
        return None


def _row(reviewed: ReviewedClaim) -> ClaimRow:
    claim, slots = reviewed.claim, reviewed.slots
    lines = [f"{claim.label}: {claim.title}" if claim.n is not None else claim.title]
    lines.append(f"Agent: {slots.agent.value}" + (f" (“{claim.verdict_raw}”)" if claim.verdict_raw else ""))
    lines.append(f"Logbook Judge: {slots.logbook_judge.value if slots.logbook_judge else 'not imported'}")
    lines.append(f"Reviewer: {slots.human.value if slots.human else 'not judged yet'}")
    lines.extend(slots.disagreements())
    if reviewed.mark:  # how reviewers changed the claim
        lines.extend(reviewed.corrections)
    number = str(claim.n) if claim.n is not None else "·"
    return ClaimRow(reviewed, number, short_title(claim), plain_tooltip("\n".join(lines)))


NOT_REVIEWED = "not reviewed by you"
ClaimFilter = Verdict | str | None  # a verdict any slot holds, NOT_REVIEWED, or None for every claim


class ClaimFilterProxy(QSortFilterProxyModel):
    """Verdict filter (any of agent/judge/reviewer, or no verdict of the reviewer's), disagreements only, and the
    search result set."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.verdict: ClaimFilter = None
        self.disagreements_only = False
        self.matching: set[str] | None = None

    def set_filters(self, verdict: ClaimFilter, disagreements_only: bool, matching: set[str] | None) -> None:
        incremental = hasattr(self, "beginFilterChange")  # Qt 6.9+; older releases re-filter afterwards
        if incremental:
            self.beginFilterChange()
        self.verdict = verdict
        self.disagreements_only = disagreements_only
        self.matching = matching
        if incremental:
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateRowsFilter()

    @property
    def active(self) -> bool:
        return self.verdict is not None or self.disagreements_only or self.matching is not None

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, ClaimTableModel)
        row = model.row_info(source_row)
        if self.matching is not None and row.claim.key not in self.matching:
            return False
        if self.disagreements_only and not row.slots.disagreement:
            return False
        if self.verdict == NOT_REVIEWED:
            return row.slots.human is None
        return self.verdict is None or row.slots.has(Verdict(self.verdict))  # a combo box hands back plain str
