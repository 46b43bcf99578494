"""Artifacts and workspace files as a table: name, type, size, where it is listed."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from reviewapp.core.logbook.artifacts import ArtifactEntry
from reviewapp.core.logbook.model import Logbook
from reviewapp.qt.plain import plain_tooltip

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Name", "Type", "Size")
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


def human_size(size: int | None) -> str:
    if size is None:
        return "—"
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} B"


class ArtifactTableModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[ArtifactEntry, tuple[str, str, str], str]] = []

    def set_entries(self, logbook: Logbook, entries: list[ArtifactEntry]) -> None:
        titles = {p.slug: p.title for p in logbook.pages}
        self.beginResetModel()
        self._rows = []
        for entry in entries:
            listed = (
                f"artifact cell on “{titles.get(entry.page or '', entry.page)}”" if entry.page else "workspace file"
            )
            cells = (entry.name, entry.type or "—", human_size(entry.size))
            local = str(entry.local_path) if entry.local_path else "not available locally"
            tooltip = "\n".join(x for x in (entry.name, listed, entry.uri or "", local) if x)
            self._rows.append((entry, cells, plain_tooltip(tooltip)))
        self.endResetModel()

    def entry_at(self, row: int) -> ArtifactEntry:
        return self._rows[row][0]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry, cells, tooltip = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return cells[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 2:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == ENTRY_ROLE:
            return entry
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None
