"""The comparison canvas: side by side, flicker, wipe and difference, over one shared view transform.

The view (zoom and the image point at the panel centre) is shared by both panels and kept from pair to pair, so
that a rater who zoomed into a corner sees the same corner of the next pair. "Fit" scales to the panel (never
enlarging); any other zoom is in screen pixels per image pixel, 1.0 being 1:1. Images are drawn smoothly when
shrunk and with hard pixel edges when enlarged, so that 1:1 and above show the real pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap, QWheelEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from reviewapp.qt.pairs.loader import fitted_size

GAP = 8
MIN_ZOOM, MAX_ZOOM = 0.05, 32.0
FLICKER_INTERVAL_MS = 500  # two switches a second
MIN_FLICKER_INTERVAL_MS = 334  # never more than three switches a second (photosensitivity)
BACKGROUND = QColor(38, 38, 40)


class CompareMode(StrEnum):
    SIDE_BY_SIDE = "side by side"
    FLICKER = "flicker"
    WIPE = "wipe"
    DIFFERENCE = "difference"


@dataclass
class ViewState:
    zoom: float | None = None  # None: fit to the panel
    centre_x: float = 0.5  # image point at the panel centre, as a fraction of the image size
    centre_y: float = 0.5


@dataclass
class _Shown:
    left: QPixmap
    right: QPixmap
    diff: QPixmap
    fitted: dict[str, QPixmap]
    fit_size: QSize | None


class CompareCanvas(QWidget):
    painted = Signal(int)  # the trial token of what was drawn, after a paint that showed both images
    view_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 200)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.mode = CompareMode.SIDE_BY_SIDE
        self.view = ViewState()
        self.wipe = 0.5
        self.flicker_right = False  # flicker: which image is showing
        self.token = -1
        self._shown: _Shown | None = None
        self._message = ""
        self._drag: QPointF | None = None
        self._flicker = QTimer(self)
        self._flicker.setInterval(FLICKER_INTERVAL_MS)
        self._flicker.timeout.connect(self._toggle_flicker)

    # -- content ----------------------------------------------------------------------------------------------

    def show_images(
        self, token: int, left: QImage, right: QImage, diff: QImage, fitted: dict[str, QImage], fit_size: QSize | None
    ) -> None:
        """Show a trial; `fitted` holds copies pre-scaled for `fit_size` ("left", "right", "diff") when available."""
        self.token = token
        self._message = ""
        self._shown = _Shown(
            QPixmap.fromImage(left),
            QPixmap.fromImage(right),
            QPixmap.fromImage(diff),
            {k: QPixmap.fromImage(v) for k, v in fitted.items()},
            fit_size,
        )
        self.flicker_right = False
        self.update()

    def show_message(self, token: int, text: str) -> None:
        self.token = token
        self._shown = None
        self._message = text
        self.update()

    @property
    def has_images(self) -> bool:
        return self._shown is not None

    @property
    def message(self) -> str:
        return self._message

    # -- modes and view ---------------------------------------------------------------------------------------

    def set_mode(self, mode: CompareMode) -> None:
        self.mode = mode
        if mode is CompareMode.FLICKER:
            self.flicker_right = False
            self._flicker.start()
        else:
            self._flicker.stop()
        self.update()
        self.view_changed.emit()

    def stop(self) -> None:
        """Stop the flicker timer (the window is closing)."""
        self._flicker.stop()

    def set_flicker_interval(self, milliseconds: int) -> None:
        self._flicker.setInterval(max(MIN_FLICKER_INTERVAL_MS, milliseconds))

    @property
    def flicker_interval(self) -> int:
        return self._flicker.interval()

    def _toggle_flicker(self) -> None:
        self.flicker_right = not self.flicker_right
        self.update()

    def set_wipe(self, fraction: float) -> None:
        self.wipe = min(1.0, max(0.0, fraction))
        self.update()

    def panel_rects(self) -> list[QRect]:
        area = self.rect()
        if self.mode is CompareMode.SIDE_BY_SIDE:
            half = (area.width() - GAP) // 2
            return [QRect(0, 0, half, area.height()), QRect(area.width() - half, 0, half, area.height())]
        return [area]

    def panel_size(self) -> QSize:
        return self.panel_rects()[0].size()

    def image_size(self) -> QSize | None:
        return self._shown.left.size() if self._shown else None

    def scale(self) -> float:
        size = self.image_size()
        if size is None or size.isEmpty():
            return 1.0
        if self.view.zoom is None:
            return fitted_size(size, self.panel_size()).width() / size.width()
        return self.view.zoom

    def zoom_label(self) -> str:
        return "fit" if self.view.zoom is None else f"{self.view.zoom:.0%}"

    def set_zoom(self, zoom: float | None, anchor: QPointF | None = None) -> None:
        """Zoom to `zoom` (None: fit), keeping the image point under `anchor` (a panel-relative point) in place."""
        size = self.image_size()
        if zoom is not None:
            zoom = min(MAX_ZOOM, max(MIN_ZOOM, zoom))
        if zoom is None:
            self.view = ViewState()
        elif size is not None and anchor is not None:
            old = self.scale()
            panel = self.panel_size()
            dx, dy = anchor.x() - panel.width() / 2, anchor.y() - panel.height() / 2
            # the image point under the anchor stays there: centre moves by d * (1/old - 1/new) image pixels
            self.view.centre_x += dx * (1 / old - 1 / zoom) / size.width()
            self.view.centre_y += dy * (1 / old - 1 / zoom) / size.height()
            self.view.zoom = zoom
        else:
            self.view.zoom = zoom
        self._clamp()
        self.update()
        self.view_changed.emit()

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self.set_zoom(self.scale() * factor, anchor)

    def toggle_one_to_one(self) -> None:
        self.set_zoom(None if self.view.zoom == 1.0 else 1.0)

    def pan_by(self, dx: float, dy: float) -> None:
        size = self.image_size()
        if size is None or self.view.zoom is None:
            return
        scale = self.scale()
        self.view.centre_x -= dx / scale / size.width()
        self.view.centre_y -= dy / scale / size.height()
        self._clamp()
        self.update()
        self.view_changed.emit()

    def _clamp(self) -> None:
        self.view.centre_x = min(1.0, max(0.0, self.view.centre_x))
        self.view.centre_y = min(1.0, max(0.0, self.view.centre_y))

    def image_rect(self, panel: QRect) -> QRectF:
        """Where the whole image lands in widget coordinates for `panel`."""
        size = self.image_size() or QSize(1, 1)
        scale = self.scale()
        width, height = size.width() * scale, size.height() * scale
        if self.view.zoom is None:
            left = panel.x() + (panel.width() - width) / 2
            top = panel.y() + (panel.height() - height) / 2
        else:
            left = panel.x() + panel.width() / 2 - self.view.centre_x * width
            top = panel.y() + panel.height() / 2 - self.view.centre_y * height
        # whole device pixels: at 1:1 every image pixel lands on exactly one screen pixel, never between two
        return QRectF(round(left), round(top), width, height)

    # -- painting ---------------------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        shown = self._shown
        if shown is None:
            self._paint_message(painter)
            painter.end()
            return
        panels = self.panel_rects()
        if self.mode is CompareMode.SIDE_BY_SIDE:
            self._draw(painter, panels[0], "left")
            self._draw(painter, panels[1], "right")
            self._label(painter, panels[0], "LEFT", Qt.AlignmentFlag.AlignLeft)
            self._label(painter, panels[1], "RIGHT", Qt.AlignmentFlag.AlignRight)
        elif self.mode is CompareMode.FLICKER:
            side = "right" if self.flicker_right else "left"
            self._draw(painter, panels[0], side)
            self._label(painter, panels[0], f"{side.upper()} image", Qt.AlignmentFlag.AlignLeft)
        elif self.mode is CompareMode.WIPE:
            panel = panels[0]
            cut = round(panel.x() + panel.width() * self.wipe)
            self._draw(painter, QRect(panel.x(), panel.y(), cut - panel.x(), panel.height()), "left", panel)
            self._draw(painter, QRect(cut, panel.y(), panel.right() + 1 - cut, panel.height()), "right", panel)
            painter.setPen(QPen(QColor(255, 214, 10), 2))
            painter.drawLine(cut, panel.top(), cut, panel.bottom())
            self._label(painter, panel, "◀ LEFT", Qt.AlignmentFlag.AlignLeft)
            self._label(painter, panel, "RIGHT ▶", Qt.AlignmentFlag.AlignRight)
        else:
            self._draw(painter, panels[0], "diff")
            painter.setPen(QPen(QColor(140, 140, 140), 1))  # a black difference image would vanish otherwise
            painter.drawRect(self.image_rect(panels[0]).adjusted(-1, -1, 0, 0))
            self._label(painter, panels[0], "Difference (×4; black = identical)", Qt.AlignmentFlag.AlignLeft)
        painter.end()
        self.painted.emit(self.token)

    def _draw(self, painter: QPainter, clip: QRect, which: str, panel: QRect | None = None) -> None:
        shown = self._shown
        assert shown is not None
        target = self.image_rect(panel or clip)
        painter.save()
        painter.setClipRect(clip)
        fitted = shown.fitted.get(which)
        if self.view.zoom is None and fitted is not None and fitted.size() == target.size().toSize():
            painter.drawPixmap(target.topLeft().toPoint(), fitted)  # pre-scaled by the loader: a plain blit
        else:
            pixmap = {"left": shown.left, "right": shown.right, "diff": shown.diff}[which]
            smooth = self.scale() < 1.0
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, smooth)
            painter.drawPixmap(target, pixmap, QRectF(pixmap.rect()))
        painter.restore()

    def _label(self, painter: QPainter, panel: QRect, text: str, align: Qt.AlignmentFlag) -> None:
        font = QFont(self.font())
        font.setBold(True)
        painter.setFont(font)
        metrics = painter.fontMetrics()
        width, height = metrics.horizontalAdvance(text) + 16, metrics.height() + 8
        x = panel.x() + 8 if align == Qt.AlignmentFlag.AlignLeft else panel.right() - 8 - width
        box = QRect(x, panel.y() + 8, width, height)
        painter.fillRect(box, QColor(0, 0, 0, 170))
        painter.setPen(QColor(255, 255, 255))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_message(self, painter: QPainter) -> None:
        painter.setPen(QColor(220, 220, 220))
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        painter.setFont(font)
        painter.drawText(
            self.rect().adjusted(40, 40, -40, -40),
            Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
            self._message,
        )

    # -- mouse ------------------------------------------------------------------------------------------------

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            panel = next(
                (p for p in self.panel_rects() if p.contains(event.position().toPoint())), self.panel_rects()[0]
            )
            anchor = event.position() - QPointF(panel.topLeft())
            self.zoom_by(1.25**steps, anchor)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._drag = event.position()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is not None:
            delta = event.position() - self._drag
            self._drag = event.position()
            if self.mode is CompareMode.WIPE and event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.set_wipe(self.wipe + delta.x() / max(1, self.width()))
            else:
                self.pan_by(delta.x(), delta.y())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag = None
