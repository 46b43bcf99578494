"""File > Open Paper: which logbooks to gather — a paper id to find on the Hub, folders, Spaces or URLs, a list
file — and optionally the challenge's claim registry for the rows."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.paper.gather import PaperRequest
from reviewapp.qt.plain import PlainLabel


class OpenPaperDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("openPaper")
        self.setWindowTitle("Open a paper")
        self.list_file: Path | None = None
        layout = QVBoxLayout(self)
        intro = PlainLabel(
            "Every logbook on one paper, in one matrix. Give the paper's OpenReview id to find its logbooks on the "
            "Hub (Spaces tagged paper-<id>), or list the logbooks yourself: folders, Spaces (OWNER/NAME), URLs, or "
            "a list file.",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.orid = QLineEdit(self)
        self.orid.setObjectName("paperId")
        self.orid.setPlaceholderText("e.g. GW3umRqsZZ (optional when you list the logbooks)")
        form.addRow("Paper id", self.orid)
        layout.addLayout(form)
        self.sources = QListWidget(self)
        self.sources.setObjectName("paperSources")
        self.sources.setAccessibleName("Logbooks on the paper")
        layout.addWidget(self.sources, 1)
        add = QHBoxLayout()
        self.source_text = QLineEdit(self)
        self.source_text.setPlaceholderText("A folder, OWNER/NAME or URL; Enter adds it")
        self.source_text.returnPressed.connect(self._add_text)
        add.addWidget(self.source_text, 1)
        for text, slot in (
            ("Add", self._add_text),
            ("Add Folder…", self._add_folder),
            ("List File…", self._choose_list),
            ("Remove", lambda: self.sources.takeItem(self.sources.currentRow())),
        ):
            button = QPushButton(text, self)
            button.setAutoDefault(False)
            button.clicked.connect(slot)
            add.addWidget(button)
        layout.addLayout(add)
        self.list_label = PlainLabel("", self)
        self.list_label.setObjectName("muted")
        self.list_label.hide()
        layout.addWidget(self.list_label)
        registry = QHBoxLayout()
        self.registry = QLineEdit(self)
        self.registry.setPlaceholderText("The challenge's claim registry (optional): its claims become the rows")
        browse = QPushButton("Browse…", self)
        browse.setAutoDefault(False)
        browse.clicked.connect(self._choose_registry)
        registry.addWidget(self.registry, 1)
        registry.addWidget(browse)
        layout.addLayout(registry)
        self.error = PlainLabel(self)
        self.error.setObjectName("inlineError")
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 460)

    def request(self) -> PaperRequest:
        sources = [self.sources.item(i).text() for i in range(self.sources.count())]
        registry = Path(self.registry.text().strip()).expanduser() if self.registry.text().strip() else None
        return PaperRequest(sources, self.orid.text().strip() or None, registry)

    def accept(self) -> None:
        self.error.hide()
        if self.source_text.text().strip():
            self._add_text()
        request = self.request()
        if request.orid and any(c.isspace() for c in request.orid):
            self._say("A paper id has no spaces (an OpenReview id such as GW3umRqsZZ).")
            return
        if not request.sources and not request.orid and self.list_file is None:
            self._say("Give the paper id, or add the logbooks on the paper.")
            return
        if request.registry is not None and not request.registry.is_file():
            self._say(f"No claim registry file at {request.registry}.")
            return
        super().accept()

    def _say(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()

    def _add_text(self) -> None:
        text = self.source_text.text().strip()
        if text:
            self.sources.addItem(text)
            self.source_text.clear()

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "A logbook on the paper", str(Path.home()))
        if folder:
            self.sources.addItem(folder)

    def _choose_list(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "A list of the logbooks", str(Path.home()), "Lists (*.txt *.csv *.tsv);;All files (*)"
        )
        if path:
            self.list_file = Path(path)
            self.list_label.setText(f"Also every logbook listed in {path}")
            self.list_label.show()

    def _choose_registry(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "The claim registry", str(Path.home()), "JSON (*.json)")
        if path:
            self.registry.setText(path)


def list_sources(path: Path) -> tuple[list[str], list[str]]:
    """A list (queue) file's sources and its problems; raises ValueError naming the file when it cannot be read."""
    from reviewapp.core.queue.queue_file import read_queue

    queue = read_queue(path)
    return [e.location for e in queue.entries], [f"{path}: {p}" for p in queue.problems]
