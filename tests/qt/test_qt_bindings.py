"""The installed Qt bindings keep Python's reference counts balanced.

PySide6-Essentials 6.12.0 on CPython 3.11 lost one reference to None on every void call and one to True on every
emitted bool signal; a long review session then aborted the interpreter ("none_dealloc"). pyproject.toml excludes
that release; this test catches any binding release that does the same.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget


class _Emitter(QObject):
    fired = Signal(bool)


def test_void_calls_and_signals_do_not_leak_or_steal_references(qapp: QApplication) -> None:
    widget = QWidget()
    emitter = _Emitter()
    received: list[bool] = []
    emitter.fired.connect(received.append)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(2000):
        qapp.processEvents()
        widget.update()
        emitter.fired.emit(True)
    received.clear()
    assert abs(sys.getrefcount(None) - none_before) < 50
    assert abs(sys.getrefcount(True) - true_before) < 50
