"""A check box and a radio button can be seen in both themes: the box's edge stands out from the window, and a
checked one looks different from an unchecked one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QCheckBox, QRadioButton, QStyle, QStyleOptionButton, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.qt import theme
from tests.qt.conftest import settle

INDICATORS = {
    QCheckBox: QStyle.SubElement.SE_CheckBoxIndicator,
    QRadioButton: QStyle.SubElement.SE_RadioButtonIndicator,
}


@pytest.fixture(params=[theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK], ids=lambda c: c.value)
def themed(request: pytest.FixtureRequest) -> Iterator[theme.ThemeChoice]:
    theme.manager().apply(request.param)
    yield request.param
    theme.manager().apply(None)


def indicator(button: QAbstractButton) -> QImage:
    option = QStyleOptionButton()
    option.initFrom(button)
    rect = button.style().subElementRect(INDICATORS[type(button)], option, button)
    return button.grab(rect).toImage()


def contrast(image: QImage, against: QColor) -> int:
    """The largest lightness difference of any pixel of `image` from `against`."""
    return max(
        abs(image.pixelColor(x, y).lightness() - against.lightness())
        for y in range(image.height())
        for x in range(image.width())
    )


@pytest.mark.parametrize("kind", [QCheckBox, QRadioButton])
def test_the_indicator_stands_out_and_shows_when_it_is_checked(
    qtbot: QtBot, themed: theme.ThemeChoice, kind: type[QAbstractButton]
) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    off, on = kind("off", window), kind("on", window)
    on.move(0, 40)
    on.setAutoExclusive(False)
    on.setChecked(True)
    window.resize(200, 80)
    window.show()
    settle(4)
    background = QColor(theme.colors().window)
    unchecked, checked = indicator(off), indicator(on)
    assert contrast(unchecked, background) >= 40, f"{kind.__name__} edge hardly shows in {themed.value}"
    differing = sum(
        unchecked.pixel(x, y) != checked.pixel(x, y)
        for y in range(min(unchecked.height(), checked.height()))
        for x in range(min(unchecked.width(), checked.width()))
    )
    assert differing >= 10, f"a checked {kind.__name__} looks unchecked in {themed.value}"
