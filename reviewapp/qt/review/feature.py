"""The review tools in the window: the verdict editor in the evidence header, the notes tab, claim corrections,
undo/redo, the reviewer's identity and where reviews are saved, export, pair rating and commit.

The window creates one ReviewFeature on its host (qt/host.py `ReviewHost`), handing it the views whose menus and
cards it fills; everything here talks to the annotations through LogbookController, and refreshes what is shown
whenever it says the annotations changed.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QWidget

from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.verdicts import HUMAN_VERDICTS, Verdict
from reviewapp.qt import theme
from reviewapp.qt.controller import CommandFailed, LogbookController
from reviewapp.qt.host import ReviewHost
from reviewapp.qt.links import display_path
from reviewapp.qt.plain import ElidedLabel, button_text, plain_tooltip
from reviewapp.qt.review.corrections import ClaimCorrections
from reviewapp.qt.review.note_actions import NoteActions
from reviewapp.qt.review.notes_panel import NotesPanel
from reviewapp.qt.review.room import ReviewRoom, ReviewViews
from reviewapp.qt.review.tools import ReviewTools
from reviewapp.qt.review.verdict_editor import VerdictEditor


class ReviewFeature(QObject):
    def __init__(self, host: ReviewHost, controller: LogbookController, views: ReviewViews) -> None:
        super().__init__(host.widget())
        self.host = host
        self.room = ReviewRoom(host, controller, views)
        self.controller = controller
        self.actions = host.actions_by_name
        self.ask_on_load = True  # ask who is reviewing when a logbook opens and nobody is known
        self.editor = VerdictEditor(controller)
        host.claim_header.set_reviewer_widget(self.editor)
        self.notes_panel = NotesPanel()
        host.add_side_tab(self.notes_panel, "Notes")
        self.reviewer = ElidedLabel()
        self.reviewer.setObjectName("reviewer")
        host.add_status_widget(self.reviewer)
        self.notes = NoteActions(self.room, self.notes_panel)
        self.corrections = ClaimCorrections(self.room)
        self.tools = ReviewTools(self.room)
        self._connect()
        self._update_actions()

    @property
    def dialog(self) -> QWidget | None:
        """The last dialog the review tools opened."""
        return self.room.dialog

    def _connect(self) -> None:
        c, a, w = self.controller, self.actions, self.host
        c.previewed.connect(self._previewed)
        c.loaded.connect(self._loaded)
        c.claims_changed.connect(self._claims_changed)
        self.controller.changed.connect(self._changed)
        self.controller.reviewer_changed.connect(self._reviewer_changed)
        w.subject_shown.connect(self.subject_shown)
        theme.manager().changed.connect(self.editor.apply_theme)
        self.editor.note_requested.connect(self.notes.add_for_subject)
        self.editor.pairs_requested.connect(lambda: self.tools.rate_pairs(self.claim_key))
        self.editor.identity_requested.connect(self.tools.ask_identity)
        self.corrections.note_requested.connect(self.notes.add_for_subject)
        self.notes.claim_requested.connect(self.corrections.add_claim)
        self.room.views.claim_list.selectionModel().selectionChanged.connect(lambda *_: self._update_actions())
        a["undo"].triggered.connect(self.undo)
        a["redo"].triggered.connect(self.redo)
        a["edit_verdict"].triggered.connect(self.editor.open_editor)
        a["save_verdict"].triggered.connect(self.save_verdict)
        a["save_and_next"].triggered.connect(lambda: self.save_verdict(and_next=True))
        a["clear_verdict"].triggered.connect(self.clear_verdict)
        for verdict in HUMAN_VERDICTS:
            a[f"verdict_{verdict.value}"].triggered.connect(lambda _=False, v=verdict: self.choose(v))
        a["add_note"].triggered.connect(self.notes.add_for_subject)
        a["correct_agent_verdict"].triggered.connect(lambda: self.corrections.correct_agent_verdict())
        a["add_claim"].triggered.connect(lambda: self.corrections.add_claim())
        a["split_claim"].triggered.connect(lambda: self.corrections.split_claim())
        a["merge_claims"].triggered.connect(lambda: self.corrections.merge_claims())
        a["rate_pairs"].triggered.connect(lambda: self.tools.rate_pairs(self.claim_key))
        a["reviewer_identity"].triggered.connect(lambda: self.tools.ask_identity(change=True))
        a["export_reviews"].triggered.connect(self.tools.export)
        a["commit_reviews"].triggered.connect(self.tools.commit)

    # -- the verdict keys -------------------------------------------------------------------------------------

    # Keys pressed while a save is in flight wait for it (`when_idle`): they act on the state after the save, as
    # they would have had the save been instant, and are neither lost nor applied twice.

    def choose(self, verdict: Verdict) -> None:
        self.controller.when_idle(lambda: self._choose(verdict))

    def _choose(self, verdict: Verdict) -> None:
        self.editor.choose(verdict)
        if self.claim_key is not None and self.controller.active:
            self.say(f"{verdict.value.upper()} chosen: write the rationale (V), then Ctrl+Enter saves.")

    def save_verdict(self, and_next: bool = False) -> None:
        """Ctrl+Enter: save, then the keys are on the claim list again (Ctrl+Shift+Enter: on the next unreviewed)."""
        self.controller.when_idle(lambda: self._save_verdict(and_next))

    def _save_verdict(self, and_next: bool) -> None:
        def then(saved: bool) -> None:
            if not saved:
                return
            if and_next:
                self.host.next_unreviewed()
            else:
                self.host.focus_claim_list()

        self.editor.save(then)

    def clear_verdict(self) -> None:
        """0 or Review > Clear Verdict: remove the saved verdict (undoable), or forget a verdict chosen unsaved."""
        self.controller.when_idle(self._clear_verdict)

    def _clear_verdict(self) -> None:
        if self.editor.stored is not None:
            self.editor.clear(lambda done: self._said_if(done, "Your verdict was removed; Ctrl+Z brings it back."))
        else:
            self.editor.unchoose()

    def _said_if(self, done: bool, text: str) -> None:
        if done:
            self.say(text)

    # -- what is shown ----------------------------------------------------------------------------------------

    @property
    def claim_key(self) -> str | None:
        return self.room.claim_key

    @property
    def page_slug(self) -> str | None:
        """The page shown: the current claim's, or the one chosen in the page list."""
        return self.room.page_slug

    def _previewed(self) -> None:
        """The start of a logbook is shown while the rest is read: no verdict, note or correction can be given
        until the whole logbook and its review are attached (`_loaded`)."""
        self.editor.drafts.clear()
        self.editor.show_nothing("Verdicts can be given once the whole logbook is read.")
        self.reviewer.setText(self.controller.reason or "")
        self.reviewer.setToolTip("")
        self._update_actions()

    def _loaded(self) -> None:
        self._reviewer_changed()
        if self.controller.ask and self.ask_on_load:
            self.tools.ask_identity()

    def _reviewer_changed(self) -> None:
        self.editor.drafts.clear()
        identity, where = self.controller.identity, self.controller.location()
        if identity is None or where is None:
            self.reviewer.setText(self.controller.reason or "")
            self.reviewer.setToolTip("")
        else:
            file, rule = self.controller.file(), self.controller.rule
            # blind review: the folder (OWNER__NAME, the logbook id's folder) names the participant
            shown = "" if file is None else rule.path(file) if rule.blind else display_path(file)
            role = self.controller.logbook_review.role if self.controller.logbook_review else ""
            if where.fallback:
                self.reviewer.setText(f"{identity.name} ({role}) · reviews saved outside the logbook: {shown}")
                self.reviewer.setToolTip(plain_tooltip(f"{where.reason}\nCommitting copies them into the logbook."))
            else:
                self.reviewer.setText(f"{identity.name} ({role}) · reviews saved in {shown}")
                self.reviewer.setToolTip(plain_tooltip(rule.path(file) if file is not None else ""))
        self.host.update_problems()
        self.subject_shown()

    def subject_shown(self) -> None:
        claim = self.host.current_claim
        if not self.host.logbook_shown:
            self.editor.show_nothing()
        elif claim is not None:
            self.editor.show_claim(claim.key, claim.label, len(self.controller.sets_for(claim.key)))
            self.host.claim_header.set_corrections(self._corrections(claim.key))
            self._show_other_verdicts()
        else:
            slug = self.page_slug
            self.editor.show_page(len(self.controller.notes(page=slug)) if slug else 0)
        self.notes.refresh_panel()
        self._update_actions()

    def _changed(self, change: ChangeRecord, initiator: object) -> None:
        """Redo only what the change names: the verdict editor and the others' verdicts for verdicts (blind: a
        verdict of mine reveals others' notes too), the notes tab for notes, the claim header for corrections (the
        claim list's marks come with the workspace's rows). The editor's own save is left to it: it shows what it saved
        once the save is back."""
        verdicts = change.touches("verdict", "adjudicated_verdict")
        if verdicts and initiator is not self.editor:
            self.editor.refresh()
        if change.touches("note") or (verdicts and self.controller.blind):
            self.notes.refresh_panel()
        corrections = change.touches("agent_verdict")
        if self.host.current_claim is not None:
            if corrections:
                self.host.claim_header.set_corrections(self._corrections(self.host.current_claim.key))
            if verdicts:
                self._show_other_verdicts()
        for repair in self.controller.new_repairs():
            self.say(f"Set aside an unfinished line another program left: {repair.issue}")
        self.host.update_problems()
        self._update_actions()

    def _show_other_verdicts(self) -> None:
        """Other reviewers' verdicts on the claim shown, side by side in the claim header."""
        key = self.claim_key
        others = self.controller.other_verdicts(key) if key is not None else []
        self.host.claim_header.set_other_verdicts(
            [(r.annotator, r.payload.verdict, r.payload.rationale) for r in others]
        )

    def _corrections(self, key: str) -> list[str]:
        """How reviewers changed the claim, as the claim header says it."""
        logbook_id = self.controller.logbook_id
        row = self.controller.workspace.row(logbook_id, key) if logbook_id is not None else None
        return list(row.corrections) if row is not None else []

    def _claims_changed(self) -> None:
        """Reviewers added, split or merged claims (or undid that): list the claims again, keeping the place, or
        following the claim shown to where the workspace says it went (its parts, the claim it merged into)."""
        c, current = self.controller, self.claim_key
        self.host.relist_claims()
        if current is None or c.logbook_id is None:
            return
        target = c.workspace.follow(c.logbook_id, current)
        if target is not None:
            self.host.reveal_claim(target)

    def _update_actions(self) -> None:
        a, logbook_review = self.actions, self.controller.logbook_review
        history = logbook_review.history if logbook_review is not None else None
        a["undo"].setEnabled(bool(history and history.can_undo))
        a["redo"].setEnabled(bool(history and history.can_redo))
        a["undo"].setText(button_text(history.undo_label) if history and history.undo_label else "&Undo")
        a["redo"].setText(button_text(history.redo_label) if history and history.redo_label else "&Redo")
        active, on_claim = logbook_review is not None, self.claim_key is not None
        if self.controller.previewing:  # provisional claims: nothing is recorded against them
            active = on_claim = False
        verdict_keys = [f"verdict_{v.value}" for v in HUMAN_VERDICTS]
        for name in ("save_verdict", "save_and_next", "clear_verdict", "correct_agent_verdict", "split_claim"):
            a[name].setEnabled(active and on_claim)
        for name in ("edit_verdict", *verdict_keys):  # nobody reviewing yet: these ask who is
            a[name].setEnabled(on_claim)
        a["merge_claims"].setEnabled(active and len(self.corrections.selected_keys()) >= 2)
        for name in ("add_note", "add_claim"):
            a[name].setEnabled(active and self.page_slug is not None)
        for name in ("export_reviews", "commit_reviews"):
            a[name].setEnabled(active)
        a["rate_pairs"].setEnabled(active and bool(self.controller.pair_sets))
        a["reviewer_identity"].setEnabled(self.controller.logbook is not None)

    # -- undo / redo ------------------------------------------------------------------------------------------

    def undo(self) -> None:
        self.controller.when_idle(lambda: self.controller.undo(*self._stepped("Undid", "Cannot undo")))

    def redo(self) -> None:
        self.controller.when_idle(lambda: self.controller.redo(*self._stepped("Redid", "Cannot redo")))

    def _stepped(self, done: str, failed: str) -> tuple[Callable[[str | None], None], Callable[[CommandFailed], None]]:
        def stepped(label: str | None) -> None:
            if label:
                self.say(f"{done} {label}.")

        return stepped, lambda exc: self.host.show_error(failed, str(exc))

    # -- helpers for the parts --------------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.room.say(text)

    def open_dialog(self, dialog: QDialog) -> None:
        self.room.open_dialog(dialog)
