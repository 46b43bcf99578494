"""The queue as a table: one row per logbook, sortable and filterable, with pseudonyms in blind mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from reviewapp.core.queue.blind import Blinder
from reviewapp.core.queue.blind_logbook import listed_row_blinder
from reviewapp.core.queue.queue_row import FLAGGED, QueueRow
from reviewapp.core.queue.status import points_text

COLUMNS = (
    "#",
    "Logbook",
    "Paper",
    "Claims",
    "Reviewed by me",
    "My score",
    "Logbook Judge points",
    "Status",
    "Disputed",
)
LOGBOOK, PAPER, POINTS_COLUMN, STATUS, DISPUTED = 1, 2, 6, 7, 8
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
READING = "reading…"  # a row whose logbook is still being read
_Index = QModelIndex | QPersistentModelIndex


class QueueTableModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.rows: list[QueueRow] = []
        self.blind = False
        self._blinders: dict[int, Blinder] = {}
        self._complete: set[int] = set()  # rows whose blinders know every name (git authors too)

    def set_rows(self, rows: list[QueueRow], blinders: list[Blinder] | None = None, *, complete: bool = True) -> None:
        """`blinders`: one per row, made off the GUI thread; `complete` when they know the git authors' names too.
        Until they do, blind labels show the pseudonym alone (`set_blinders` completes them)."""
        self.beginResetModel()
        self.rows = rows
        if blinders is None:
            blinders, complete = [listed_row_blinder(r) for r in rows], False
        self._blinders = dict(enumerate(blinders))
        self._complete = set(range(len(rows))) if complete else set()
        self.endResetModel()

    def replace_rows(self, first: int, rows: list[QueueRow], blinders: list[Blinder], *, complete: bool) -> None:
        """Rows `first`, `first + 1`, … read (the queue fills in chunks)."""
        for offset, (row, blinder) in enumerate(zip(rows, blinders, strict=True)):
            self.rows[first + offset] = row
            self._blinders[first + offset] = blinder
            if complete:
                self._complete.add(first + offset)
            else:
                self._complete.discard(first + offset)
        if rows:
            self.dataChanged.emit(self.index(first, 0), self.index(first + len(rows) - 1, len(COLUMNS) - 1))

    @property
    def complete(self) -> bool:
        return len(self._complete) == len(self.rows)

    def set_blinders(self, rows: list[QueueRow], blinders: list[Blinder]) -> None:
        if rows is not self.rows:
            return  # the queue was read again meanwhile
        self._blinders = dict(enumerate(blinders))
        self._complete = set(range(len(rows)))
        self.set_blind(self.blind)

    def set_blind(self, blind: bool) -> None:
        self.blind = blind
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, len(COLUMNS) - 1))

    def replace_row(self, number: int, row: QueueRow) -> None:
        self.rows[number] = row  # the same logbook: its blinder stays
        self.dataChanged.emit(self.index(number, 0), self.index(number, len(COLUMNS) - 1))

    def hides(self, number: int) -> bool:
        """Whether the logbook's makers are hidden: in blind mode, until this judge has saved a rubric score."""
        return self.blind and self.rows[number].my_score is None

    def shown(self, number: int, text: str) -> str:
        if not self.hides(number):
            return text
        return self._blinders[number].scrub(text) if number in self._complete else self._blinders[number].alias

    def alias(self, number: int) -> str:
        return self._blinders[number].alias

    def label(self, number: int) -> str:
        """How the logbook is named on screen: its title and source, or only a pseudonym in blind mode."""
        row = self.rows[number]
        if self.hides(number):
            blinder = self._blinders[number]
            shown = row.title and number in self._complete
            return f"{blinder.alias} — {blinder.scrub(row.title)}" if shown else blinder.alias
        label = f"{row.title} ({row.entry.source})" if row.title else row.entry.source
        return f"{label} · revealed after your score" if self.blind else label

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(index.row(), row, column)
        if role == SORT_ROLE:
            return self._sort_key(index.row(), row, column)
        if role == Qt.ItemDataRole.ToolTipRole and column == STATUS and row.flag_reason:
            return f"Flagged: {self.shown(index.row(), row.flag_reason)}"
        if role == Qt.ItemDataRole.ToolTipRole and column == STATUS and row.unverified and not row.problem:
            return unverified_tip(row.unverified, self.blind)
        if role == Qt.ItemDataRole.ToolTipRole and row.problem:
            return self.shown(index.row(), row.problem)
        if role == Qt.ItemDataRole.ToolTipRole and column == LOGBOOK:
            return self.label(index.row())  # elided in its column
        if role == Qt.ItemDataRole.ToolTipRole and column == POINTS_COLUMN and row.unmatched_judged:
            return (
                f"{row.unmatched_judged} of the Logbook Judge's verdicts are on claims that match no claim of this "
                "logbook: they are not in the points (align them in the review window)"
            )
        if role == Qt.ItemDataRole.TextAlignmentRole and column not in (LOGBOOK, STATUS, PAPER):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def multiData(self, index: _Index, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """Every role a delegate asks of a cell in one call (it asks seven to paint one): a paint of the table
        calls into Python once a cell, not seven times, and each call may wait for the interpreter while a worker
        runs Python (half a millisecond a call, at the switch interval workers.share_interpreter_with_gui sets)."""
        for wanted in _roles(roleDataSpan):
            wanted.setData(self.data(index, wanted.role()))

    def _display(self, number: int, row: QueueRow, column: int) -> str:
        if column == 0:
            return str(number + 1)
        if column == LOGBOOK:
            return self.label(number)
        if row.problem:
            broken = row.root is not None  # read, but no claims
            if column == STATUS:  # broken (read, no claims) or merged (another form of an earlier row)
                return f"{row.status}: {self.shown(number, row.problem)}" if broken else "cannot be read"
            return ""
        if row.status == READING:
            return READING if column == STATUS else row.paper if column == PAPER else ""
        values = (
            None,
            None,
            row.paper,
            str(row.claims),
            f"{row.reviewed_by_me} of {row.claims}",
            row.my_score_text,
            points_text(row),
            row.status + (" ⚑" if row.status == FLAGGED else "") + unverified_mark(row.unverified),
            str(row.disagreements) if row.disagreements else "",
        )
        return values[column] or ""

    def _sort_key(self, number: int, row: QueueRow, column: int) -> Any:
        keys: tuple[Any, ...] = (
            number,
            self.label(number).lower(),
            row.paper.lower(),
            row.claims,
            row.reviewed_by_me / row.claims if row.claims else 0.0,
            -1.0 if row.my_score is None else row.my_score,
            -1.0 if row.points is None else row.points[0] / max(1, row.points[1]),
            ("flagged", "in progress", "not started", "done", READING).index(row.status) if not row.problem else 9,
            row.disagreements,
        )
        return keys[column]


class QueueFilter(QSortFilterProxyModel):
    """Filters by status, by Logbook Judge points and by paper (or any text in the logbook's label); sorts by the
    sort role."""

    def __init__(self) -> None:
        super().__init__()
        self.status = ""  # "" all
        self.text = ""
        self.min_points = 0  # 0: every row, judged or not
        self.setSortRole(SORT_ROLE)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The "#" column ascending is the queue's own order: the rows are shown as the model holds them, not
        sorted (sorting asks Python for both keys of every comparison: 50 ms for a thousand rows on the GUI thread
        each time the queue is listed, and again for every chunk of rows read while it fills)."""
        if column == 0 and order == Qt.SortOrder.AscendingOrder:
            column = -1
        super().sort(column, order)

    def set_status(self, status: str) -> None:
        self._refilter(lambda: setattr(self, "status", status))

    def set_min_points(self, points: int) -> None:
        self._refilter(lambda: setattr(self, "min_points", points))

    def set_text(self, text: str) -> None:
        self._refilter(lambda: setattr(self, "text", text.strip().lower()))

    def _refilter(self, change: Callable[[], None]) -> None:
        incremental = hasattr(self, "beginFilterChange")  # Qt 6.9+; older releases re-filter afterwards
        if incremental:
            self.beginFilterChange()
        change()
        if incremental:
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.invalidateRowsFilter()

    def multiData(self, index: _Index, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """The source model's cell, every role in one call (QueueTableModel.multiData)."""
        model = self.sourceModel()
        assert isinstance(model, QueueTableModel)
        model.multiData(self.mapToSource(index), roleDataSpan)

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, QueueTableModel)
        row = model.rows[source_row]
        if self.status and row.status != self.status:
            return False
        if self.min_points and (row.points is None or row.points[0] < self.min_points):
            return False
        return not self.text or self.text in row.paper.lower() or self.text in model.label(source_row).lower()


def _roles(span: QModelRoleDataSpan | QModelRoleData) -> list[QModelRoleData]:
    if isinstance(span, QModelRoleData):
        return [span]
    return [span[position] for position in range(span.size())]  # type: ignore[index]  # the stubs lack []


def unverified_mark(unverified: list[str]) -> str:
    """Beside the status: records the roster does not vouch for were set apart (never counted)."""
    return f" · {len(unverified)} unverified" if unverified else ""


def unverified_tip(unverified: list[str], blind: bool) -> str:
    """Which records were set apart; blind, the names they claim stay hidden."""
    head = f"{len(unverified)} record(s) set apart as unverified and not counted: no key the roster lists signed them"
    if blind:
        return head + " (names hidden while reviewing blind)"
    shown = unverified[:10]
    more = [f"… and {len(unverified) - len(shown)} more"] if len(unverified) > len(shown) else []
    return "\n".join([head, *shown, *more])
