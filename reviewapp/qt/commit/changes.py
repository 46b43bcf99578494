"""The files of a commit plan and what changed in them: in words, or as the raw lines."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.commit.plan import CommitPlan
from reviewapp.qt.plain import PlainLabel, plain_tooltip
from reviewapp.qt.widgets.code_block import monospace_font


class ChangesPanel(QSplitter):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.plan: CommitPlan | None = None
        self.files = QTreeWidget(self)
        self.files.setHeaderLabels(["File in reviews/", "Change"])
        self.files.setRootIsDecorated(False)
        self.files.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.files.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.files.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.diff = QPlainTextEdit(self)
        self.diff.setReadOnly(True)
        self.raw_toggle = QCheckBox("Show raw lines", self)
        panel = QWidget(self)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        header = QHBoxLayout()
        title = PlainLabel("WHAT CHANGED SINCE THE LAST COMMIT", panel)
        title.setObjectName("paneTitle")
        header.addWidget(title, 1)
        header.addWidget(self.raw_toggle)
        layout.addLayout(header)
        layout.addWidget(self.diff, 1)
        self.addWidget(self.files)
        self.addWidget(panel)
        self.setSizes([360, 600])
        self.raw_toggle.toggled.connect(lambda _on: self._show_diff())

    def show_plan(self, plan: CommitPlan | None) -> None:
        self.plan = plan
        self.files.clear()
        for planned in plan.files if plan is not None else []:
            item = QTreeWidgetItem([planned.rel, planned.describe() if planned.changed else "unchanged"])
            sources = "\n".join(f"from {path}" for path in planned.sources)
            tip = f"{planned.path} in {plan.destination}\n{sources}"  # type: ignore[union-attr]
            item.setToolTip(0, plain_tooltip(tip))
            item.setDisabled(not planned.changed)
            self.files.addTopLevelItem(item)
        self._show_diff()

    def _show_diff(self) -> None:
        raw = self.raw_toggle.isChecked()
        self.diff.setFont(monospace_font() if raw else self.font())
        wrap = QPlainTextEdit.LineWrapMode.NoWrap if raw else QPlainTextEdit.LineWrapMode.WidgetWidth
        self.diff.setLineWrapMode(wrap)
        if self.plan is None:
            self.diff.setPlainText("")
        else:
            self.diff.setPlainText(self.plan.raw_diff() if raw else self.plan.readable_diff())
