"""Every page of the logbook as a tree (summary, claims, methods, conclusion, legacy nested pages).

A QStandardItemModel filled once per load: painting the tree then never calls into Python, which matters while
worker threads hold the interpreter (loading, trace indexing).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QStandardItem, QStandardItemModel

from reviewapp.core.logbook.model import Logbook, Page
from reviewapp.qt.plain import plain_tooltip

SLUG_ROLE = Qt.ItemDataRole.UserRole + 1


class PageTreeModel(QStandardItemModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pages: dict[str, Page] = {}
        self._items: dict[str, QStandardItem] = {}

    def set_logbook(self, logbook: Logbook) -> None:
        self.clear()
        self._pages, self._items = {}, {}
        claims_on: dict[str, int] = {}
        for claim in logbook.claims:
            claims_on[claim.page] = claims_on.get(claim.page, 0) + 1
        root = self.invisibleRootItem()
        italic = QFont()
        italic.setItalic(True)
        for page in logbook.pages:
            item = QStandardItem(_label(page))
            item.setEditable(False)
            item.setData(page.slug, SLUG_ROLE)
            item.setToolTip(plain_tooltip(_tooltip(page, claims_on.get(page.slug, 0))))
            if not page.is_current:
                item.setFont(italic)
            # The index and its direct children are all top level: one level of nesting less to click through.
            parent = self._items.get(page.parent or "") if page.parent not in (None, "index") else None
            (parent or root).appendRow(item)
            self._items.setdefault(page.slug, item)
            self._pages.setdefault(page.slug, page)

    def clear_pages(self) -> None:
        """No pages (the logbook whose start was shown could not be read to the end)."""
        self.clear()
        self._pages, self._items = {}, {}

    def index_of(self, slug: str) -> QModelIndex:
        item = self._items.get(slug)
        return item.index() if item is not None else QModelIndex()

    def page_at(self, index: QModelIndex | QPersistentModelIndex) -> Page | None:
        return self._pages.get(index.data(SLUG_ROLE)) if index.isValid() else None


_STATUS_LABEL = {"superseded": "superseded", "orphan": "not in manifest"}


def _label(page: Page) -> str:
    """The page's title, with its status when it is an earlier attempt or an orphan."""
    title = "Overview" if page.is_index and page.is_current else page.title
    status = _STATUS_LABEL.get(page.status)
    return f"{title} ({status})" if status else title


def _tooltip(page: Page, claims: int) -> str:
    lines = [page.title, page.file, f"{len(page.cells)} cells"]
    if claims:
        lines.append(f"{claims} claim{'s' if claims > 1 else ''}")
    if not page.in_manifest:
        lines.append("Not in the manifest (found on disk): an earlier attempt, shown for history")
    elif page.status == "superseded":
        lines.append("Marked as an earlier attempt: its verdicts are shown as history, not as claims")
    return "\n".join(lines)
