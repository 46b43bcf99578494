"""The window opens Spaces from the (loopback) Hub, says when it shows a cached copy, and finds a paper's logbooks."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewapp.qt import theme
from reviewapp.qt.dialogs.open_source import OpenSourceDialog
from tests.core.commit_helpers import published_files
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-small-widgets"


def test_a_space_opens_and_then_reopens_as_a_cached_copy(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path, screenshots: Screenshots
) -> None:
    head = hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    window = open_window(SPACE)
    assert window.claim_model.rowCount() == 3
    assert window.source_banner.isVisible() and "cached" not in window.source_banner.text()
    assert head[:12] in window.source_banner.text()
    assert window.controller.logbook is not None
    assert window.controller.logbook.logbook_id == "hf:space/alice/repro-small-widgets"

    hub_server.stop()
    with qtbot.waitSignal(window.controller.loaded, timeout=60_000):
        window.controller.open(SPACE)
    wait_idle(qtbot, window)
    banner = window.source_banner.text()
    assert "Showing a cached copy of Space alice/repro-small-widgets" in banner and head[:12] in banner
    assert "cannot be reached" in banner
    screenshots.take(window, "hub-cached-copy-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "hub-cached-copy-dark")


def test_a_missing_space_is_one_clear_error(open_window: OpenWindow, hub_server: HubServer, qtbot: QtBot) -> None:
    window = open_window()
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    window.controller.open("nobody/nothing")
    qtbot.waitUntil(lambda: bool(errors), timeout=30_000)
    assert "Space nobody/nothing" in errors[0] and "hf auth login" in errors[0]
    assert "Traceback" not in errors[0]


def test_find_on_a_paper_from_the_file_menu_and_open_with_the_keyboard(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path, screenshots: Screenshots
) -> None:
    for i in range(7):
        repo = f"team{i}/repro-widgets-{i}"
        tags = ["icml2026-repro", "paper-AbCdEf1234" if i % 2 == 0 else "paper-Other"]
        hub_server.create_repo(repo, repo_type="space", tags=tags, files=published_files(tmp_path / str(i), repo))
    hub_server.listing_page_size = 2
    window = open_window()
    window.actions_by_name["find_logbooks"].trigger()
    dialog = window.dialog
    assert isinstance(dialog, OpenSourceDialog)
    qtbot.waitExposed(dialog)
    qtbot.keyClicks(dialog.orid, "abcdef1234")
    qtbot.keyClick(dialog.orid, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.results.topLevelItemCount() == 4, timeout=30_000)
    assert {dialog.results.topLevelItem(i).text(0) for i in range(4)} == {
        f"team{i}/repro-widgets-{i}" for i in (0, 2, 4, 6)
    }
    screenshots.take(dialog, "find-logbooks-dialog", min_colors=8)

    qtbot.keyClick(dialog.results, Qt.Key.Key_Down)
    chosen = dialog.source.text()
    assert chosen.startswith("team")
    with qtbot.waitSignal(window.controller.loaded, timeout=60_000):
        qtbot.keyClick(dialog.source, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    assert window.controller.source_label == f"Space {chosen}"
    assert window.claim_model.rowCount() == 3
