"""Cards for markdown, run/code, artifact, dashboard and unknown cells (figures are in figure_card.py)."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from reviewapp.core.logbook.artifacts import artifact_entry
from reviewapp.core.logbook.cell_details import artifact_details, code_details, dashboard_details, prose
from reviewapp.core.logbook.markdown_prep import prepare_markdown
from reviewapp.core.logbook.model import Cell
from reviewapp.qt import theme
from reviewapp.qt.models.artifact_table import human_size
from reviewapp.qt.plain import PlainLabel, button_text
from reviewapp.qt.safe_browser import MarkdownView
from reviewapp.qt.widgets.card import Card, CardContext
from reviewapp.qt.widgets.code_block import CodeBlock


class MarkdownCard(Card):
    def __init__(
        self,
        context: CardContext,
        text: str,
        title: str,
        meta: str = "",
        parent: QWidget | None = None,
        *,
        page: str = "",
    ) -> None:
        super().__init__("NOTE", "markdown", title, meta, parent)
        self.view = MarkdownView(context.root, context.page_slugs, self, pixels=context.pixels, page=page)
        self.view.set_markdown(prepare_markdown(text, title))
        self.view.link_clicked.connect(self.link_clicked)
        self.body.addWidget(self.view)

    def highlight(self, text: str) -> bool:
        return self.view.highlight(text, theme.colors().highlight)


class CodeCard(Card):
    def __init__(self, context: CardContext, cell: Cell, meta: str = "", parent: QWidget | None = None) -> None:
        details = code_details(cell)
        super().__init__("RUN" if details.command_line else "CODE", "code", cell.title, meta, parent)
        self.details = details
        if details.exit_code is not None:
            status = PlainLabel(f"exit {details.exit_code}", self)
            status.setObjectName("status")
            status.setProperty("ok", details.exit_code == 0)
            status.setToolTip("The command's exit status")
            self.header_layout.insertWidget(self.header_layout.count() - 1, status, 0, Qt.AlignmentFlag.AlignVCenter)
        if details.duration_s is not None:
            self.meta.setText(f"{format_duration(details.duration_s)}   {meta}".strip())
        self.command: QLabel | None = None
        if details.command_line:
            self.command = PlainLabel(f"$ {details.command_line}", self)
            self.command.setObjectName("command")
            self.command.setWordWrap(True)
            self.command.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.body.addWidget(self.command)
        if details.code is not None:
            self.body.addWidget(CodeBlock(details.code.text, details.language or details.code.lang, self))
        for attachment in details.attachments:
            self.body.addWidget(_Attachment(attachment.title or "file", attachment.text, attachment.lang, self))
        notes = _notes(cell.body, details.status_line)
        if notes:
            view = MarkdownView(context.root, context.page_slugs, self, pixels=context.pixels, page=cell.page)
            view.set_markdown(prepare_markdown(notes))
            view.link_clicked.connect(self.link_clicked)
            self.body.addWidget(view)
        self.output: CodeBlock | None = None
        if details.output is not None:
            label = "Output"
            if details.elided_chars:
                label += f" — Trackio kept the head and tail; {details.elided_chars:,} characters were elided"
            caption = PlainLabel(label, self)
            caption.setObjectName("muted")
            self.body.addWidget(caption)
            if details.output.text.strip():
                self.output = CodeBlock(details.output.text, "output", self)
                self.body.addWidget(self.output)
            else:
                empty = PlainLabel("(no output)", self)
                empty.setObjectName("muted")
                self.body.addWidget(empty)


class _Attachment(QWidget):
    """A file attached to a run (a script named on its command line), folded away until asked for."""

    def __init__(self, name: str, text: str, language: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text, self._language = text, language
        self._label = button_text(f"Attached file: {name} ({text.count(chr(10)) + 1:,} lines)")
        self.block: CodeBlock | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.button = QPushButton(f"▸ {self._label}", self)
        self.button.setObjectName("link")
        self.button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.button.clicked.connect(self.toggle)
        self._layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignLeft)

    def toggle(self) -> None:
        if self.block is None:
            self.block = CodeBlock(self._text, self._language, self)
            self._layout.addWidget(self.block)
        else:
            self.block.setVisible(self.block.isHidden())
        self.button.setText(f"{'▸' if self.block.isHidden() else '▾'} {self._label}")


class ArtifactCard(Card):
    def __init__(self, context: CardContext, cell: Cell, meta: str = "", parent: QWidget | None = None) -> None:
        super().__init__("ARTIFACT", "artifact", cell.title, meta, parent)
        entry = artifact_entry(context.logbook, cell)
        details = artifact_details(cell)
        self.entry = entry
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        grid.setVerticalSpacing(4)
        rows = [
            ("Name", entry.name),
            ("Type", entry.type or "—"),
            ("Size", human_size(entry.size) if entry.size is not None else "—"),
            ("Link", entry.uri or "—"),
            ("Local file", context.rule.path(entry.local_path) if entry.local_path else "not in this folder"),
        ]
        for row, (label, value) in enumerate(rows):
            key = PlainLabel(label, self)
            key.setObjectName("muted")
            shown = PlainLabel(value, self)
            shown.setWordWrap(True)
            shown.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(key, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(shown, row, 1)
        grid.setColumnStretch(1, 1)
        if details.summary and details.summary != entry.uri:
            summary = PlainLabel(re.sub(r"[*`\U0001F300-\U0001FAFF]", "", details.summary).strip(), self)
            summary.setWordWrap(True)
            self.body.addWidget(summary)
        self.body.addLayout(grid)
        buttons = QHBoxLayout()
        if entry.uri:
            self.add_button("Copy link", buttons).clicked.connect(lambda: self.copy_requested.emit(entry.uri or ""))
        if entry.local_path is not None:
            folder = QUrl.fromLocalFile(str(entry.local_path.parent))
            self.add_button("Open containing folder", buttons).clicked.connect(lambda: self.url_requested.emit(folder))
        buttons.addStretch(1)
        self.body.addLayout(buttons)


class DashboardCard(Card):
    def __init__(self, context: CardContext, cell: Cell, meta: str = "", parent: QWidget | None = None) -> None:
        super().__init__("DASHBOARD", "dashboard", cell.title, meta, parent)
        details = dashboard_details(cell)
        text = PlainLabel(f"Trackio project: {details.project or '—'}\n{details.uri or 'no link'}", self)
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.addWidget(text)
        buttons = QHBoxLayout()
        uri = details.uri
        if uri:
            self.add_button("Copy link", buttons).clicked.connect(lambda: self.copy_requested.emit(uri))
            if uri.startswith("https://"):
                self.add_button("Open in browser", buttons).clicked.connect(lambda: self.url_requested.emit(QUrl(uri)))
        buttons.addStretch(1)
        self.body.addLayout(buttons)


class GenericCard(Card):
    """A cell type this app does not know: shown as text, exactly as written."""

    def __init__(self, cell: Cell, meta: str = "", parent: QWidget | None = None) -> None:
        super().__init__(cell.type_name.upper()[:12] or "CELL", "generic", cell.title, meta, parent)
        self.body.addWidget(CodeBlock(cell.body, "", self))


def format_duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def _notes(body: str, status_line: str | None) -> str:
    """Text of a code cell outside its fences, without the status line the header already shows."""
    text = prose(body)
    if status_line:
        text = text.replace(status_line, "", 1)
    return text.strip()
