"""The side pane's tabs (trace excerpts, timeline, artifacts, notes, disagreements)."""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget


class SideTabs(QTabWidget):
    def setTabText(self, index: int, text: str) -> None:
        """Features set their tab's title after every change; the same title again would relayout and repaint
        the whole side pane on each save, so it is left alone."""
        if self.tabText(index) != text:
            super().setTabText(index, text)
