"""The queue window's Disagreements view: two judges' conflicting verdicts side by side, names hidden in blind mode
until settled, an adjudicator records the adjudicated verdict from the window and undoes it with Ctrl+Z."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewapp.core.queue.adjudication import adjudications
from reviewapp.core.queue.disputes import queue_disputes
from reviewapp.core.queue.queue_file import read_queue
from reviewapp.core.queue.status import queue_status
from reviewapp.core.review.preferences import load_preferences, save_preferences
from reviewapp.qt import theme
from reviewapp.qt.queue.disagreements_dialog import DisagreementsDialog
from reviewapp.qt.queue.queue_window import QueueWindow
from tests.core.annotation_helpers import open_review, write_small_logbook
from tests.qt.conftest import Screenshots

TIMEOUT_MS = 60_000


@pytest.fixture
def disputed_queue(tmp_path: Path) -> Path:
    for name in ("alpha", "beta"):
        write_small_logbook(tmp_path / name)
    open_review(tmp_path / "alpha", "Harsh").set_verdict(1, "falsified", "The accuracy drop is 4 points.", 3)
    open_review(tmp_path / "alpha", "Kind").set_verdict(1, "verified", "Table 2 matches within 0.3 points.", 2)
    path = tmp_path / "queue.txt"
    path.write_text("alpha\nbeta\n", encoding="utf-8")
    return path


def become_adjudicator() -> None:
    preferences = load_preferences()
    preferences.role = "adjudicator"
    save_preferences(preferences)


def test_an_adjudicator_settles_a_dispute_from_the_queue_window_and_undoes_it(
    qtbot: QtBot, disputed_queue: Path
) -> None:
    become_adjudicator()
    window = QueueWindow(disputed_queue, "Ada Adjudicator", lambda *_: None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.model.rows) == 2 and not window.loading, timeout=TIMEOUT_MS)
    window.blind_box.setChecked(True)
    qtbot.keyClick(window.table, Qt.Key.Key_A)
    qtbot.waitUntil(lambda: getattr(window, "disagreements_dialog", None) is not None, timeout=TIMEOUT_MS)
    dialog = window.disagreements_dialog
    assert len(dialog.disputes) == 1 and dialog.record.isEnabled()
    shown = dialog.findChildren(type(dialog.heading))
    texts = " ".join(label.text() for label in shown)
    assert "reviewer 1" in texts and "reviewer 2" in texts and "Harsh" not in texts and "Kind" not in texts
    assert "The accuracy drop is 4 points." in texts and "Table 2 matches within 0.3 points." in texts
    assert "alpha" not in dialog.heading.text()  # the logbook under its pseudonym

    dialog.verdict.setCurrentText("falsified")
    dialog.rationale.setPlainText("The rerun shows the drop.")
    qtbot.keyClick(dialog.rationale, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: dialog.disputes and dialog.disputes[0].status == "settled", timeout=TIMEOUT_MS)
    names = " ".join(label.text() for label in dialog.findChildren(type(dialog.heading)))
    assert "Harsh" in names and "Kind" in names  # settled: the names are shown
    state = open_review(disputed_queue.parent / "alpha", "Reader").state
    [record] = adjudications(state).values()
    assert record.role == "adjudicator" and record.payload.blind and record.payload.verdict == "falsified"

    qtbot.keyClick(dialog.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: dialog.disputes and dialog.disputes[0].status == "open", timeout=TIMEOUT_MS)
    assert adjudications(open_review(disputed_queue.parent / "alpha", "Reader").state) == {}


def test_the_evidence_line_names_the_claims_page_once(qtbot: QtBot, disputed_queue: Path) -> None:
    rows = queue_status(read_queue(disputed_queue), "Harsh")
    dialog = DisagreementsDialog(queue_disputes(rows))
    qtbot.addWidget(dialog)
    [claim] = [c for c in rows[0].logbook.claims if c.key == dialog.disputes[0].claim_key]
    assert len(claim.cells) > 1  # several cells of one page: the page is said once, before their numbers
    text = dialog.evidence.text()
    assert text.startswith(f"Evidence: {claim.page}, cells ") and text.count(claim.page) == 1, text
    assert [int(n) for n in re.findall(r"\d+", text.removeprefix(f"Evidence: {claim.page}"))] == [
        c + 1 for c in claim.cells
    ]


def test_a_judge_sees_the_disagreements_but_cannot_adjudicate(qtbot: QtBot, disputed_queue: Path) -> None:
    rows = queue_status(read_queue(disputed_queue), "Harsh")
    dialog = DisagreementsDialog(queue_disputes(rows))
    qtbot.addWidget(dialog)
    assert not dialog.record.isEnabled() and "Only an adjudicator" in dialog.summary.text()


@pytest.mark.parametrize("choice", [theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK])
def test_disagreements_screenshot(
    qtbot: QtBot, disputed_queue: Path, screenshots: Screenshots, choice: theme.ThemeChoice
) -> None:
    theme.manager().apply(choice)
    rows = queue_status(read_queue(disputed_queue), "Ada")
    dialog = DisagreementsDialog(queue_disputes(rows), lambda *_: None)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    screenshots.take(dialog, f"disagreements-{choice.value}", min_colors=8)
