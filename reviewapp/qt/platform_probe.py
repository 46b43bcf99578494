"""Start Qt on one platform plugin and say so: run by `reviewapp doctor` in a child process, since Qt aborts
the process that fails to load its platform plugin."""

from __future__ import annotations

import sys


def probe(platform: str) -> int:
    import os

    os.environ["QT_QPA_PLATFORM"] = platform
    from PySide6.QtCore import qVersion
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication([sys.argv[0] if sys.argv else "reviewapp"])
    sys.stdout.write(f"Qt {qVersion()}, platform {app.platformName()}\n")
    return 0
