"""The logbook's artifacts and workspace files, with size and type; images preview inline (capped decode)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QUrl, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.io.untrusted_images import read_image_file
from reviewapp.core.logbook.artifacts import ArtifactEntry
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.qt.image_loader import ImageLoader
from reviewapp.qt.models.artifact_table import ArtifactTableModel
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.image_viewer import FigureImage

PREVIEW_SIDE = 900
PREVIEW_HEIGHT = 260


class ArtifactPanel(QWidget):
    page_requested = Signal(str)
    url_requested = Signal(QUrl)
    copy_requested = Signal(str)
    zoom_requested = Signal(QImage, str)

    def __init__(self, images: ImageLoader, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._images = images
        self._logbook: Logbook | None = None
        self._rule = BlindRule.SEEING_ALL
        self.model = ArtifactTableModel(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        self.summary = PlainLabel(self)
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.view = QTableView(self)
        self.view.setObjectName("artifactTable")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.verticalHeader().setDefaultSectionSize(24)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.view.setAlternatingRowColors(True)
        layout.addWidget(self.view, 3)
        self.preview = FigureImage(self, max_height=PREVIEW_HEIGHT)
        self.preview.setObjectName("image")
        self.preview.hide()
        self.preview.clicked.connect(self._zoom)
        layout.addWidget(self.preview)
        self.detail = PlainLabel(self)
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.PlainText)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.detail)
        buttons = QHBoxLayout()
        self.goto_page = self._button("Go to page", buttons)
        self.copy_link = self._button("Copy link", buttons)
        self.open_folder = self._button("Open folder", buttons)
        self.open_folder.setToolTip("Open the folder that holds this artifact")
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.goto_page.clicked.connect(self._goto_page)
        self.copy_link.clicked.connect(self._copy_link)
        self.open_folder.clicked.connect(self._open_folder)
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        self._current_changed(QModelIndex(), QModelIndex())

    def _button(self, text: str, layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName("small")
        layout.addWidget(button)
        return button

    def set_entries(
        self, logbook: Logbook, entries: list[ArtifactEntry], rule: BlindRule = BlindRule.SEEING_ALL
    ) -> None:
        self._logbook = logbook
        self._rule = rule
        self.model.set_entries(logbook, entries)
        cells = sum(1 for e in entries if e.source == "cell")
        files = len(entries) - cells
        cell_text = f"{cells} artifact cell{'s' if cells != 1 else ''} on pages"
        file_text = f"{files} workspace file{'s' if files != 1 else ''}"
        self.summary.setText(
            f"{cell_text}, {file_text}." if entries else "This logbook lists no artifacts or workspace files."
        )
        self._current_changed(QModelIndex(), QModelIndex())

    def select_row(self, row: int) -> None:
        self.view.setCurrentIndex(self.model.index(row, 0))

    def _entry(self) -> ArtifactEntry | None:
        index = self.view.currentIndex()
        return self.model.entry_at(index.row()) if index.isValid() else None

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        entry = self.model.entry_at(current.row()) if current.isValid() else None
        self.goto_page.setEnabled(bool(entry and entry.page))
        self.copy_link.setEnabled(bool(entry and entry.uri))
        self.open_folder.setEnabled(bool(entry and entry.local_path))
        self.preview.hide()
        if entry is None:
            self.detail.setText("")
            return
        local = self._rule.path(entry.local_path) if entry.local_path else "not available in this folder"
        titles = {p.slug: p.title for p in self._logbook.pages} if self._logbook else {}
        listed = f"Artifact cell on “{titles.get(entry.page, entry.page)}”" if entry.page else "Workspace file"
        self.detail.setText(f"{entry.name}\n{listed}\nLink: {entry.uri or 'none'}\nLocal file: {local}")
        if entry.is_image and entry.local_path is not None and self._logbook is not None:
            base = self._logbook.workspace or self._logbook.root
            path: Path = entry.local_path
            self.preview.reset()
            self.preview.show()
            self._images.request(
                f"artifact:{path}",
                lambda: read_image_file(base, path, max_side=PREVIEW_SIDE),
                self.preview,
                self._shown,
            )

    def _shown(self, image: QImage | None, reason: str | None) -> None:
        if image is not None:
            self.preview.set_image(image)
        else:
            self.preview.set_refused(reason or "unknown reason")

    def _goto_page(self) -> None:
        entry = self._entry()
        if entry is not None and entry.page:
            self.page_requested.emit(entry.page)

    def _copy_link(self) -> None:
        entry = self._entry()
        if entry is not None and entry.uri:
            self.copy_requested.emit(entry.uri)

    def _open_folder(self) -> None:
        entry = self._entry()
        if entry is not None and entry.local_path is not None:
            self.url_requested.emit(QUrl.fromLocalFile(str(entry.local_path.parent)))

    def _zoom(self) -> None:
        entry = self._entry()
        if self.preview.image is not None and entry is not None:
            self.zoom_requested.emit(self.preview.image, entry.name)
