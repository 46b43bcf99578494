"""The evidence view builds a page's cards a few per event-loop turn: a turn stops before a card as slow as the
slowest one so far would overrun the budget, so one turn (and the paint after it) stays short whatever the cards
cost. The clock here is a fake one that each card advances: nothing depends on this machine's speed."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.qt.image_loader import ImageLoader
from reviewapp.qt.widgets import evidence_view
from reviewapp.qt.widgets.card import CardContext
from reviewapp.qt.widgets.evidence_view import EvidenceView


@pytest.mark.parametrize(
    ("card_ms", "per_turn"),
    [
        (2.0, [4, 4, 2]),  # 0, 2, 4, 6 ms: a fifth would end at 10 ms, past the budget of 8
        (5.0, [1] * 10),  # one at a time: a second would end at 10 ms
        (20.0, [1] * 10),  # a card slower than the budget still gets its own turn
    ],
)
def test_a_turn_builds_cards_while_the_slowest_so_far_still_fits(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, card_ms: float, per_turn: list[int]
) -> None:
    draft = LogbookDraft("Batches")
    page = draft.page("Claim 1: ten cells")
    for number in range(10):
        page.run(["python", f"step_{number}.py"], f"step {number} done", duration_s=1.0)
    draft.write(tmp_path / "logbook")
    logbook = read_logbook(tmp_path / "logbook")
    now = [0.0]
    monkeypatch.setattr(evidence_view, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(evidence_view, "BATCH_SECONDS", 0.008)
    make_card = evidence_view.make_card

    def slow_card(*args: object) -> object:
        now[0] += card_ms / 1000
        return make_card(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(evidence_view, "make_card", slow_card)
    view = EvidenceView()
    qtbot.addWidget(view)
    shown = logbook.page("claim-1-ten-cells")
    assert shown is not None
    view.show_page(CardContext(logbook, ImageLoader()), shown)
    view._batch_timer.stop()  # turns are taken by hand below
    built = []
    while view._queue:
        before = len(view.cards)
        view._build_batch()
        built.append(len(view.cards) - before)
    assert built == per_turn
    assert [card.cell.ordinal for card in view.cards if card.cell is not None] == list(range(10))  # in page order
