"""The paper window on a generated paper of three teams: the matrix with A/J/H and the deciding source, disputed
cells, a cell opening its logbook's evidence in the review window, an author's response with evidence links,
exported and undone, a hand alignment, and two logbooks' evidence side by side, scrolled together."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from reviewapp.core.io.markdown_safe import markdown_inline
from reviewapp.core.paper.gather import PaperRequest
from reviewapp.core.paper.paper_store import PaperStore
from reviewapp.core.review.identity import Identity
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.paper.align_dialog import OWN_ROW, AlignDialog
from reviewapp.qt.paper.compare_window import ComparisonWindow
from reviewapp.qt.paper.matrix_model import CLASS, FIRST_LOGBOOK
from reviewapp.qt.paper.open_paper_dialog import OpenPaperDialog
from reviewapp.qt.paper.paper_window import PaperWindow
from reviewapp.qt.paper.response_dialog import ResponseDialog
from tests.core.annotation_helpers import open_review
from tests.qt.conftest import LOAD_TIMEOUT_MS, Screenshots, settle, wait_idle
from tests.qt.review_helpers import act, fill_verdict, save, written
from tests.support.paper_fixtures import ORID, write_team_logbook

AUTHOR = Identity("Ann Author", "asked")


@pytest.fixture
def teams(tmp_path: Path) -> dict[str, Path]:
    """ada tries claims 1-4; bob words them his own way and numbers claims 2 and 1 as his 1 and 2 (he finds
    claim 2 falsified); cy verifies claim 1 and makes claim 5, which nobody else attempted."""
    root = tmp_path / "logbooks"
    return {
        "ada": write_team_logbook(root / "ada", "ada", [(0, "verified"), (1, "verified"), (2, "toy"), (3, "partial")],
                                  runs=3),
        "bob": write_team_logbook(root / "bob", "bob", [(1, "falsified"), (0, "verified")], wording=1, runs=2),
        "cy": write_team_logbook(root / "cy", "cy", [(0, "verified"), (4, "inconclusive")]),
    }  # fmt: skip


def open_paper(qtbot: QtBot, teams: dict[str, Path], opened: list[tuple[str, Path, str | None]]) -> PaperWindow:
    request = PaperRequest([str(p) for p in teams.values()])
    window = PaperWindow(request, lambda *args: opened.append(args), identity=lambda: AUTHOR)
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.loaded, timeout=LOAD_TIMEOUT_MS):
        window.show()
    settle()
    return window


def activate(qtbot: QtBot, window: PaperWindow) -> None:
    """Back to the paper window after a modal dialog, as the window system does, so its shortcuts apply."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def text_at(window: PaperWindow, row: int, column: int) -> str:
    return str(window.model.index(row, column).data())


def answer_next_dialog(qtbot: QtBot, fill: Callable[[Any], None]) -> None:
    """Fill in the next modal dialog when it shows, then accept it (reject it if filling fails, so that a
    failing check never leaves the test waiting on a modal dialog)."""

    def act() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog):
            QTimer.singleShot(20, act)
            return
        try:
            fill(dialog)
        except BaseException:
            dialog.reject()
            raise
        dialog.accept()

    QTimer.singleShot(0, act)


def wait_written(qtbot: QtBot, window: PaperWindow) -> None:
    """Until the write the key started is on disk and shown (it runs on the write lane)."""
    qtbot.waitUntil(lambda: not window.writing)


def test_matrix_shows_slots_sources_classes_and_opens_evidence(
    qtbot: QtBot, teams: dict[str, Path], screenshots: Screenshots
) -> None:
    opened: list[tuple[str, Path, str | None]] = []
    window = open_paper(qtbot, teams, opened)
    view = window.gathered.view  # type: ignore[union-attr]
    assert [r.number for r in view.rows] == [1, 2, 3, 4, 5]
    assert "paper class: contested" in window.heading.text()
    bob = FIRST_LOGBOOK + 1
    assert text_at(window, 1, CLASS) == "contested"  # ada verified claim 2, bob falsified it
    assert text_at(window, 1, bob) == "A falsified · J — · H —\n→ falsified (A)"
    assert text_at(window, 0, bob).endswith("→ verified (A)")  # his claim 2 is the paper's claim 1
    assert text_at(window, 4, FIRST_LOGBOOK) == "not attempted"  # only cy made claim 5
    assert text_at(window, 4, CLASS) == "nothing established"
    # a person's verdict decides over the agent's; people who disagree make the cell disputed
    open_review(teams["ada"], "Grace Judge").set_verdict(3, "verified", "Re-ran it at full scale.")
    open_review(teams["cy"], "Grace Judge").set_verdict(1, "verified", "Fine.")
    open_review(teams["cy"], "Alan Judge").set_verdict(1, "falsified", "Seeds cherry-picked.")
    with qtbot.waitSignal(window.loaded, timeout=LOAD_TIMEOUT_MS):
        qtbot.keyClick(window.table, Qt.Key.Key_F5)
    assert text_at(window, 2, FIRST_LOGBOOK) == "A toy · J — · H verified\n→ verified (H)"
    assert (
        text_at(window, 0, FIRST_LOGBOOK + 2) == "A verified · J — · H falsified/verified\n⚠ disputed: people disagree"
    )
    assert text_at(window, 0, CLASS) == "contested"  # verified against falsified inside one cell
    assert "2 contested claim(s) · 1 disputed cell(s)" in window.summary.text()
    screenshots.take(window, "paper-matrix-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "paper-matrix-dark")
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    # Enter on bob's cell of claim 2 opens bob's logbook at his claim 1
    window.table.setCurrentIndex(window.model.index(1, bob))
    qtbot.keyClick(window.table, Qt.Key.Key_Return)
    source, folder, key = opened[-1]
    assert source == str(teams["bob"]) and folder == teams["bob"] / ".trackio" / "logbook"
    assert key is not None and key.startswith("claim-1-")


def test_author_response_with_evidence_export_and_undo(
    qtbot: QtBot, teams: dict[str, Path], tmp_path: Path, screenshots: Screenshots
) -> None:
    window = open_paper(qtbot, teams, [])
    window.table.setCurrentIndex(window.model.index(1, FIRST_LOGBOOK + 1))

    def fill(dialog: ResponseDialog) -> None:
        assert dialog.who.text() == "You respond as Ann Author, in the role of an author."
        dialog.answers["partly"].setChecked(True)
        dialog.accept()  # Ann's role is judge (the default): she is asked to confirm she is an author
        assert dialog.isVisible() and "Only an author of the paper responds" in dialog.error.text()
        assert dialog.author_check.isVisible()
        dialog.author_check.setChecked(True)
        dialog.comment.setPlainText("bob ran one epoch; the paper trains for 200.")
        dialog.cell_choice.setCurrentIndex(dialog.cell_choice.count() - 1)  # bob's last cell on the claim
        dialog._add_cell()
        dialog.url.setText("https://example.org/appendix-b")
        dialog._add_url()
        screenshots.take(dialog, "paper-response-dialog", min_colors=10)

    resets: list[bool] = []
    window.model.modelReset.connect(lambda: resets.append(True))
    answer_next_dialog(qtbot, fill)
    qtbot.keyClick(window.table, Qt.Key.Key_R)
    wait_written(qtbot, window)
    assert text_at(window, 1, window.model.responses_column()) == "Ann Author: partly"
    assert resets == []  # a response redraws its row's Authors cell: the matrix is not built again
    assert text_at(window, 1, CLASS) == "contested"  # an author's answer never decides a class
    assert "bob ran one epoch" in window.details.toPlainText()
    saved = [record for record, _where in PaperStore(ORID).load().records]
    assert [(r.kind, r.annotator, r.role) for r in saved] == [("author_response", "Ann Author", "author")]
    activate(qtbot, window)
    markdown = window.export("markdown", tmp_path / "findings.md")
    assert markdown is not None
    text = markdown.read_text()
    assert "**Ann Author (author) partly agrees.**\n\n> bob ran one epoch; the paper trains for 200." in text
    assert (
        f"evidence: {markdown_inline('bob/flat-minima-repro')}, page claim-1-" in text
        and "`https://example.org/appendix-b`" in text
    )
    exported = json.loads(window.export("json", tmp_path / "findings.json").read_text())  # type: ignore[union-attr]
    assert exported["paper"] == ORID and exported["claims"][1]["responses"][0]["response"] == "partly"
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_written(qtbot, window)
    assert text_at(window, 1, window.model.responses_column()) == ""
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_written(qtbot, window)
    assert text_at(window, 1, window.model.responses_column()) == "Ann Author: partly"
    assert resets == []


def test_hand_alignment_moves_a_claim_to_its_own_row(
    qtbot: QtBot, teams: dict[str, Path], screenshots: Screenshots
) -> None:
    window = open_paper(qtbot, teams, [])
    window.table.setCurrentIndex(window.model.index(1, FIRST_LOGBOOK + 1))  # bob's falsified claim

    offered: list[tuple[str, str]] = []

    def fill(dialog: AlignDialog) -> None:
        offered.append((dialog.claim.currentText(), dialog.row.currentData()))  # the selected cell's claim and row
        dialog.row.setCurrentIndex(dialog.row.findData(OWN_ROW))
        screenshots.take(dialog, "paper-align-dialog", min_colors=10)

    answer_next_dialog(qtbot, fill)
    qtbot.keyClick(window.table, Qt.Key.Key_A)
    wait_written(qtbot, window)
    assert offered[0][0].startswith("Claim 1: Sharpness-aware") and offered[0][1] == "aligned:2"
    view = window.gathered.view  # type: ignore[union-attr]
    assert len(view.rows) == 6 and text_at(window, 1, FIRST_LOGBOOK + 1) == "not attempted"
    assert text_at(window, 1, CLASS) == "verified" and "paper class: falsified" in window.heading.text()
    moved = view.cell(view.rows[5].id, window.model.logbook_at(FIRST_LOGBOOK + 1) or "")
    assert moved.placement is not None and moved.placement.method == "by hand"
    aligned, _where = PaperStore(ORID).load().records[-1]
    assert (aligned.kind, aligned.role) == ("claim_alignment", "judge")  # the reviewer's own role
    activate(qtbot, window)
    qtbot.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_written(qtbot, window)
    assert len(window.gathered.view.rows) == 5  # type: ignore[union-attr]


def test_side_by_side_pairs_runs_and_scrolls_together(
    qtbot: QtBot, teams: dict[str, Path], screenshots: Screenshots
) -> None:
    opened: list[tuple[str, Path, str | None]] = []
    window = open_paper(qtbot, teams, opened)
    window.table.setCurrentIndex(window.model.index(0, FIRST_LOGBOOK))  # ada's claim 1 ...
    bob = window.model.index(0, FIRST_LOGBOOK + 1)  # ... and bob's, Ctrl+clicked: those two, not cy's
    qtbot.mouseClick(
        window.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
        window.table.visualRect(bob).center(),
    )  # fmt: skip
    window.table.setCurrentIndex(window.model.index(0, FIRST_LOGBOOK))
    qtbot.keyClick(window.table, Qt.Key.Key_C)
    compare = window.dialog
    assert isinstance(compare, ComparisonWindow)
    assert [side[0].source for side in compare.sides] == [str(teams["ada"]), str(teams["bob"])]
    assert [side[0].label for side in compare.sides] == ["ada/flat-minima-repro", "bob/flat-minima-repro"]
    compare.resize(1200, 500)
    qtbot.waitUntil(lambda: not compare.busy, timeout=LOAD_TIMEOUT_MS)
    settle()
    kinds = [(p.kind, p.left is not None, p.right is not None) for p in compare.pairs]
    assert kinds.count(("run", True, True)) >= 1
    assert ("note", True, True) in kinds  # the two verdict notes sit level
    last_run = max(i for i, p in enumerate(compare.pairs) if p.kind == "run" and p.right is not None)
    pair = compare.pairs[last_run]
    with qtbot.waitSignal(compare.synced):
        compare.pair_list.setCurrentRow(last_run)
    left_card, right_card = compare.card_for(0, pair.left), compare.card_for(1, pair.right)
    assert left_card is not None and right_card is not None
    assert compare.scroll_bar(0).value() == min(left_card.y(), compare.scroll_bar(0).maximum())
    assert compare.scroll_bar(1).value() == min(right_card.y(), compare.scroll_bar(1).maximum())
    with qtbot.waitSignal(compare.synced):  # scrolling the left pane moves the right one with it
        compare.scroll_bar(0).setValue(0)
    assert compare.scroll_bar(1).value() == 0
    screenshots.take(compare, "paper-compare-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(compare, "paper-compare-dark")
    theme.manager().apply(theme.ThemeChoice.LIGHT)
    qtbot.keyClick(compare, Qt.Key.Key_L)
    assert not compare.linked.isChecked()
    assert [b.text() for b in compare.open_buttons] == ["Open in the Review Window"] * 2
    qtbot.mouseClick(compare.open_buttons[1], Qt.MouseButton.LeftButton)
    assert opened[-1][0] == str(teams["bob"]) and (opened[-1][2] or "").startswith("claim-2-")


def test_file_open_paper_and_evidence_in_the_review_window(qtbot: QtBot, teams: dict[str, Path]) -> None:
    controller = LogbookController()
    main = MainWindow(controller, remember_state=False)
    qtbot.addWidget(main)
    main.show()
    assert main.actions_by_name["open_paper"].shortcut().toString() == "Ctrl+Shift+P"
    window = main.paper.open_paper(PaperRequest([str(p) for p in teams.values()]))
    qtbot.addWidget(window)
    qtbot.waitSignal(window.loaded, timeout=LOAD_TIMEOUT_MS, raising=False).wait()
    qtbot.waitUntil(lambda: window.gathered is not None, timeout=LOAD_TIMEOUT_MS)
    window.table.setCurrentIndex(window.model.index(1, FIRST_LOGBOOK + 1))
    with qtbot.waitSignal(controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.open_evidence()
    qtbot.waitUntil(lambda: main.current_claim is not None, timeout=LOAD_TIMEOUT_MS)
    assert main.current_claim is not None and main.current_claim.n == 1
    assert main.controller.logbook is not None and main.controller.logbook.root.parent.parent == teams["bob"]
    window.close()


def test_open_paper_dialog_checks_what_it_is_given(qtbot: QtBot, tmp_path: Path, screenshots: Screenshots) -> None:
    dialog = OpenPaperDialog()
    qtbot.addWidget(dialog)
    dialog.accept()
    assert dialog.error.text() == "Give the paper id, or add the logbooks on the paper."
    dialog.orid.setText("two words")
    dialog.accept()
    assert "no spaces" in dialog.error.text() and dialog.result() != QDialog.DialogCode.Accepted
    dialog.orid.setText(ORID)
    qtbot.keyClicks(dialog.source_text, str(tmp_path / "ada"))
    qtbot.keyClick(dialog.source_text, Qt.Key.Key_Return)
    dialog.registry.setText(str(tmp_path / "missing.json"))
    dialog.accept()
    assert "No claim registry file" in dialog.error.text()
    dialog.registry.clear()
    dialog.show()
    screenshots.take(dialog, "paper-open-dialog", min_colors=10)
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert dialog.request() == PaperRequest([str(tmp_path / "ada")], ORID, None)


def test_a_paper_whose_logbooks_cannot_be_opened_says_why(qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    window = PaperWindow(PaperRequest([str(tmp_path / "empty")]))
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.failed, timeout=LOAD_TIMEOUT_MS) as failed:
        window.show()
    assert "none of the logbooks could be opened" in failed.args[0] and str(tmp_path / "empty") in failed.args[0]
    assert window.heading.text().startswith("The paper cannot be shown")
    assert not window.actions_by_name["respond"].isEnabled() and window.actions_by_name["reload"].isEnabled()


def test_logbooks_of_two_papers_are_said_in_the_heading(qtbot: QtBot, tmp_path: Path) -> None:
    import json

    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified")])
    bob = write_team_logbook(tmp_path / "bob", "bob", [(0, "verified")])
    meta = bob / ".trackio" / "metadata.json"
    data = json.loads(meta.read_text())
    data["paper"] = {"openreview_id": "Other999", "title": "Another paper"}
    meta.write_text(json.dumps(data))
    window = open_paper(qtbot, {"ada": ada, "bob": bob}, [])
    assert "⚠ These logbooks name 2 papers (FlatMin123, Other999)." in window.heading.text()


def test_a_verdict_saved_in_the_review_window_redraws_its_one_cell_and_rebuilds_nothing(
    qtbot: QtBot, teams: dict[str, Path]
) -> None:
    controller = LogbookController()
    main = MainWindow(controller, remember_state=False)
    qtbot.addWidget(main)
    main.show()
    window = main.paper.open_paper(PaperRequest([str(p) for p in teams.values()]))
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.gathered is not None, timeout=LOAD_TIMEOUT_MS)
    window.table.setCurrentIndex(window.model.index(2, FIRST_LOGBOOK))  # ada's claim 3, toy by the agent
    with qtbot.waitSignal(controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.open_evidence()
    qtbot.waitUntil(lambda: main.current_claim is not None, timeout=LOAD_TIMEOUT_MS)
    wait_idle(qtbot, main)
    columns = window.model.columnCount()
    before = {(r, c): text_at(window, r, c) for r in range(window.model.rowCount()) for c in range(columns)}
    resets: list[bool] = []
    redrawn: list[tuple[int, int]] = []
    window.model.modelReset.connect(lambda: resets.append(True))
    window.model.dataChanged.connect(lambda first, _last, _roles=(): redrawn.append((first.row(), first.column())))

    with qtbot.waitSignal(window.updated, timeout=LOAD_TIMEOUT_MS):  # read again off the GUI thread
        assert save(qtbot, fill_verdict(qtbot, main, Verdict.VERIFIED, "Re-ran the sweep at full scale."))

    assert resets == []  # the matrix was not built again
    assert set(redrawn) == {(2, FIRST_LOGBOOK), (2, CLASS)}  # that cell and its row's class, nothing else
    assert text_at(window, 2, FIRST_LOGBOOK) == "A toy · J — · H verified\n→ verified (H)"
    after = {(r, c): text_at(window, r, c) for r in range(window.model.rowCount()) for c in range(columns)}
    assert {cell for cell in after if after[cell] != before[cell]} <= {(2, FIRST_LOGBOOK), (2, CLASS)}

    with qtbot.waitSignal(window.updated, timeout=LOAD_TIMEOUT_MS):
        main.actions_by_name["undo"].trigger()  # an undo in the review window takes the cell back, the same way
        written(qtbot, main)
    assert resets == [] and text_at(window, 2, FIRST_LOGBOOK) == before[(2, FIRST_LOGBOOK)]

    key = main.current_claim.key  # type: ignore[union-attr]
    with qtbot.waitSignal(window.updated, timeout=LOAD_TIMEOUT_MS):
        act(qtbot, controller, lambda r: r.split_claim(key, [{"title": "a"}, {"title": "b"}], "two"))
    assert resets == [True]  # claims came and went: the paper's rows are aligned again, with ada's parts
    ada = window.gathered.view.logbooks[0]  # type: ignore[union-attr]
    assert {c.key for c in ada.claims()} >= {f"{key}.1", f"{key}.2"}
    window.close()


def test_a_broken_logbook_is_a_broken_column_and_enter_opens_its_problems(qtbot: QtBot, tmp_path: Path) -> None:
    from tests.support.look_fixtures import write_broken_logbook

    teams = {
        "ada": write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "verified")]),
        "lost": write_broken_logbook(tmp_path / "lost-pages"),
    }
    opened: list[tuple[str, Path, str | None]] = []
    window = open_paper(qtbot, teams, opened)
    model, column = window.model, FIRST_LOGBOOK + 1
    assert model.rowCount() == 2
    for row in range(model.rowCount()):
        index = model.index(row, column)
        assert model.data(index) == "⚠ broken\nno claims could be read"
        tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
        assert "is broken: no claims could be read: pages/" in tip, tip
    assert "Broken: no claims could be read: pages/" in model.headerData(
        column, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole
    )
    window.table.setCurrentIndex(model.index(0, column))
    window.open_evidence()
    [(source, _, claim)] = opened  # the logbook opened at no claim: the review window lists every problem
    assert (source, claim) == (str(teams["lost"]), None)
