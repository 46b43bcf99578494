"""The agreement view for the open logbooks: the same report as `reviewapp agreement`, in tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook_judge.agreement_report import rows_for_table
from reviewapp.qt.plain import PlainLabel


def _table(columns: list[str], rows: list[list[str]], parent: QWidget) -> QTableWidget:
    table = QTableWidget(len(rows), len(columns), parent)
    table.setHorizontalHeaderLabels(columns)
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.setItem(r, c, QTableWidgetItem(value))
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def _num(value: Any, percent: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:.0%}" if percent else f"{value:.3f}"


class AgreementDialog(QDialog):
    def __init__(self, report: Mapping[str, Any], scope: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Agreement")
        self.resize(820, 640)
        self.report = report
        layout = QVBoxLayout(self)
        head = PlainLabel(
            f"{scope}: {report['claims']} claims, {report['claims_compared']} rated by two or more. "
            f"Raters: {', '.join(report['raters']) or 'none yet'}.",
            self,
        )
        head.setWordWrap(True)
        layout.addWidget(head)
        stats = [
            [name, raters, str(claims), _num(value), f"{_num(low)} to {_num(high)}"]
            for name, raters, claims, value, low, high in rows_for_table(report)
        ]
        self.statistics = _table(["Statistic", "Raters", "Claims", "Value", "95% interval"], stats, self)
        layout.addWidget(self.statistics, 2)
        confusion = report.get("logbook_judge_vs_people")
        self.confusion: QTableWidget | None = None
        if confusion:
            columns = list(next(iter(confusion["counts"].values())).keys())
            rows = [[row, *(str(counts[c]) for c in columns)] for row, counts in confusion["counts"].items()]
            rows.append(["precision", *(_num(confusion["precision"][c], True) for c in columns)])
            rows.append(["recall", *(_num(confusion["recall"][c], True) for c in columns)])
            label = PlainLabel(
                f"Logbook Judge (columns) vs people (rows), {confusion['pairs']} pairs. {confusion['note']}", self
            )
            label.setWordWrap(True)
            layout.addWidget(label)
            self.confusion = _table(["people \\ Logbook Judge", *columns], rows, self)
            layout.addWidget(self.confusion, 2)
        b = report["bootstrap"]
        notes = [*report["notes"], f"Intervals: {b['resamples']} bootstrap resamples of claims, seed {b['seed']}."]
        foot = PlainLabel("\n".join(notes), self)
        foot.setObjectName("muted")
        foot.setWordWrap(True)
        layout.addWidget(foot)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        layout.addWidget(buttons)
