"""The paper matrix as a table: the paper's claims as rows, then the claim's class, one column per logbook (the
agent's, the Logbook Judge's and people's verdicts, the one that decides and who it came from), and the authors'
responses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from reviewapp.core.paper.export import who_decided
from reviewapp.core.paper.view import MatrixCell, PaperView
from reviewapp.core.review.state import EffectiveClaim
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme

CLAIM, CLASS = 0, 1
FIRST_LOGBOOK = 2
CELL_ROLE = Qt.ItemDataRole.UserRole + 1  # (row id, logbook id) of a logbook cell, else None
SOURCE_LETTER = {"person": "H", "Logbook Judge": "J", "agent": "A"}
SOURCE_WORDS = {"person": "a person", "Logbook Judge": "the Logbook Judge", "agent": "the agent"}
CLASS_VERDICT = {
    "contested": Verdict.FALSIFIED,
    "falsified": Verdict.FALSIFIED,
    "verified": Verdict.VERIFIED,
    "partially verified": Verdict.PARTIAL,
    "toy only": Verdict.TOY,
    "nothing established": Verdict.INCONCLUSIVE,
}
_Index = QModelIndex | QPersistentModelIndex


def short(verdict: Verdict | None) -> str:
    if verdict is None or verdict is Verdict.UNSTATED:
        return "—"
    return {Verdict.PARTIAL: "partial", Verdict.INCONCLUSIVE: "inconcl."}.get(verdict, verdict.value)


def people_text(cell: MatrixCell) -> str:
    said = sorted({v for v in cell.people.values() if v is not Verdict.UNSTATED}, key=lambda v: v.value)
    return "/".join(short(v) for v in said) or "—"


def claim_caption(claim: EffectiveClaim) -> str:
    """ "Claim 2: its title", without saying "Claim 2" twice when the title already starts with it."""
    title = " ".join(claim.title.split())
    return title if title.startswith(claim.label) else f"{claim.label}: {title}"


def cell_lines(cell: MatrixCell) -> tuple[str, str]:
    """Two lines: the three slots, then the verdict that decides and its source (A, J or H)."""
    if cell.broken is not None:
        return "⚠ broken", "no claims could be read"
    if cell.claim is None and cell.logbook_judge is None:
        return "not attempted", ""
    slots = f"A {short(cell.agent)} · J {short(cell.logbook_judge)} · H {people_text(cell)}"
    decision = cell.decision
    if decision.disputed and decision.verdict is None:
        return slots, "⚠ disputed: people disagree"
    if decision.verdict is None:
        return slots, "undecided"
    source = SOURCE_LETTER.get(decision.decided_by or "", "?")
    mark = "  ⚠ disputed" if decision.disputed else ""
    return slots, f"→ {decision.verdict.value} ({source}){mark}"


def cell_tooltip(cell: MatrixCell, label: str, shown: Callable[[str], str] = str) -> str:
    """Everything about a cell; `shown` scrubs the logbook's own text (its claim's title) in blind review."""
    if cell.broken is not None:
        return f"{label} is broken: {cell.broken}.\nOpen it in the review window to see every problem with its file."
    if cell.claim is None and cell.logbook_judge is None:
        return f"{label} did not attempt this claim."
    lines = [label]
    if cell.claim is not None:
        lines.append(shown(claim_caption(cell.claim)))
    if cell.placement is not None:
        lines.append(f"Alignment: {cell.placement.method} (confidence {cell.placement.confidence:.2f})")
    lines.append(f"Agent (A): {short(cell.agent)}")
    lines.append(f"Logbook Judge (J): {short(cell.logbook_judge)}")
    people = ", ".join(f"{name} {v.value}" for name, v in sorted(cell.people.items())) or "nobody yet"
    lines.append(f"People (H): {people}")
    decided = cell.decision
    if decided.verdict is not None:
        by = SOURCE_WORDS.get(decided.decided_by or "", "?")
        if decided.decided_by == "person":  # who, and why, as the Markdown export says it
            said = [f"{name}: “{shown(why)}”" if why else name for name, why in who_decided(cell)]
            by = "; ".join(said) or by
        lines.append(f"Decided: {decided.verdict.value}, by {by}")
    if decided.disputed:
        lines.append("Disputed: people disagree on this cell" + (" (verified against falsified)"
                     if decided.verified_vs_falsified else ""))  # fmt: skip
    lines.append("Double-click or press Enter to open this logbook's evidence for the claim.")
    return "\n".join(lines)


class PaperMatrixModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.view: PaperView | None = None
        #: (heading, column) -> the heading elided to its column's width; the header itself only clips
        self.fit_header: Callable[[str, int], str] | None = None

    def set_view(self, view: PaperView) -> None:
        self.beginResetModel()
        self.view = view
        self.endResetModel()

    def cells_changed(self, row_ids: list[str], logbook_id: str) -> None:
        """Redraw one logbook's cells on these rows and the rows' classes (the view was updated in place)."""
        column = self.column_of(logbook_id)
        for row in self._rows_of(row_ids):
            self.dataChanged.emit(self.index(row, CLASS), self.index(row, CLASS))
            self.dataChanged.emit(self.index(row, column), self.index(row, column))

    def responses_changed(self, row_ids: list[str]) -> None:
        column = self.responses_column()
        for row in self._rows_of(row_ids):
            self.dataChanged.emit(self.index(row, column), self.index(row, column))

    def _rows_of(self, row_ids: list[str]) -> list[int]:
        wanted = set(row_ids)
        return [i for i, row in enumerate(self.view.rows) if row.id in wanted] if self.view is not None else []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() or self.view is None else len(self.view.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self.view is None:
            return 0
        return FIRST_LOGBOOK + len(self.view.logbooks) + 1

    def responses_column(self) -> int:
        return self.columnCount() - 1

    def logbook_at(self, column: int) -> str | None:
        if self.view is None or not FIRST_LOGBOOK <= column < FIRST_LOGBOOK + len(self.view.logbooks):
            return None
        return self.view.logbooks[column - FIRST_LOGBOOK].logbook_id

    def column_of(self, logbook_id: str) -> int:
        assert self.view is not None
        ids = [lb.logbook_id for lb in self.view.logbooks]
        return FIRST_LOGBOOK + ids.index(logbook_id)

    def cell_at(self, index: _Index) -> MatrixCell | None:
        logbook = self.logbook_at(index.column())
        if self.view is None or logbook is None or not index.isValid():
            return None
        return self.view.cell(self.view.rows[index.row()].id, logbook)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or self.view is None:
            return None
        if section == CLAIM:
            names = ("Claim", "The paper's claims: the claim registry's, or aligned across the logbooks")
        elif section == CLASS:
            names = ("Finding", "The claim's class over every logbook (authors never decide it)")
        elif section == self.responses_column():
            names = ("Authors", "Authors' responses to the finding")
        else:
            column = self.view.logbooks[section - FIRST_LOGBOOK]
            heading = f"L{section - FIRST_LOGBOOK + 1} {column.label}"
            shown = self.fit_header(heading, section) if self.fit_header is not None else heading
            broken = f"\nBroken: {column.broken}" if column.broken is not None else ""
            names = (shown, f"{heading}\n{column.logbook.title}{broken}")
        if role == Qt.ItemDataRole.DisplayRole:
            return names[0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return names[1]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        view = self.view
        if view is None or not index.isValid():
            return None
        row = view.rows[index.row()]
        column = index.column()
        if column == CLAIM:
            if role == Qt.ItemDataRole.DisplayRole:
                return f"{row.number}. {' '.join(row.text.split())}"
            if role == Qt.ItemDataRole.ToolTipRole:
                where = "from the claim registry" if row.in_registry else "aligned across the logbooks"
                return f"{row.text}\n({where}; attempted by {len(view.attempted_by(row.id))} logbook(s))"
            return None
        if column == CLASS:
            found = view.claim_classes[row.id]
            if role == Qt.ItemDataRole.DisplayRole:
                return found
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(theme.verdict_color(CLASS_VERDICT[found]))
            if role == Qt.ItemDataRole.FontRole and found == "contested":
                font = QFont()
                font.setBold(True)
                return font
            return None
        if column == self.responses_column():
            responses = view.responses.get(row.id, [])
            if role == Qt.ItemDataRole.DisplayRole:
                return "\n".join(f"{r.annotator}: {r.payload.response}" for r in responses)
            if role == Qt.ItemDataRole.ToolTipRole and responses:
                return "\n\n".join(f"{r.annotator} ({r.payload.response}): {r.payload.comment}" for r in responses)
            return None
        cell = self.cell_at(index)
        if cell is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            first, second = cell_lines(cell)
            return f"{first}\n{second}" if second else first
        if role == Qt.ItemDataRole.ToolTipRole:
            logbook = view.logbooks[column - FIRST_LOGBOOK]
            return cell_tooltip(cell, logbook.label, logbook.rule.text)
        if role == Qt.ItemDataRole.ForegroundRole:
            if cell.broken is not None:
                return QBrush(QColor(theme.colors().error))
            if cell.claim is None and cell.logbook_judge is None:
                return QBrush(QColor(theme.colors().muted))
            if cell.decision.verdict is not None:
                return QBrush(theme.verdict_color(cell.decision.verdict))
            return None
        if role == Qt.ItemDataRole.BackgroundRole and cell.decision.disputed:
            tint = QColor(theme.colors().warning)
            tint.setAlpha(40)
            return QBrush(tint)
        if role == CELL_ROLE:
            return (row.id, cell.logbook_id)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            first, second = cell_lines(cell)
            return f"{view.logbooks[column - FIRST_LOGBOOK].label}: {first}. {second}"
        return None
