"""The claims of the loaded logbook as a list model, and the proxy that filters it by verdict, dispute and search.

Rows are computed once per change (load, verdict import) so that data() is a tuple lookup.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.slots import VerdictSlots
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
    claim: Claim
    slots: VerdictSlots
    number: str  # "2", or "·" for an unnumbered claim
    title: str
    tooltip: str
    mark: str = ""


class ClaimTableModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ClaimRow] = []
        self._marks: dict[str, tuple[str, list[str]]] = {}

    def set_claims(self, claims: list[Claim], slots: list[VerdictSlots]) -> None:
        self.beginResetModel()
        self._rows = [self._row(c, s) for c, s in zip(claims, slots, strict=True)]
        self.endResetModel()

    def update_slots(self, slots: list[VerdictSlots]) -> None:
        self._replace([self._row(row.claim, s) for row, s in zip(self._rows, slots, strict=True)])

    def update_rows(self, rows: Sequence[tuple[Claim, VerdictSlots]]) -> None:
        """Redraw the rows of these claims only (a save names the claims it changed); other rows are untouched."""
        for claim, slots in rows:
            position = self.row_of(claim.key)
            if position < 0:
                continue
            row = self._row(claim, slots)
            if row != self._rows[position]:
                self._rows[position] = row
                self.dataChanged.emit(self.index(position), self.index(position))

    def set_marks(self, marks: dict[str, str], notes: dict[str, list[str]]) -> None:
        """Per claim key: a short mark for the row and sentences for its tool tip (reviewers' corrections)."""
        self._marks = {key: (mark, notes.get(key, [])) for key, mark in marks.items()}
        self._replace([self._row(row.claim, row.slots) for row in self._rows])

    def _replace(self, rows: list[ClaimRow]) -> None:
        """Take the new rows; only those that differ are announced (a view repaints what changed, nothing more)."""
        old, self._rows = self._rows, rows
        for position, (before, after) in enumerate(zip(old, rows, strict=True)):
            if before != after:
                self.dataChanged.emit(self.index(position), self.index(position))

    def _row(self, claim: Claim, slots: VerdictSlots) -> ClaimRow:
        mark, notes = self._marks.get(claim.key, ("", []))
        return _row(claim, slots, mark, notes)

    def row_info(self, row: int) -> ClaimRow:
        return self._rows[row]

    def row_of(self, key: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.claim.key == key), -1)

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


def _row(claim: Claim, slots: VerdictSlots, mark: str = "", notes: list[str] | None = None) -> ClaimRow:
    lines = [f"{claim.label}: {claim.title}" if claim.n is not None else claim.title]
    lines.append(f"Agent: {slots.agent.value}" + (f" (“{claim.verdict_raw}”)" if claim.verdict_raw else ""))
    lines.append(f"Logbook Judge: {slots.logbook_judge.value if slots.logbook_judge else 'not imported'}")
    lines.append(f"Reviewer: {slots.human.value if slots.human else 'not judged yet'}")
    lines.extend(slots.disagreements())
    lines.extend(notes or [])
    number = str(claim.n) if claim.n is not None else "·"
    return ClaimRow(claim, slots, number, short_title(claim), plain_tooltip("\n".join(lines)), mark)


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
