"""Verdict badges: one shape per source so that agent, judge and reviewer verdicts are never confused.

Agent: filled rounded badge with an "A" tab. Judge: outlined badge with a "J" tab. Reviewer: filled badge with
square corners and an "H" tab. An empty slot is a faint dashed outline, keeping the row layout stable.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme

SLOT_LETTERS = {"agent": "A", "judge": "J", "human": "H"}
SLOT_TITLES = {"agent": "Agent's verdict", "judge": "Logbook Judge's verdict", "human": "Your verdict"}
BADGE_HEIGHT = 18
_PAD = 6


def badge_font(base: QFont) -> QFont:
    font = QFont(base)
    font.setPointSizeF(max(7.0, base.pointSizeF() * 0.78))
    font.setWeight(QFont.Weight.Bold)
    return font


def badge_label(verdict: Verdict | None) -> str:
    return "—" if verdict is None or verdict is Verdict.UNSTATED else verdict.value.upper()


def badge_width(metrics: QFontMetrics, verdict: Verdict | None) -> int:
    tab = metrics.horizontalAdvance("W") + _PAD
    return tab + metrics.horizontalAdvance(badge_label(verdict)) + 2 * _PAD


def paint_badge(painter: QPainter, rect: QRectF, slot: str, verdict: Verdict | None, font: QFont) -> None:
    colors = theme.colors()
    metrics = QFontMetrics(font)
    stated = verdict is not None and verdict is not Verdict.UNSTATED
    color = theme.verdict_color(verdict if stated and verdict is not None else Verdict.UNSTATED)
    radius = 2.0 if slot == "human" else rect.height() / 2
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(font)
    tab_width = metrics.horizontalAdvance("W") + _PAD
    outline = QPainterPath()
    outline.addRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
    if not stated:
        painter.setPen(QPen(QColor(colors.border), 1, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(outline)
        text_color = QColor(colors.muted)
    elif slot == "judge":
        painter.setPen(QPen(color, 1.4))
        painter.setBrush(QColor(colors.card))
        painter.drawPath(outline)
        text_color = color
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawPath(outline)
        text_color = QColor("#ffffff") if not colors.dark else QColor("#111418")
    # The slot letter sits in a darker tab on the left.
    tab = QRectF(rect.left(), rect.top(), tab_width, rect.height())
    painter.save()
    painter.setClipPath(outline)
    painter.fillRect(
        tab, QColor(0, 0, 0, 60) if stated and slot != "judge" else QColor(color.red(), color.green(), color.blue(), 40)
    )
    painter.restore()
    painter.setPen(text_color)
    painter.drawText(tab, Qt.AlignmentFlag.AlignCenter, SLOT_LETTERS[slot])
    body = QRectF(tab.right(), rect.top(), rect.width() - tab_width, rect.height())
    painter.drawText(body, Qt.AlignmentFlag.AlignCenter, badge_label(verdict))
    painter.restore()


# Badges drawn once per look: a claim list paints three per row on every repaint, and each drawn afresh cost
# 0.13 ms (its path, clip and two texts), most of the list's painting.
_DRAWN: dict[tuple[object, ...], QPixmap] = {}
_DRAWN_LIMIT = 512


def paint_badge_cached(
    painter: QPainter, at: QPointF, size: QSize, slot: str, verdict: Verdict | None, font: QFont
) -> None:
    """`paint_badge` into the rectangle of `size` at `at`, from a pixmap drawn once for this slot, verdict, font,
    size, theme and pixel ratio."""
    ratio = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    key = (theme.colors(), slot, verdict, font.key(), size.width(), size.height(), ratio)
    pixmap = _DRAWN.get(key)
    if pixmap is None:
        pixmap = QPixmap(round(size.width() * ratio), round(size.height() * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        drawing = QPainter(pixmap)
        paint_badge(drawing, QRectF(0, 0, size.width(), size.height()), slot, verdict, font)
        drawing.end()
        if len(_DRAWN) >= _DRAWN_LIMIT:  # fonts or sizes that keep changing: start again rather than grow
            _DRAWN.clear()
        _DRAWN[key] = pixmap
    painter.drawPixmap(at, pixmap)


def paint_disagreement(painter: QPainter, rect: QRectF) -> None:
    """A warning triangle with "!" — drawn, not a glyph, so it looks the same with any font."""
    color = QColor(theme.colors().warning)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    side = min(rect.width(), rect.height())
    left = rect.center().x() - side / 2
    top = rect.center().y() - side / 2
    triangle = QPolygonF([QPointF(left + side / 2, top), QPointF(left + side, top + side), QPointF(left, top + side)])
    painter.drawPolygon(triangle)
    pen = QPen(QColor("#ffffff"), max(1.5, side / 9))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    cx = left + side / 2
    painter.drawLine(QPointF(cx, top + side * 0.38), QPointF(cx, top + side * 0.68))
    painter.drawPoint(QPointF(cx, top + side * 0.84))
    painter.restore()


class VerdictBadge(QWidget):
    """One badge as a widget (the evidence header); the claim list paints the same badges in its delegate."""

    def __init__(self, slot: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.slot = slot
        self.verdict: Verdict | None = None
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def set_verdict(self, verdict: Verdict | None) -> None:
        self.verdict = verdict
        label = badge_label(verdict) if verdict not in (None, Verdict.UNSTATED) else "none yet"
        self.setToolTip(f"{SLOT_TITLES[self.slot]}: {label.lower()}")
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        metrics = QFontMetrics(badge_font(self.font()))
        return QSize(badge_width(metrics, self.verdict) + 2, BADGE_HEIGHT + 4)

    def paintEvent(self, _event: object) -> None:
        painter = QPainter(self)
        height = BADGE_HEIGHT + 2
        rect = QRectF(1, (self.height() - height) / 2, self.width() - 2, height)
        paint_badge(painter, rect, self.slot, self.verdict, badge_font(self.font()))
        painter.end()
