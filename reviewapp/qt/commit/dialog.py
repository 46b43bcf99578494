"""The commit dialog: which review files, what changed in them, the message, where to, and the result.

    dialog = CommitDialog(logbook, logbook_review=logbook_review, parent=window)
    dialog.committed.connect(...)   # a CommitOutcome, after a commit landed
    dialog.open()

Everything that runs git or talks to the Hub (finding the checkout, planning, committing) runs on a worker
thread; the window keeps painting and shows progress. A plan that a newer request superseded is dropped.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.commit.hub_repo import HubRepo
from reviewapp.core.commit.plan import CommitPlan
from reviewapp.core.commit.service import CommitOutcome, CommitService
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.progress import ProgressCallback
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.qt import theme
from reviewapp.qt.commit.changes import ChangesPanel
from reviewapp.qt.commit.target import GIT_COMMIT, GIT_PUSH, HUB_COMMIT, HUB_PR, Places, PlanKey, TargetBox
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.workers import TaskRunner, alive

__all__ = ["GIT_COMMIT", "GIT_PUSH", "HUB_COMMIT", "HUB_PR", "CommitDialog"]


class CommitDialog(QDialog):
    committed = Signal(object)  # CommitOutcome

    def __init__(
        self,
        logbook: Logbook,
        *,
        logbook_review: LogbookReview | None = None,
        service: CommitService | None = None,
        parent: QWidget | None = None,
        scrub: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(parent)
        # blind review: the repository, checkout and messages name the participant, so they are scrubbed
        self.blind = scrub is not None
        self.scrub: Callable[[str], str] = scrub or (lambda text: text)
        self.setObjectName("commitDialog")
        self.setWindowTitle("Commit reviews")
        self.logbook = logbook
        self.logbook_review = logbook_review
        self.service = service or CommitService(
            logbook, annotator=logbook_review.identity.name if logbook_review else None
        )
        self.plan: CommitPlan | None = None
        self.outcome: CommitOutcome | None = None
        self.error = ""
        self._runner = TaskRunner(1, self)
        self._request = 0  # id of the newest planning request; older results are dropped
        self._committing = False
        self._message_edited = False
        self._planned_for: PlanKey | None = None  # what the newest plan request was for
        self._opened_pr: PlanKey | None = None  # where a pull request was opened: never twice by accident
        self._build()
        self._set_busy("Looking for the logbook's repository…")
        self._runner.submit(lambda _progress: self._find_places(), self._places_found, self._places_failed)

    # -- layout ----------------------------------------------------------------------------------------------------

    def _build(self) -> None:
        # Titles, file names and messages quoting review lines are shown as plain text, never as HTML.
        heading = PlainLabel(f"Commit the reviews of “{self.logbook.title}”", self)
        heading.setObjectName("claimTitle")
        heading.setWordWrap(True)
        self.target_box = TargetBox(self)
        self.radios, self.repo_edit, self.repo_hint = (
            self.target_box.radios,
            self.target_box.repo_edit,
            self.target_box.repo_hint,
        )
        self.changes = ChangesPanel(self)
        self.files, self.diff, self.raw_toggle = self.changes.files, self.changes.diff, self.changes.raw_toggle

        message_title = PlainLabel("MESSAGE", self)
        message_title.setObjectName("paneTitle")
        self.message = QPlainTextEdit(self)
        self.message.setFixedHeight(96)
        self.notes = PlainLabel("", self)
        self.notes.setObjectName("notice")
        self.notes.setWordWrap(True)
        self.notes.hide()

        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.status = PlainLabel("", self)
        self.status.setObjectName("muted")
        self.status.setWordWrap(True)
        self.outcome_label = QLabel("", self)
        self.outcome_label.setTextFormat(Qt.TextFormat.RichText)  # built by _result_html, every value escaped
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setOpenExternalLinks(True)
        self.outcome_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.error_label = PlainLabel("", self)
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        colors = theme.colors()
        self.error_label.setStyleSheet(f"color: {colors.error}; font-weight: 600;")
        # the application's style sheet gives fields one look whether or not they can be used
        self.setStyleSheet(
            f"QLineEdit:disabled, QComboBox:disabled {{ color: {colors.muted}; background: {colors.panel}; }}"
        )
        status_row = QHBoxLayout()
        status_row.addWidget(self.progress)
        status_row.addWidget(self.status, 1)

        self.buttons = QDialogButtonBox(self)
        self.commit_button = QPushButton("Commit", self)
        self.commit_button.setDefault(True)
        self.commit_button.setEnabled(False)
        self.buttons.addButton(self.commit_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.commit_button.clicked.connect(self._commit)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        for widget, stretch in ((heading, 0), (self.target_box, 0), (self.changes, 1), (message_title, 0)):
            layout.addWidget(widget, stretch)
        layout.addWidget(self.message)
        layout.addWidget(self.notes)
        layout.addLayout(status_row)
        layout.addWidget(self.outcome_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        available = self.screen().availableGeometry()
        self.resize(min(980, available.width() * 19 // 20), min(760, available.height() * 19 // 20))
        self.target_box.changed.connect(self._replan)
        self.message.textChanged.connect(self._message_changed)

    # -- state -----------------------------------------------------------------------------------------------------

    @property
    def target(self) -> str | None:
        return self.target_box.target

    def select_target(self, key: str) -> None:
        """Choose where to commit (GIT_COMMIT, GIT_PUSH, HUB_COMMIT or HUB_PR), as clicking its button does."""
        self.target_box.select(key)

    def is_busy(self) -> bool:
        return self.progress.isVisible()

    def _set_busy(self, text: str) -> None:
        self.progress.show()
        self.status.setText(self.scrub(text))
        self.commit_button.setEnabled(False)

    def _set_idle(self, text: str = "") -> None:
        self.progress.hide()
        self.status.setText(self.scrub(text))
        plan_ready = self.plan is not None and not self.plan.empty and not self.plan.offline
        self.commit_button.setEnabled(plan_ready and not self._committing and self._opened_pr != self._planned_for)

    def _show_error(self, text: str) -> None:
        self.error = text = self.scrub(text)
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    # -- where reviews can go --------------------------------------------------------------------------------------

    def _find_places(self) -> Places:
        git_reason = self.service.git_unavailable()
        checkout = self.service.checkout()
        try:
            repo: HubRepo | None = self.service.hub_repo()
            hub_reason = None
        except CommitError as exc:
            repo, hub_reason = None, exc.for_dialog()
        can_write = self.service.hub(repo).can_write() if repo is not None and git_reason is not None else None
        return Places(git_reason, checkout.describe() if checkout else "", repo, hub_reason, can_write)

    def _places_found(self, places: Places) -> None:
        if alive(self):
            self.target_box.show_places(places)
            if self.blind:
                self.target_box.git_where.setText(self.scrub(self.target_box.git_where.text()))
                self.repo_edit.setEchoMode(QLineEdit.EchoMode.Password)  # kept, not shown: it names the participant
                self.repo_edit.setToolTip("Hidden in blind review")

    def _places_failed(self, exc: BaseException) -> None:
        if alive(self):
            self._show_error(f"Cannot tell where this logbook's reviews can go: {_for_dialog(exc)}")
            self._set_idle()

    def _hub_repo(self) -> HubRepo:
        repo_type = self.target_box.repo_type.currentText()
        return self.service.hub_repo(self.repo_edit.text().strip() or None, repo_type, field="Hub repository")

    # -- planning --------------------------------------------------------------------------------------------------

    def _replan(self) -> None:
        target = self.target
        if target is None or self._committing:
            return
        self._request += 1
        request = self._request
        self._planned_for = self.target_box.plan_key()
        self.plan = None
        self._show_error("")
        if target in (HUB_COMMIT, HUB_PR) and not self.repo_edit.text().strip():
            self.changes.show_plan(None)  # nothing to plan against yet: the hint under the field says what to do
            self._set_idle("Enter the Space or dataset to commit to under Hub repository.")
            return
        self._set_busy("Reading the review files and the last commit…")
        repo: HubRepo | None = None
        if target in (HUB_COMMIT, HUB_PR):
            try:
                repo = self._hub_repo()
            except CommitError as exc:
                self._planned_failed(request, exc)
                return

        def work(_progress: ProgressCallback) -> CommitPlan:
            # a preview needs no network: offline it is made against the last state known here, and says so
            return self.service.plan_git() if repo is None else self.service.plan_hub(repo, offline_ok=True)

        self._runner.submit(
            work, lambda plan: self._planned(request, plan), lambda exc: self._planned_failed(request, exc)
        )

    def _planned(self, request: int, plan: CommitPlan) -> None:
        if not alive(self) or request != self._request:
            return
        self.plan = plan
        self.changes.show_plan(plan)
        if not self._message_edited:
            self.message.blockSignals(True)
            self.message.setPlainText("" if plan.empty else plan.message.rstrip("\n"))
            self.message.blockSignals(False)
        self.notes.setText(self.scrub("\n".join(f"• {note}" for note in plan.notes)))
        self.notes.setVisible(bool(plan.notes))
        changed = len(plan.changed_files)
        summary = "Nothing to commit." if plan.empty else f"{changed} file{'s' if changed != 1 else ''} to commit"
        if not plan.empty and self._opened_pr == self._planned_for:
            summary = "The pull request holds these changes until it is merged"
        if plan.offline:
            summary = "Offline: this is what would be committed. Commit once the Hub can be reached"
        self._set_idle(f"{summary} — {plan.destination}")
        if self.commit_button.isEnabled():
            self.commit_button.setFocus()

    def _planned_failed(self, request: int, exc: BaseException) -> None:
        if not alive(self) or request != self._request:
            return
        self.changes.show_plan(None)
        self._show_error(_for_dialog(exc))
        self._set_idle()

    def _message_changed(self) -> None:
        self._message_edited = True

    # -- committing ------------------------------------------------------------------------------------------------

    def _commit(self) -> None:
        plan, target = self.plan, self.target
        if plan is None or target is None or self._committing:
            return
        message = self.message.toPlainText().strip() or None
        self._committing = True
        self._show_error("")
        self.outcome_label.setText("")
        self._enable_inputs(False)
        self._set_busy("Committing…")
        if target in (GIT_COMMIT, GIT_PUSH):
            push = target == GIT_PUSH

            def work(progress: ProgressCallback) -> CommitOutcome:
                return self.service.commit_git(plan, message=message, push_after=push, progress=progress)

        else:
            repo, pr = self._hub_repo(), target == HUB_PR

            def work(progress: ProgressCallback) -> CommitOutcome:
                return self.service.commit_hub(plan, repo, message=message, pr=pr, confirmed=True, progress=progress)

        self._runner.submit(work, self._committed, self._commit_failed, self._progress)

    def _progress(self, _done: int, _total: int, label: str) -> None:
        if alive(self) and label:
            self.status.setText(label[:1].upper() + label[1:] + "…")

    def _committed(self, outcome: CommitOutcome) -> None:
        if not alive(self):
            return
        self._committing = False
        self.outcome = outcome
        self._enable_inputs(True)
        self.outcome_label.setText(self.scrub(_result_html(outcome)))
        if outcome.status == "pull_request":
            self._opened_pr = self._planned_for
        if self.logbook_review is not None:
            self.logbook_review.refresh_revision()
        self.close_button.setDefault(True)
        self._message_edited = False
        self._replan()  # the dialog now shows what is left to commit (usually nothing)
        if outcome.status == "pushed_aside":
            self._show_error("Your commit conflicts with the remote and was pushed to a new branch; see above.")
        self.committed.emit(outcome)

    def _commit_failed(self, exc: BaseException) -> None:
        if not alive(self):
            return
        self._committing = False
        self._enable_inputs(True)
        self._show_error(_for_dialog(exc))
        self._set_idle()

    def _enable_inputs(self, enabled: bool) -> None:
        # children disabled on their own (git where there is no checkout) stay disabled when the box comes back
        self.target_box.setEnabled(enabled)
        self.message.setEnabled(enabled)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._committing:  # a commit half-way is never abandoned by closing the window
            self.status.setText("Still committing; the window closes once it is done.")
            event.ignore()
            return
        super().closeEvent(event)

    def reject(self) -> None:
        if not self._committing:
            super().reject()


def _for_dialog(exc: BaseException) -> str:
    """An error in the dialog's terms: fields and buttons, never command-line flags."""
    return exc.for_dialog() if isinstance(exc, CommitError) else f"Unexpected error: {exc}"


def _result_html(outcome: CommitOutcome) -> str:
    headline = html.escape(outcome.headline())
    link = outcome.pr_url or outcome.url
    parts = [f"<b>{headline}</b>"]
    if link and outcome.status != "pull_request":
        parts.append(f'<a href="{html.escape(link, quote=True)}">{html.escape(link)}</a>')
    elif link:
        parts = [f'<b>Opened a pull request:</b> <a href="{html.escape(link, quote=True)}">{html.escape(link)}</a>']
    if outcome.commit and outcome.target == "git":
        parts.append(f"Commit id: <code>{html.escape(outcome.commit)}</code>")
    parts.extend(html.escape(note) for note in outcome.notes)
    return "<br>".join(parts)
