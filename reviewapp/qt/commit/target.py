"""The "Where to" part of the commit dialog: git commit, git commit and push, Hub commit, Hub pull request."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QRadioButton,
    QWidget,
)

from reviewapp.core.commit.hub_repo import REPO_TYPES, HubRepo
from reviewapp.qt.plain import PlainLabel, plain_tooltip

GIT_COMMIT, GIT_PUSH, HUB_COMMIT, HUB_PR = "git", "git+push", "hub", "hub+pr"
LABELS = {
    GIT_COMMIT: "Commit (git)",
    GIT_PUSH: "Commit and push (git)",
    HUB_COMMIT: "Commit to the Hub",
    HUB_PR: "Open a pull request on the Hub",
}
INFERRED_HINT = "Taken from the logbook's space_id, which is sometimes wrong or cut short: check it before committing."
PlanKey = tuple[str, str, str]  # ("git", "", "") or ("hub", repo, type): what a plan depends on


@dataclass(frozen=True)
class Places:
    """Where a logbook's reviews can go (found off the GUI thread)."""

    git_reason: str | None  # why git cannot be used; None when it can
    git_where: str  # the checkout, for people
    hub_repo: HubRepo | None  # the repository the logbook names, if any
    hub_reason: str | None  # why it names none usable
    can_write: bool | None  # a guess whether the user may commit to hub_repo directly


class TargetBox(QGroupBox):
    changed = Signal()  # what a plan depends on changed: the kind of target, or the Hub repository

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Where to", parent)
        grid = QGridLayout(self)
        self.group = QButtonGroup(self)
        self.radios: dict[str, QRadioButton] = {}
        for index, key in enumerate((GIT_COMMIT, GIT_PUSH, HUB_COMMIT, HUB_PR)):
            radio = QRadioButton(LABELS[key], self)
            radio.setEnabled(False)
            self.group.addButton(radio)
            self.radios[key] = radio
            grid.addWidget(radio, index // 2, index % 2)
        self.git_where = PlainLabel("", self)
        self.git_where.setObjectName("muted")
        grid.addWidget(self.git_where, 2, 0, 1, 2)
        self.repo_edit = QLineEdit(self)
        self.repo_edit.setPlaceholderText("OWNER/NAME")
        self.repo_type = QComboBox(self)
        self.repo_type.addItems(list(REPO_TYPES))
        row = QHBoxLayout()
        row.addWidget(PlainLabel("Hub repository:", self))
        row.addWidget(self.repo_edit, 1)
        row.addWidget(self.repo_type)
        grid.addLayout(row, 3, 0, 1, 2)
        self.repo_hint = PlainLabel("", self)
        self.repo_hint.setObjectName("muted")
        self.repo_hint.setWordWrap(True)
        grid.addWidget(self.repo_hint, 4, 0, 1, 2)
        self._key: PlanKey | None = None
        self.group.buttonToggled.connect(self._toggled)
        # editingFinished also fires when the field merely loses focus (to the Commit button): only a change counts
        self.repo_edit.editingFinished.connect(self._maybe_changed)
        self.repo_type.currentIndexChanged.connect(lambda _index: self._maybe_changed())

    @property
    def target(self) -> str | None:
        return next((key for key, radio in self.radios.items() if radio.isChecked()), None)

    @property
    def hub(self) -> bool:
        return self.target in (HUB_COMMIT, HUB_PR)

    def select(self, key: str) -> None:
        self.radios[key].setChecked(True)

    def plan_key(self) -> PlanKey:
        if not self.hub:
            return ("git", "", "")
        return ("hub", self.repo_edit.text().strip(), self.repo_type.currentText())

    def show_places(self, places: Places) -> None:
        """Enable what applies, fill in the logbook's repository, and pick the likely target."""
        for key in (GIT_COMMIT, GIT_PUSH):
            self.radios[key].setEnabled(places.git_reason is None)
            self.radios[key].setToolTip(plain_tooltip(places.git_reason or places.git_where))
        self.git_where.setText(f"Git: {places.git_where or places.git_reason}")
        for key in (HUB_COMMIT, HUB_PR):
            self.radios[key].setEnabled(True)
        self.repo_edit.blockSignals(True)
        self.repo_type.blockSignals(True)
        if places.hub_repo is not None:
            self.repo_edit.setText(places.hub_repo.repo_id)
            self.repo_type.setCurrentText(places.hub_repo.repo_type)
        self.repo_edit.blockSignals(False)
        self.repo_type.blockSignals(False)
        self.repo_hint.setText(INFERRED_HINT if places.hub_repo is not None else places.hub_reason or "")
        if places.git_reason is None:
            self.select(GIT_COMMIT)
        else:
            self.select(HUB_PR if places.can_write is False else HUB_COMMIT)

    def _toggled(self, _button: QAbstractButton, checked: bool) -> None:
        for widget in (self.repo_edit, self.repo_type):
            widget.setEnabled(self.hub)
        if checked:
            self._maybe_changed()

    def _maybe_changed(self) -> None:
        if self.target is not None and self.plan_key() != self._key:
            self._key = self.plan_key()
            self.changed.emit()
