"""The review window: claims and pages on the left, the evidence in the middle, trace and artifacts on the right.

Layout and wiring only; state lives in LogbookController, rendering in the widgets.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QImage
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.logbook.link_targets import LinkKind, LinkTarget
from reviewapp.core.logbook.model import Claim, Logbook, Page
from reviewapp.core.queue.blind import folder_pseudonym
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.trace.excerpts import Excerpt
from reviewapp.qt import theme, window_state
from reviewapp.qt.actions import ACTIONS as ACTION_SPECS
from reviewapp.qt.actions import MENUS, build_actions
from reviewapp.qt.controller import INDEX_FALLBACK_MS, LogbookController
from reviewapp.qt.links import display_path, open_with_system, system_url
from reviewapp.qt.logbook_judge.feature import LogbookJudgeFeature
from reviewapp.qt.models.claim_table import ClaimTableModel
from reviewapp.qt.models.page_tree_model import PageTreeModel
from reviewapp.qt.models.trace_events import TraceEventModel
from reviewapp.qt.paper.feature import PaperFeature
from reviewapp.qt.plain import ElidedLabel, PlainLabel
from reviewapp.qt.queue.feature import QueueFeature
from reviewapp.qt.resources import app_icon
from reviewapp.qt.review.feature import ReviewFeature
from reviewapp.qt.review.room import ReviewViews
from reviewapp.qt.trace.feature import TraceFeature
from reviewapp.qt.trace.trace_view import ExcerptPanel, TimelinePanel
from reviewapp.qt.widgets.artifact_panel import ArtifactPanel
from reviewapp.qt.widgets.card import CardContext
from reviewapp.qt.widgets.claim_list import ClaimListPanel
from reviewapp.qt.widgets.evidence_header import EvidenceHeader
from reviewapp.qt.widgets.evidence_view import EvidenceView
from reviewapp.qt.widgets.image_viewer import ZoomDialog
from reviewapp.qt.widgets.info_dialogs import ProblemsDialog, ShortcutsDialog, about_box
from reviewapp.qt.widgets.load_panel import LoadPanel
from reviewapp.qt.widgets.page_pane import PagePane
from reviewapp.qt.widgets.side_tabs import SideTabs
from reviewapp.qt.workers import TaskRunner, alive

READING_REST = "reading the rest of the logbook"
SETTLE_MS = 200  # after the first claim's cards are in place, before the indexes start


class MainWindow(QMainWindow):
    error_shown = Signal(str)  # every error dialog's text, so that tests and logs can see them
    subject_shown = Signal()  # a claim or a page is now on screen (current_claim / the page tree tell which)
    side_tab_changed = Signal()

    def __init__(self, controller: LogbookController, remember_state: bool = True) -> None:
        super().__init__()
        self.controller = controller
        self.remember_state = remember_state
        self.context: CardContext | None = None
        self.current_key: str | None = None  # the claim shown (its row is the workspace's: no copy kept here)
        self.dialog: QWidget | None = None  # the last non-modal dialog opened (zoom, problems, help)
        self._marking_page = False  # the page tree is following the claim shown, not clicked
        self._provisional = False  # the start of a logbook is shown while the rest is read (controller.previewed)
        self._fills: list[Callable[[], None]] = []  # what `_loaded` left for later turns (_fill_later)
        self._fill_generation = 0
        self._fill_timer = QTimer(self)
        self._fill_timer.setSingleShot(True)
        self._fill_timer.setInterval(0)
        self._fill_timer.timeout.connect(self._fill_next)
        # The claim's trace excerpts follow one event-loop turn after its header, so that a key press shows the claim
        # at once; stepping fast through claims finds the excerpts of the last one only.
        self._excerpts_timer = QTimer(self)
        self._excerpts_timer.setSingleShot(True)
        self._excerpts_timer.setInterval(0)
        self._excerpts_timer.timeout.connect(self._show_excerpts)
        self.setWindowTitle("reviewapp")
        self.setWindowIcon(app_icon())
        self.actions_by_name = build_actions(self)
        self._build_layout()
        self._build_menus()
        self._connect()
        # the features ask only what the host offers (qt/host.py); the review tools get the views they fill menus of
        views = ReviewViews(
            claim_list=self.claim_panel.view, pages=self.page_tree, page_model=self.page_model,
            evidence=self.evidence, excerpts=self.excerpts.view, timeline=self.timeline.view,
        )  # fmt: skip
        self.review = ReviewFeature(self, controller, views)  # verdicts, notes, corrections, undo/redo, pairs, commit
        self.logbook_judge = LogbookJudgeFeature(self, controller)  # J badges, evidence, disagreements, re-match
        self.queue = QueueFeature(self, controller)  # File > Open Queue: many logbooks, scores, flags
        self.paper = PaperFeature(self, controller)  # File > Open Paper: every logbook on one paper, responses
        # attached transcripts, pinning, links, the published traces dataset
        self.traces = TraceFeature(self, controller, self.timeline, self.excerpts)
        self.resize(1600, 1000)
        if remember_state:
            window_state.restore_window(self, self.splitters, self.panes)
        self.actions_by_name["toggle_claims_pane"].setChecked(not self.left.isHidden())
        self.actions_by_name["toggle_side_pane"].setChecked(not self.side_tabs.isHidden())

    # --- layout -------------------------------------------------------------------------------------------------

    def _build_layout(self) -> None:
        self.claim_model = ClaimTableModel(self)
        self.claim_panel = ClaimListPanel(self.claim_model)
        self.page_model = PageTreeModel(self)
        pages = PagePane(self.page_model)
        self.page_tree = pages.tree
        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.setObjectName("leftSplitter")
        self.left.addWidget(self.claim_panel)
        self.left.addWidget(pages)
        self.left.setSizes([640, 300])
        self.evidence = EvidenceView()
        self.load_panel = LoadPanel()
        self.center = QStackedWidget()
        self.center.addWidget(self.evidence)
        self.center.addWidget(self.load_panel)
        self.trace_runner = TaskRunner(1, self)
        self.excerpts = ExcerptPanel()
        self.timeline = TimelinePanel(TraceEventModel(self.trace_runner, self))
        self.artifacts = ArtifactPanel(self.controller.images)
        self.side_tabs = SideTabs()
        self.side_tabs.setObjectName("sideTabs")
        # In a narrow window the tab titles shorten instead of hiding tabs behind scroll arrows.
        self.side_tabs.tabBar().setElideMode(Qt.TextElideMode.ElideRight)
        self.side_tabs.tabBar().setUsesScrollButtons(False)
        self.side_tabs.addTab(self.excerpts, "Excerpts")
        self.side_tabs.setTabToolTip(0, "Trace excerpts: the agent trace events tied to the claim (Ctrl+E)")
        self.side_tabs.addTab(self.timeline, "Timeline")
        self.side_tabs.addTab(self.artifacts, "Artifacts")
        self.side_tabs.currentChanged.connect(lambda _index: self.side_tab_changed.emit())
        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("mainSplitter")
        for widget in (self.left, self.center, self.side_tabs):
            self.main_split.addWidget(widget)
        self.main_split.setStretchFactor(1, 1)
        self.main_split.setSizes([370, 800, 430])
        self.main_split.setChildrenCollapsible(False)
        host = QWidget()
        layout = QVBoxLayout(host)
        layout.setContentsMargins(8, 8, 8, 4)
        self.source_banner = PlainLabel()  # "Showing a cached copy of Space … at revision …" for Hub and URL sources
        self.source_banner.setObjectName("notice")
        self.source_banner.setWordWrap(True)
        self.source_banner.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.source_banner.hide()
        layout.addWidget(self.source_banner)
        layout.addWidget(self.main_split, 1)
        self.setCentralWidget(host)
        self.status_label = ElidedLabel()
        self.problems_button = QPushButton()
        self.problems_button.setObjectName("link")
        self.problems_button.hide()
        self.statusBar().addWidget(self.status_label, 1)
        self.progress_label = PlainLabel()  # "3 of 5 reviewed by you"
        self.progress_label.setObjectName("reviewProgress")
        self.statusBar().addPermanentWidget(self.progress_label)
        self.statusBar().addPermanentWidget(self.problems_button)
        self.splitters = [self.main_split, self.left]
        self.panes: list[QWidget] = [self.left, self.side_tabs]

    def _build_menus(self) -> None:
        menus = {name: self.menuBar().addMenu(f"&{name}") for name in MENUS}
        for spec in ACTION_SPECS:
            menus[spec.menu].addAction(self.actions_by_name[spec.name])
            if spec.name == "open_demo":
                self.recent_menu = menus["File"].addMenu("Open &Recent")
                self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.theme_group = QActionGroup(self)
        for name in ("theme_system", "theme_light", "theme_dark"):
            self.theme_group.addAction(self.actions_by_name[name])
        self.actions_by_name[f"theme_{theme.manager().choice.value}"].setChecked(True)
        self.actions_by_name["cancel_loading"].setEnabled(False)
        for spec in ACTION_SPECS:  # verdict keys act where the reviewer reads: the claim list and the evidence
            if spec.review_keys:
                self.claim_panel.view.addAction(self.actions_by_name[spec.name])
                self.evidence.addAction(self.actions_by_name[spec.name])

    def _connect(self) -> None:
        c, a = self.controller, self.actions_by_name
        c.loading_started.connect(self._loading_started)
        c.loading_progress.connect(self.load_panel.progress)
        c.loading_progress.connect(self._reading_progress)
        c.previewed.connect(self._previewed)
        c.loaded.connect(self._loaded)
        c.load_failed.connect(self._load_failed)
        c.load_cancelled.connect(self._load_cancelled)
        c.excerpts_ready.connect(self._show_excerpts)
        c.verdicts_changed.connect(self._verdicts_changed)
        c.rows_changed.connect(self._rows_changed)
        self.load_panel.cancel_requested.connect(c.cancel_loading)
        self.claim_panel.claim_selected.connect(self.show_claim)
        self.claim_panel.search_changed.connect(lambda text: self.claim_panel.apply_filters(c.search(text)))
        self.page_tree.selectionModel().currentChanged.connect(self._page_clicked)
        ev = self.evidence
        ev.link_clicked.connect(self.follow_link)
        ev.url_requested.connect(self.open_url)
        ev.zoom_requested.connect(self.zoom)
        ev.copy_requested.connect(self.copy_text)
        ev.page_requested.connect(self.show_page)
        ev.rendered.connect(self._first_claim_shown)
        self.excerpts.jump_requested.connect(self.jump_to_event)
        self.artifacts.page_requested.connect(self.follow_page_link)
        self.artifacts.url_requested.connect(self.open_url)
        self.artifacts.copy_requested.connect(self.copy_text)
        self.artifacts.zoom_requested.connect(self.zoom)
        self.problems_button.clicked.connect(self.show_problems)
        a["open_logbook"].triggered.connect(self.choose_logbook)
        a["open_demo"].triggered.connect(c.open_demo)
        a["open_source"].triggered.connect(lambda: self.choose_source(find_first=False))
        a["find_logbooks"].triggered.connect(lambda: self.choose_source(find_first=True))
        a["cancel_loading"].triggered.connect(c.cancel_loading)
        a["show_problems"].triggered.connect(self.show_problems)
        a["quit"].triggered.connect(self.close)
        a["next_claim"].triggered.connect(lambda: self.claim_panel.step(1))
        a["previous_claim"].triggered.connect(lambda: self.claim_panel.step(-1))
        a["next_unreviewed"].triggered.connect(self.next_unreviewed)
        a["jump_to_verdict"].triggered.connect(self.evidence.scroll_to_verdict)
        a["focus_search"].triggered.connect(self.focus_search)
        a["clear_filters"].triggered.connect(self.clear_filters)
        a["show_excerpts"].triggered.connect(lambda: self.show_tab(self.excerpts))
        a["show_timeline"].triggered.connect(lambda: self.show_tab(self.timeline))
        a["show_artifacts"].triggered.connect(lambda: self.show_tab(self.artifacts))
        a["toggle_claims_pane"].toggled.connect(self.left.setVisible)
        a["toggle_side_pane"].toggled.connect(self.side_tabs.setVisible)
        a["blind_review"].toggled.connect(self.set_blind)
        for choice in theme.ThemeChoice:
            a[f"theme_{choice.value}"].triggered.connect(lambda _=False, ch=choice: theme.manager().apply(ch))
        theme.manager().changed.connect(self._theme_changed)
        a["shortcuts_help"].triggered.connect(lambda: self.open_dialog(ShortcutsDialog(self)))
        a["about"].triggered.connect(lambda: self.open_dialog(about_box(self)))

    # --- loading ------------------------------------------------------------------------------------------------

    def _loading_started(self, label: str) -> None:
        self.load_panel.start(label)
        self.center.setCurrentWidget(self.load_panel)
        self.actions_by_name["cancel_loading"].setEnabled(True)
        self.status_label.setText(f"Opening {label}…")

    def _loading_done(self) -> None:
        self.center.setCurrentWidget(self.evidence)
        self.actions_by_name["cancel_loading"].setEnabled(False)

    def _previewed(self, logbook: Logbook) -> None:
        """The start of the logbook, shown while the rest is read: the claims of its first claim pages and the
        first of them. Nothing is reviewed yet (the review tools wait for `loaded`); `_loaded` swaps in the whole
        logbook and keeps the claim shown."""
        self._loading_done()
        self.actions_by_name["cancel_loading"].setEnabled(True)
        self._fill_generation += 1  # a fill the last load left for later is not wanted any more
        self._provisional = True
        self.context = CardContext(logbook, self.controller.images, rule=self.controller.rule)
        self.current_key = None
        self.setWindowTitle(f"{logbook.title} — reviewapp")
        rows = self.controller.rows()
        self.claim_model.set_rows(rows)
        self.claim_panel.clear_filters()
        self._fill_page_tree(logbook)
        self.excerpts.show_state("Reading the logbook…")
        self.problems_button.hide()
        self.update_progress()
        self.source_banner.hide()
        self.status_label.setText(f"{display_path(logbook.root)}  ·  {READING_REST}")
        if rows:
            self.claim_panel.select_key(rows[0].key)
            self.claim_panel.view.setFocus()

    def _reading_progress(self, done: int, total: int, _page: str) -> None:
        if self._provisional and self.context is not None:
            where = display_path(self.context.logbook.root)
            self.status_label.setText(f"{where}  ·  {READING_REST} ({done} of {total} pages)")

    def _fill_page_tree(self, logbook: Logbook) -> None:
        # Clearing the old tree moves its current row through every page: each move would show that page.
        self._marking_page = True
        try:
            self.page_model.set_logbook(logbook)
            self.page_tree.expandAll()
        finally:
            self._marking_page = False

    def _loaded(self, logbook: Logbook) -> None:
        provisional, self._provisional = self._provisional, False
        kept_claim = self.current_key if provisional else None  # what the reviewer looked at during the preview
        kept_page = self.page_shown if provisional and kept_claim is None else None
        rule = self.controller.rule  # blind review: the one rule every view applies
        self.context = CardContext(logbook, self.controller.images, rule=rule)
        self.current_key = None
        blinder = self.controller.blinder
        title = logbook.title
        if blinder is not None and blinder.alias not in title:
            title = f"{blinder.alias} — {title}"
        self.setWindowTitle(f"{title} — reviewapp" + (" (blind)" if blinder else ""))
        rows = self.controller.rows()
        self.claim_model.set_rows(rows)
        typed = self.claim_panel.search.text() if provisional else ""
        self.claim_panel.clear_filters()
        if typed:  # searched for during the preview: searched again over every claim
            self.claim_panel.search.setText(typed)
        self.timeline.model.scrub = rule.text if rule.blind else None
        self.timeline.hold()  # the trace is read once the first claim is on screen (_first_claim_shown)
        QTimer.singleShot(INDEX_FALLBACK_MS, self.timeline.release)
        # the trace feature lists the logbook's sessions in the timeline (after this, as `loaded` is heard)
        self._fill_later(logbook, rule, lambda: self._show_first(logbook, kept_claim, kept_page))
        self.excerpts.show_state("Reading the agent trace…" if self.controller.indexing else "")
        self.update_problems()
        self.update_progress()
        banner = self.controller.shown(self.controller.source_banner() or "")
        self.source_banner.setText(banner)
        self.source_banner.setVisible(bool(banner))
        where = self.controller.source_label if banner else display_path(logbook.root)
        if blinder is not None:  # the folder and the Space name the participant
            where = f"{blinder.alias} (blind review)"
        self.status_label.setText(f"{where}  ·  {len(logbook.pages)} pages · {len(rows)} claims")

    def _show_first(self, logbook: Logbook, kept_claim: str | None, kept_page: str | None) -> None:
        """(the turn after `_loaded` lists the claims) The evidence in place of the reading's progress, and the first
        claim in it: the claim shown during the preview, else the first claim, else a broken logbook's problems or
        its first page; unless a claim was chosen since the claims were listed (a queue's next claim to review,
        `--claim`, a click). Listing the claims and showing the first in one turn held the window for 40 ms the
        first time a window showed a logbook."""
        if not self.controller.loading:  # else another logbook is being opened: its progress stays in front
            self._loading_done()
        if self.current_key is not None:
            return
        rows = self.controller.rows()
        if kept_claim is not None and self.controller.row(kept_claim) is not None:
            self.claim_panel.select_key(kept_claim)  # the claim shown during the preview, now read in full
        elif kept_page is not None and logbook.page(kept_page) is not None:
            self.show_page(kept_page)
        elif rows:
            self.claim_panel.select_key(rows[0].key)
            self.claim_panel.view.setFocus()
        elif logbook.problems:  # read, but no claims: broken, with each problem and its file
            self.evidence.show_broken(self.controller.problems())
        elif logbook.pages:
            self.show_page(logbook.pages[0].slug)

    def _fill_later(self, logbook: Logbook, rule: BlindRule, first: Callable[[], None]) -> None:
        """The first claim (`first`), the page tree and the artifacts, each in an event-loop turn of its own after
        the one that lists the claims: together they held the window for over 50 ms in one turn on a 200-claim
        logbook. A newer load drops what is left."""
        self._fill_generation += 1
        generation = self._fill_generation

        def first_claim() -> None:
            if generation == self._fill_generation:
                first()

        def pages() -> None:
            if generation == self._fill_generation:
                shown = self.page_shown
                self._fill_page_tree(logbook)
                if shown is not None:
                    self._mark_page(shown)  # the claim or page shown meanwhile, in the new tree

        def artifacts() -> None:
            if generation == self._fill_generation:
                self.artifacts.set_entries(logbook, self.controller.artifacts, rule)

        self._fills[:] = [first_claim, pages, artifacts]  # what an earlier load left would find a newer generation
        self._fill_timer.start()

    def _fill_next(self) -> None:
        if self._fills:
            self._fills.pop(0)()
        if self._fills:
            self._fill_timer.start()

    def _first_claim_shown(self) -> None:
        """The evidence's cards are in place: what was deferred so as not to compete with drawing them starts a
        moment later (the claim search, the trace's ties to claims, the timeline's trace), once their layout and
        paint are done too: workers running Python then made each of the many calls painting makes into Python
        wait for the interpreter. Later renders find nothing waiting."""
        QTimer.singleShot(SETTLE_MS, self._start_indexes)

    def _start_indexes(self) -> None:
        self.controller.index_traces()
        self.timeline.release()

    def _drop_preview(self) -> None:
        """The reading stopped after its start was shown: the provisional claims go, nothing is open."""
        if not self._provisional:
            return
        self._fill_generation += 1
        self._provisional = False
        self.context, self.current_key = None, None
        self.claim_model.set_rows([])
        self._marking_page = True
        try:
            self.page_model.clear_pages()
        finally:
            self._marking_page = False
        self.excerpts.show_state("")
        self.setWindowTitle("reviewapp")

    def _load_failed(self, message: str) -> None:
        self._drop_preview()
        self._loading_done()
        self.status_label.setText("The logbook could not be opened.")
        if self.context is None:
            self.evidence.show_message("Nothing is open. Use File > Open Logbook Folder… or open the demo.")
        if self.controller.login_needed() and self.controller.failed_source:
            self._offer_login(self.controller.failed_source, message)
            return
        self.show_error("Could not open the logbook", message)

    def _offer_login(self, source: str, message: str) -> None:
        """Private or gated: huggingface_hub's login, then Try Again (never a token field of ours)."""
        from reviewapp.qt.dialogs.hub_login import HubLoginDialog

        self.error_shown.emit(message)
        dialog = HubLoginDialog(source, message, self)
        dialog.retry_requested.connect(self.controller.open)
        self.open_dialog(dialog)

    def _load_cancelled(self) -> None:
        self._drop_preview()
        self._loading_done()
        self.status_label.setText("Opening was cancelled.")
        if self.context is None:
            self.evidence.show_message("Opening was cancelled. Use File > Open Logbook Folder… to try again.")

    # --- selection and navigation -------------------------------------------------------------------------------

    def show_claim(self, key: str) -> None:
        if self.context is None:
            return
        row = self.controller.row(key)
        if row is None:
            return
        self.current_key = row.key
        self.evidence.show_claim(self.context, row.claim, row.slots)
        self._mark_page(row.claim.page)
        self._excerpts_timer.start()
        if not self._provisional:  # the features hear of the claim once the whole logbook is read
            self.subject_shown.emit()

    def show_page(self, slug: str) -> None:
        if self.context is None:
            return
        page = self.context.logbook.page(slug)
        if page is None:
            return
        self.current_key = None
        self.claim_panel.clear_selection()
        self._mark_page(slug)
        self.evidence.show_page(self.context, page)
        self.excerpts.show_state("Select a claim to see the trace events tied to it.")
        if not self._provisional:
            self.subject_shown.emit()

    def _mark_page(self, slug: str) -> None:
        """The page tree follows the claim shown: its page selected and scrolled into view."""
        index = self.page_model.index_of(slug)
        # Not by blocking the selection model's signals: the tree would never repaint the new selection.
        self._marking_page = True
        try:
            self.page_tree.setCurrentIndex(index)
        finally:
            self._marking_page = False
        if index.isValid():
            self.page_tree.scrollTo(index)

    def follow_page_link(self, slug: str) -> None:
        """A link to a page opens its claim when the page holds exactly one, the page itself otherwise."""
        if self.context is None:
            return
        keys = [row.key for row in self.controller.rows() if row.claim.page == slug]
        if len(keys) == 1:
            self.claim_panel.clear_filters()
            self.claim_panel.select_key(keys[0])
        else:
            self.show_page(slug)

    def _page_clicked(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._marking_page:
            return
        page: Page | None = self.page_model.page_at(current)
        if page is not None:
            self.show_page(page.slug)

    def select_claim(self, ref: str | int) -> bool:
        claim = self.controller.claim(ref) if self.context else None
        if claim is not None:
            self.claim_panel.clear_filters()
        return claim is not None and self.claim_panel.select_key(claim.key)

    def set_blind(self, blind: bool) -> None:
        """Blind review on or off; the logbook shown is read again under its pseudonym, or under its names."""
        self.actions_by_name["blind_review"].setChecked(blind)
        if blind == self.controller.blind_mode:
            return
        self.controller.blind_mode = blind
        logbook = self.controller.logbook
        if logbook is not None and (self.controller.blinder is not None) != blind:
            opened = self.controller.opened_source
            self.controller.open(opened.ref.text if opened is not None else logbook.root)

    def focus_search(self) -> None:
        self.claim_panel.search.setFocus()
        self.claim_panel.search.selectAll()

    def clear_filters(self) -> None:
        """Every claim shown again, and the keys back on the list (not in the search field)."""
        self.claim_panel.clear_filters()
        self.claim_panel.focus_list()

    def next_unreviewed(self) -> None:
        if self.context is None:
            return
        if self.claim_panel.next_unreviewed() is None:
            done, total = self.claim_panel.reviewed_count()
            self.statusBar().showMessage(f"You have reviewed every claim ({done} of {total}).", 8000)
        else:
            self.claim_panel.focus_list()

    def update_progress(self) -> None:
        """How many claims the reviewer has given a verdict, in the claim list and the status bar."""
        self.claim_panel.set_reviewing(self.controller.active and self.context is not None)
        self.progress_label.setText(self.claim_panel.progress_text())

    # --- what features may ask of the window (WindowHost, qt/host.py) -------------------------------------------

    @property
    def current_claim(self) -> Claim | None:
        """The claim shown, as the workspace has it now (a correction or a reload shows at once)."""
        row = self.controller.row(self.current_key) if self.current_key is not None else None
        return row.claim if row is not None and row.key == self.current_key else None

    @property
    def claim_header(self) -> EvidenceHeader:
        return self.evidence.header

    def widget(self) -> QMainWindow:
        return self

    @property
    def logbook_shown(self) -> bool:
        return self.context is not None

    @property
    def page_shown(self) -> str | None:
        if self.current_claim is not None:
            return self.current_claim.page
        index = self.page_tree.currentIndex()
        page = self.page_model.page_at(index) if index.isValid() else None
        return page.slug if page is not None else None

    @property
    def trace_shown(self) -> str | None:
        trace = self.timeline.model.trace
        return trace.id if trace is not None else None

    def reveal_claim(self, key: str) -> bool:
        if self.controller.claim(key) is None:
            return False
        if not self.claim_panel.select_key(key):
            self.claim_panel.clear_filters()
            self.claim_panel.select_key(key)
        return True

    def relist_claims(self) -> None:
        rows = self.controller.rows()
        if [row.key for row in rows] == self.claim_model.keys():
            self.claim_model.update_rows(rows)  # the same claims (the review was read again): the selection stays
        else:
            self.claim_model.set_rows(rows)
        self.claim_panel.apply_filters(self.controller.search(self.claim_panel.search.text()))

    def focus_claim_list(self) -> None:
        self.claim_panel.focus_list()

    def show_trace_event(self, trace_id: str, sequence: int) -> None:
        self.timeline.select_trace(trace_id)
        self.show_tab(self.timeline)
        self.timeline.jump_to(sequence)

    def say(self, text: str, timeout_ms: int = 0) -> None:
        self.statusBar().showMessage(text, timeout_ms)

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

    def add_status_widget(self, widget: QWidget) -> None:
        self.statusBar().addPermanentWidget(widget)

    def bring_to_front(self) -> None:
        self.show()
        self.activateWindow()

    def show_tab(self, widget: QWidget) -> None:
        self.side_tabs.show()
        self.actions_by_name["toggle_side_pane"].setChecked(True)
        self.side_tabs.setCurrentWidget(widget)

    def _show_excerpts(self) -> None:
        claim = self.current_claim
        if claim is None or self.context is None:
            return
        if self._provisional:
            self.excerpts.show_state("Reading the logbook…")
        elif not self.context.logbook.traces:
            self.excerpts.show_state("This logbook has no agent trace attached.")
        elif not any(t.chunks for t in self.context.logbook.traces):
            self.excerpts.show_state("The manifest lists an agent trace, but its files are not in this folder.")
        else:
            excerpts = self.controller.excerpts(claim)
            if excerpts is None:
                self.excerpts.show_state("Reading the agent trace…")
            else:
                index = self.controller.excerpt_index
                self.excerpts.show_excerpts(claim.label, excerpts, bool(index and claim.key in index.truncated))

    def jump_to_event(self, excerpt: Excerpt) -> None:
        self.show_tab(self.timeline)
        self.timeline.select_trace(excerpt.trace_id)
        self.timeline.jump_to(excerpt.sequence)

    def _verdicts_changed(self) -> None:
        if self.context is None:
            return
        self.claim_model.update_rows(self.controller.rows())
        self.claim_panel.apply_filters(self.claim_panel.proxy.matching)
        self.update_progress()
        self._shown_row_changed()

    def _rows_changed(self, keys: tuple[str, ...]) -> None:
        """A save, undo or redo changed these claims only: redraw their rows and, when shown, the claim header."""
        if self.context is None:
            return
        rows = [row for row in map(self.controller.row, keys) if row is not None]
        self.claim_model.update_rows(rows)
        self.update_progress()
        if self.current_key in keys:
            self._shown_row_changed()

    def _shown_row_changed(self) -> None:
        """The claim header shows the verdict slots the workspace now has for the claim shown."""
        row = self.controller.row(self.current_key) if self.current_key is not None else None
        if row is not None and row.key == self.current_key:
            self.evidence.header.set_slots(row.slots)

    # --- links, files, dialogs ----------------------------------------------------------------------------------

    def follow_link(self, target: LinkTarget) -> None:
        url = system_url(target)
        if target.kind is LinkKind.PAGE and target.page:
            self.follow_page_link(target.page)
        elif url is not None:
            self.open_url(url)
        else:
            self.statusBar().showMessage(f"Link not followed: {target.reason}", 8000)

    def open_url(self, url: QUrl) -> None:
        """Hand a URL to the system (browser, file manager); only ever called from a click."""
        if not open_with_system(url):
            self.statusBar().showMessage(f"Could not open {url.toDisplayString()}", 8000)

    def copy_text(self, text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.statusBar().showMessage(f"Copied: {text}", 5000)

    def zoom(self, image: QImage, title: str) -> None:
        self.open_dialog(ZoomDialog(image, title, self))

    def show_problems(self) -> None:
        if self.context is not None:
            self.open_dialog(ProblemsDialog(self.controller.problems(), self))

    def update_problems(self) -> None:  # the reader's and the review files' problems
        problems = len(self.controller.problems())
        self.problems_button.setText(f"⚠ {problems} problem{'s' if problems != 1 else ''} while reading")
        self.problems_button.setVisible(bool(problems))

    def open_dialog(self, dialog: QWidget) -> None:
        if isinstance(self.dialog, QWidget) and alive(self.dialog):  # a closed dialog deleted itself
            self.dialog.close()
        self.dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()

    def show_error(self, title: str, message: str) -> None:
        message = self.controller.shown(message)
        self.error_shown.emit(message)
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        self.open_dialog(box)

    def choose_logbook(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open a logbook folder", str(Path.home()))
        if folder:
            self.controller.open(folder)

    def choose_source(self, *, find_first: bool = False) -> None:
        """Open a Space, dataset or URL (or find the logbooks on a paper) in the dialog of the same name."""
        from reviewapp.qt.dialogs.open_source import OpenSourceDialog

        dialog = OpenSourceDialog(self, find_first=find_first)
        dialog.open_requested.connect(self.controller.open)
        self.open_dialog(dialog)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.controller.recent()
        for path in recent:
            # blind review: the folder names its participant, the pseudonym does not
            action = QAction(folder_pseudonym(path) if self.controller.blind_mode else str(path), self.recent_menu)
            action.triggered.connect(lambda _=False, p=path: self.controller.open(p))
            self.recent_menu.addAction(action)
        if not recent:
            self.recent_menu.addAction("No recent logbooks").setEnabled(False)

    def _theme_changed(self) -> None:
        """Painted lists pick the new colours up on repaint; rendered evidence is rebuilt with them."""
        self.claim_panel.view.viewport().update()
        if self.current_key is not None:
            self.show_claim(self.current_key)
        elif self.context is not None and (page := self.page_model.page_at(self.page_tree.currentIndex())):
            self.show_page(page.slug)

    # --- state --------------------------------------------------------------------------------------------------

    def is_idle(self) -> bool:
        """Nothing loading, indexing, decoding, being written or laid out (screenshots and tests wait for this)."""
        return (
            not self.controller.busy
            and not self.controller.writing
            and not self.evidence.busy
            and not self.trace_runner.pending
            and not self._excerpts_timer.isActive()
            and not self.timeline.waiting
            and not self._fills
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.remember_state:
            window_state.save_window(self, self.splitters, self.panes)
        self.controller.shutdown()
        self.logbook_judge.shutdown()
        self.timeline.stop()
        self.trace_runner.wait()
        self.traces.runner.wait()
        super().closeEvent(event)
