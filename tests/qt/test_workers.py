"""Background tasks whose window is gone by the time they finish stay quiet (no traceback on the way out), as seen
from `reviewapp open … --screenshot` stopping on an error."""

from __future__ import annotations

import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest
import shiboken6
from pytestqt.qtbot import QtBot

from reviewapp.qt.workers import RELEASE_AFTER_MS, TaskRunner, release_on
from tests.core.annotation_helpers import small_logbook, subprocess_env


def test_a_task_outliving_its_relay_prints_nothing(qtbot: QtBot, capfd: pytest.CaptureFixture[str]) -> None:
    runner = TaskRunner(1)
    release = threading.Event()
    results: list[object] = []
    runner.submit(lambda _progress: release.wait(10) and "late", results.append, results.append)
    [relay] = list(runner._running)
    shiboken6.delete(relay)  # what interpreter teardown does to it after a screenshot stopped on an error
    release.set()
    assert runner.wait(10_000)
    qtbot.wait(20)
    assert results == []
    assert "Traceback" not in capfd.readouterr().err


def test_a_task_reports_on_the_gui_thread(qtbot: QtBot) -> None:
    runner = TaskRunner(1)
    results: list[object] = []
    runner.submit(lambda _progress: threading.current_thread().name, results.append, results.append)
    qtbot.waitUntil(lambda: bool(results))
    assert results[0] != threading.main_thread().name


def test_screenshot_of_a_missing_claim_is_one_line(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    out = tmp_path / "shot.png"
    env = subprocess_env(home, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-m", "reviewapp", "open", str(workspace), "--screenshot", str(out), "--claim", "7"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if "propagateSizeHints" not in line]  # Qt's offscreen note
    assert lines == ["error: no claim '7' in this logbook"], done.stderr
    assert not out.exists()


class _Big:
    """Something large to let go of, seen through a weak reference."""

    def __init__(self) -> None:
        self.entries = [list(range(40)) for _ in range(200)]


def test_a_structure_let_go_of_is_taken_apart_later_on_the_runner(qtbot: QtBot) -> None:
    runner = TaskRunner(1)
    big = _Big()
    seen = weakref.ref(big)
    release_on(runner, big)
    del big
    qtbot.wait(10)
    assert seen() is not None  # not in the turns right after: the window is drawing what replaced it then
    qtbot.waitUntil(lambda: seen() is None, timeout=RELEASE_AFTER_MS + 5_000)


def test_letting_go_after_the_runner_is_gone_is_quiet(qtbot: QtBot) -> None:
    runner = TaskRunner(1)
    release_on(runner, {n: list(range(40)) for n in range(100)})
    shiboken6.delete(runner)  # the window closed before the structure's turn came
    qtbot.wait(RELEASE_AFTER_MS + 200)  # an exception in the event loop would fail the test (pytest-qt)
