"""Study results in the window: every rater's results of a pair set combined (`pairs study`), with the forest plot
of the condition scores and the strip of raters' consistency drawn by the core, and the Markdown report with its
figures exported on request. Built from a `Study` and figures already drawn, so it can be shown without the rating
window (screenshots, tests)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.pairs.study import Study
from reviewapp.core.pairs.study_report import rater_figure, render_text, score_figure, write_report
from reviewapp.core.plots.figures import FiguresUnavailable, Theme, png_bytes
from reviewapp.qt.plain import PlainLabel

Pictures = dict[str, bytes]  # "scores", "raters" -> PNG


def draw_study(study: Study, theme: Theme) -> Pictures:
    """The study's figures as PNG, for the dialog (call it off the GUI thread); none where they cannot be drawn,
    with the reason under "problem"."""
    try:
        return {
            "scores": png_bytes(score_figure(study, theme), dpi=90),
            "raters": png_bytes(rater_figure(study, theme), dpi=90),
        }
    except FiguresUnavailable as exc:
        return {"problem": str(exc).encode("utf-8")}


class StudyDialog(QDialog):
    def __init__(self, study: Study, pictures: Pictures, *, theme: Theme = "light", parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Study results")
        self.resize(900, 680)
        self.study = study
        self.theme: Theme = theme
        layout = QVBoxLayout(self)
        included = len(study.included)
        head = PlainLabel(
            f"{', '.join(study.sets)}: {len(study.conditions)} conditions, {included} of {len(study.raters)} raters "
            "in the scores.",
            self,
        )
        head.setWordWrap(True)
        layout.addWidget(head)
        self.tabs = QTabWidget(self)
        self.pictures: dict[str, PlainLabel] = {}
        problem = pictures.get("problem", b"").decode("utf-8", "replace")
        for key, title in (("scores", "Scores"), ("raters", "Raters")):
            self.pictures[key] = self._picture_tab(pictures.get(key, b""), title, problem)
        self.summary = QPlainTextEdit(self.tabs)
        self.summary.setReadOnly(True)
        self.summary.setPlainText("\n".join(render_text(study)))
        self.tabs.addTab(self.summary, "Summary")
        layout.addWidget(self.tabs, 1)
        self.export = QPushButton("Export report…", self)
        self.export.setToolTip("The Markdown report with its figures as PNG and SVG beside it")
        self.export.clicked.connect(self._ask_export)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.export, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _picture_tab(self, data: bytes, title: str, problem: str = "") -> PlainLabel:
        shown = PlainLabel(self.tabs)
        pixmap = QPixmap()
        if data and pixmap.loadFromData(data, "PNG"):
            shown.setPixmap(pixmap)
        else:
            shown.setText(problem or "The figure could not be shown.")
        scroll = QScrollArea(self.tabs)
        scroll.setWidget(shown)
        scroll.setWidgetResizable(False)
        self.tabs.addTab(scroll, title)
        return shown

    def _ask_export(self) -> None:
        chosen, _ = QFileDialog.getSaveFileName(self, "Export the study report", "study.md", "Markdown (*.md)")
        if not chosen:
            return
        try:
            self.export_report(Path(chosen))
        except OSError as exc:
            QMessageBox.warning(self, "Report not written", f"{chosen}: {exc.strerror or exc}")

    def export_report(self, path: Path) -> list[Path]:
        return write_report(self.study, path, self.theme)
