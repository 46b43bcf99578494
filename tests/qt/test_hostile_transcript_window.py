"""Attaching a file of random bytes in the window: refused with the file's name, no session added."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from tests.core.annotation_helpers import small_logbook
from tests.qt.conftest import OpenWindow
from tests.qt.review_helpers import records


def test_random_bytes_are_refused_with_the_files_name(qtbot: QtBot, open_window: OpenWindow, tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    shutil.rmtree(read_logbook(workspace).root / "traces" / "session-1")
    window = open_window(workspace)
    junk = tmp_path / "not-a-transcript.jsonl"
    junk.write_bytes(os.urandom(256 * 1024))
    shown: list[str] = []
    window.error_shown.connect(shown.append)

    window.traces.attach_transcript(junk, "session-1")
    qtbot.waitUntil(lambda: bool(shown), timeout=60_000)

    assert "no event could be read" in shown[0] and shown[0].count(str(junk)) == 1
    assert not [r for r in records(window) if r["kind"] == "transcript_link"]
