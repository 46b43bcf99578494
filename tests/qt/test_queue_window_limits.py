"""The queue window downloads its Spaces within the saved limits, or the ones `queue --window` was given."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.review.preferences import Preferences, save_preferences
from reviewapp.qt.queue.queue_model import STATUS
from tests.core.queue.test_queue_download_limits import write_queue_of_spaces
from tests.qt.conftest import OpenWindow
from tests.support.hostile_server import HostileHub

pytest_plugins = ["tests.support.hub_fixtures"]

QUEUE_TIMEOUT_MS = 60_000


def test_the_queue_window_keeps_the_saved_limit_and_the_commands(
    qtbot: QtBot, hostile_hub: HostileHub, tmp_path: Path, open_window: OpenWindow
) -> None:
    queue_file = write_queue_of_spaces(hostile_hub, tmp_path)
    save_preferences(Preferences(download_max_mb=1))
    main = open_window()
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 2 and not queue.loading, timeout=QUEUE_TIMEOUT_MS)
    big, small = queue.model.rows
    assert big.problem is not None and "over the 1.0 MB limit" in big.problem
    assert queue.model.index(0, STATUS).data() == "cannot be read" and small.claims > 0

    main.controller.download_limits = DownloadLimits(
        max_bytes=50 * 1024 * 1024
    )  # `queue --window --max-download-mb 50`
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 2 and not queue.loading, timeout=QUEUE_TIMEOUT_MS)
    assert all(row.problem is None and row.claims > 0 for row in queue.model.rows)
