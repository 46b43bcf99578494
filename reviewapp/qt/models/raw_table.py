"""A figure's raw data table (core RawTable) as a Qt table model."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from reviewapp.core.logbook.raw_data import RawTable

_Index = QModelIndex | QPersistentModelIndex


class RawTableModel(QAbstractTableModel):
    def __init__(self, table: RawTable, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self._numeric = [_is_numeric_column(table, c) for c in range(len(table.columns))]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.table.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.table.columns)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.table.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and self._numeric[index.column()]:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        return self.table.columns[section] if orientation == Qt.Orientation.Horizontal else str(section + 1)


def _is_numeric_column(table: RawTable, column: int) -> bool:
    sample = [row[column] for row in table.rows[:50] if row[column]]
    if not sample:
        return False
    try:
        for value in sample:
            float(value)
    except ValueError:
        return False
    return True
