"""The pages pane: every page of the logbook in a tree, so summary, methods and conclusion stay reachable."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QTreeView, QVBoxLayout, QWidget

from reviewapp.qt.models.page_tree_model import PageTreeModel
from reviewapp.qt.plain import PlainLabel


class PagePane(QFrame):
    def __init__(self, model: PageTreeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pane")
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 8, 8, 8)
        title = PlainLabel("PAGES", self)
        title.setObjectName("paneTitle")
        column.addWidget(title)
        self.tree = QTreeView(self)
        self.tree.setObjectName("pageTree")
        self.tree.setModel(model)
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        column.addWidget(self.tree)
