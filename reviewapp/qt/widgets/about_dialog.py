"""Help > About: the version, the Qt and Python it runs on, and every folder the app writes outside a logbook."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.about import Place, places, versions
from reviewapp.qt.plain import PlainLabel, button_text, plain_tooltip
from reviewapp.qt.resources import app_icon

SAFETY = (
    "Logbook content is shown without running scripts, without network access, and without reading files "
    "outside the logbook folder."
)


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle("About reviewapp")
        self.versions = versions(qVersion())
        self.places = places()

        icon = QLabel(self)
        icon.setPixmap(app_icon().pixmap(64, 64))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        title = PlainLabel(f"reviewapp {self.versions['reviewapp']}", self)
        title.setObjectName("aboutTitle")
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        title.setFont(font)
        blurb = PlainLabel("Review a coding agent's Trackio logbook claim by claim.\n" + SAFETY, self)
        blurb.setWordWrap(True)

        facts = QGridLayout()
        facts.setHorizontalSpacing(14)
        facts.setColumnStretch(1, 1)
        for row, (name, value) in enumerate(v for v in self.versions.items() if v[0] != "reviewapp"):
            facts.addWidget(_muted(name, self), row, 0, Qt.AlignmentFlag.AlignTop)
            facts.addWidget(_selectable(value, self), row, 1)
        where = PlainLabel("Where reviewapp keeps its files", self)
        where.setObjectName("sectionTitle")
        bold = where.font()
        bold.setBold(True)
        where.setFont(bold)
        folders = QGridLayout()
        folders.setHorizontalSpacing(14)
        folders.setColumnStretch(1, 1)
        for row, place in enumerate(self.places):
            folders.addWidget(_muted(place.name, self), row, 0, Qt.AlignmentFlag.AlignTop)
            path = _selectable(str(place.path), self)
            path.setToolTip(plain_tooltip(place.holds))
            folders.addWidget(path, row, 1)
            folders.addWidget(_open_button(place, self), row, 2, Qt.AlignmentFlag.AlignTop)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        copy = QPushButton("&Copy details", self)
        copy.setToolTip("Copy the versions and folders as text, for a bug report")
        copy.clicked.connect(self.copy_details)
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)

        header = QHBoxLayout()
        header.addWidget(icon)
        intro = QVBoxLayout()
        intro.addWidget(title)
        intro.addWidget(blurb)
        intro.addLayout(facts)
        header.addLayout(intro, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addSpacing(8)
        layout.addWidget(where)
        layout.addLayout(folders)
        layout.addStretch(1)
        layout.addWidget(buttons)
        width = 780  # wrapped labels ask for more height than they need at the default width
        self.resize(width, max(layout.totalHeightForWidth(width), layout.minimumSize().height()))

    def details(self) -> str:
        lines = [f"{name}: {value}" for name, value in self.versions.items()]
        lines += [f"{place.name}: {place.path}" for place in self.places]
        return "\n".join(lines) + "\n"

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details())


def _muted(text: str, parent: QWidget) -> QLabel:
    label = PlainLabel(text, parent)
    label.setObjectName("muted")
    return label


def _selectable(text: str, parent: QWidget) -> QLabel:
    label = PlainLabel(text, parent)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _open_button(place: Place, parent: QWidget) -> QPushButton:
    """Open the folder (or the log's folder) in the file manager; disabled until it exists."""
    folder = place.path if place.path.suffix == "" else place.path.parent
    button = QPushButton(button_text("Open"), parent)
    button.setObjectName("link")
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    button.setEnabled(folder.is_dir())
    button.setToolTip(plain_tooltip(f"Open {folder}" if folder.is_dir() else "Not created yet"))
    button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))))
    return button
