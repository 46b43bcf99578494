"""The Logbook Judge in the real window: J badges from stored imports, its evidence in the claim header, the revision
warning, the disagreement list (sortable, filters), re-matching by hand with undo, and the agreement view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.importer import import_verdicts
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.logbook_judge.agreement_dialog import AgreementDialog
from reviewapp.qt.logbook_judge.disagreement_panel import COLUMNS
from reviewapp.qt.logbook_judge.rematch_dialog import NONE, RematchDialog
from reviewapp.qt.models.claim_table import ClaimRole
from tests.core.commit_helpers import git, isolate_git
from tests.core.judge_fixtures import SPACE, entry, write_logbook, write_verdicts
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle
from tests.qt.review_helpers import act, records, show_claim


def judge_badges(window) -> list[Verdict | None]:
    model = window.claim_model
    return [model.index(i).data(ClaimRole.SLOTS).logbook_judge for i in range(model.rowCount())]


def test_demo_shows_j_badges_evidence_and_disagreements(
    qtbot: QtBot, open_window: OpenWindow, screenshots: Screenshots
) -> None:
    window = open_window()  # the built-in demo, whose verdicts file is imported on first open
    assert judge_badges(window) == [Verdict.VERIFIED, Verdict.FALSIFIED, Verdict.INCONCLUSIVE, Verdict.TOY]
    show_claim(qtbot, window, 3)
    details = window.logbook_judge.details
    assert details.isVisible()
    assert "registry claim 3" in details.match.text() and "by text" in details.match.text()
    assert "too early" in details.evidence.text()
    assert details.overall.text().startswith("Overall (quality medium")
    assert not details.revision.isVisible()  # the demo's entry names no revision
    assert window.evidence.header.badges["judge"].verdict is Verdict.INCONCLUSIVE
    panel = window.logbook_judge.panel
    pairs = {(panel.model.row_info(r).label, panel.model.row_info(r).pair) for r in range(panel.model.rowCount())}
    assert ("Claim 3", "Agent vs Logbook Judge") in pairs and ("Claim 4", "Agent vs Logbook Judge") in pairs
    assert "Disagreements (" in window.side_tabs.tabText(window.side_tabs.indexOf(window.logbook_judge.panel))
    # The Disagreements filter uses the J slot too: claim 4 (agent inconclusive, Logbook Judge toy) is listed.
    window.claim_panel.disagreement_toggle.setChecked(True)
    shown = {
        window.claim_panel.proxy.index(r, 0).data(ClaimRole.KEY) for r in range(window.claim_panel.proxy.rowCount())
    }
    assert window.controller.claim(4).key in shown
    window.claim_panel.disagreement_toggle.setChecked(False)
    # Ctrl+Shift+D shows the list; sorting by "Apart" puts the widest gap first; a click shows that claim.
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.side_tabs.currentWidget() is panel
    panel.table.horizontalHeader().sectionClicked.emit(COLUMNS.index("Apart"))
    panel.table.sortByColumn(COLUMNS.index("Apart"), Qt.SortOrder.DescendingOrder)
    distances = [int(panel.proxy.index(r, COLUMNS.index("Apart")).data()) for r in range(panel.proxy.rowCount())]
    assert distances == sorted(distances, reverse=True)
    first = panel.proxy.index(0, 0)
    rect = panel.table.visualRect(first)
    qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    wait_idle(qtbot, window)
    assert window.current_claim is not None and window.current_claim.key == first.data(Qt.ItemDataRole.UserRole + 2)
    screenshots.take(window, "40-logbook-judge-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    wait_idle(qtbot, window)
    screenshots.take(window, "41-logbook-judge-dark")


def _git_logbook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    isolate_git(tmp_path / "home", monkeypatch)
    workspace = tmp_path / "ws"
    write_logbook(workspace, order=[1, 0, 3, 2])
    git(workspace, "init", "-q")
    git(workspace, "add", ".")
    git(workspace, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-qm", "logbook")
    return workspace, git(workspace, "rev-parse", "HEAD").strip()


def test_revision_warning_rematch_with_undo_and_agreement(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screenshots: Screenshots
) -> None:
    workspace, head = _git_logbook(tmp_path, monkeypatch)
    judged_sha = "b" * 40
    assert judged_sha != head
    values = {"ada/old-name": entry(["Verified", "FALSIFIED", "toy", "inconclusive"], space_id=SPACE, sha=judged_sha)}
    verdicts = write_verdicts(tmp_path / "verdicts.json", values)
    result = import_verdicts(verdicts, [read_logbook(workspace)])
    assert result.all_stored  # linked through the entry's inner space_id, not its key
    window = open_window(workspace)
    # No claim text, equal counts: matched by position, so the logbook's order decides (low confidence).
    assert judge_badges(window) == [Verdict.VERIFIED, Verdict.FALSIFIED, Verdict.TOY, Verdict.INCONCLUSIVE]
    show_claim(qtbot, window, 1)
    details = window.logbook_judge.details
    assert "by position" in details.match.text() and "0.30" in details.match.text()
    assert details.revision.isVisible()
    assert f"judged revision {judged_sha[:12]}" in details.revision.text() and head[:12] in details.revision.text()

    # Re-match claim 1 to the Logbook Judge's claim 2, with the keyboard, in the dialog.
    def choose_second() -> None:
        dialog = window.logbook_judge.dialog
        assert isinstance(dialog, RematchDialog)
        dialog.list.setCurrentRow(1)
        qtbot.keyClick(dialog.list, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose_second)
    qtbot.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_idle(qtbot, window)
    (record,) = [r for r in records(window) if r["kind"] == "logbook_judge_match"]
    assert record["payload"] == {"space_id": SPACE, "registry_index": 2, "claim": window.controller.claim(1).key}
    assert judge_badges(window)[0] is Verdict.FALSIFIED
    assert "re-matched by hand" in details.match.text() and "registry claim 2" in details.match.text()
    screenshots.take(window, "42-logbook-judge-rematched")
    # Undo through the Edit menu's shortcut: the automatic match is back, and the file says so.
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, window)
    assert judge_badges(window)[0] is Verdict.VERIFIED
    assert [r["kind"] for r in records(window)][-1] == "retraction"

    # The agreement view for the open logbook, with the Logbook Judge and the agent as raters.
    act(qtbot, window.controller, lambda s: s.set_verdict(1, "verified", "ok"))
    act(qtbot, window.controller, lambda s: s.set_verdict(2, "toy", "small run only"))
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: isinstance(window.logbook_judge.dialog, AgreementDialog), timeout=60_000)
    dialog = window.logbook_judge.dialog
    assert isinstance(dialog, AgreementDialog)
    report = dialog.report
    assert report["bootstrap"]["resamples"] == 2000 and "Logbook Judge" in report["raters"]
    assert dialog.confusion is not None
    assert dialog.confusion.item(3, 0).text() == "toy"  # rows: verified, partial, falsified, toy, ...
    assert dialog.confusion.item(3, 2).text() == "1"  # the reviewer's toy against the Logbook Judge's falsified
    screenshots.take(dialog, "43-agreement", min_colors=8)
    # The calibration picture: the agent's verdicts against the Logbook Judge's among the heat maps, exportable.
    titles = [table.title.split(" (")[0] for table in dialog.calibration]
    assert titles == ["People vs Logbook Judge", "Agent vs Logbook Judge", "People vs Agent"]
    assert not dialog.picture.pixmap().isNull() and dialog.picture.pixmap().width() > 800
    dialog.tabs.setCurrentIndex(1)
    screenshots.take(dialog, "44-agreement-calibration", min_colors=8)
    png, svg = dialog.export_picture(tmp_path / "calibration.png")
    assert png.read_bytes().startswith(b"\x89PNG") and b"<svg" in svg.read_bytes()
    dialog.close()
    QApplication.processEvents()
    json.dumps(report)  # the same JSON-ready report the command prints


def test_unmatched_claims_on_both_sides_stay_in_view(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, screenshots: Screenshots
) -> None:
    from tests.core.judge_fixtures import REGISTRY_TEXTS

    workspace = tmp_path / "ws"
    write_logbook(workspace, order=[0, 2, 1])  # the quantized-widgets claim is not in this logbook
    texts: list[str | None] = list(REGISTRY_TEXTS)
    values = {SPACE: entry(["verified", "falsified", "toy", "Toy"], texts=texts)}
    verdicts = write_verdicts(tmp_path / "verdicts.json", values)
    assert import_verdicts(verdicts, [read_logbook(workspace)]).all_stored
    window = open_window(workspace)
    panel = window.logbook_judge.panel
    text = panel.unmatched.text()
    assert "Logbook Judge claims matched to no claim here" in text
    assert "registry claim 4: toy “Theorem 4.3 bounds" in text and "no logbook claim reads like it" in text
    assert "No Logbook Judge claim for" not in text  # every claim of the logbook found its registry claim
    assert judge_badges(window) == [Verdict.VERIFIED, Verdict.TOY, Verdict.FALSIFIED]
    window.actions_by_name["show_disagreements"].trigger()
    wait_idle(qtbot, window)
    assert panel.unmatched.isVisible()
    screenshots.take(window, "44-logbook-judge-unmatched")

    # A registry claim re-matched by hand to nothing leaves the logbook's claim without one: said too.
    window.logbook_judge.apply_rematch(window.controller.claim(1).key, NONE)
    wait_idle(qtbot, window)
    assert "No Logbook Judge claim for: Claim 1" in panel.unmatched.text()
    assert "registry claim 1: verified" in panel.unmatched.text()


def test_import_from_the_file_menu_with_the_claim_registry(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, screenshots: Screenshots
) -> None:
    from reviewapp.qt.logbook_judge.import_dialog import ImportVerdictsDialog
    from tests.core.judge_fixtures import write_registry

    workspace = tmp_path / "ws"
    write_logbook(workspace, order=[1, 0, 3])  # reordered, and one registry claim missing
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(["verified", "falsified", "toy", "toy"])})
    registry = write_registry(tmp_path / "claims_anchored.json")
    window = open_window(workspace)
    assert judge_badges(window) == [None, None, None]
    window.actions_by_name["import_judge_verdicts"].trigger()
    dialog = window.dialog
    assert isinstance(dialog, ImportVerdictsDialog)
    qtbot.waitExposed(dialog)
    qtbot.keyClick(dialog.verdicts, Qt.Key.Key_Return)  # nothing named yet: said, and the dialog stays
    assert dialog.isVisible() and "verdicts file" in dialog.problem.text()
    qtbot.keyClicks(dialog.verdicts, str(verdicts))
    qtbot.keyClicks(dialog.registry, str(registry))
    assert dialog.problem.isHidden()
    screenshots.take(dialog, "45-import-verdicts", min_colors=8)
    qtbot.keyClick(dialog.registry, Qt.Key.Key_Return)
    # the registry gave the texts: matched by text in spite of the order, the missing claim left unmatched
    qtbot.waitUntil(lambda: judge_badges(window) == [Verdict.FALSIFIED, Verdict.VERIFIED, Verdict.TOY], timeout=30_000)
    show_claim(qtbot, window, 1)
    assert "by text" in window.logbook_judge.details.match.text()
    assert "registry claim 3: toy" in window.logbook_judge.panel.unmatched.text()
