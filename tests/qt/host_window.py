"""A small real window that implements `WindowHost`, so that a feature's test builds that feature and nothing else.

It has the window's real actions (qt/actions.py), side tabs, a status bar and a claim header that keeps what features
put in it; selecting a claim shows it (current_key, subject_shown) without rendering its evidence. For the review
feature (`ReviewHost`) it also has a real claim list and page list, and the views the review tools fill menus of
(`review_views`), and it keeps what the feature asked of it (the trace event shown).
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QListView, QMainWindow, QTabWidget, QTreeView, QVBoxLayout, QWidget

from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.actions import ACTIONS, build_actions
from reviewapp.qt.controller import LogbookController
from reviewapp.qt.models.claim_table import ClaimTableModel
from reviewapp.qt.models.page_tree_model import PageTreeModel
from reviewapp.qt.review.room import ReviewViews
from reviewapp.qt.widgets.claim_list import ClaimListPanel
from reviewapp.qt.widgets.evidence_view import EvidenceView


class HostHeader(QWidget):
    """The claim header's slots, keeping what was put in them."""

    def __init__(self) -> None:
        super().__init__()
        self.setLayout(QVBoxLayout())
        self.widgets: dict[str, QWidget] = {}
        self.other_verdicts: list[tuple[str, Verdict, str]] = []
        self.corrections: list[str] = []
        self.slots: VerdictSlots | None = None

    def _put(self, name: str, widget: QWidget) -> None:
        self.widgets[name] = widget
        self.layout().addWidget(widget)

    def set_reviewer_widget(self, widget: QWidget) -> None:
        self._put("reviewer", widget)

    def set_logbook_judge_widget(self, widget: QWidget) -> None:
        self._put("logbook_judge", widget)

    def set_other_verdicts(self, verdicts: list[tuple[str, Verdict, str]]) -> None:
        self.other_verdicts = verdicts

    def set_corrections(self, lines: list[str]) -> None:
        self.corrections = lines

    def set_slots(self, slots: VerdictSlots) -> None:
        self.slots = slots


class HostWindow(QMainWindow):
    subject_shown = Signal()
    side_tab_changed = Signal()
    error_shown = Signal(str)

    def __init__(self, controller: LogbookController) -> None:
        super().__init__()
        self.controller = controller
        self.current_key: str | None = None  # the claim shown: its row is the workspace's
        self.shown_page: str | None = None
        self.errors: list[tuple[str, str]] = []
        self.dialog: QWidget | None = None
        self.trace_event: tuple[str, int] | None = None  # the last one show_trace_event was asked for
        self.unreviewed_asked = 0
        self.actions_by_name: Mapping[str, QAction] = build_actions(self)
        self.header = HostHeader()
        self.side_tabs = QTabWidget()
        self.side_tabs.currentChanged.connect(lambda _index: self.side_tab_changed.emit())
        self.claim_model = ClaimTableModel(self)
        self.claim_panel = ClaimListPanel(self.claim_model)
        self.page_model = PageTreeModel(self)
        self.page_tree = QTreeView()
        self.page_tree.setModel(self.page_model)
        self.evidence = EvidenceView()  # the review tools hook the cards it adds; nothing here adds any
        self.review_views = ReviewViews(
            claim_list=self.claim_panel.view, pages=self.page_tree, page_model=self.page_model,
            evidence=self.evidence, excerpts=QListView(), timeline=QListView(),
        )  # fmt: skip
        controller.loaded.connect(lambda _logbook: self.relist_claims())
        for spec in ACTIONS:  # as in the review window: the verdict keys act in the claim list, the rest anywhere
            target = self.claim_panel.view if spec.review_keys else self
            target.addAction(self.actions_by_name[spec.name])
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.header)
        layout.addWidget(self.claim_panel)
        layout.addWidget(self.side_tabs, 1)
        self.setCentralWidget(body)
        self.statusBar().addWidget(QLabel())
        self.actions_by_name["toggle_side_pane"].setChecked(True)
        self.actions_by_name["toggle_side_pane"].toggled.connect(self.side_tabs.setVisible)

    @property
    def current_claim(self) -> Claim | None:
        row = self.controller.row(self.current_key) if self.current_key is not None else None
        return row.claim if row is not None and row.key == self.current_key else None

    @property
    def claim_header(self) -> HostHeader:
        return self.header

    def widget(self) -> QMainWindow:
        return self

    def select_claim(self, ref: str | int) -> bool:
        claim = self.controller.claim(ref)
        if claim is None:
            return False
        self.current_key, self.shown_page = claim.key, None
        self.subject_shown.emit()
        return True

    @property
    def logbook_shown(self) -> bool:
        return self.controller.logbook is not None

    @property
    def page_shown(self) -> str | None:
        return self.current_claim.page if self.current_claim is not None else self.shown_page

    @property
    def trace_shown(self) -> str | None:
        """The trace of the event the host was last asked to show: this window has no timeline of its own."""
        return self.trace_event[0] if self.trace_event is not None else None

    def reveal_claim(self, key: str) -> bool:
        return self.select_claim(key)

    def relist_claims(self) -> None:
        self.claim_model.set_rows(self.controller.rows())

    def focus_claim_list(self) -> None:
        self.claim_panel.focus_list()

    def next_unreviewed(self) -> None:
        self.unreviewed_asked += 1

    def update_problems(self) -> None:
        pass  # no problems line in this window

    def show_trace_event(self, trace_id: str, sequence: int) -> None:
        self.trace_event = (trace_id, sequence)

    def show_page(self, slug: str) -> None:
        self.current_key, self.shown_page = None, slug
        self.subject_shown.emit()

    def say(self, text: str, timeout_ms: int = 0) -> None:
        self.statusBar().showMessage(text, timeout_ms)

    def show_error(self, title: str, message: str) -> None:
        self.errors.append((title, message))
        self.error_shown.emit(message)

    def open_dialog(self, dialog: QWidget) -> None:
        self.dialog = dialog
        dialog.show()

    def add_side_tab(self, widget: QWidget, title: str) -> None:
        self.side_tabs.addTab(widget, title)

    def set_side_tab_title(self, widget: QWidget, title: str) -> None:
        self.side_tabs.setTabText(self.side_tabs.indexOf(widget), title)

    def current_side_tab(self) -> QWidget | None:
        return self.side_tabs.currentWidget()

    def side_pane_shown(self) -> bool:
        return not self.side_tabs.isHidden()

    def set_side_pane_visible(self, visible: bool) -> None:
        self.side_tabs.setVisible(visible)

    def show_tab(self, widget: QWidget) -> None:
        self.actions_by_name["toggle_side_pane"].setChecked(True)
        self.side_tabs.setCurrentWidget(widget)

    def add_status_widget(self, widget: QWidget) -> None:
        self.statusBar().addPermanentWidget(widget)

    def bring_to_front(self) -> None:
        self.show()
        self.activateWindow()
