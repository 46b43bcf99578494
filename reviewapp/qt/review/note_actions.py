"""Adding, editing and deleting notes from wherever the reviewer is looking: the claim or page shown, a page in
the tree, a cell card (its Note button or context menu), selected lines of a run's output, a figure, a trace event.

Menus are built by `*_menu` methods and shown with popup(), so that each entry can be reached (and tested)
without a nested event loop.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QAbstractItemView, QMenu, QPlainTextEdit, QPushButton, QWidget

from reviewapp.core.logbook.model import TraceEvent
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import NoteRecord, Target
from reviewapp.qt.controller import CommandFailed
from reviewapp.qt.models.trace_events import EventRole, event_summary
from reviewapp.qt.plain import button_text
from reviewapp.qt.review.anchors import NoteAnchor
from reviewapp.qt.review.note_dialog import NoteDialog, Reply
from reviewapp.qt.review.notes_panel import NotesPanel, ShownNote
from reviewapp.qt.review.room import ReviewRoom
from reviewapp.qt.widgets.card import Card
from reviewapp.qt.widgets.cell_cards import CodeCard
from reviewapp.qt.widgets.figure_card import FigureCard


class NoteActions(QObject):
    claim_requested = Signal(str)  # "Add claim on this page…" in the page list's menu: the page's slug

    def __init__(self, room: ReviewRoom, panel: NotesPanel) -> None:
        super().__init__(room.host.widget())
        self.room = room
        self.controller = room.controller
        self.host = room.host
        self.window = room.host.widget()  # the parent of the menus and dialogs
        self.panel = panel
        views = room.views
        views.evidence.card_added.connect(self.hook_card)
        pages = views.pages
        pages.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        pages.customContextMenuRequested.connect(
            lambda pos: self._popup(self.page_menu(pages.indexAt(pos)), pages, pos)
        )
        for view, excerpts in ((views.excerpts, True), (views.timeline, False)):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(
                lambda pos, v=view, e=excerpts: self._popup(self.event_menu(v, v.indexAt(pos), e), v, pos)
            )
        panel.add_requested.connect(self.add_for_subject)
        panel.edit_requested.connect(self.edit)
        panel.delete_requested.connect(self.delete)
        panel.show_requested.connect(self.go_to)
        panel.scope_changed.connect(self.refresh_panel)

    # -- anchors from what is on screen -----------------------------------------------------------------------

    def add_for_subject(self) -> None:
        """A note on the claim shown, or on the page shown."""
        key = self.room.claim_key
        if key is not None:
            self.add(NoteAnchor("claim", claim=key))
            return
        slug = self.room.page_slug
        if slug:
            self.add(NoteAnchor("page", page=slug))

    def hook_card(self, card: Card) -> None:
        """Give an evidence card its Note button and context menu; run output and figures get their own."""
        button = QPushButton("+ Note", card)
        button.setObjectName("cardNote")
        button.setToolTip("Add a note on this cell" if card.cell is not None else "Add a note on this page")
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.clicked.connect(lambda: self.add(self.card_anchor(card)))
        button.setVisible(self.controller.active)
        card.header_layout.addWidget(button, 0, Qt.AlignmentFlag.AlignVCenter)
        card.note_button = button  # type: ignore[attr-defined]
        card.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        card.customContextMenuRequested.connect(lambda pos: self._popup(self.card_menu(card), card, pos))
        if isinstance(card, CodeCard) and card.output is not None:
            editor = card.output.editor
            editor.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            editor.customContextMenuRequested.connect(
                lambda pos: self._popup(self.output_menu(card, pos), editor.viewport(), pos)
            )
        if isinstance(card, FigureCard):
            for index, figure in enumerate(card.figures):
                figure.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
                figure.customContextMenuRequested.connect(
                    lambda pos, i=index, f=figure: self._popup(self.figure_menu(card, i), f, pos)
                )

    def card_anchor(self, card: Card) -> NoteAnchor:
        if card.cell is None:
            return NoteAnchor("page", page=card.page_slug)
        return NoteAnchor("cell", page=card.cell.page, ordinal=card.cell.ordinal, quote=card.cell.title)

    def output_anchor(self, card: CodeCard, pos: QPoint | None = None) -> NoteAnchor | None:
        """The selected lines of a run's output (or the line under `pos`), numbered from 1 as shown."""
        if card.output is None or card.cell is None:
            return None
        editor: QPlainTextEdit = card.output.editor
        cursor = editor.textCursor()
        document = editor.document()
        if cursor.hasSelection():
            first = document.findBlock(cursor.selectionStart()).blockNumber()
            end = cursor.selectionEnd()
            last_block = document.findBlock(end)
            last = last_block.blockNumber()
            if last > first and end == last_block.position():  # selection ends at the start of a line
                last -= 1
        else:
            line = editor.cursorForPosition(pos).blockNumber() if pos is not None else cursor.blockNumber()
            first = last = line
        lines = card.output.lines[first : last + 1]
        return NoteAnchor(
            "lines", page=card.cell.page, ordinal=card.cell.ordinal, first=first + 1, last=last + 1,
            quote="\n".join(lines),
        )  # fmt: skip

    def select_output_lines(self, card: CodeCard, first: int, last: int) -> None:
        """Select lines `first`..`last` (1-based) of the card's output, as a reviewer dragging over them would."""
        assert card.output is not None
        editor = card.output.editor
        document = editor.document()
        cursor = QTextCursor(document.findBlockByNumber(first - 1))
        end = document.findBlockByNumber(last - 1)
        cursor.setPosition(end.position() + end.length() - 1, QTextCursor.MoveMode.KeepAnchor)
        editor.setTextCursor(cursor)

    # -- menus ------------------------------------------------------------------------------------------------

    def card_menu(self, card: Card) -> QMenu:
        menu = QMenu(self.window)
        anchor = self.card_anchor(card)
        text = "Add note on this cell…" if anchor.kind == "cell" else "Add note on this page…"
        self._entry(menu, text, lambda: self.add(anchor))
        if isinstance(card, CodeCard) and card.output is not None:
            self._entry(menu, "Add note on the selected output lines…", lambda: self._add_lines(card, None))
        return menu

    def output_menu(self, card: CodeCard, pos: QPoint | None = None) -> QMenu:
        assert card.output is not None
        menu = card.output.editor.createStandardContextMenu()
        menu.setParent(self.window, menu.windowFlags())
        anchor = self.output_anchor(card, pos)
        if anchor is not None:
            menu.addSeparator()
            span = f"line {anchor.first}" if anchor.first == anchor.last else f"lines {anchor.first}–{anchor.last}"
            self._entry(menu, f"Add note on {span} of the output…", lambda: self.add(anchor))
        return menu

    def figure_menu(self, card: FigureCard, index: int) -> QMenu:
        menu = QMenu(self.window)
        cell = card.cell
        if cell is not None:
            anchor = NoteAnchor("figure", page=cell.page, ordinal=cell.ordinal, index=index, quote=cell.title)
            self._entry(menu, "Add note on this figure…", lambda: self.add(anchor))
        return menu

    def page_menu(self, index: QModelIndex) -> QMenu:
        menu = QMenu(self.window)
        page = self.room.views.page_model.page_at(index) if index.isValid() else None
        if page is not None:
            name = button_text(page.title)
            self._entry(menu, f"Add note on page “{name}”…", lambda: self.add(NoteAnchor("page", page=page.slug)))
            self._entry(menu, "Add claim on this page…", lambda: self.claim_requested.emit(page.slug))
        return menu

    def event_menu(self, view: QAbstractItemView, index: QModelIndex, in_excerpts: bool) -> QMenu:
        menu = QMenu(self.window)
        if not index.isValid():
            return menu
        event: TraceEvent = index.data(EventRole.EVENT)
        if in_excerpts:
            session = index.data(EventRole.EXCERPT).trace_id
            claim = self.room.claim_key
        else:
            session = self.host.trace_shown
            claim = self._claim_tied_to(session, event.sequence)
        if session is None:
            return menu
        quote = f"#{event.sequence} {event.title}: {event_summary(event)}"
        anchor = NoteAnchor("trace", claim=claim, session=session, sequence=event.sequence, quote=quote)
        self._entry(menu, f"Add note on trace event #{event.sequence}…", lambda: self.add(anchor))
        return menu

    def _claim_tied_to(self, session: str | None, sequence: int) -> str | None:
        """The claim shown, when the event is one of its excerpts (a timeline note then belongs to it)."""
        claim = self.host.current_claim
        excerpts = self.controller.excerpts(claim) if claim is not None else None
        if claim is None or not excerpts:
            return None
        tied = any(e.trace_id == session and e.sequence == sequence for e in excerpts)
        return claim.key if tied else None

    def _entry(self, menu: QMenu, text: str, slot: object) -> None:
        action = menu.addAction(text)
        action.setEnabled(self.controller.active)
        action.triggered.connect(slot)

    def _popup(self, menu: QMenu, widget: QWidget, pos: QPoint) -> None:
        if menu.isEmpty():
            menu.deleteLater()
            return
        menu.aboutToHide.connect(menu.deleteLater)
        menu.popup(widget.mapToGlobal(pos))

    def _add_lines(self, card: CodeCard, pos: QPoint | None) -> None:
        anchor = self.output_anchor(card, pos)
        if anchor is not None:
            self.add(anchor)

    # -- acting -----------------------------------------------------------------------------------------------

    def add(self, anchor: NoteAnchor) -> None:
        """Open the note editor for `anchor` once the lane checked the anchor against the logbook; the note is
        recorded when the reviewer saves it."""

        def resolve(s: LogbookReview) -> tuple[Target, str]:
            try:
                target = anchor.target(s)
            except ValueError as exc:
                raise CommandFailed(str(exc)) from exc
            return target, s.label(target)

        self.controller.submit(
            resolve, lambda found: self._open_add(anchor, *found),
            lambda exc: self.room.say(f"Cannot add a note there: {exc}"),
        )  # fmt: skip

    def _open_add(self, anchor: NoteAnchor, target: Target, label: str) -> None:
        def submit(text: str, tags: list[str], reply: Reply) -> None:
            def saved(_: object) -> None:
                self.room.say(f"Saved note on {label}.")
                reply(None)

            self.controller.submit(lambda s: s.add_note(target, text, tags), saved, lambda exc: reply(str(exc)))

        dialog = NoteDialog(
            "Add a note", label, anchor.quote, self.controller.tag_choices(), submit, parent=self.window
        )
        self.room.open_dialog(dialog)

    def edit(self, record: NoteRecord) -> NoteDialog | None:
        label = self.controller.label(record)

        def submit(text: str, tags: list[str], reply: Reply) -> None:
            def saved(_: object) -> None:
                self.room.say(f"Saved the edit of the note on {label}.")
                reply(None)

            self.controller.submit(lambda s: s.edit_note(record.id, text, tags), saved, lambda exc: reply(str(exc)))

        dialog = NoteDialog(
            "Edit note", label, "", self.controller.tag_choices(), submit,
            text=record.payload.text, tags=list(record.payload.tags), parent=self.window,
        )  # fmt: skip
        self.room.open_dialog(dialog)
        return dialog

    def delete(self, record: NoteRecord) -> None:
        label = self.controller.label(record)
        self.controller.submit(
            lambda s: s.delete(record.id),
            lambda _: self.room.say(f"Deleted the note on {label}; Ctrl+Z brings it back."),
            lambda exc: self.host.show_error("Cannot delete the note", str(exc)),
        )

    def go_to(self, record: NoteRecord) -> None:
        target, host = record.target, self.host
        shown = target.claim is not None and host.reveal_claim(target.claim)
        if not shown and target.page is not None:  # a page's note, or a claim no longer in the logbook
            host.show_page(target.page)
        if target.trace is not None:
            host.show_trace_event(target.trace.session, target.trace.sequence)

    # -- the notes tab ----------------------------------------------------------------------------------------

    def refresh_panel(self) -> None:
        panel, room = self.panel, self.room
        scope = panel.scope_value
        key, slug = room.claim_key, room.page_slug
        claim = self.host.current_claim
        if scope == "claim" and key is not None and claim is not None:
            notes = self.controller.notes(claim=key)
            where = f"claim {claim.n}" if claim.n is not None else f"“{claim.title}”"
        elif scope in ("claim", "page") and slug is not None:
            logbook = room.controller.logbook if self.host.logbook_shown else None
            page = logbook.page(slug) if logbook is not None else None
            notes, where = self.controller.notes(page=slug), f"page “{page.title if page else slug}”"
        else:
            notes, where = self.controller.notes(), "this logbook"
        shown = [ShownNote(n, self.controller.label(n), self.controller.is_mine(n)) for n in notes]
        count = f"{len(shown)} note{'s' if len(shown) != 1 else ''}" if shown else "No notes"
        summary = f"{count} on {where}." if self.controller.active else self.controller.reason or ""
        panel.set_notes(summary, shown)
        panel.add_button.setEnabled(self.controller.active and slug is not None)
        self.host.set_side_tab_title(panel, f"Notes ({len(shown)})" if shown else "Notes")
        for card in room.views.evidence.cards:
            button = getattr(card, "note_button", None)
            if button is not None:
                button.setVisible(self.controller.active)
