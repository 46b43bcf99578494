"""Review tools that open their own windows: who is reviewing, export, blinded pair rating, and commit."""

from __future__ import annotations

import io
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QWidget

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.pairs.rating import RatingError
from reviewapp.core.pairs.sets import PairSetError
from reviewapp.core.review.export import default_export_path, export_rows, write_csv, write_jsonl
from reviewapp.core.review.identity import Identity, resolve_identity
from reviewapp.core.review.preferences import load_preferences, update_preferences
from reviewapp.qt.commit.dialog import CommitDialog
from reviewapp.qt.controller import CommandFailed
from reviewapp.qt.links import display_path
from reviewapp.qt.pairs import PairRatingWindow
from reviewapp.qt.review.identity_dialog import IdentityDialog
from reviewapp.qt.review.room import ReviewRoom

EXPORT_FILTERS = "CSV (*.csv);;JSON Lines (*.jsonl)"


class ReviewTools(QObject):
    def __init__(self, room: ReviewRoom) -> None:
        super().__init__(room.host.widget())
        self.room = room
        self.controller = room.controller
        self.host = room.host
        self.window = room.host.widget()  # the parent of the dialogs
        self.pair_window: PairRatingWindow | None = None

    # -- who is reviewing -------------------------------------------------------------------------------------

    def ask_identity(self, change: bool = False) -> IdentityDialog:
        """Ask for the reviewer's name and role (non-blocking); the logbook_review opens once it is given."""
        preferences = load_preferences()
        current = self.controller.identity.name if self.controller.identity else preferences.annotator or ""
        dialog = IdentityDialog(current, preferences.role, self.window)
        dialog.accepted.connect(lambda: self._identity_chosen(dialog.chosen_name, dialog.chosen_role, change))
        self.room.open_dialog(dialog)
        return dialog

    def _identity_chosen(self, name: str, role: str, change: bool) -> None:
        logbook = self.controller.logbook
        if logbook is None:
            return
        update_preferences(lambda p: p.model_copy(update={"role": role}))
        identity: Identity | None
        if change or self.controller.active:
            update_preferences(lambda p: p.model_copy(update={"annotator": name, "annotator_source": "asked"}))
            identity = Identity(name, "asked")
        else:  # the first time: the usual order (Hub login, git), the typed name when neither knows
            identity = resolve_identity(ask=lambda: name, cwd=logbook.root)
        if identity is None:
            return
        try:
            self.controller.open_as(identity, role)
        except CommandFailed as exc:
            self.host.show_error("Cannot review this logbook", str(exc))
            return
        self.room.say(f"Reviewing as {identity.name} ({role}).")

    # -- export -----------------------------------------------------------------------------------------------

    def export(self) -> QFileDialog | None:
        """Ask where to save the review (CSV or JSON Lines, by the file's suffix)."""
        logbook = self.controller.logbook
        if logbook is None or not self.controller.active:
            return None
        start = default_export_path(logbook, rule=self.controller.rule)
        dialog = QFileDialog(self.window, "Export reviews", str(start), EXPORT_FILTERS)
        dialog.setObjectName("exportDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.fileSelected.connect(lambda path: self.export_to(Path(path), dialog.selectedNameFilter()))
        self.room.open_dialog(dialog)
        return dialog

    def export_to(self, path: Path, name_filter: str = "") -> bool:
        logbook_review = self.controller.logbook_review
        if logbook_review is None:
            return False
        jsonl = path.suffix.lower() == ".jsonl" or (not path.suffix and "jsonl" in name_filter)
        if not path.suffix:
            path = path.with_suffix(".jsonl" if jsonl else ".csv")
        rows = export_rows(logbook_review.state, rule=self.controller.rule)
        out = io.StringIO()
        (write_jsonl if jsonl else write_csv)(rows, out)
        try:
            atomic_write(path, out.getvalue().encode("utf-8"))
        except OSError as exc:
            self.host.show_error("Could not export the review", f"{path}: {exc.strerror or exc}")
            return False
        self.room.say(f"Exported {len(rows)} rows to {display_path(path)}.")
        return True

    # -- image pairs ------------------------------------------------------------------------------------------

    def rate_pairs(self, claim_key: str | None = None) -> QWidget | None:
        """Rate the pair set of the claim (or of the logbook); with several, ask which."""
        if not self.controller.active:
            return None
        names = self.controller.sets_for(claim_key) or self.controller.sets_for(None)
        if not names:
            self.room.say("This logbook has no image-pair sets (a <name>-pairs.json or .csv file).")
            return None
        if len(names) == 1:
            return self.open_pairs(names[0])
        dialog = QInputDialog(self.window)
        dialog.setObjectName("pairSetChooser")
        dialog.setWindowTitle("Rate image pairs")
        dialog.setLabelText("Which pair set?")
        dialog.setComboBoxItems(names)
        dialog.setComboBoxEditable(False)
        dialog.textValueSelected.connect(self.open_pairs)
        self.room.open_dialog(dialog)
        return dialog

    def open_pairs(self, name: str) -> PairRatingWindow | None:
        logbook_review = self.controller.logbook_review
        if logbook_review is None:
            return None
        try:
            window = PairRatingWindow.for_set(logbook_review, name, self.window)
        except (PairSetError, RatingError) as exc:
            self.host.show_error("Cannot rate these image pairs", str(exc))
            return None
        if self.pair_window is not None and self.pair_window.isVisible():
            self.pair_window.close()
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.destroyed.connect(self._pairs_closed)
        window.show()
        self.pair_window = window
        return window

    def _pairs_closed(self) -> None:
        self.pair_window = None  # what it wrote reached the review window through the history, as it was written

    # -- commit -----------------------------------------------------------------------------------------------

    def commit(self) -> CommitDialog | None:
        logbook_review, logbook = self.controller.logbook_review, self.controller.logbook
        if logbook_review is None or logbook is None:
            self.host.show_error("Nothing to commit", self.controller.reason or "Open a logbook and review it first.")
            return None
        blinder = self.controller.blinder
        scrub = blinder.scrub if blinder is not None else None
        dialog = CommitDialog(logbook, logbook_review=logbook_review, parent=self.window, scrub=scrub)
        dialog.committed.connect(lambda _outcome: self.controller.reload())
        self.room.open_dialog(dialog)
        return dialog
