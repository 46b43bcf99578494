"""A small real window that implements `WindowHost`, so that a feature's test builds that feature and nothing else.

It has the window's real actions (qt/actions.py), side tabs, a status bar and a claim header that keeps what features
put in it; selecting a claim shows it (current_claim, subject_shown) without a claim list or evidence view.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QTabWidget, QVBoxLayout, QWidget

from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.slots import VerdictSlots
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.actions import build_actions
from reviewapp.qt.controller import LogbookController


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
        self.current_claim: Claim | None = None
        self.shown_page: str | None = None
        self.errors: list[tuple[str, str]] = []
        self.dialog: QWidget | None = None
        self.actions_by_name: Mapping[str, QAction] = build_actions(self)
        self.header = HostHeader()
        self.side_tabs = QTabWidget()
        self.side_tabs.currentChanged.connect(lambda _index: self.side_tab_changed.emit())
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.header)
        layout.addWidget(self.side_tabs, 1)
        self.setCentralWidget(body)
        self.statusBar().addWidget(QLabel())
        self.actions_by_name["toggle_side_pane"].setChecked(True)
        self.actions_by_name["toggle_side_pane"].toggled.connect(self.side_tabs.setVisible)

    @property
    def claim_header(self) -> HostHeader:
        return self.header

    def widget(self) -> QMainWindow:
        return self

    def select_claim(self, ref: str | int) -> bool:
        claim = self.controller.claim(ref)
        if claim is None:
            return False
        self.current_claim, self.shown_page = claim, None
        self.subject_shown.emit()
        return True

    def show_page(self, slug: str) -> None:
        self.current_claim, self.shown_page = None, slug
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
