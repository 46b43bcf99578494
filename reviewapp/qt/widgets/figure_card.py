"""Figure cells: their images (decoded off the GUI thread under caps), raw data as a table, never their scripts.

Figure HTML is never executed or rendered as HTML. What can be shown natively is: base64 raster images, inline
SVG that refers to nothing outside itself, and the `raw` fence as a table. A figure that is a full page or has
scripts (Plotly, posters) says so and offers "Open in browser" as an explicit action.
"""

from __future__ import annotations

from functools import partial
from urllib.parse import urlsplit

from PySide6.QtCore import QByteArray, QSize, Qt, QUrl
from PySide6.QtGui import QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QPushButton, QTableView, QVBoxLayout, QWidget

from reviewapp.core.io.pixel_budget import PixelBudget
from reviewapp.core.io.untrusted_images import (
    MAX_IMAGE_BYTES,
    DecodedImage,
    ImageRefused,
    charged_to,
    decode_image,
    svg_refusal,
)
from reviewapp.core.logbook.cell_details import EmbeddedImage, FigureDetails, figure_details
from reviewapp.core.logbook.figure_export import export_figure_html
from reviewapp.core.logbook.model import Cell
from reviewapp.core.logbook.raw_data import RawTable, parse_raw_table
from reviewapp.qt.image_loader import ImageCallback
from reviewapp.qt.models.raw_table import RawTableModel
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.widgets.card import Card, CardContext
from reviewapp.qt.widgets.code_block import CodeBlock
from reviewapp.qt.widgets.image_viewer import FigureImage

MAX_IMAGES = 6
MAX_SVGS = 4
SVG_MAX_SIDE = 1600
AUTO_OPEN_RAW = 1_500  # raw data up to this many characters is shown open; larger stays folded (a table costs)
TABLE_ROWS_SHOWN = 12


class FigureCard(Card):
    def __init__(self, context: CardContext, cell: Cell, meta: str = "", parent: QWidget | None = None) -> None:
        super().__init__("FIGURE", "figure", cell.title, meta, parent)
        self.details: FigureDetails = figure_details(cell)
        self.figures: list[FigureImage] = []
        details = self.details
        for number, embedded in enumerate(details.images[:MAX_IMAGES]):
            figure = FigureImage(self)
            figure.clicked.connect(partial(self._zoom, figure))
            self.body.addWidget(figure)
            self.figures.append(figure)
            key = f"figure:{cell.key}:{number}:{cell.content_hash}"
            decode = partial(_decode_embedded, embedded, context.pixels, cell.page, key)
            charge = charged_to(context.pixels, cell.page, key)  # for a cached image: decode charges the rest
            context.images.request(key, decode, figure, _deliver_to(figure), charge)
        if not details.images:
            for svg in details.svgs[:MAX_SVGS]:
                figure = FigureImage(self)
                figure.clicked.connect(partial(self._zoom, figure))
                self.body.addWidget(figure)
                self.figures.append(figure)
                # Qt's SVG renderer cannot be interrupted, so the work is bounded *before* rendering: svg_refusal
                # counts <use>/pattern expansion and filter pixels (core/io/svg_budget.py) and refuses over budget.
                refusal = svg_refusal(svg)
                image = render_svg(svg) if refusal is None else None
                if image is not None:
                    figure.set_image(image)
                else:
                    figure.set_refused(refusal or "the SVG could not be drawn")
        self.notice: QLabel | None = None
        self.open_button: QPushButton | None = None
        if details.html and (details.has_script or details.is_full_document or not self.figures):
            self._add_notice(details)
        self.raw: RawDataSection | None = None
        if details.raw:
            self.raw = RawDataSection(details.raw, self)
            self.body.addWidget(self.raw)
            if len(details.raw) <= AUTO_OPEN_RAW:
                self.later.append(partial(self.raw.set_open, True))

    def _add_notice(self, details: FigureDetails) -> None:
        parts = []
        if details.has_script or details.is_full_document:
            parts.append("Interactive HTML figure: its scripts are not run here and nothing it references is loaded.")
        if not self.figures:
            parts.append("It contains no static image to show.")
        if details.remote_urls:
            hosts = sorted({urlsplit(u).netloc for u in details.remote_urls if urlsplit(u).netloc})
            parts.append("It references " + ", ".join(hosts[:4]) + ("…" if len(hosts) > 4 else "") + ".")
        row = QHBoxLayout()
        self.notice = PlainLabel(" ".join(parts), self)
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        row.addWidget(self.notice, 1)
        self.open_button = QPushButton("Open in browser…", self)
        self.open_button.setObjectName("small")
        self.open_button.setToolTip("Save the figure's HTML and open it in your web browser, where its scripts run")
        html = details.html or ""
        self.open_button.clicked.connect(
            lambda: self.url_requested.emit(QUrl.fromLocalFile(str(export_figure_html(html))))
        )
        row.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignTop)
        self.body.addLayout(row)

    def _zoom(self, figure: FigureImage) -> None:
        if figure.image is not None:
            self.zoom_requested.emit(figure.image, self.title.text())


def _decode_embedded(embedded: EmbeddedImage, budget: PixelBudget, page: str, key: str) -> DecodedImage:
    try:
        data = embedded.data(MAX_IMAGE_BYTES)
    except ValueError as exc:
        raise ImageRefused(str(exc)) from exc
    return decode_image(data, check=charged_to(budget, page, key))  # nothing decoded before the budget allows it


def _deliver_to(figure: FigureImage) -> ImageCallback:
    def deliver(image: QImage | None, reason: str | None) -> None:
        if image is not None:
            figure.set_image(image)
        else:
            figure.set_refused(reason or "unknown reason")

    return deliver


def render_svg(svg: str) -> QImage | None:
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8", "replace")))
    if not renderer.isValid():
        return None
    size = renderer.defaultSize()
    if size.isEmpty():
        size = QSize(640, 480)
    if max(size.width(), size.height()) > SVG_MAX_SIDE:
        size = size.scaled(QSize(SVG_MAX_SIDE, SVG_MAX_SIDE), Qt.AspectRatioMode.KeepAspectRatio)
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


class RawDataSection(QWidget):
    """The figure's raw data, as a table when it is one; parsed when first opened. It starts folded: its card
    opens small data (AUTO_OPEN_RAW) once the card is in place."""

    def __init__(self, raw: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.raw = raw
        self.table: RawTable | None = None
        self.view: QTableView | None = None
        self.text_view: CodeBlock | None = None
        self._built = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.toggle = QPushButton(self)
        self.toggle.setObjectName("link")
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.toggle.clicked.connect(lambda: self.set_open(not self.is_open))
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self._layout = layout
        self.is_open: bool = False
        self._label()

    def set_open(self, is_open: bool) -> None:
        self.is_open = is_open
        if is_open and not self._built:
            self._build()
        for widget in (self.view, self.text_view):
            if widget is not None:
                widget.setVisible(is_open)
        self._label()

    def _build(self) -> None:
        self._built = True
        self.table = parse_raw_table(self.raw)
        if self.table is None:
            self.text_view = CodeBlock(self.raw, "json" if self.raw.lstrip()[:1] in "[{" else "", self)
            self._layout.addWidget(self.text_view)
            return
        view = QTableView(self)
        view.setModel(RawTableModel(self.table, view))
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(22)
        view.horizontalHeader().setStretchLastSection(True)
        view.setAlternatingRowColors(True)
        view.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        view.horizontalHeader().setResizeContentsPrecision(40)  # size columns from the first rows, not all
        view.resizeColumnsToContents()
        rows = min(len(self.table.rows), TABLE_ROWS_SHOWN)
        view.setFixedHeight(view.horizontalHeader().sizeHint().height() + rows * 22 + 4 + 14)
        self.view = view
        self._layout.addWidget(view)

    def _label(self) -> None:
        arrow = "▾" if self.is_open else "▸"
        if self.table is not None:
            shape = f"{self.table.kind.upper()}, {self.table.total_rows:,} rows × {len(self.table.columns)} columns"
            if self.table.truncated:
                shape += f" (first {len(self.table.rows):,} shown)"
        else:
            shape = f"{len(self.raw):,} characters"
        self.toggle.setText(f"{arrow} Raw data — {shape}")
