"""Unhandled errors: written to a log file with versions, then shown in a dialog instead of killing the window."""

from __future__ import annotations

import logging
import platform
import sys
import threading
import traceback
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType

import PySide6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from reviewapp import __version__
from reviewapp.core.io.paths import user_data_dir

log = logging.getLogger("reviewapp")
_shown: list[QMessageBox] = []  # Python must hold the dialogs it shows, or they vanish with the last reference


def log_file() -> Path:
    return user_data_dir() / "logs" / "reviewapp.log"


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
    return (
        f"reviewapp {__version__} · Python {platform.python_version()} · PySide6 {PySide6.__version__} · "
        f"{platform.system()} {platform.release()}"
    )


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


def _show(name: str, message: str, details: str) -> None:
    if QApplication.instance() is None:
        return
    box = QMessageBox(QMessageBox.Icon.Critical, "reviewapp hit an error", f"{name}: {message}")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText(
        f"The window keeps running; what you saved is safe. Details are in {log_file()}.\n\n{versions()}"
    )
    box.setDetailedText(details)
    box.finished.connect(lambda _result: _shown.remove(box))
    _shown.append(box)
    box.show()
