"""File > Open from the Hub or a URL…, and File > Find Logbooks on a Paper…: one dialog for both.

The source field takes every SOURCE form the command line takes (OWNER/NAME, datasets/OWNER/NAME, a Space URL,
a published logbook's URL, @REV to pin). The find section lists the challenge's Spaces on a paper (the same
listing as `reviewapp find`, with its owner and tag filters), off the GUI thread; picking one fills the source
field, double-clicking opens it. The download limits are the preferences' (also used by every command), saved
when a source is opened.
Private and gated Spaces need huggingface_hub's own login: the dialog says so and never asks for a token.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.io.source_ref import SourceError, parse_source
from reviewapp.core.progress import CancelToken
from reviewapp.core.review.preferences import load_preferences, update_preferences
from reviewapp.core.sources.find import FoundLogbook
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.workers import TaskRunner, alive

log = logging.getLogger(__name__)
SOURCE_HINT = (
    "A Space (OWNER/NAME or its URL), a dataset (datasets/OWNER/NAME) or the URL of a published logbook; add "
    "@REVISION to open exactly that revision. Private or gated Spaces need you to log in with `hf auth login` "
    "(or HF_TOKEN) first; reviewapp never asks for a token."
)


class OpenSourceDialog(QDialog):
    open_requested = Signal(str)  # the SOURCE text to open

    def __init__(self, parent: QWidget | None = None, *, find_first: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open a Logbook from the Hub or a URL")
        self.setMinimumWidth(640)
        self._runner = TaskRunner(1, self)
        self._find_token: CancelToken | None = None

        self.source = QLineEdit()
        self.source.setPlaceholderText("alice/repro-paper-title   ·   datasets/alice/x   ·   https://…   ·   …@abc1234")
        self.source.setAccessibleName("Source")
        hint = PlainLabel(SOURCE_HINT)
        hint.setObjectName("muted")
        hint.setWordWrap(True)
        self.problem = PlainLabel()
        self.problem.setObjectName("disagreement")
        self.problem.hide()

        self.orid = QLineEdit()
        self.orid.setPlaceholderText("OpenReview id, e.g. AbCdEf1234")
        self.orid.setAccessibleName("Paper OpenReview id")
        self.author = QLineEdit()
        self.author.setPlaceholderText("optional: only this owner")
        self.tags = QLineEdit()
        self.tags.setPlaceholderText("optional: only Spaces with these tags too, comma-separated")
        self.tags.setAccessibleName("Tags")
        self.find_button = QPushButton("&Find")
        self.results = QTreeWidget()
        self.results.setHeaderLabels(["Space", "Last modified", "Claims"])
        self.results.setRootIsDecorated(False)
        self.results.setColumnWidth(0, 330)
        self.results.setColumnWidth(1, 150)
        self.find_status = PlainLabel("Lists every public Space tagged icml2026-repro on the paper, all pages of it.")
        self.find_status.setObjectName("muted")
        self.find_status.setWordWrap(True)

        find_box = QGroupBox("Find logbooks on a paper")
        form = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.orid, 1)
        row.addWidget(self.find_button)
        form.addRow("Paper:", row)
        form.addRow("Owner:", self.author)
        form.addRow("Tags:", self.tags)
        find_layout = QVBoxLayout(find_box)
        find_layout.addLayout(form)
        find_layout.addWidget(self.results, 1)
        find_layout.addWidget(self.find_status)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        source_form = QFormLayout()
        source_form.addRow("Source:", self.source)
        layout.addLayout(source_form)
        layout.addWidget(hint)
        layout.addWidget(self._limits_row())
        layout.addWidget(self.problem)
        layout.addWidget(find_box, 1)
        layout.addWidget(self.buttons)

        self.buttons.accepted.connect(self.open_source)
        self.buttons.rejected.connect(self.reject)
        self.find_button.clicked.connect(self.find_logbooks)
        self.orid.returnPressed.connect(self.find_logbooks)
        self.author.returnPressed.connect(self.find_logbooks)
        self.tags.returnPressed.connect(self.find_logbooks)
        self.source.returnPressed.connect(self.open_source)
        self.results.currentItemChanged.connect(self._picked)
        self.results.itemActivated.connect(lambda *_: self.open_source())
        (self.orid if find_first else self.source).setFocus()

    def open_source(self) -> None:
        text = self.source.text().strip()
        try:
            parse_source(text)
        except SourceError as exc:
            self.problem.setText(str(exc))
            self.problem.show()
            return
        self._save_limits()
        self.open_requested.emit(text)
        self.accept()

    def _limits_row(self) -> QWidget:
        preferences = load_preferences()
        self.max_mb = QDoubleSpinBox()
        self.max_mb.setRange(1, 1_000_000)
        self.max_mb.setDecimals(0)
        self.max_mb.setSuffix(" MB")
        self.max_mb.setValue(preferences.download_max_mb)
        self.max_mb.setAccessibleName("Largest download per logbook, in megabytes")
        self.max_minutes = QDoubleSpinBox()
        self.max_minutes.setRange(0.5, 24 * 60)
        self.max_minutes.setDecimals(1)
        self.max_minutes.setSuffix(" minutes")
        self.max_minutes.setValue(preferences.download_max_minutes)
        self.max_minutes.setAccessibleName("Longest download per logbook, in minutes")
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(PlainLabel("Stop a download at"))
        layout.addWidget(self.max_mb)
        layout.addWidget(PlainLabel("or after"))
        layout.addWidget(self.max_minutes)
        layout.addWidget(PlainLabel("per logbook"), 1)
        row.setToolTip("Kept in your preferences; the command line uses the same limits unless given others.")
        return row

    def _save_limits(self) -> None:
        megabytes, minutes = self.max_mb.value(), self.max_minutes.value()
        preferences = load_preferences()
        if (preferences.download_max_mb, preferences.download_max_minutes) == (megabytes, minutes):
            return
        try:
            update_preferences(
                lambda p: p.model_copy(update={"download_max_mb": megabytes, "download_max_minutes": minutes})
            )
        except OSError as exc:  # an unwritable config folder: the saved limits stay in force
            log.warning("could not save the download limits: %s", exc)

    def find_logbooks(self) -> None:
        orid = self.orid.text().strip()
        if not orid:
            self.find_status.setText("Type the paper's OpenReview id first.")
            return
        from reviewapp.core.sources.find import find_logbooks as list_paper_logbooks

        if self._find_token is not None:
            self._find_token.cancel()
        token = CancelToken()
        self._find_token = token
        author = self.author.text().strip() or None
        tags = [t.strip() for t in self.tags.text().split(",") if t.strip()]
        self.results.clear()
        self.find_button.setEnabled(False)
        self.find_status.setText(f"Listing the Spaces on paper {orid}…")
        self._runner.submit(
            lambda progress: list_paper_logbooks(orid, author=author, tags=tags, cancel=token, progress=progress),
            lambda found: self._found(token, orid, found),
            lambda exc: self._find_failed(token, exc),
            lambda done, total, label: self._find_progress(token, label),
        )

    def done(self, result: int) -> None:
        if self._find_token is not None:
            self._find_token.cancel()
        super().done(result)

    def _found(self, token: CancelToken, orid: str, found: list[FoundLogbook]) -> None:
        if not alive(self) or token is not self._find_token:
            return
        self.find_button.setEnabled(True)
        for logbook in found:
            item = QTreeWidgetItem(
                [logbook.repo_id, (logbook.last_modified or "")[:16].replace("T", " "), _claims(logbook.claims)]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, logbook.repo_id)
            self.results.addTopLevelItem(item)
        count = len(found)
        self.find_status.setText(
            f"{count} logbook{'s' if count != 1 else ''} on paper {orid}; claims are counted for Spaces already "
            "downloaded. Double-click one to open it."
            if found
            else f"No public Space tagged icml2026-repro carries the tag paper-{orid}."
        )
        first = self.results.topLevelItem(0)
        if first is not None:
            self.results.setCurrentItem(first)
            self.results.setFocus()

    def _find_failed(self, token: CancelToken, exc: BaseException) -> None:
        if not alive(self) or token is not self._find_token:
            return
        self.find_button.setEnabled(True)
        self.find_status.setText(str(exc))

    def _find_progress(self, token: CancelToken, label: str) -> None:
        if alive(self) and token is self._find_token:
            self.find_status.setText(label)

    def _picked(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        if current is not None:
            self.source.setText(str(current.data(0, Qt.ItemDataRole.UserRole)))
            self.problem.hide()


def _claims(count: int | None) -> str:
    return "" if count is None else str(count)
