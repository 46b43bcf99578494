"""The queue as a table: one row per logbook, sortable and filterable, with pseudonyms in blind mode.

The rows live here in Python (`rows`); what each cell shows is written into the items of a Qt model whenever a row
changes, so that painting, sorting and scrolling the table run no Python. A table that asked Python for every cell
it painted waited for the interpreter at each call while workers ran Python: 20-50 ms a paint while the queue
filled, against 2-6 ms for a table of items.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

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
Cell = tuple[str, Any, str | None]  # what a cell shows, its sort key, its tool tip
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_ALIGNED = frozenset(range(len(COLUMNS))) - {LOGBOOK, STATUS, PAPER}


class RowLook:
    """How one row is shown: its cells, its label and its texts, in or out of blind mode (usable off the GUI
    thread: the listing's items are made in the pool)."""

    def __init__(self, row: QueueRow, blinder: Blinder, *, blind: bool, complete: bool) -> None:
        self.row, self.blinder, self.blind, self.complete = row, blinder, blind, complete

    @property
    def hides(self) -> bool:
        """Whether the logbook's makers are hidden: in blind mode, until this judge has saved a rubric score."""
        return self.blind and self.row.my_score is None

    def shown(self, text: str) -> str:
        if not self.hides:
            return text
        return self.blinder.scrub(text) if self.complete else self.blinder.alias

    def label(self) -> str:
        """How the logbook is named on screen: its title and source, or only a pseudonym in blind mode."""
        row = self.row
        if self.hides:
            shown = row.title and self.complete
            return f"{self.blinder.alias} — {self.blinder.scrub(row.title)}" if shown else self.blinder.alias
        label = f"{row.title} ({row.entry.source})" if row.title else row.entry.source
        return f"{label} · revealed after your score" if self.blind else label

    def cells(self, number: int) -> list[Cell]:
        label = self.label()
        return [
            (self._display(number, column, label), self._sort_key(number, column, label), self._tip(column, label))
            for column in range(len(COLUMNS))
        ]

    def _display(self, number: int, column: int, label: str) -> str:
        row = self.row
        if column == 0:
            return str(number + 1)
        if column == LOGBOOK:
            return label
        if row.problem:
            broken = row.root is not None  # read, but no claims
            if column == STATUS:  # broken (read, no claims) or merged (another form of an earlier row)
                return f"{row.status}: {self.shown(row.problem)}" if broken else "cannot be read"
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

    def _sort_key(self, number: int, column: int, label: str) -> Any:
        row = self.row
        keys: tuple[Any, ...] = (
            number,
            label.lower(),
            row.paper.lower(),
            row.claims,
            row.reviewed_by_me / row.claims if row.claims else 0.0,
            -1.0 if row.my_score is None else row.my_score,
            -1.0 if row.points is None else row.points[0] / max(1, row.points[1]),
            ("flagged", "in progress", "not started", "done", READING).index(row.status) if not row.problem else 9,
            row.disagreements,
        )
        return keys[column]

    def _tip(self, column: int, label: str) -> str | None:
        row = self.row
        if column == STATUS and row.flag_reason:
            return f"Flagged: {self.shown(row.flag_reason)}"
        if column == STATUS and row.unverified and not row.problem:
            return unverified_tip(row.unverified, self.blind)
        if row.problem:
            return self.shown(row.problem)
        if column == LOGBOOK:
            return label  # elided in its column
        if column == POINTS_COLUMN and row.unmatched_judged:
            return (
                f"{row.unmatched_judged} of the Logbook Judge's verdicts are on claims that match no claim of this "
                "logbook: they are not in the points (align them in the review window)"
            )
        return None


def new_items(cells: list[Cell]) -> list[QStandardItem]:
    """A row's items (made in the pool for a whole listing)."""
    items = []
    for column, (text, key, tip) in enumerate(cells):
        item = QStandardItem(text)
        item.setData(key, SORT_ROLE)
        if tip is not None:
            item.setToolTip(tip)
        if column in _ALIGNED:
            item.setData(_RIGHT, Qt.ItemDataRole.TextAlignmentRole)
        items.append(item)
    return items


class Listing(NamedTuple):
    """A whole listing's cells and items, made in the pool for one blind mode: a thousand rows' items take 60 ms."""

    blind: bool
    cells: list[list[Cell]]
    items: list[list[QStandardItem]]

    @classmethod
    def make(
        cls, rows: Sequence[QueueRow], blinders: Sequence[Blinder], *, blind: bool, complete: bool = True
    ) -> Listing:
        """`complete`: the blinders know every name (the listing's own do)."""
        cells = [
            RowLook(row, blinder, blind=blind, complete=complete).cells(number)
            for number, (row, blinder) in enumerate(zip(rows, blinders, strict=True))
        ]
        return cls(blind, cells, [new_items(row) for row in cells])


class QueueTableModel(QStandardItemModel):
    def __init__(self) -> None:
        super().__init__(0, len(COLUMNS))
        self.setHorizontalHeaderLabels(list(COLUMNS))
        self.rows: list[QueueRow] = []
        self._blind = False
        self._blinders: dict[int, Blinder] = {}
        self._complete: set[int] = set()  # rows whose blinders know every name (git authors too)
        self._cells: list[list[Cell]] = []  # what each row's items hold, so that a change writes only what changed

    def set_rows(
        self,
        rows: list[QueueRow],
        blinders: list[Blinder] | None = None,
        *,
        complete: bool = True,
        listing: Listing | None = None,
    ) -> None:
        """`blinders`: one per row, made off the GUI thread; `complete` when they know the git authors' names too.
        Until they do, blind labels show the pseudonym alone (`set_blinders` completes them). `listing`: the rows'
        cells and items, made in the pool (`Listing.make`) with these complete blinders."""
        if blinders is None:
            blinders, complete = [listed_row_blinder(r) for r in rows], False
        self.rows = rows
        self._blinders = dict(enumerate(blinders))
        self._complete = set(range(len(rows))) if complete else set()
        if listing is None or not complete:  # a listing is made with complete blinders
            listing = Listing.make(rows, blinders, blind=self.blind, complete=complete)
        self._cells = listing.cells
        # one reset, not a signal per row: the filter and the table would take in a thousand insertions one by one
        self.beginResetModel()
        self.blockSignals(True)
        try:
            self.setRowCount(0)
            for items in listing.items:
                self.appendRow(items)
        finally:
            self.blockSignals(False)
        self.endResetModel()
        if listing.blind != self.blind:
            self._push(range(len(rows)))  # blind mode switched while they were made

    def replace_rows(self, first: int, rows: list[QueueRow], blinders: list[Blinder], *, complete: bool) -> None:
        """Rows `first`, `first + 1`, … read (the queue fills in chunks)."""
        for offset, (row, blinder) in enumerate(zip(rows, blinders, strict=True)):
            self.rows[first + offset] = row
            self._blinders[first + offset] = blinder
            if complete:
                self._complete.add(first + offset)
            else:
                self._complete.discard(first + offset)
        self._push(range(first, first + len(rows)))

    @property
    def complete(self) -> bool:
        return len(self._complete) == len(self.rows)

    def set_blinders(self, rows: list[QueueRow], blinders: list[Blinder]) -> None:
        if rows is not self.rows:
            return  # the queue was read again meanwhile
        self._blinders = dict(enumerate(blinders))
        self._complete = set(range(len(rows)))
        self.set_blind(self.blind)

    @property
    def blind(self) -> bool:
        return self._blind

    @blind.setter
    def blind(self, blind: bool) -> None:
        self.set_blind(blind)

    def set_blind(self, blind: bool) -> None:
        self._blind = blind
        self._push(range(len(self.rows)))

    def replace_row(self, number: int, row: QueueRow) -> None:
        self.rows[number] = row  # the same logbook: its blinder stays
        self._push(range(number, number + 1))

    def hides(self, number: int) -> bool:
        return self._look(number).hides

    def shown(self, number: int, text: str) -> str:
        return self._look(number).shown(text)

    def alias(self, number: int) -> str:
        return self._blinders[number].alias

    def label(self, number: int) -> str:
        return self._look(number).label()

    def _look(self, number: int) -> RowLook:
        return RowLook(self.rows[number], self._blinders[number], blind=self.blind, complete=number in self._complete)

    def _push(self, numbers: range) -> None:
        """Write the rows' changed cells into their items, then say so once for the whole range."""
        if not numbers:
            return
        changed = []
        self.blockSignals(True)  # one dataChanged below, not one per item
        try:
            for number in numbers:
                cells, before = self._look(number).cells(number), self._cells[number]
                if cells == before:
                    continue
                changed.append(number)
                for column, (cell, old) in enumerate(zip(cells, before, strict=True)):
                    if cell != old:
                        item = self.item(number, column)
                        item.setText(cell[0])
                        item.setData(cell[1], SORT_ROLE)
                        item.setData(cell[2], Qt.ItemDataRole.ToolTipRole)
                self._cells[number] = cells
        finally:
            self.blockSignals(False)
        if changed:
            last = len(COLUMNS) - 1
            self.dataChanged.emit(self.index(changed[0], 0), self.index(changed[-1], last))


class QueueFilter(QSortFilterProxyModel):
    """Filters by status, by Logbook Judge points and by paper (or any text in the logbook's label); sorts by the
    sort role (in Qt: the items hold the keys)."""

    def __init__(self) -> None:
        super().__init__()
        self.status = ""  # "" all
        self.text = ""
        self.min_points = 0  # 0: every row, judged or not
        self.setSortRole(SORT_ROLE)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The "#" column ascending is the queue's own order: the rows are shown as the model holds them, not
        sorted (each chunk of rows read while the queue fills would sort a thousand rows again)."""
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

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, QueueTableModel)
        row = model.rows[source_row]
        if self.status and row.status != self.status:
            return False
        if self.min_points and (row.points is None or row.points[0] < self.min_points):
            return False
        return not self.text or self.text in row.paper.lower() or self.text in model.label(source_row).lower()


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
