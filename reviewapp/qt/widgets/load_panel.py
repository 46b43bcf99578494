"""Progress and Cancel while a logbook opens, shown over the evidence area."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QProgressBar, QPushButton, QVBoxLayout, QWidget

from reviewapp.qt.plain import PlainLabel


class LoadPanel(QWidget):
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        box = QFrame(self)
        box.setObjectName("loadPanel")
        box.setMinimumWidth(280)  # the window's minimum width is not this panel's to set
        box.setMaximumWidth(460)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(22, 18, 22, 18)
        layout.setSpacing(10)
        self.title = PlainLabel(box)
        self.title.setObjectName("claimTitle")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.bar = QProgressBar(box)
        self.bar.setObjectName("loadProgress")
        self.bar.setRange(0, 0)
        self.bar.setTextVisible(False)
        layout.addWidget(self.bar)
        self.detail = PlainLabel(box)
        self.detail.setObjectName("muted")
        self.detail.setWordWrap(True)
        layout.addWidget(self.detail)
        self.cancel = QPushButton("Cancel", box)
        self.cancel.setObjectName("small")
        self.cancel.clicked.connect(self.cancel_requested)
        layout.addWidget(self.cancel, 0, Qt.AlignmentFlag.AlignRight)
        outer.addWidget(box, 0, Qt.AlignmentFlag.AlignHCenter)
        outer.addStretch(2)

    def start(self, label: str) -> None:
        self.title.setText(f"Opening {label}…")
        self.detail.setText("Reading the manifest")
        self.bar.setRange(0, 0)

    def progress(self, done: int, total: int, page: str) -> None:
        if total:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
        self.detail.setText(f"Read {done:,} of {total:,} pages · {page}")
