"""Every corpus logbook opens in the window without an error dialog, and every claim and page renders."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from reviewapp.qt.widgets.figure_card import FigureCard
from tests.core.corpus_expectations import EXPECTED
from tests.core.test_corpus import corpus_params
from tests.qt.conftest import OpenWindow, wait_idle


@pytest.mark.parametrize("name", corpus_params("window"))
def test_corpus_logbook_opens_and_every_view_renders(
    qtbot: QtBot, open_window: OpenWindow, corpus: Path, name: str
) -> None:
    errors: list[str] = []
    window = open_window(corpus / name / EXPECTED[name].root)
    window.error_shown.connect(errors.append)
    logbook = window.context.logbook
    assert [c.key for c in logbook.claims] == [c.key for c in EXPECTED[name].claims]
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
