"""The installed Qt bindings keep Python's reference counts balanced.

PySide6-Essentials 6.12.0 on CPython 3.11 lost one reference to None on every void call and one to True on every
emitted bool signal; a long review session then aborted the interpreter ("none_dealloc"). pyproject.toml excludes
that release; this test catches any binding release that does the same.
"""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget

ITERATIONS = 4000


class _Emitter(QObject):
    fired = Signal(bool)


def test_void_calls_and_signals_do_not_leak_or_steal_references(qapp: QApplication) -> None:
    widget = QWidget()
    emitter = _Emitter()
    received: list[bool] = []
    emitter.fired.connect(received.append)

    def calls(times: int) -> None:
        for _ in range(times):
            qapp.processEvents()
            widget.update()
            emitter.fired.emit(True)
        received.clear()

    calls(200)  # events earlier tests left queued run here, not inside the measured calls
    gc.collect()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    calls(ITERATIONS)
    gc.collect()
    # A binding that loses one reference per call is off by at least ITERATIONS; objects that other tests' queued
    # events create or free move the count by a few hundred at most.
    assert abs(sys.getrefcount(None) - none_before) < ITERATIONS // 4
    assert abs(sys.getrefcount(True) - true_before) < ITERATIONS // 4
