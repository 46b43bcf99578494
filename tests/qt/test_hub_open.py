"""The window opens Spaces from the (loopback) Hub, says when it shows a cached copy, and finds a paper's logbooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from reviewapp.core.review.preferences import load_preferences
from reviewapp.qt import theme
from reviewapp.qt.dialogs.hub_login import HubLoginDialog
from reviewapp.qt.dialogs.open_source import OpenSourceDialog
from tests.core.commit_helpers import published_files
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle
from tests.support.hub_server import HubServer
from tests.support.static_server import StaticServer

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


def test_a_large_space_is_parsed_by_a_child_once_downloaded(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reviewapp.core.logbook import parse_apart, reader
    from reviewapp.core.logbook.model import Logbook

    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    monkeypatch.setattr(parse_apart, "LARGE_PAGES_BYTES", 1)  # the small Space counts as large

    def parsed_here(*_args: object, **_kwargs: object) -> Logbook:
        raise AssertionError("the whole logbook was parsed in the window's process")

    monkeypatch.setattr(reader, "read_logbook", parsed_here)  # the child, a process of its own, has the real one
    window = open_window(SPACE)
    assert window.claim_model.rowCount() == 3
    logbook = window.controller.logbook
    assert logbook is not None and logbook.logbook_id == "hf:space/alice/repro-small-widgets"


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


def test_a_private_space_offers_the_hub_login_and_opens_on_try_again(
    qtbot: QtBot,
    open_window: OpenWindow,
    hub_server: HubServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    screenshots: Screenshots,
) -> None:
    hub_server.create_repo("alice/secret", repo_type="space", private=True, files=published_files(tmp_path, "a/s"))
    window = open_window()
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    window.controller.open("alice/secret")
    qtbot.waitUntil(lambda: isinstance(window.dialog, HubLoginDialog), timeout=30_000)
    dialog = window.dialog
    assert isinstance(dialog, HubLoginDialog)
    assert errors and "Space alice/secret" in errors[0] and "not found, or private" in errors[0]
    # the login is huggingface_hub's own: the only text field is the command, and it cannot be typed into
    assert all(field.isReadOnly() for field in dialog.findChildren(QLineEdit))
    assert dialog.command.text() == "hf auth login"
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "hf auth login"
    screenshots.take(dialog, "hub-login", min_colors=8)

    monkeypatch.setenv("HF_TOKEN", hub_server.add_user("alice"))  # what `hf auth login` would have stored
    with qtbot.waitSignal(window.controller.loaded, timeout=60_000):
        qtbot.keyClick(dialog.retry_button, Qt.Key.Key_Space)
    wait_idle(qtbot, window)
    assert window.controller.source_label == "Space alice/secret" and window.claim_model.rowCount() == 3


def test_a_published_url_says_orphan_pages_are_invisible_there(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    folder = tmp_path / "site" / "book"
    for path, data in published_files(tmp_path, "alice/repro-small").items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    with StaticServer(tmp_path / "site") as site:
        url = site.url + "book/"
        window = open_window(url)
        banner = window.source_banner.text()
    assert f"Showing {url}" in banner
    assert "only the pages logbook.json lists" in banner and "orphan pages" in banner
    assert window.source_banner.isVisible() and window.claim_model.rowCount() == 3
    # the copy is replaced by the next download, so reviews are kept under the URL's logbook id instead
    assert window.controller.logbook is not None and window.controller.logbook.logbook_id == f"url:{url}"
    assert window.controller.logbook_review is not None
    assert window.controller.logbook_review.store.location.fallback


def test_find_filters_by_tag_and_the_download_limits_are_kept(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path
) -> None:
    for i, extra in enumerate((["toy-scale"], [], ["Toy-Scale", "gpu"])):
        tags = ["icml2026-repro", "paper-AbCdEf1234", *extra]
        files = published_files(tmp_path, f"team{i}/repro-{i}") if i == 2 else None
        hub_server.create_repo(f"team{i}/repro-{i}", repo_type="space", tags=tags, files=files)
    window = open_window()
    window.actions_by_name["find_logbooks"].trigger()
    dialog = window.dialog
    assert isinstance(dialog, OpenSourceDialog)
    qtbot.keyClicks(dialog.orid, "AbCdEf1234")
    qtbot.keyClicks(dialog.tags, "toy-scale")
    qtbot.keyClick(dialog.tags, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: dialog.results.topLevelItemCount() == 2, timeout=30_000)
    found = {dialog.results.topLevelItem(i).text(0) for i in range(2)}
    assert found == {"team0/repro-0", "team2/repro-2"}

    assert (dialog.max_mb.value(), dialog.max_minutes.value()) == (500, 10)  # the defaults
    dialog.max_mb.setValue(50)
    dialog.max_minutes.setValue(2)
    dialog.source.setText("team2/repro-2")
    with qtbot.waitSignal(window.controller.loaded, timeout=60_000):
        qtbot.keyClick(dialog.source, Qt.Key.Key_Return)
    wait_idle(qtbot, window)
    saved = load_preferences()
    assert (saved.download_max_mb, saved.download_max_minutes) == (50, 2)
    limits = saved.download_limits()
    assert limits.max_bytes == 50 * 1024 * 1024 and limits.max_seconds == 120
    json.dumps(saved.model_dump(mode="json"))


def test_limits_given_to_the_window_override_the_preferences(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path
) -> None:
    from reviewapp.core.io.hub_download import DownloadLimits

    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    window = open_window()
    window.controller.download_limits = DownloadLimits(max_bytes=1000)  # `reviewapp open SOURCE --max-download-mb`
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    window.controller.open(SPACE)
    qtbot.waitUntil(lambda: bool(errors), timeout=30_000)
    assert f"Space {SPACE}" in errors[0] and "over the 1000 bytes limit" in errors[0]


def test_escape_cancels_a_download_and_the_next_open_completes_it(
    qtbot: QtBot, open_window: OpenWindow, hub_server: HubServer, tmp_path: Path
) -> None:
    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    window = open_window()
    with qtbot.waitSignal(window.controller.load_cancelled, timeout=60_000):
        window.controller.open(SPACE)
        qtbot.keyClick(window, Qt.Key.Key_Escape)  # the load panel's Cancel, as the user presses it
    assert "cancelled" in window.status_label.text()
    assert window.controller.opened_source is None  # the demo stays; nothing half-downloaded is shown
    with qtbot.waitSignal(window.controller.loaded, timeout=60_000):
        window.controller.open(SPACE)
    wait_idle(qtbot, window)
    assert window.claim_model.rowCount() == 3 and "Showing Space" in window.source_banner.text()
