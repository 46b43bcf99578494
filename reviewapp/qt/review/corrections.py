"""Claim corrections from the claim list's context menu (and the Review menu): correct the agent's verdict, add
a claim on the page, split a claim, merge selected claims, and take back one's own correction. Each is an
annotation like any other: recorded at once, undoable, and visible in the list."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QPoint, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QMenu

from reviewapp.core.review.state import EffectiveClaim
from reviewapp.qt.models.claim_table import ClaimRole, short_title
from reviewapp.qt.plain import button_text
from reviewapp.qt.review.claim_dialogs import (
    AddClaimDialog,
    CorrectVerdictDialog,
    FormDialog,
    MergeClaimsDialog,
    Reply,
    SplitClaimDialog,
)
from reviewapp.qt.review.room import ReviewRoom


class ClaimCorrections(QObject):
    note_requested = Signal()  # "Add note on claim …" in the claim list's menu

    def __init__(self, room: ReviewRoom) -> None:
        super().__init__(room.host.widget())
        self.room = room
        self.controller = room.controller
        self.host = room.host
        self.window = room.host.widget()  # the parent of the menus and dialogs
        view = room.views.claim_list
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._context_menu)

    # -- which claims ------------------------------------------------------------------------------------------

    def selected_keys(self) -> list[str]:
        """Keys of the selected claims, in list order."""
        view = self.room.views.claim_list
        rows = sorted(view.selectionModel().selectedRows(), key=lambda i: i.row())
        return [index.data(ClaimRole.KEY) for index in rows]

    def _claim(self, key: str | None) -> EffectiveClaim | None:
        key = key or self.room.claim_key
        return self.controller.effective(key) if key else None

    def _name(self, claim: EffectiveClaim) -> str:
        return f"claim {claim.n}" if claim.n is not None and not claim.replaces else f"“{claim.title}”"

    # -- the menu ---------------------------------------------------------------------------------------------

    def _context_menu(self, pos: QPoint) -> None:
        view = self.room.views.claim_list
        index = view.indexAt(pos)
        if index.isValid() and index.data(ClaimRole.KEY) not in self.selected_keys():
            view.setCurrentIndex(index)
        menu = self.menu()
        menu.aboutToHide.connect(menu.deleteLater)
        menu.popup(view.viewport().mapToGlobal(pos))

    def menu(self) -> QMenu:
        """The claim list's context menu for the selected claims."""
        menu = QMenu(self.window)
        keys = self.selected_keys()
        current = self._claim(keys[0] if len(keys) == 1 else self.room.claim_key)
        active = self.controller.active
        if len(keys) >= 2:
            claims = [c for c in (self._claim(k) for k in keys) if c is not None]
            names = ", ".join(self._name(c) for c in claims)
            self._entry(menu, f"Merge {button_text(names)}…", lambda: self.merge_claims(keys), active)
            return menu
        if current is None:
            return menu
        name = button_text(self._name(current))
        self._entry(menu, f"Add note on {name}…", self.note_requested.emit, active)
        menu.addSeparator()
        self._entry(menu, "Correct agent verdict…", lambda: self.correct_agent_verdict(current.key), active)
        self._entry(menu, "Add claim on this page…", lambda: self.add_claim(current.page), active)
        self._entry(menu, f"Split {name}…", lambda: self.split_claim(current.key), active)
        merge = menu.addMenu("Merge with")
        merge.setEnabled(active)
        for other in self.controller.effective_claims() or []:
            if other.key != current.key:
                self._entry(
                    merge, button_text(f"{self._name(other)} — {other.title}"[:90]),
                    lambda _=False, k=other.key: self.merge_claims([current.key, k]), active,
                )  # fmt: skip
        mine = [r for r in (current.source, current.correction) if r is not None and self.controller.is_mine(r)]
        if mine:
            menu.addSeparator()
            for record in mine:
                what = "agent verdict correction" if record.kind == "agent_verdict" else f"{current.origin} claim"
                self._entry(menu, f"Remove this {what}", lambda _=False, r=record: self.remove(r.id), active)
        return menu

    def _entry(self, menu: QMenu, text: str, slot: object, enabled: bool = True) -> None:
        action = menu.addAction(text)
        action.setEnabled(enabled)
        action.triggered.connect(slot)

    # -- the corrections ----------------------------------------------------------------------------------------

    def _run(self, action: Any, reply: Reply) -> None:
        """Start recording one correction; `reply(None)` once done, else `reply(why not)` (shown in the form)."""
        self.controller.submit(action, lambda _: reply(None), lambda exc: reply(str(exc)))

    def _open(self, dialog: FormDialog) -> FormDialog:
        self.room.open_dialog(dialog)
        return dialog

    def correct_agent_verdict(self, key: str | None = None) -> FormDialog | None:
        claim = self._claim(key)
        if claim is None:
            return None
        mention = claim.claim.verdict_mention if claim.claim is not None else None
        read = claim.agent_verdict_read or claim.agent_verdict

        def submit(values: dict[str, Any], reply: Reply) -> None:
            self._run(lambda s: s.correct_agent_verdict(claim.key, values["verdict"], values["rationale"]), reply)

        quote = " ".join(mention.text.split())[:200] if mention is not None else ""
        return self._open(CorrectVerdictDialog(self._name(claim), read, quote, submit, self.window))

    def add_claim(self, page: str | None = None) -> FormDialog | None:
        slug = page or self.room.page_slug
        logbook = self.controller.logbook if self.host.logbook_shown else None
        found = logbook.page(slug) if logbook is not None and slug else None
        if found is None:
            return None

        def submit(values: dict[str, Any], reply: Reply) -> None:
            self._run(
                lambda s: s.add_claim(
                    found.slug, values["title"], values["rationale"],
                    cells=values["cells"], n=values["n"], agent_verdict=values["agent_verdict"],
                ),
                reply,
            )  # fmt: skip

        return self._open(AddClaimDialog(found.title, found.cells, submit, self.window))

    def split_claim(self, key: str | None = None) -> FormDialog | None:
        claim = self._claim(key)
        if claim is None:
            return None

        def submit(values: dict[str, Any], reply: Reply) -> None:
            self._run(lambda s: s.split_claim(claim.key, values["parts"], values["rationale"]), reply)

        title = short_title(claim.claim) if claim.claim is not None else claim.title
        return self._open(SplitClaimDialog(self._name(claim), title, claim.cells, submit, self.window))

    def merge_claims(self, keys: list[str] | None = None) -> FormDialog | None:
        keys = keys or self.selected_keys()
        claims = [c for c in (self._claim(k) for k in keys) if c is not None]
        if len(claims) < 2:
            self.room.say("Select two or more claims to merge (Ctrl+click in the claim list).")
            return None

        def submit(values: dict[str, Any], reply: Reply) -> None:
            self._run(lambda s: s.merge_claims([c.key for c in claims], values["title"], values["rationale"]), reply)

        title = short_title(claims[0].claim) if claims[0].claim is not None else claims[0].title
        return self._open(MergeClaimsDialog([self._name(c) for c in claims], title, submit, self.window))

    def remove(self, record_id: str) -> None:
        def replied(problem: str | None) -> None:
            if problem:
                self.host.show_error("Cannot remove the correction", problem)
            else:
                self.room.say("Removed; Ctrl+Z brings it back.")

        self._run(lambda s: s.delete(record_id), replied)
