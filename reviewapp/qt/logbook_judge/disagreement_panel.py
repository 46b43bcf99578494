"""The disagreement list: claims where agent, Logbook Judge and reviewer differ, one row per clashing pair, sortable
by any column; activating a row shows that claim."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
)

from reviewapp.core.review.disagreements import PAIRS, Disagreement
from reviewapp.qt import theme
from reviewapp.qt.plain import PlainLabel

_Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("Claim", "Between", "First says", "Second says", "Apart", "Match")
SHORT_PAIRS = {"Agent vs Logbook Judge": "A vs J", "Logbook Judge vs reviewer": "J vs H", "Agent vs reviewer": "A vs H"}
SORT_ROLE = Qt.ItemDataRole.UserRole + 1
KEY_ROLE = Qt.ItemDataRole.UserRole + 2


class DisagreementModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Disagreement] = []

    def set_rows(self, rows: list[Disagreement]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_info(self, row: int) -> Disagreement:
        return self._rows[row]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole and section == 4:
            return "Steps apart on falsified < inconclusive < toy < partial < verified"
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == KEY_ROLE:
            return row.claim_key
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                row.label,
                SHORT_PAIRS.get(row.pair, row.pair),
                row.first.value,
                row.second.value,
                str(row.distance),
                "—" if row.match_confidence is None else f"{row.match_confidence:.2f}",
            )[column]
        if role == SORT_ROLE:
            return (
                row.position,
                [p[2] for p in PAIRS].index(row.pair),
                row.first.value,
                row.second.value,
                row.distance,
                -1.0 if row.match_confidence is None else row.match_confidence,
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and column in (2, 3):
            return theme.verdict_color(row.first if column == 2 else row.second)
        if role == Qt.ItemDataRole.ToolTipRole:
            title = f"{row.label}: {row.title}" if row.label != row.title else row.title
            return f"{title}\n{row.pair}: {row.first.value} vs {row.second.value}"
        return None


class DisagreementPanel(QFrame):
    claim_selected = Signal(str)  # claim key

    def __init__(self, parent: QFrame | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pane")
        self.model = DisagreementModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        top = QHBoxLayout()
        self.summary = PlainLabel(self)
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)  # never widen the side pane
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addWidget(self.summary, 1)
        self.pair_filter = QComboBox(self)
        self.pair_filter.addItem("All pairs", None)
        for _, _, name in PAIRS:
            self.pair_filter.addItem(f"{SHORT_PAIRS[name]} · {name}", name)
        self.pair_filter.setAccessibleName("Show disagreements between")
        self.pair_filter.currentIndexChanged.connect(self._filter)
        top.addWidget(self.pair_filter)
        layout.addLayout(top)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
        header = self.table.horizontalHeader()
        for column in range(len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.activated.connect(self._activated)
        self.table.clicked.connect(self._activated)
        layout.addWidget(self.table, 1)
        # Claims on either side that found no partner stay in view: the J slot alone would hide them.
        self.unmatched = PlainLabel(self)
        self.unmatched.setObjectName("muted")
        self.unmatched.setWordWrap(True)
        self.unmatched.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.unmatched.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.unmatched.hide()
        layout.addWidget(self.unmatched)
        self._rows: list[Disagreement] = []
        self.set_rows([], judge_imported=False)

    def set_rows(self, rows: list[Disagreement], judge_imported: bool) -> None:
        self._rows = rows
        self._filter()
        claims = len({r.claim_key for r in rows})
        text = f"{len(rows)} disagreement(s) on {claims} claim(s)" if rows else "No disagreements"
        if not judge_imported:
            text += " · no Logbook Judge verdicts imported (File > Import Logbook Judge Verdicts…)"
        self.summary.setText(text)

    def set_unmatched(self, logbook_judge_claims: list[tuple[str, str]], claims_without: list[str]) -> None:
        """`logbook_judge_claims`: (the Logbook Judge's claim as one line, why it is unmatched) for each of its claims
        that matched no claim here; `claims_without`: labels of the claims here that no claim of its was matched to."""
        lines: list[str] = []
        if logbook_judge_claims:
            reasons = {why for _, why in logbook_judge_claims}
            shared = f" ({next(iter(reasons))})" if len(reasons) == 1 else ""
            lines.append(f"Logbook Judge claims matched to no claim here{shared}:")
            lines.extend(f"• {claim}" + ("" if shared else f" — {why}") for claim, why in logbook_judge_claims)
        if claims_without:
            lines.append(f"No Logbook Judge claim for: {', '.join(claims_without)} (their J stays empty).")
        if lines:
            lines.append("Select a claim and choose Re-match… (Ctrl+Shift+M) to pair it by hand.")
        self.unmatched.setText("\n".join(lines))
        self.unmatched.setVisible(bool(lines))

    def _filter(self) -> None:
        wanted = self.pair_filter.currentData()
        self.model.set_rows([r for r in self._rows if wanted is None or r.pair == wanted])

    def _activated(self, index: QModelIndex) -> None:
        key = index.data(KEY_ROLE)
        if key:
            self.claim_selected.emit(str(key))
