"""A QTextBrowser for untrusted markdown: no scripts, no network, no file read outside the logbook, capped images.

QTextBrowser runs no scripts and fetches nothing over http(s), but its default loadResource reads any local
file a document names (`../../` paths, absolute paths, `file://` URLs, symlinks out of the folder), whole and
without a size limit, and decodes `data:` images itself. Worse, QTextDocument falls back to reading the file
when the override returns nothing. So loadResource here answers every request itself: images go through the
core's checks (inside the root, byte cap, pixel cap, Pillow with a fixed list of formats), everything else gets
an empty answer or a placeholder image. Links are never followed by the widget; a click is reported and the
window decides.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt, QUrl, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QImage,
    QPainter,
    QPen,
    QResizeEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextLength,
    QTextTable,
    QTextTableFormat,
)
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget

from reviewapp.core.io.pixel_budget import PixelBudget
from reviewapp.core.io.safepath import local_reference
from reviewapp.core.io.untrusted_images import (
    ImageRefused,
    SizeCheck,
    charged_to,
    data_uri_bytes,
    decode_image,
    read_local_image,
)
from reviewapp.core.logbook.link_targets import classify_link
from reviewapp.qt import theme
from reviewapp.qt.image_loader import to_qimage

MARKDOWN_FEATURES = QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML
_HEADING_SCALE = {1: 1.35, 2: 1.2, 3: 1.1, 4: 1.0, 5: 1.0, 6: 1.0}


class SafeBrowser(QTextBrowser):
    link_clicked = Signal(object)  # LinkTarget, classified against the logbook root

    def __init__(
        self,
        root: Path | None,
        page_slugs: frozenset[str] = frozenset(),
        parent: QWidget | None = None,
        *,
        pixels: PixelBudget | None = None,
        page: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("markdown")
        self._root = root
        self._page_slugs = page_slugs
        self._pixels, self._page = pixels, page  # images in the text count against the page's pixel budget
        self.refused: dict[str, str] = {}  # image reference -> why it shows as a placeholder
        self.shown_images: dict[str, tuple[int, int]] = {}  # image reference -> size as decoded
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor)

    def set_markdown(self, text: str) -> None:
        self.document().setMarkdown(text, MARKDOWN_FEATURES)
        style_document(self.document())

    # Answer every resource request; see the module docstring for why None must never be returned.
    def loadResource(self, kind: int, url: QUrl | str) -> object:
        if int(getattr(kind, "value", kind)) != QTextDocument.ResourceType.ImageResource.value:
            return QByteArray(b"")
        name = url.toString() if isinstance(url, QUrl) else str(url)
        try:
            image = self._image(name)
        except ImageRefused as exc:
            self.refused[name] = str(exc)
            return placeholder_image(name, str(exc))
        self.shown_images[name] = (image.width(), image.height())
        return image

    def _image(self, name: str) -> QImage:
        scheme = urlsplit(name).scheme.lower()
        if scheme in ("http", "https", "ftp", "ws", "wss"):
            raise ImageRefused("remote image not loaded (no network access)")
        if scheme == "data":
            return to_qimage(decode_image(data_uri_bytes(name), check=self._charge(name)))
        reference = local_reference(name)
        if reference is None:
            raise ImageRefused(f"'{scheme}:' images are not shown")
        if self._root is None:
            raise ImageRefused("no logbook folder to resolve local images in")
        return to_qimage(read_local_image(self._root, reference, check=self._charge(reference)))

    def _charge(self, image: str) -> SizeCheck | None:
        return charged_to(self._pixels, self._page, f"markdown:{image}") if self._pixels is not None else None

    def _on_anchor(self, url: QUrl) -> None:
        if self._root is not None:
            self.link_clicked.emit(classify_link(self._root, url.toString(), self._page_slugs))

    def highlight(self, text: str, color: str) -> bool:
        """Give the first occurrence of `text` (or, failing that, of its opening words) a background colour."""
        for needle in _needles(text):
            cursor = self.document().find(needle)
            if not cursor.isNull():
                fmt = QTextCharFormat()
                fmt.setBackground(QColor(color))
                cursor.mergeCharFormat(fmt)
                return True
        return False


class MarkdownView(SafeBrowser):
    """A SafeBrowser as tall as its content, for stacking in a scrolling column of cards."""

    def __init__(
        self,
        root: Path | None,
        page_slugs: frozenset[str] = frozenset(),
        parent: QWidget | None = None,
        *,
        pixels: PixelBudget | None = None,
        page: str = "",
    ) -> None:
        super().__init__(root, page_slugs, parent, pixels=pixels, page=page)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.document().setDocumentMargin(2)
        self._fitted = 24
        self.setFixedHeight(self._fitted)
        self.document().documentLayout().documentSizeChanged.connect(lambda _size: self._fit())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self.width() < 40:
            return  # not laid out yet: at a sliver's width the document would be absurdly tall
        height = int(self.document().size().height()) + 2 * self.frameWidth() + 2
        if self.horizontalScrollBar().isVisible():
            height += self.horizontalScrollBar().height()
        if height != self._fitted:
            self._fitted = height
            self.setFixedHeight(height)
            self.updateGeometry()

    # QTextEdit's own hint is a fixed 256x192; layouts must see the fitted height instead.
    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self._fitted)

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self._fitted)


def style_document(document: QTextDocument) -> None:
    """Readable defaults for Qt's markdown output: modest headings, bordered tables, shaded code blocks."""
    colors = theme.colors()
    base_size = document.defaultFont().pointSizeF()
    if base_size <= 0:
        base_size = 10.0
    cursor = QTextCursor(document)
    block = document.begin()
    while block.isValid():
        fmt = block.blockFormat()
        level = fmt.headingLevel()
        if level:
            cursor.setPosition(block.position())
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            char = QTextCharFormat()
            char.setFontPointSize(base_size * _HEADING_SCALE.get(level, 1.0))
            char.setFontWeight(QFont.Weight.DemiBold)
            cursor.mergeCharFormat(char)
            spaced = QTextBlockFormat()
            spaced.setTopMargin(8)
            spaced.setBottomMargin(4)
            cursor.mergeBlockFormat(spaced)
        elif fmt.hasProperty(QTextFormat.Property.BlockQuoteLevel):
            cursor.setPosition(block.position())
            quoted = QTextBlockFormat()
            quoted.setTopMargin(4)
            quoted.setBottomMargin(8)
            quoted.setLeftMargin(18)
            cursor.mergeBlockFormat(quoted)
            char = QTextCharFormat()
            char.setForeground(QBrush(QColor(colors.muted)))
            char.setFontItalic(True)
            cursor.setPosition(block.position() + block.length() - 1, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(char)
        elif fmt.hasProperty(QTextFormat.Property.BlockCodeFence):
            cursor.setPosition(block.position())
            shaded = QTextBlockFormat()
            shaded.setBackground(QBrush(QColor(colors.code_bg)))
            shaded.setLeftMargin(6)
            cursor.mergeBlockFormat(shaded)
        block = block.next()
    for frame in document.rootFrame().childFrames():
        if isinstance(frame, QTextTable):
            table_format: QTextTableFormat = frame.format().toTableFormat()
            table_format.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
            table_format.setBorder(1)
            table_format.setBorderBrush(QBrush(QColor(colors.border)))
            table_format.setBorderCollapse(True)
            table_format.setCellPadding(4)
            table_format.setCellSpacing(0)
            table_format.setWidth(QTextLength(QTextLength.Type.VariableLength, 0))
            frame.setFormat(table_format)


def placeholder_image(reference: str, reason: str, width: int = 460) -> QImage:
    """What stands in for an image that was not loaded: the reason (wrapped, whole up to three lines) and the
    reference, never the content."""
    colors = theme.colors()
    font = QFont()
    font.setPointSizeF(8.5)
    metrics = QFontMetrics(font)
    text_width = width - 20
    lines = wrapped_lines(f"Image not shown: {reason}", metrics, text_width, most=3)
    height = 14 + (len(lines) + 1) * metrics.height() + 8
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(colors.card_header))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(QColor(colors.border), 1, Qt.PenStyle.DashLine))
    painter.drawRoundedRect(QRectF(0.5, 0.5, width - 1, height - 1), 4, 4)
    painter.setFont(font)
    painter.setPen(QColor(colors.text))
    for number, line in enumerate(lines):
        painter.drawText(10, 8 + number * metrics.height() + metrics.ascent(), line)
    painter.setPen(QColor(colors.muted))
    shown = reference if not reference.lower().startswith("data:") else reference[:40] + "…"
    painter.drawText(
        10,
        8 + len(lines) * metrics.height() + 4 + metrics.ascent(),
        metrics.elidedText(shown, Qt.TextElideMode.ElideMiddle, text_width),
    )
    painter.end()
    return image


def wrapped_lines(text: str, metrics: QFontMetrics, width: int, most: int) -> list[str]:
    """`text` broken at spaces into lines that fit `width`; past `most` lines, the last one ends in an ellipsis."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and metrics.horizontalAdvance(candidate) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    if len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1 :])]
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines] or [""]


def _needles(text: str) -> list[str]:
    """The statement, then shorter and shorter prefixes: markdown the reader cleaned may render differently."""
    text = " ".join(text.split())
    needles = [text]
    words = text.split(" ")
    for count in (12, 8, 5, 3):
        if len(words) > count:
            needles.append(" ".join(words[:count]))
    return [n for n in needles if len(n) >= 3]
