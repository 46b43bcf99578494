"""Saving in the window: the write happens off the GUI thread, and the claim list redraws only the rows it changed."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QMetaObject, QModelIndex, QObject, Qt, Slot
from pytestqt.qtbot import QtBot

from reviewapp.core.verdicts import Verdict
from reviewapp.qt.models.claim_table import ClaimRole
from tests.qt.conftest import OpenWindow
from tests.qt.review_helpers import act, fill_verdict, records, save, show_claim, written


class ModelSignals:
    """Every row-level signal the claim model sends, in order."""

    def __init__(self, model) -> None:
        self.changed: list[tuple[int, int]] = []
        self.resets = 0
        self.structure = 0
        model.dataChanged.connect(lambda first, last, _roles=(): self.changed.append((first.row(), last.row())))
        model.modelReset.connect(self._reset)
        model.rowsInserted.connect(self._structure)
        model.rowsRemoved.connect(self._structure)

    def _reset(self) -> None:
        self.resets += 1

    def _structure(self, _parent: QModelIndex, _first: int, _last: int) -> None:
        self.structure += 1


def test_a_saved_verdict_redraws_its_one_row_and_resets_nothing(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 3)
    fill_verdict(qtbot, window, Verdict.PARTIAL, "Half of the sweep was run.")
    signals = ModelSignals(window.claim_model)

    assert save(qtbot, window.review.editor)

    assert signals.resets == 0 and signals.structure == 0
    assert set(signals.changed) == {(2, 2)}  # claim 3 only
    assert window.claim_model.index(2).data(ClaimRole.SLOTS).human is Verdict.PARTIAL
    assert records(window)[-1]["payload"]["verdict"] == "partial"


def test_undo_and_redo_redraw_the_same_one_row(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 2)
    fill_verdict(qtbot, window, Verdict.TOY, "A 10% proxy.")
    assert save(qtbot, window.review.editor)
    signals = ModelSignals(window.claim_model)

    window.actions_by_name["undo"].trigger()
    written(qtbot, window)
    window.actions_by_name["redo"].trigger()
    written(qtbot, window)

    assert signals.resets == 0 and signals.structure == 0
    assert set(signals.changed) == {(1, 1)}


def test_splitting_a_claim_lists_the_claims_again(qtbot: QtBot, open_window: OpenWindow, demo_copy: Path) -> None:
    window = open_window(demo_copy)
    before = window.claim_model.rowCount()
    act(qtbot, window.controller, lambda review: review.split_claim(1, [{"title": "a"}, {"title": "b"}], "two"))
    assert window.claim_model.rowCount() == before + 1
    assert window.controller.claims[0].key.endswith(".1")


def test_the_claim_shown_is_followed_into_its_split_and_back_when_the_split_is_undone(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 3)
    original = window.current_claim.key  # type: ignore[union-attr]
    act(qtbot, window.controller, lambda review: review.split_claim(3, [{"title": "a"}, {"title": "b"}], "two"))
    assert window.current_claim is not None and window.current_claim.key == f"{original}.1"

    show_claim(qtbot, window, f"{original}.2")
    assert window.current_claim.key == f"{original}.2"
    window.actions_by_name["undo"].trigger()
    written(qtbot, window)
    assert window.current_claim is not None and window.current_claim.key == original


class Relay(QObject):
    """Lives on the GUI thread: its slot runs only when that thread processes events."""

    def __init__(self) -> None:
        super().__init__()
        self.reached = threading.Event()

    @Slot()
    def fire(self) -> None:
        self.reached.set()


def test_the_save_runs_on_the_write_lane_while_the_gui_thread_keeps_processing_events(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    gui = threading.get_ident()
    relay = Relay()
    seen: dict[str, int] = {}

    def save_while_the_gui_answers(review):
        seen["thread"] = threading.get_ident()
        QMetaObject.invokeMethod(relay, "fire", Qt.ConnectionType.QueuedConnection)
        assert relay.reached.wait(30), "the GUI thread did not process events while the write ran"
        return review.set_verdict(1, "verified", "reran it")

    record = act(qtbot, window.controller, save_while_the_gui_answers)

    assert seen["thread"] != gui and record.payload.verdict is Verdict.VERIFIED
    assert window.claim_model.index(0).data(ClaimRole.SLOTS).human is Verdict.VERIFIED
