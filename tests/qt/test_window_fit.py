"""The window keeps the size it is given: a small laptop screen (1100x700) fits everything, and nothing in the
claim header is drawn over something else when it has to scroll instead."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from tests.qt.conftest import OpenWindow, settle


def stacked(widgets: list[QWidget]) -> list[tuple[str, str]]:
    """Pairs of widgets, in layout order, where the first reaches below the top of the next."""
    shown = [w for w in widgets if w.isVisible()]
    return [
        (type(a).__name__, type(b).__name__)
        for a, b in itertools.pairwise(shown)
        if a.geometry().bottom() >= b.geometry().top()
    ]


@pytest.mark.parametrize("size", [(1100, 700), (1600, 1000)])
def test_the_window_keeps_its_size_and_the_verdict_editor_never_overlaps(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path, size: tuple[int, int]
) -> None:
    window = open_window(demo_copy, size=size)
    window.select_claim(3)  # the disputed claim: the tallest header of the demo
    settle()
    assert (window.width(), window.height()) == size
    body = window.review.editor.body
    layout = body.layout()
    parts = [layout.itemAt(i).widget() for i in range(layout.count())]
    assert stacked([p for p in parts if p is not None]) == []
    header, scroll = window.evidence.header, window.evidence.header_scroll
    assert header.width() <= scroll.viewport().width()  # nothing cut off at the side
    assert scroll.height() < window.evidence.height()  # the evidence below always has room
