"""The reviewer's verdict on the claim shown: one of the five verdicts, a required rationale, a confidence from 1 to
3 and tags. It stands beside, never erases, the agent's and the Logbook Judge's verdicts (the badges above keep
all three).

"Saved" appears only once the write lane handed the save back, which is after the record was flushed to disk.
Unsaved edits are kept per claim while the reviewer looks at other claims, and a refusal (a token pasted into the
rationale, a disk that cannot be written) is shown in place, with nothing saved.

The verdict keys (1-5) choose a verdict from the claim list or the evidence; the chosen, unsaved verdict is named
in the summary line and ticked on its button, so that what Ctrl+Enter will save is never in doubt. Tags the reviewer
picks fill a rationale template while the rationale is empty (or still the template); the last rationales saved
are offered under "Recent". Whether the editor is hidden is kept between runs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QFrame,
    QHBoxLayout,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.rationale import is_bare_template, rationale_template, remember_rationale
from reviewapp.core.review.records import VerdictRecord
from reviewapp.core.verdicts import HUMAN_VERDICTS, Verdict
from reviewapp.qt import theme, window_state
from reviewapp.qt.controller import CommandFailed, LogbookController
from reviewapp.qt.plain import ElidedLabel, PlainLabel, plain_tooltip
from reviewapp.qt.review.tag_chips import FlowWidget, TagChips

CONFIDENCE = {1: "1 · unsure", 2: "2 · fairly sure", 3: "3 · certain"}
VERDICT_KEYS = {verdict: str(n) for n, verdict in enumerate(HUMAN_VERDICTS, start=1)}  # as in the Review menu
SHOWN_KEY = "review/verdictEditorShown"
RECENT_KEY = "review/recentRationales"
_PENDING = ("Choose a verdict.", "A verdict needs a rationale.", "Not saved yet.")


@dataclass
class Draft:
    verdict: Verdict | None = None
    rationale: str = ""
    confidence: int | None = None
    tags: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, record: VerdictRecord | None) -> Draft:
        if record is None:
            return cls()
        p = record.payload
        return cls(p.verdict, p.rationale, p.confidence, list(p.tags))

    def same_as(self, other: Draft) -> bool:
        return (
            self.verdict == other.verdict
            and self.rationale.strip() == other.rationale.strip()
            and self.confidence == other.confidence
            and {t.casefold() for t in self.tags} == {t.casefold() for t in other.tags}  # chips keep their own order
        )


class VerdictEditor(QFrame):
    note_requested = Signal()  # "Add note…" for the claim or page shown
    pairs_requested = Signal()  # "Rate image pairs…" for the claim shown
    identity_requested = Signal()  # nobody is reviewing yet: ask who
    save_finished = Signal(bool)  # a save or a removal started by this editor is done: True when it is on disk

    def __init__(self, controller: LogbookController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("verdictEditor")
        self.controller = controller
        self.claim_key: str | None = None
        self.claim_label = ""
        self.expanded = _stored_shown()
        self.drafts: dict[str, Draft] = {}
        self._template = ""  # the rationale template last filled in, replaced while the reviewer has not edited it
        self._saved_id: str | None = None  # the record "Saved at" speaks of
        self._loading = False
        self._baseline = Draft()  # what the fields were last filled with from the store
        self._build()
        self.apply_theme()
        self.show_nothing()

    # -- layout -----------------------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.setSpacing(6)
        strip = QHBoxLayout()
        strip.setSpacing(8)
        self.heading = PlainLabel("YOUR VERDICT", self)
        self.heading.setObjectName("paneTitle")
        strip.addWidget(self.heading)
        # gives way to the buttons beside it, cut with an elision mark and whole in its tool tip
        self.summary = ElidedLabel("", self, Qt.TextElideMode.ElideRight)
        self.summary.setObjectName("verdictSummary")
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        strip.addWidget(self.summary, 1)
        self.pairs_button = self._small("Rate image pairs…", self.pairs_requested.emit, strip)
        self.note_button = self._small("Add note…", self.note_requested.emit, strip)
        self.identity_button = self._small("Who is reviewing?…", self.identity_requested.emit, strip)
        self.toggle = self._small("Hide", self._toggle, strip)
        layout.addLayout(strip)

        self.body = QWidget(self)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(6)
        # Verdicts and confidence are two groups that wrap under each other when the pane is narrow.
        choices = FlowWidget(self.body, spacing=16)
        verdicts, confidence = QWidget(choices), QWidget(choices)
        row = QHBoxLayout(verdicts)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        self.verdict_group = QButtonGroup(self)
        self.verdict_buttons: dict[Verdict, QToolButton] = {}
        for verdict in HUMAN_VERDICTS:
            button = self._choice(verdict.value.capitalize(), "verdictChoice", verdicts)
            button.setProperty("verdict", verdict.value)
            key = VERDICT_KEYS[verdict]
            button.setToolTip(f"{verdict.value.capitalize()} (key {key} in the claim list or the evidence)")
            self.verdict_group.addButton(button)
            self.verdict_buttons[verdict] = button
            row.addWidget(button)
        row = QHBoxLayout(confidence)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        label = PlainLabel("Confidence", confidence)
        label.setObjectName("muted")
        row.addWidget(label)
        self.confidence_buttons: dict[int, QToolButton] = {}
        for value, text in CONFIDENCE.items():
            button = self._choice(text, "confidenceChoice", confidence)
            button.clicked.connect(lambda checked, v=value: self._confidence_clicked(v, checked))
            self.confidence_buttons[value] = button
            row.addWidget(button)
        choices.flow.addWidget(verdicts)
        choices.flow.addWidget(confidence)
        body.addWidget(choices)
        self.rationale = QPlainTextEdit(self.body)
        self.rationale.setObjectName("rationale")
        self.rationale.setPlaceholderText("Rationale (required): what you checked, and why the verdict follows")
        self.rationale.setTabChangesFocus(True)
        self.rationale.setFixedHeight(64)
        helpers = QHBoxLayout()
        helpers.setSpacing(6)
        self.recent_button = QToolButton(self.body)
        self.recent_button.setObjectName("small")
        self.recent_button.setText("Recent rationales")
        self.recent_button.setToolTip("Use one of the rationales you saved last, then edit it")
        self.recent_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.recent_menu = QMenu(self.recent_button)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.recent_button.setMenu(self.recent_menu)
        helpers.addWidget(self.recent_button)
        hint = PlainLabel("Tags you pick below start a rationale to edit.", self.body)
        hint.setObjectName("muted")
        helpers.addWidget(hint, 1)
        body.addWidget(self.rationale)
        body.addLayout(helpers)
        self.tags = TagChips(self.body)
        body.addWidget(self.tags)
        self.error = PlainLabel(self.body)
        self.error.setObjectName("inlineError")
        self.error.setWordWrap(True)
        self.error.hide()
        body.addWidget(self.error)
        actions = QHBoxLayout()
        self.state = PlainLabel(self.body)
        self.state.setObjectName("saveState")
        actions.addWidget(self.state, 1)
        self.clear_button = QPushButton("Clear verdict", self.body)
        self.clear_button.setObjectName("small")
        self.clear_button.setToolTip("Remove your verdict on this claim (Ctrl+Z brings it back)")
        self.clear_button.clicked.connect(self.clear)
        actions.addWidget(self.clear_button)
        self.save_button = QPushButton("Save  (Ctrl+Enter)", self.body)
        self.save_button.setObjectName("primary")
        self.save_button.clicked.connect(self.save)
        actions.addWidget(self.save_button)
        body.addLayout(actions)
        layout.addWidget(self.body)
        self.verdict_group.buttonClicked.connect(lambda _b: self._edited())
        self.rationale.textChanged.connect(self._edited)
        self.tags.changed.connect(self._tags_changed)

    def _small(self, text: str, slot: object, layout: QHBoxLayout) -> QPushButton:
        button = QPushButton(text, self)
        button.setObjectName("small")
        button.clicked.connect(slot)
        layout.addWidget(button)
        return button

    def _choice(self, text: str, name: str, parent: QWidget) -> QToolButton:
        button = QToolButton(parent)
        button.setObjectName(name)
        button.setText(text)
        button.setCheckable(True)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        return button

    def apply_theme(self) -> None:
        """Checked verdict buttons take their verdict's colour, as the badges do."""
        rules = []
        text = "#111418" if theme.colors().dark else "#ffffff"  # as on the badges, readable on either theme
        for verdict in HUMAN_VERDICTS:
            color = theme.verdict_color(verdict).name()
            rules.append(
                f'QToolButton#verdictChoice[verdict="{verdict.value}"]:checked '
                f"{{ background: {color}; border-color: {color}; color: {text}; }}"
            )
            rules.append(  # checked and focused: the focus ring stays visible on the verdict's colour
                f'QToolButton#verdictChoice[verdict="{verdict.value}"]:checked:focus '
                f"{{ background: {color}; border: 2px solid {theme.colors().text}; color: {text}; }}"
            )
        self.setStyleSheet("\n".join(rules))

    # -- what is shown ----------------------------------------------------------------------------------------

    def show_nothing(self, why: str = "") -> None:
        """No claim to give a verdict on; `why` says so when there is a claim on screen (a provisional one)."""
        self._stash()
        self.claim_key = None
        self.heading.setText("YOUR VERDICT")
        self.summary.setText(why)
        for button in (self.pairs_button, self.note_button, self.toggle, self.identity_button):
            button.hide()
        self.body.hide()

    def show_page(self, notes: int) -> None:
        """A page is shown: no verdict, but notes can be added to it."""
        self._stash()
        self.claim_key = None
        self.heading.setText("YOUR NOTES")
        count = f"{notes} note{'s' if notes != 1 else ''}" if notes else "No notes"
        self.summary.setText(f"{count} on this page")
        self.note_button.setVisible(self.controller.active)
        self._show_identity_hint()
        self.pairs_button.hide()
        self.toggle.hide()
        self.body.hide()

    def show_claim(self, key: str, label: str, pair_sets: int) -> None:
        self._stash()
        self.claim_key, self.claim_label = key, label
        self.heading.setText("YOUR VERDICT")
        self.pairs_button.setVisible(pair_sets > 0)
        self.pairs_button.setText("Rate image pairs…" if pair_sets == 1 else f"Rate image pairs ({pair_sets} sets)…")
        if not self.controller.active:
            self.note_button.hide()
            self.toggle.hide()
            self.body.hide()
            self._show_identity_hint()
            return
        self.identity_button.hide()
        self.note_button.show()
        self.toggle.show()
        self.tags.set_choices(self.controller.tag_choices())
        draft, stored = self.drafts.pop(key, None), Draft.of(self.controller.my_verdict(key))
        self._fill(draft if draft is not None else stored)
        self._baseline = stored  # a restored draft still counts as the reviewer's edit
        self._set_error("")
        self.state.setText("")
        self._saved_id = None
        self._set_expanded(self.expanded or draft is not None)
        self._update()

    def refresh(self) -> None:
        """The annotations changed (an undo, another window): show the stored verdict unless edits are pending."""
        if self.claim_key is None or not self.controller.active:
            return
        if not self.edited:
            self._fill(Draft.of(self.controller.my_verdict(self.claim_key)))
        stored = self.stored
        if self._saved_id is not None and (stored is None or stored.id != self._saved_id):
            self._saved_id = None  # an undo or another window replaced what was saved: "Saved at" would be stale
            self.state.setText("Your verdict changed since (an undo or another window)." if self.dirty else "")
        self._update()

    def _show_identity_hint(self) -> None:
        self.identity_button.setVisible(not self.controller.active)
        if not self.controller.active:
            self.summary.setText(self.controller.reason or "Nobody is reviewing.")

    def _fill(self, draft: Draft) -> None:
        self._baseline = draft
        self._loading = True
        self.verdict_group.setExclusive(False)
        for verdict, button in self.verdict_buttons.items():
            button.setChecked(verdict == draft.verdict)
        self.verdict_group.setExclusive(True)
        for value, button in self.confidence_buttons.items():
            button.setChecked(value == draft.confidence)
        self.rationale.setPlainText(draft.rationale)
        self.tags.set_selected(draft.tags)
        self._template = ""
        self._loading = False

    def _stash(self) -> None:
        """Keep unsaved edits of the claim being left, to restore when the reviewer comes back."""
        if self.claim_key is not None and self.controller.active and self.edited:
            self.drafts[self.claim_key] = self.current()

    # -- state ------------------------------------------------------------------------------------------------

    def current(self) -> Draft:
        verdict = next((v for v, b in self.verdict_buttons.items() if b.isChecked()), None)
        confidence = next((v for v, b in self.confidence_buttons.items() if b.isChecked()), None)
        return Draft(verdict, self.rationale.toPlainText(), confidence, self.tags.selected())

    @property
    def stored(self) -> VerdictRecord | None:
        return self.controller.my_verdict(self.claim_key) if self.claim_key is not None else None

    @property
    def dirty(self) -> bool:
        """The fields differ from the stored verdict (there is something to save)."""
        return not self.current().same_as(Draft.of(self.stored))

    @property
    def edited(self) -> bool:
        """The reviewer changed the fields since they were filled from the store."""
        return not self.current().same_as(self._baseline)

    @property
    def can_save(self) -> bool:
        draft = self.current()
        return self.claim_key is not None and draft.verdict is not None and bool(draft.rationale.strip()) and self.dirty

    def _confidence_clicked(self, value: int, checked: bool) -> None:
        for other, button in self.confidence_buttons.items():  # one at most; clicking the chosen one unsets it
            if other != value:
                button.setChecked(False)
        self._edited()

    def _edited(self) -> None:
        if not self._loading:
            self._set_error("")
            self._update()

    def _tags_changed(self) -> None:
        """While the rationale is empty or still the template, the picked tags (re)write the template."""
        if self._loading:
            return
        text = self.rationale.toPlainText()
        if not text.strip() or (self._template and text == self._template):
            draft = self.current()
            self._template = rationale_template(draft.verdict, draft.tags) if draft.tags else ""
            self.rationale.setPlainText(self._template)
            self.rationale.moveCursor(self.rationale.textCursor().MoveOperation.End)
        self._edited()

    def choose(self, verdict: Verdict) -> None:
        """A verdict key: choose `verdict` (not saved until Ctrl+Enter); the editor opens when hidden."""
        if self.claim_key is None:
            return
        if not self.controller.active:
            self.identity_requested.emit()
            return
        if not self.body.isVisible():
            self._set_expanded(True)
        self.verdict_buttons[verdict].setChecked(True)
        if self._template and self.rationale.toPlainText() == self._template:
            self._tags_changed()  # the template names the verdict: follow the new choice
        self._edited()

    def unchoose(self) -> None:
        """Nothing saved yet: forget the chosen verdict (the 0 key when there is no saved verdict to clear)."""
        self.verdict_group.setExclusive(False)
        for button in self.verdict_buttons.values():
            button.setChecked(False)
        self.verdict_group.setExclusive(True)
        self._edited()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = _stored_recent()
        for text in recent:
            shown = " ".join(text.split())
            action = self.recent_menu.addAction(shown if len(shown) <= 70 else shown[:69] + "…")
            action.setToolTip(plain_tooltip(text))
            action.triggered.connect(lambda _=False, t=text: self.use_rationale(t))
        if not recent:
            self.recent_menu.addAction("No rationale saved yet").setEnabled(False)

    def use_rationale(self, text: str) -> None:
        """Put an earlier rationale in the field, to edit before saving."""
        self.rationale.setPlainText(text)
        self.rationale.setFocus()
        self.rationale.moveCursor(self.rationale.textCursor().MoveOperation.End)

    def _update(self) -> None:
        stored, draft = self.stored, self.current()
        for verdict, button in self.verdict_buttons.items():  # the tick says which one Ctrl+Enter saves
            name = verdict.value.capitalize()
            button.setText(f"✓ {name}" if button.isChecked() else name)
        self.save_button.setEnabled(self.can_save)
        self.clear_button.setEnabled(stored is not None)
        if not self.dirty:
            if self.state.text() in _PENDING:
                self.state.setText("")
        elif draft.verdict is None:
            self.state.setText(_PENDING[0])
        elif not draft.rationale.strip():
            self.state.setText(_PENDING[1])
        else:
            self.state.setText(_PENDING[2])
        self.save_button.setToolTip(
            "Save your verdict (Ctrl+Enter); it is on disk when “Saved” shows"
            if self.can_save
            else "Choose a verdict and give a rationale first"
        )
        self.summary.setText(self._summary(stored))
        others = self.controller.other_verdicts(self.claim_key) if self.claim_key else []
        tip = "\n".join(f"{r.annotator}: {r.payload.verdict.value} — {r.payload.rationale}" for r in others)
        self.summary.setToolTip(plain_tooltip(f"Other reviewers:\n{tip}") if tip else "")

    def _summary(self, stored: VerdictRecord | None) -> str:
        chosen = self.current().verdict
        if chosen is not None and self.dirty and (stored is None or chosen != stored.payload.verdict):
            text = f"Chosen: {chosen.value.upper()}, not saved yet"
            if stored is not None:
                text += f" (saved: {stored.payload.verdict.value.upper()})"
            text += "."
        elif stored is None:
            text = "No verdict from you yet."
        else:
            p = stored.payload
            text = f"{p.verdict.value.upper()}"
            if p.confidence:
                text += f" · confidence {p.confidence}/3"
            if p.tags:
                text += f" · {len(p.tags)} tag{'s' if len(p.tags) != 1 else ''}"
        if self.dirty and not self.expanded:
            text += "   Unsaved edits."
        return text

    def _set_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def _toggle(self) -> None:
        self._set_expanded(not self.expanded)
        self.expanded = self.body.isVisibleTo(self)
        store = window_state.settings()
        store.setValue(SHOWN_KEY, self.expanded)
        store.sync()
        self._update()

    def _set_expanded(self, expanded: bool) -> None:
        self.body.setVisible(expanded and self.claim_key is not None and self.controller.active)
        self.toggle.setText("Hide" if expanded else "Record verdict…" if self.stored is None else "Edit verdict…")

    def open_editor(self) -> None:
        """Show the editor and put the cursor in the rationale (the V shortcut)."""
        if self.claim_key is None:
            return
        if not self.controller.active:
            self.identity_requested.emit()
            return
        self.expanded = True
        self._set_expanded(True)
        self.rationale.setFocus()

    # -- actions ----------------------------------------------------------------------------------------------

    def save(self, then: Callable[[bool], None] | None = None) -> bool:
        """Start recording the verdict; False when there is nothing to save (the reason is shown). `then(saved)` and
        `save_finished(saved)` follow on the GUI thread once the record is on disk (True) or refused (False)."""
        key, draft = self.claim_key, self.current()
        verdict = draft.verdict
        if key is not None and verdict is not None and self.dirty and is_bare_template(draft.rationale):
            self._set_error("Say what you checked: the rationale is still the template.")
            self.rationale.setFocus()
            return False
        if not self.can_save or key is None or verdict is None:
            if key is not None and verdict is None and self.body.isVisible():
                self._set_error("Choose a verdict first (keys 1-5 in the claim list or the evidence).")
            elif key is not None and self.dirty and not draft.rationale.strip() and self.body.isVisible():
                self._set_error("A verdict needs a rationale: say what you checked.")
                self.rationale.setFocus()
            return False

        def save_and_remember(s: LogbookReview) -> None:
            s.set_verdict(key, verdict, draft.rationale.strip(), draft.confidence, draft.tags)
            # The settings file is written with an fsync: on the lane, not the GUI thread, once the record is saved.
            _store_recent(remember_rationale(_stored_recent(), draft.rationale))

        def saved(_: None) -> None:
            if self.claim_key == key:
                # What the reviewer typed while the save was in flight stays, as unsaved edits of the new record.
                if self.current().same_as(draft):
                    self.drafts.pop(key, None)
                    self._fill(Draft.of(self.stored))
                else:
                    self._baseline = Draft.of(self.stored)
                self.tags.set_choices(self.controller.tag_choices())
                self._set_error("")
                stored = self.stored
                self._saved_id = stored.id if stored is not None else None
                self._update()
                self.state.setText(f"Saved at {time.strftime('%H:%M:%S')}.")
            elif key in self.drafts and self.drafts[key].same_as(draft):
                self.drafts.pop(key)  # the reviewer moved on meanwhile: the kept draft is what was saved
            self._finished(then, True)

        def refused(exc: CommandFailed) -> None:
            if self.claim_key == key:
                self._set_error(str(exc))
                self.state.setText("Not saved.")
            self._finished(then, False)

        self.state.setText("Saving…")
        self.controller.submit(save_and_remember, saved, refused, initiator=self)
        return True

    def _finished(self, then: Callable[[bool], None] | None, saved: bool) -> None:
        if then is not None:
            then(saved)
        self.save_finished.emit(saved)

    def clear(self, then: Callable[[bool], None] | None = None) -> bool:
        """Start removing the saved verdict; False when there is none. `then(removed)` follows once it is done."""
        key = self.claim_key
        if key is None or self.stored is None:
            return False

        def cleared(_: None) -> None:
            if self.claim_key == key:
                self._fill(Draft())
                self._update()
                self.state.setText("Verdict removed; Ctrl+Z brings it back.")
            self._finished(then, True)

        def refused(exc: CommandFailed) -> None:
            if self.claim_key == key:
                self._set_error(str(exc))
            self._finished(then, False)

        self.controller.submit(lambda s: s.clear_verdict(key), cleared, refused)
        return True


def _stored_shown() -> bool:
    value = window_state.settings().value(SHOWN_KEY)
    return value is None or str(value).lower() == "true"


def _stored_recent() -> list[str]:
    """The reviewer's last rationales, newest first (a JSON list: QSettings turns a one-item list into a string)."""
    try:
        value = json.loads(str(window_state.settings().value(RECENT_KEY) or "[]"))
    except ValueError:
        return []
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _store_recent(recent: list[str]) -> None:
    store = window_state.settings()
    store.setValue(RECENT_KEY, json.dumps(recent, ensure_ascii=False))
    store.sync()
