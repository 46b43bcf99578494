"""Figures scaled to fit their card, and a zoom dialog (fit, 100%, in, out) opened by a click."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QImage, QKeySequence, QMouseEvent, QPixmap, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from reviewapp.qt.plain import PlainLabel

MAX_HEIGHT = 440


class FigureImage(QLabel):
    """An image scaled down (never up) to the available width; clicking it asks for the zoom view."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None, max_height: int = MAX_HEIGHT) -> None:
        super().__init__(parent)
        self.max_height = max_height
        self.setTextFormat(Qt.TextFormat.PlainText)  # refusal messages quote logbook references
        self.setObjectName("image")
        self.image: QImage | None = None
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(40)
        self.setText("Loading image…")

    def reset(self) -> None:
        self.image = None
        self.clear()
        self.setObjectName("image")
        self.setWordWrap(False)
        self.setText("Loading image…")
        self.setFixedHeight(40)
        self.unsetCursor()
        self.style().polish(self)

    def set_image(self, image: QImage) -> None:
        self.image = image
        self.setText("")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(f"{image.width()} × {image.height()} px — click to zoom")
        self._rescale()

    def set_refused(self, reason: str) -> None:
        self.image = None
        self.clear()
        self.setObjectName("refusal")
        self.setText(f"Image not shown: {reason}")
        self.setWordWrap(True)
        self.style().polish(self)
        self.setFixedHeight(self.sizeHint().height() + 12)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._rescale()

    def _rescale(self) -> None:
        if self.image is None or self.width() <= 2:
            return
        available = QSize(max(1, self.width() - 8), self.max_height)
        size = self.image.size()
        if size.width() > available.width() or size.height() > available.height():
            size = size.scaled(available, Qt.AspectRatioMode.KeepAspectRatio)
        pixmap = QPixmap.fromImage(self.image).scaled(
            size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
        self.setPixmap(pixmap)
        self.setFixedHeight(pixmap.height() + 8)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self.image is not None and event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)


class ZoomDialog(QDialog):
    """The image at any scale; starts fitted to the window. Keys: + and - zoom, 0 fits, 1 is 100%, Esc closes."""

    def __init__(self, image: QImage, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("zoomDialog")
        self.setWindowTitle(title or "Figure")
        self.image = image
        self.scale = 1.0
        self.fit = True
        self.label = PlainLabel()
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(self.label)
        self.scroll_area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll_area.setWidgetResizable(False)
        self.info = PlainLabel()
        self.info.setObjectName("muted")
        bar = QHBoxLayout()
        for text, slot in (
            ("Fit", self.zoom_fit),
            ("100%", self.zoom_actual),
            ("−", self.zoom_out),
            ("+", self.zoom_in),
        ):
            button = QPushButton(text)
            button.setObjectName("small")
            button.clicked.connect(slot)
            bar.addWidget(button)
        bar.addStretch(1)
        bar.addWidget(self.info)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.scroll_area, 1)
        for keys, slot in (("+", self.zoom_in), ("=", self.zoom_in), ("-", self.zoom_out), ("0", self.zoom_fit)):
            QShortcut(QKeySequence(keys), self, slot)
        QShortcut(QKeySequence("1"), self, self.zoom_actual)
        self.resize(min(1400, image.width() + 60), min(900, image.height() + 90))
        self._render()

    def zoom_in(self) -> None:
        self._set_scale(self._current_scale() * 1.25)

    def zoom_out(self) -> None:
        self._set_scale(self._current_scale() / 1.25)

    def zoom_actual(self) -> None:
        self._set_scale(1.0)

    def zoom_fit(self) -> None:
        self.fit = True
        self._render()

    def _set_scale(self, scale: float) -> None:
        self.fit = False
        self.scale = min(8.0, max(0.05, scale))
        self._render()

    def _current_scale(self) -> float:
        return self._fit_scale() if self.fit else self.scale

    def _fit_scale(self) -> float:
        view = self.scroll_area.viewport().size()
        if self.image.width() == 0 or self.image.height() == 0:
            return 1.0
        return min(1.0, (view.width() - 4) / self.image.width(), (view.height() - 4) / self.image.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.fit:
            self._render()

    def _render(self) -> None:
        scale = self._current_scale()
        size = QSize(max(1, int(self.image.width() * scale)), max(1, int(self.image.height() * scale)))
        self.label.setPixmap(
            QPixmap.fromImage(self.image).scaled(
                size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        )
        self.label.resize(size)
        self.info.setText(f"{self.image.width()} × {self.image.height()} px · {scale * 100:.0f}%")
