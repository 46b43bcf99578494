"""The agreement view for the open logbooks: the same report as `reviewapp agreement`, in tables, and the
calibration picture (people, agent and Logbook Judge as confusion heat maps) drawn by the core, exportable."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook_judge.agreement_report import rows_for_table
from reviewapp.core.logbook_judge.calibration import calibration_figure
from reviewapp.core.plots.figures import Table, Theme, save
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
    def __init__(
        self,
        report: Mapping[str, Any],
        scope: str,
        parent: QWidget | None = None,
        *,
        calibration: Sequence[Table] = (),
        picture: bytes = b"",
        theme: Theme = "light",
    ) -> None:
        """`calibration`: the heat maps' tables; `picture`: them drawn as PNG in `theme` (drawn off the GUI
        thread by whoever opens the view)."""
        super().__init__(parent)
        self.setWindowTitle("Agreement")
        self.resize(1000, 680)
        self.report = report
        self.calibration = list(calibration)
        self.theme: Theme = theme
        outer = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        outer.addWidget(self.tabs, 1)
        statistics_tab = QWidget(self.tabs)
        layout = QVBoxLayout(statistics_tab)
        self.tabs.addTab(statistics_tab, "Statistics")
        self.picture = self._calibration_tab(picture)
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
        outer.addWidget(buttons)

    def _calibration_tab(self, picture: bytes) -> PlainLabel:
        tab = QWidget(self.tabs)
        layout = QVBoxLayout(tab)
        note = PlainLabel(
            "People, the agent and the Logbook Judge as confusion heat maps: rows are the first side's verdicts, "
            "columns the second's, each cell shaded by its share of its row and labelled with its count."
            if self.calibration
            else "No claim has verdicts from two of people, the agent and the Logbook Judge yet.",
            tab,
        )
        note.setWordWrap(True)
        layout.addWidget(note)
        shown = PlainLabel(tab)
        pixmap = QPixmap()
        if picture and pixmap.loadFromData(picture, "PNG"):
            shown.setPixmap(pixmap)
        elif picture:  # why the heat maps could not be drawn
            shown.setText(picture.decode("utf-8", "replace"))
            shown.setWordWrap(True)
        scroll = QScrollArea(tab)
        scroll.setWidget(shown)
        layout.addWidget(scroll, 1)
        self.export = QPushButton("Export PNG…", tab)
        self.export.setEnabled(bool(self.calibration))
        self.export.clicked.connect(self._ask_export)
        layout.addWidget(self.export)
        self.tabs.addTab(tab, "Calibration")
        return shown

    def _ask_export(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(self, "Export the heat maps", "calibration.png", "PNG image (*.png)")
        if not chosen:
            return
        try:
            self.export_picture(Path(chosen))
        except OSError as exc:
            QMessageBox.warning(self, "Picture not written", f"{chosen}: {exc.strerror or exc}")

    def export_picture(self, path: Path) -> tuple[Path, Path]:
        """Write the heat maps as PNG (and SVG beside it) in the window's theme."""
        return save(calibration_figure(self.calibration, self.theme), path.with_suffix(""))
