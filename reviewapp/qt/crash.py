"""Unhandled errors: written to a log file with versions, then shown in a dialog instead of killing the window.

The dialog offers a report to copy into an issue (versions, platform, the error, the last log lines), scrubbed
of access tokens and of the home folder by `reviewapp.crash_report`.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import Qt, QTimer, qVersion
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from reviewapp.about import versions_line
from reviewapp.core.io import paths
from reviewapp.crash_report import crash_report
from reviewapp.qt.plain import PlainLabel

log = logging.getLogger("reviewapp")
_shown: list[CrashDialog] = []  # Python must hold the dialogs it shows, or they vanish with the last reference


def log_file() -> Path:
    return paths.log_file()


def setup_logging() -> Path:
    path = log_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return path


def versions() -> str:
    return versions_line(qVersion())


def install_excepthook() -> None:
    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        text = "".join(traceback.format_exception(kind, value, tb))
        log.error("unhandled error (%s)\n%s", versions(), text)
        # Show it from the event loop: the hook may run on a worker thread or inside a paint event.
        QTimer.singleShot(0, lambda: _show(kind.__name__, str(value), text))

    sys.excepthook = hook
    threading.excepthook = lambda args: hook(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback)


class CrashDialog(QDialog):
    """What went wrong, that the window keeps running, where the log is, and a report to copy."""

    def __init__(self, name: str, message: str, details: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("reviewapp hit an error")
        self.setObjectName("crashDialog")
        self.resize(720, 520)
        self.report = crash_report(f"{name}: {message}", details, qt_version=qVersion())

        icon = QLabel(self)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical).pixmap(40, 40))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.summary = PlainLabel(f"{name}: {message}", self)
        self.summary.setObjectName("crashSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.explanation = PlainLabel(
            f"The window keeps running; what you saved is safe. The full log is {log_file()}.\n"
            "To report the problem, copy the report below (tokens and your home folder are already taken out) "
            "and paste it into an issue.",
            self,
        )
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.report_view = QPlainTextEdit(self)
        self.report_view.setObjectName("crashReport")
        self.report_view.setReadOnly(True)
        self.report_view.setPlainText(self.report)
        self.report_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.report_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = QPushButton("&Copy report", self)
        self.copy_button.setToolTip("Copy the report to the clipboard (Ctrl+Shift+C)")
        self.copy_button.setShortcut("Ctrl+Shift+C")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_report)
        buttons.rejected.connect(self.reject)
        self.copied = PlainLabel("", self)
        self.copied.setObjectName("muted")

        top = QHBoxLayout()
        top.addWidget(icon)
        text = QVBoxLayout()
        text.addWidget(self.summary)
        text.addWidget(self.explanation)
        top.addLayout(text, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.copied, 1)
        bottom.addWidget(buttons)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.report_view, 1)
        layout.addLayout(bottom)
        buttons.button(QDialogButtonBox.StandardButton.Close).setFocus()

    def copy_report(self) -> None:
        QGuiApplication.clipboard().setText(self.report)
        self.copied.setText("Report copied to the clipboard.")


def _show(name: str, message: str, details: str) -> None:
    if QApplication.instance() is None:
        return
    dialog = CrashDialog(name, message, details)
    dialog.finished.connect(lambda _result: _shown.remove(dialog))
    _shown.append(dialog)
    dialog.show()
