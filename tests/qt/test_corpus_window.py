"""Every corpus logbook opens in the window without an error dialog, and every claim and page renders."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from reviewapp.qt import theme
from reviewapp.qt.widgets.figure_card import FigureCard
from tests.conftest import shared_corpus
from tests.core.logbook.test_corpus import COLLECTIONS, corpus_params
from tests.core.logbook_shapes import rewritten_logbook
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle


@pytest.mark.parametrize("entry", corpus_params("window"))
def test_corpus_logbook_opens_and_every_view_renders(
    qtbot: QtBot, open_window: OpenWindow, entry: tuple[str, str]
) -> None:
    collection, name = entry
    folder, expectations = COLLECTIONS[collection]
    expected = expectations[name]
    errors: list[str] = []
    window = open_window(shared_corpus(folder) / name / expected.root)
    window.error_shown.connect(errors.append)
    logbook = window.context.logbook
    assert [c.key for c in logbook.claims] == [c.key for c in expected.claims]
    assert window.claim_panel.visible_keys() == [c.key for c in logbook.claims]
    for claim in logbook.claims:
        assert window.claim_panel.select_key(claim.key)
        wait_idle(qtbot, window)
        assert window.evidence.header.isVisibleTo(window)
        wanted = len(claim.cells) + (
            1 if claim.section_line is not None or logbook.page(claim.page).preamble.strip() else 0
        )
        assert len(window.evidence.cards) == wanted, claim.key
    for page in logbook.pages:
        window.show_page(page.slug)
        wait_idle(qtbot, window)
        assert len(window.evidence.cards) == len(page.cells) + (1 if page.preamble.strip() else 0), page.slug
        for card in window.evidence.cards:
            if isinstance(card, FigureCard):  # every figure shows an image, a refusal, or says it has none
                assert all(f.image is not None or f.text().startswith("Image not shown") for f in card.figures)
                assert card.figures or card.notice is not None, page.slug
    assert errors == []
    assert window.dialog is None
    assert window.problems_button.isVisible() == bool(logbook.problems)


def test_earlier_attempts_are_marked_in_the_page_tree(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, screenshots: Screenshots
) -> None:
    window = open_window(rewritten_logbook(tmp_path))
    model = window.page_model
    rows: dict[str, tuple[str, bool, str]] = {}

    def collect(parent: QModelIndex) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            page = model.page_at(index)
            font = index.data(Qt.ItemDataRole.FontRole)
            rows[page.slug] = (
                index.data(),
                bool(font and font.italic()),
                index.data(Qt.ItemDataRole.ToolTipRole),
            )
            collect(index)

    collect(QModelIndex())
    assert rows["current-claim-1"][:2] == ("Claim 1 — VERIFIED", False)
    assert rows["claim-1-widget-bound"][:2] == ("Historical: Claim 1 (superseded)", True)
    assert "earlier attempt" in rows["claim-1-widget-bound"][2]
    assert rows["second-try-claim-2"][:2] == ("Claim 2: widget speed (second try) (not in manifest)", True)
    assert window.claim_panel.visible_keys() == ["current-claim-1#1", "current-claim-2#2"]
    assert window.claim_panel.select_key("current-claim-1#1")
    wait_idle(qtbot, window)
    links = [b.text().replace("&&", "&") for b in window.evidence.header.findChildren(QPushButton) if b.isVisible()]
    assert "Earlier attempt on “Historical: Claim 1”: TOY (history)" in links
    assert not [t for t in links if "differs" in t]  # history is not shown as a disagreement
    window.page_tree.expandAll()
    screenshots.take(window, "page-tree-history-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "page-tree-history-dark")
