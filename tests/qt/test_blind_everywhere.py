"""Blind review hides every name everywhere, through the one blind rule: the artifact card's path, File > Open
Recent, the timeline's session picker, the export (its rows and the file name it suggests) and the agreement view
show neither the participant nor another judge's verdict until this judge has saved hers on that claim; her verdict
says it was given blind."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PySide6.QtWidgets import QApplication, QFileDialog, QLabel
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.recent import remember_logbook
from reviewapp.core.logbook.writer import LogbookDraft, write_trace
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.widgets.cell_cards import ArtifactCard
from tests.core.annotation_helpers import open_review
from tests.qt.conftest import LOAD_TIMEOUT_MS, REVIEWER, Screenshots, wait_idle
from tests.qt.review_helpers import fill_verdict, save

OWNER = "ghopper"
OTHER_JUDGE = "Bea Judge"
OTHER_RATIONALE = "Re-ran it at full scale; the gap is the other way round."


def write_checkout(tmp_path: Path) -> Path:
    """A checkout folder named OWNER__NAME (as a clone of a Space lands), with an artifact and two agent
    sessions; another judge has given claim 1 a verdict and left a note."""
    folder = tmp_path / f"{OWNER}__flat-minima-repro"
    draft = LogbookDraft("Flat minima, reproduced", metadata={"space_id": f"{OWNER}/flat-minima-repro"})
    for n in (1, 2):
        page = draft.page(f"Claim {n}: sharpness predicts the gap ({n})")
        page.markdown(f"> Claim {n} of the paper.", title="Claim")
        page.artifact_path(f"results/metrics-{n}.json", 12)
        page.markdown("**Verdict: VERIFIED.**", title="Verdict")
    root = draft.write(folder)
    (folder / "results").mkdir()
    for n in (1, 2):
        (folder / "results" / f"metrics-{n}.json").write_text('{"gap": 1}')
    events = [{"id": f"e{i}", "sequence": i, "kind": "message", "title": "step", "text": "ok"} for i in (1, 2)]
    write_trace(root, "s1", events, title=f"{OWNER} first run")
    write_trace(root, "s2", events, title=f"{OWNER} second run")
    other = open_review(folder, OTHER_JUDGE)
    other.set_verdict(1, "falsified", OTHER_RATIONALE)
    other.add_note(other.claim_target(1), f"{OTHER_JUDGE} looked at the seeds.")
    return folder


def open_blind(qtbot: QtBot, folder: Path) -> MainWindow:
    window = MainWindow(LogbookController())
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    window.set_blind(True)
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(folder)
    wait_idle(qtbot, window)
    return window


def exported(window: MainWindow, out: Path) -> list[dict[str, str]]:
    assert window.review.tools.export_to(out)
    with out.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_blind_review_hides_the_participant_and_other_judges_until_mine_is_saved(
    qtbot: QtBot, tmp_path: Path, screenshots: Screenshots
) -> None:
    folder = write_checkout(tmp_path)
    remember_logbook(folder)
    window = open_blind(qtbot, folder)
    alias = window.controller.blinder.alias if window.controller.blinder else ""
    assert alias.startswith("Participant ")

    # the artifact card names the file inside the logbook, not the checkout folder that names the owner
    window.select_claim(1)
    wait_idle(qtbot, window)
    cards = window.evidence.findChildren(ArtifactCard)
    assert cards
    shown = " ".join(label.text() for card in cards for label in card.findChildren(QLabel))
    assert "results/metrics-1.json" in shown and OWNER not in shown and str(tmp_path) not in shown
    labels = " ".join(label.text() + label.toolTip() for label in window.findChildren(QLabel) if label.isVisible())
    assert OWNER not in labels and OWNER not in window.windowTitle()  # the status line's reviews file too
    screenshots.take(window, "blind-artifact-card-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "blind-artifact-card-dark")
    theme.manager().apply(theme.ThemeChoice.LIGHT)

    # File > Open Recent: the pseudonym, never the folder
    window._fill_recent()
    recent = [action.text() for action in window.recent_menu.actions()]
    assert recent == [alias]

    # the timeline's session picker
    sessions = window.timeline.sessions
    labels = [sessions.itemText(i) for i in range(sessions.count())]
    assert len(labels) == 2 and all(OWNER not in label for label in labels), labels

    # export and agreement: only my records while I have none on the claim
    window.actions_by_name["export_reviews"].trigger()
    dialog = window.review.dialog
    assert isinstance(dialog, QFileDialog)
    [suggested] = dialog.selectedFiles()
    assert Path(suggested).name == f"{alias.lower().replace(' ', '-')}-reviews.csv"
    dialog.reject()
    rows = exported(window, tmp_path / "before.csv")
    text = json.dumps(rows)
    assert OTHER_JUDGE not in text and OTHER_RATIONALE not in text and OWNER not in text
    assert all(OTHER_JUDGE not in unit for unit in window.logbook_judge.agreement_ratings().values())

    window.select_claim(1)
    wait_idle(qtbot, window)
    editor = fill_verdict(qtbot, window, Verdict.TOY, "A laptop-sized run only.")
    assert save(qtbot, editor)
    wait_idle(qtbot, window)
    mine = window.controller.my_verdict(window.controller.claims[0].key)
    assert mine is not None and mine.payload.blind  # the record says it was given blind

    rows = exported(window, tmp_path / "after.csv")
    on_claim_1 = {r["annotator"]: r for r in rows if r["n"] == "1"}
    assert set(on_claim_1) == {REVIEWER, OTHER_JUDGE}  # shown once mine is saved, on that claim only
    assert on_claim_1[OTHER_JUDGE]["rationale"] == OTHER_RATIONALE
    assert all(r["annotator"] in ("", REVIEWER) for r in rows if r["n"] == "2")
    ratings = window.logbook_judge.agreement_ratings()
    assert [OTHER_JUDGE in unit for unit in ratings.values()] == [True, False]


def test_not_blind_everything_is_shown_as_before(qtbot: QtBot, tmp_path: Path) -> None:
    folder = write_checkout(tmp_path)
    window = MainWindow(LogbookController())
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(folder)
    wait_idle(qtbot, window)
    rows = exported(window, tmp_path / "all.csv")
    assert {r["annotator"] for r in rows if r["n"] == "1"} == {OTHER_JUDGE}
    window.select_claim(1)
    wait_idle(qtbot, window)
    shown = " ".join(
        label.text() for card in window.evidence.findChildren(ArtifactCard) for label in card.findChildren(QLabel)
    )
    assert str(folder.resolve() / "results" / "metrics-1.json") in shown  # the whole path, as today
    QApplication.processEvents()


def test_the_paper_window_opened_in_blind_review_is_blind_too_and_so_are_its_exports(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """Ctrl+Shift+P while blind: the column under the pseudonym, the other judge's verdict on a claim I have not
    judged neither shown nor counted, his rationale nowhere, and the exports written from it the same."""
    from PySide6.QtCore import Qt

    from reviewapp.core.paper.gather import PaperRequest
    from reviewapp.qt.paper.matrix_model import FIRST_LOGBOOK

    folder = write_checkout(tmp_path)
    window = open_blind(qtbot, folder)
    alias = window.controller.blinder.alias if window.controller.blinder else ""
    paper = window.paper.open_paper(PaperRequest([str(folder)]))
    qtbot.addWidget(paper)
    qtbot.waitUntil(lambda: paper.gathered is not None, timeout=LOAD_TIMEOUT_MS)
    assert paper.blind
    model = paper.model
    heading = model.headerData(FIRST_LOGBOOK, Qt.Orientation.Horizontal)
    assert alias in heading and OWNER not in heading
    first = model.index(0, FIRST_LOGBOOK)
    tip = model.data(first, Qt.ItemDataRole.ToolTipRole)
    assert OTHER_JUDGE not in tip and "People (H): nobody yet" in tip
    for fmt in ("markdown", "json"):
        out = paper.export(fmt, tmp_path / f"findings.{fmt}")
        assert out is not None
        text = out.read_text(encoding="utf-8")
        assert OWNER not in text and OTHER_JUDGE not in text and OTHER_RATIONALE not in text, fmt
    paper.close()
