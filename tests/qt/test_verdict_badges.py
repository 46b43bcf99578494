"""The claim list draws each verdict badge from a pixmap drawn once: the same pixels as drawing it afresh, in
either theme, at the place asked for."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, QSize
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.widgets.verdict_badge import BADGE_HEIGHT, badge_font, paint_badge, paint_badge_cached

SIZE = QSize(120, BADGE_HEIGHT)
AT = QPointF(7, 5)


def drawn(cached: bool, slot: str, verdict: Verdict | None) -> QImage:
    image = QImage(140, 30, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor(theme.colors().panel))
    painter = QPainter(image)
    font = badge_font(QFont())
    if cached:
        paint_badge_cached(painter, AT, SIZE, slot, verdict, font)
    else:
        painter.translate(AT)
        paint_badge(painter, QRectF(0, 0, SIZE.width(), SIZE.height()), slot, verdict, font)
    painter.end()
    return image


def largest_difference(a: QImage, b: QImage) -> int:
    """Over the badge's rectangle (drawn afresh, a badge's tab bleeds a pixel past it; a pixmap clips it)."""
    worst = 0
    for y in range(int(AT.y()), int(AT.y()) + SIZE.height()):
        for x in range(int(AT.x()), int(AT.x()) + SIZE.width()):
            pa, pb = a.pixelColor(x, y), b.pixelColor(x, y)
            worst = max(worst, abs(pa.red() - pb.red()), abs(pa.green() - pb.green()), abs(pa.blue() - pb.blue()))
    return worst


@pytest.mark.parametrize("choice", [theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK])
@pytest.mark.parametrize(
    ("slot", "verdict"), [("agent", Verdict.VERIFIED), ("judge", Verdict.FALSIFIED), ("human", None)]
)
def test_a_badge_from_its_pixmap_looks_as_one_drawn_afresh(
    choice: theme.ThemeChoice, slot: str, verdict: Verdict | None
) -> None:
    theme.manager().apply(choice)
    fresh = drawn(False, slot, verdict)
    assert largest_difference(drawn(True, slot, verdict), fresh) <= 8  # edges blended once more, at most
    assert largest_difference(drawn(True, slot, verdict), fresh) <= 8  # and again, from the pixmap kept


def test_a_theme_change_draws_the_badges_anew() -> None:
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    light = drawn(True, "agent", Verdict.TOY)
    theme.manager().apply(theme.ThemeChoice.DARK)
    dark = drawn(True, "agent", Verdict.TOY)
    assert largest_difference(dark, drawn(False, "agent", Verdict.TOY)) <= 8
    inside = (AT.x() + SIZE.width() // 2, AT.y() + SIZE.height() // 2)
    assert light.pixelColor(*map(int, inside)) != dark.pixelColor(*map(int, inside))
