"""The real review window over the demo and generated logbooks: claims, filters, search, evidence, navigation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QColor, QDesktopServices, QTextCursor
from PySide6.QtWidgets import QApplication, QMessageBox, QTableView
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.logbook_judge.importer import import_verdicts
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.actions import ACTIONS
from reviewapp.qt.models.claim_table import ClaimRole
from reviewapp.qt.widgets.cell_cards import ArtifactCard, CodeCard, MarkdownCard
from reviewapp.qt.widgets.code_block import FOLDED_LINES
from reviewapp.qt.widgets.figure_card import FigureCard
from reviewapp.qt.widgets.image_viewer import ZoomDialog
from reviewapp.qt.widgets.info_dialogs import ShortcutsDialog
from tests.qt.conftest import OpenWindow, wait_idle
from tests.qt.review_helpers import act


class UrlRecorder(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    @Slot(QUrl)
    def handle(self, url: QUrl) -> None:
        self.urls.append(url.toString())


@pytest.fixture
def opened_urls() -> list[str]:
    """What the window hands to the system, caught with Qt's own URL handler mechanism (no browser starts)."""
    recorder = UrlRecorder()
    for scheme in ("http", "https", "file"):
        QDesktopServices.setUrlHandler(scheme, recorder, "handle")
    yield recorder.urls
    for scheme in ("http", "https", "file"):
        QDesktopServices.unsetUrlHandler(scheme)


def import_logbook_judge(window, folder: Path, claims: list[tuple[str, str]]) -> None:
    """A Logbook Judge verdicts file about the open demo logbook, imported as `verdicts import` would."""
    entry = {
        "space_id": "demo-user/repro-sparse-widgets",
        "orid": "DemoWidg01",
        "claims": [{"claim": text, "verdict": verdict, "evidence": "checked"} for text, verdict in claims],
    }
    path = folder / "verdicts.json"
    path.write_text(json.dumps({entry["space_id"]: entry}), "utf-8")
    assert import_verdicts(path, [window.context.logbook]).all_stored
    window.controller.reload_logbook_judge()


def numbers(window) -> list[int]:
    return [int(key.split("#")[1]) for key in window.claim_panel.visible_keys()]


def test_opens_with_the_first_claim_shown(open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    assert numbers(window) == [1, 2, 3, 4]
    assert window.claim_panel.current_key() == window.context.logbook.claims[0].key
    assert window.evidence.header.title.text() == "Widgets reach 90% sparsity without accuracy loss"
    kinds = [type(card).__name__ for card in window.evidence.cards]
    assert kinds == ["MarkdownCard", "CodeCard", "FigureCard", "ArtifactCard", "MarkdownCard"]
    assert window.windowTitle().startswith("Reproduction: Sparse Widgets")
    assert window.claim_panel.footer.text() == "4 claims · 1 disputed"


def test_no_argument_start_opens_the_demo_from_the_data_folder(open_window: OpenWindow) -> None:
    window = open_window(None)
    assert len(window.context.logbook.claims) == 4
    assert "demo" in str(window.context.logbook.root)


def test_rows_carry_three_verdict_slots_and_the_dispute_marker(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    model, controller = window.claim_model, window.controller
    slots = [model.index(r).data(ClaimRole.SLOTS) for r in range(4)]
    assert [s.agent for s in slots] == [Verdict.VERIFIED, Verdict.FALSIFIED, Verdict.TOY, Verdict.INCONCLUSIVE]
    assert [s.logbook_judge for s in slots] == [None] * 4 and [s.human for s in slots] == [None] * 4
    assert [model.index(r).data(ClaimRole.DISAGREEMENT) for r in range(4)] == [False, False, True, False]
    claims = window.context.logbook.claims
    act(qtbot, controller, lambda review: review.set_verdict(claims[0].key, Verdict.FALSIFIED, "wrong units"))
    import_logbook_judge(
        window,
        demo_copy.parent,
        [
            ("Pruning widgets to 90% sparsity keeps top-1 accuracy within 0.5 points (Table 1)", "verified"),
            ("Sparse widgets train 2x faster than dense widgets (Section 4.2)", "toy"),
        ],
    )
    assert [model.index(r).data(ClaimRole.SLOTS).logbook_judge for r in range(2)] == [Verdict.VERIFIED, Verdict.TOY]
    row0 = model.index(0).data(ClaimRole.SLOTS)
    assert (row0.logbook_judge, row0.human) == (Verdict.VERIFIED, Verdict.FALSIFIED)
    assert [model.index(r).data(ClaimRole.DISAGREEMENT) for r in range(4)] == [True, True, True, False]
    assert "Reviewer says falsified" in model.index(0).data(Qt.ItemDataRole.ToolTipRole)
    assert window.evidence.header.badges["human"].verdict is Verdict.FALSIFIED  # claim 1 is on screen
    assert window.evidence.header.disagreement.isVisibleTo(window)
    assert window.claim_panel.footer.text() == "4 claims · 3 disputed"


def test_verdict_filter_disagreement_toggle_and_search(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path, tmp_path: Path
) -> None:
    window = open_window(demo_logbook)
    panel = window.claim_panel
    panel.verdict_filter.setCurrentIndex(panel.verdict_filter.findData(Verdict.FALSIFIED))
    assert numbers(window) == [2]
    assert window.claim_panel.current_key().endswith("#2")  # the shown claim follows the filter
    panel.verdict_filter.setCurrentIndex(0)
    panel.disagreement_toggle.setChecked(True)
    assert numbers(window) == [3]
    panel.disagreement_toggle.setChecked(False)
    import_logbook_judge(window, tmp_path, [("Quantized widgets still produce usable images (Figure 5)", "toy")])
    panel.verdict_filter.setCurrentIndex(panel.verdict_filter.findData(Verdict.TOY))
    assert numbers(window) == [3, 4]  # the judge's verdict counts too
    panel.verdict_filter.setCurrentIndex(0)

    qtbot.keyClicks(panel.search, "triton")  # only in claim 2's failing run output
    qtbot.waitUntil(lambda: numbers(window) == [2])
    assert panel.footer.text() == "1 of 4 claims shown · 2 disputed"  # claim 4: agent and judge differ
    panel.search.clear()
    qtbot.keyClicks(panel.search, "no such thing anywhere")
    qtbot.waitUntil(lambda: numbers(window) == [])
    assert panel.empty.isVisibleTo(window)
    window.actions_by_name["clear_filters"].trigger()
    assert numbers(window) == [1, 2, 3, 4] and panel.search.text() == ""


def test_run_cells_show_command_status_duration_and_output(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    assert window.select_claim(2)
    wait_idle(qtbot, window)
    runs = [c for c in window.evidence.cards if isinstance(c, CodeCard)]
    assert [c.command.text() for c in runs if c.command] == [
        "$ python bench.py --steps 500",
        "$ python bench.py --steps 500 --kernel triton",
    ]
    assert [c.details.exit_code for c in runs] == [0, 1]
    assert "21 min 52 s" in runs[0].meta.text() and "3.4 s" in runs[1].meta.text()
    assert runs[1].output is not None and "RuntimeError: triton kernel" in runs[1].output.visible_text
    assert runs[1].output.editor.font().fixedPitch() or "Mono" in runs[1].output.editor.font().family()


def test_long_output_is_folded_until_expanded(qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    draft = LogbookDraft("Long outputs")
    draft.page("Claim 1: Long run").run(["python", "long.py"], "\n".join(f"line {i}" for i in range(300)))
    window = open_window(draft.write(tmp_path))
    [run] = [c for c in window.evidence.cards if isinstance(c, CodeCard)]
    block = run.output
    assert block is not None and block.foldable
    assert block.visible_text.splitlines() == [f"line {i}" for i in range(FOLDED_LINES)]
    assert block.toggle.text() == f"▸ Show all 300 lines ({300 - FOLDED_LINES} more)"
    qtbot.mouseClick(block.toggle, Qt.MouseButton.LeftButton)
    assert len(block.visible_text.splitlines()) == 300
    qtbot.mouseClick(block.toggle, Qt.MouseButton.LeftButton)
    assert len(block.visible_text.splitlines()) == FOLDED_LINES


def test_verdict_sentence_is_highlighted(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    assert window.select_claim(2)
    wait_idle(qtbot, window)
    card = window.evidence.verdict_card
    assert isinstance(card, MarkdownCard) and card.property("verdict") is True
    assert card is window.evidence.cards[-1]
    cursor = card.view.document().find("Verdict: FALSIFIED")
    assert not cursor.isNull()
    cursor.setPosition(cursor.selectionStart() + 2, QTextCursor.MoveMode.MoveAnchor)
    assert cursor.charFormat().background().color() == QColor(theme.colors().highlight)
    other = window.evidence.cards[0]
    assert isinstance(other, MarkdownCard)
    assert other.view.document().find("Exact claim").charFormat().background().style() == Qt.BrushStyle.NoBrush


def test_figure_fits_its_card_zooms_on_click_and_shows_raw_data(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    [figure_card] = [c for c in window.evidence.cards if isinstance(c, FigureCard)]
    [figure] = figure_card.figures
    assert figure.image is not None and (figure.image.width(), figure.image.height()) == (480, 260)
    assert figure.pixmap().width() <= figure_card.width()
    qtbot.mouseClick(figure, Qt.MouseButton.LeftButton)
    assert isinstance(window.dialog, ZoomDialog) and window.dialog.image.size() == figure.image.size()
    zoom = window.dialog
    zoom.zoom_actual()
    assert zoom.label.pixmap().width() == 480
    zoom.zoom_in()
    assert zoom.label.pixmap().width() == 600
    zoom.close()
    raw = figure_card.raw
    assert raw is not None and raw.is_open and raw.table is not None
    assert raw.table.columns == ["step", "loss"] and len(raw.table.rows) == 21
    assert isinstance(raw.view, QTableView) and raw.view.model().rowCount() == 21
    assert raw.toggle.text() == "▾ Raw data — CSV, 21 rows × 2 columns"


def test_a_figures_data_table_is_built_in_a_turn_after_its_card_is_placed(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    key = window.current_key
    assert key is not None
    placed: list[bool] = []  # whether the figure's table was open when its card went into the column

    def added(card: object) -> None:
        if isinstance(card, FigureCard) and card.raw is not None:
            placed.append(card.raw.is_open)

    window.evidence.card_added.connect(added)
    with qtbot.waitSignal(window.evidence.rendered, timeout=10_000):
        window.show_claim(key)  # shown again: the cards are built anew
    [figure_card] = [c for c in window.evidence.cards if isinstance(c, FigureCard)]
    assert placed == [False]  # folded while its card was built: the table costs a turn of its own
    assert figure_card.raw is not None and figure_card.raw.is_open and figure_card.later  # opened afterwards


def test_artifact_cell_copies_its_link_and_opens_its_folder(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path, opened_urls: list[str]
) -> None:
    window = open_window(demo_logbook)
    [card] = [c for c in window.evidence.cards if isinstance(c, ArtifactCard)]
    assert card.entry.name == "out/metrics.csv" and card.entry.size == 2048
    buttons = {b.text(): b for b in card.findChildren(type(window.problems_button)) if b.objectName() == "small"}
    qtbot.mouseClick(buttons["Copy link"], Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == "trackio-local-path://out/metrics.csv"
    assert opened_urls == []
    qtbot.mouseClick(buttons["Open containing folder"], Qt.MouseButton.LeftButton)
    assert opened_urls == [QUrl.fromLocalFile(str((demo_logbook / "out").resolve())).toString()]


def test_artifacts_panel_lists_files_and_previews_images(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    window.actions_by_name["show_artifacts"].trigger()
    panel = window.artifacts
    assert window.side_tabs.currentWidget() is panel
    names = [panel.model.entry_at(r).name for r in range(panel.model.rowCount())]
    assert names[0] == "out/metrics.csv" and "samples/quantized/prompt-08.png" in names
    assert panel.model.index(0, 2).data() == "2.0 KB"
    panel.select_row(names.index("samples/baseline/prompt-01.png"))
    qtbot.waitUntil(lambda: panel.preview.image is not None)
    assert panel.preview.image.width() == 384 and panel.preview.isVisibleTo(window)
    panel.select_row(0)
    assert not panel.preview.isVisibleTo(window) and panel.goto_page.isEnabled()
    qtbot.mouseClick(panel.goto_page, Qt.MouseButton.LeftButton)
    assert window.claim_panel.current_key().endswith("#1")


def test_every_page_is_reachable_in_the_page_tree(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    tree = window.page_model
    titles = [tree.index(r, 0).data() for r in range(tree.rowCount())]
    assert titles[0] == "Overview" and "Executive summary" in titles and titles[-1] == "Conclusion"
    window.page_tree.setCurrentIndex(tree.index(titles.index("Conclusion"), 0))
    wait_idle(qtbot, window)
    assert window.evidence.header.kicker.text() == "PAGE"
    assert window.evidence.header.title.text() == "Conclusion"
    assert window.claim_panel.current_key() is None
    [card] = window.evidence.cards
    assert isinstance(card, MarkdownCard) and "INCONCLUSIVE" in card.view.toPlainText()
    window.evidence.header.page_link.click()  # no page link on a page view: the header hides it
    assert not window.evidence.header.page_link.isVisibleTo(window)


def test_opening_again_shows_the_first_claim_and_no_page_of_the_old_tree(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path
) -> None:
    window = open_window(demo_logbook)
    tree = window.page_model
    window.page_tree.setCurrentIndex(tree.index(0, 0))  # the old tree's first page is current
    wait_idle(qtbot, window)
    subjects: list[str] = []
    window.subject_shown.connect(lambda: subjects.append(window.evidence.header.kicker.text()))
    with qtbot.waitSignal(window.controller.loaded, timeout=30_000):
        window.controller.open(demo_logbook)
    wait_idle(qtbot, window)
    assert subjects == ["CLAIM 1"]  # the first claim alone: clearing the old tree showed none of its pages
    assert window.claim_panel.current_key() == window.context.logbook.claims[0].key


def test_markdown_page_links_navigate_inside_the_app(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    window.show_page("index")
    wait_idle(qtbot, window)
    [card] = window.evidence.cards
    slug = window.context.logbook.claims[1].page
    click_anchor(qtbot, card.view, f"#/{slug}")
    assert window.claim_panel.current_key() == window.context.logbook.claims[1].key


def test_keyboard_navigation_and_shortcuts_help(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    window.claim_panel.view.setFocus()
    qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_J)
    assert window.claim_panel.current_key().endswith("#2")
    qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert window.claim_panel.current_key().endswith("#3")
    qtbot.keyClick(window.claim_panel.view, Qt.Key.Key_K)
    assert window.claim_panel.current_key().endswith("#2")
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is window.claim_panel.search
    qtbot.keyClicks(window.claim_panel.search, "jk")  # typed letters go to the search field, not to navigation
    assert window.claim_panel.search.text() == "jk"
    window.claim_panel.search.clear()
    qtbot.keyClick(window, Qt.Key.Key_F1)
    assert isinstance(window.dialog, ShortcutsDialog)
    shown = {window.dialog.table.item(r, 1).text() for r in range(window.dialog.table.rowCount())}
    assert "Next Claim" in shown and "Search Claims and Evidence" in shown
    assert window.dialog.table.rowCount() == sum(1 for spec in ACTIONS if spec.shortcuts)


def test_panes_toggle_and_layout_is_remembered(qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    window.actions_by_name["toggle_side_pane"].trigger()
    assert window.side_tabs.isHidden()
    window.main_split.setSizes([300, 1200])
    sizes = window.main_split.sizes()
    window.actions_by_name["show_timeline"].trigger()  # asking for a tab brings the pane back
    assert not window.side_tabs.isHidden() and window.side_tabs.currentWidget() is window.timeline
    window.actions_by_name["toggle_side_pane"].trigger()
    window.close()
    again = open_window(demo_logbook)
    assert again.side_tabs.isHidden() and not again.actions_by_name["toggle_side_pane"].isChecked()
    assert again.main_split.sizes()[0] == sizes[0]


def test_cancel_and_failure_are_reported_without_freezing(
    qtbot: QtBot, open_window: OpenWindow, demo_logbook: Path, tmp_path: Path
) -> None:
    window = open_window(demo_logbook)
    controller = window.controller
    big = LogbookDraft("Many pages")
    for n in range(1, 301):
        big.page(f"Claim {n}: c").markdown("text " * 50)
    source = big.write(tmp_path / "big")
    with qtbot.waitSignal(controller.load_cancelled, timeout=30_000):
        controller.open(source)
        assert window.center.currentWidget() is window.load_panel
        window.load_panel.cancel.click()
    assert window.center.currentWidget() is window.evidence
    assert window.context.logbook.title.startswith("Reproduction: Sparse")  # the open logbook stays
    (tmp_path / "not-a-logbook").mkdir()
    with qtbot.waitSignal(window.error_shown, timeout=30_000) as blocker:
        controller.open(tmp_path / "not-a-logbook")
    assert "not a logbook" in blocker.args[0]
    assert isinstance(window.dialog, QMessageBox) and window.dialog.isVisible()
    window.dialog.close()
    assert window.context.logbook.title.startswith("Reproduction: Sparse")


def test_recent_logbooks_menu(open_window: OpenWindow, demo_logbook: Path) -> None:
    window = open_window(demo_logbook)
    window.recent_menu.aboutToShow.emit()
    texts = [a.text() for a in window.recent_menu.actions()]
    assert texts == [str(demo_logbook.resolve())]


def test_web_links_open_only_when_clicked(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, opened_urls: list[str]
) -> None:
    draft = LogbookDraft("Links")
    draft.page("Claim 1: Linked").markdown("See [the paper](https://huggingface.co/papers/2607.01234).")
    window = open_window(draft.write(tmp_path))
    assert opened_urls == []
    [card] = window.evidence.cards
    click_anchor(qtbot, card.view, "https://huggingface.co/papers/2607.01234")
    assert opened_urls == ["https://huggingface.co/papers/2607.01234"]


def click_anchor(qtbot: QtBot, browser, href: str) -> None:
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = browser.textCursor()
                cursor.setPosition(fragment.position() + 1)
                point = browser.cursorRect(cursor).center()
                qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(point.x(), point.y()))
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link to {href}")
