"""Opening shows the start of a logbook while the rest is read: the first claim at once, nothing recorded against
a provisional claim, and the claim shown stays when the whole logbook takes the preview's place.

The whole reading waits for an event the test releases, so that what the window shows meanwhile is seen without
depending on how fast anything is.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.parse_cache import forget_recent, read_logbook_cached
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.review.identity import Identity
from reviewapp.qt import controller as controller_module
from reviewapp.qt.controller import CommandFailed, LogbookController
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.window_factories import review_window
from reviewapp.qt.window_kinds import RunningApp, WindowRequest
from tests.qt.conftest import LOAD_TIMEOUT_MS, Screenshots, wait_idle


@pytest.fixture(autouse=True)
def large_logbooks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every logbook here counts as large (a small one is read whole without a preview: see the last test)."""
    from reviewapp.core.logbook import parse_apart

    monkeypatch.setattr(parse_apart, "LARGE_PAGES_BYTES", 1)


@pytest.fixture
def held_reading(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """The whole reading of a folder starts only once the returned event is set (the preview comes first)."""
    release = threading.Event()
    real = read_logbook_cached

    def held(*args: object, **kwargs: object) -> Logbook:
        assert release.wait(LOAD_TIMEOUT_MS / 1000), "the test never released the reading"
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(controller_module, "read_logbook_cached", held)
    yield release
    release.set()  # a failing test must not leave the worker waiting


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    shown = MainWindow(LogbookController())
    qtbot.addWidget(shown)
    shown.resize(1600, 1000)
    shown.show()
    yield shown
    shown.close()


def shared_claims_logbook(workspace: Path) -> Path:
    """Its first claim page holds two claims (so the preview lists two), then three claim pages more."""
    draft = LogbookDraft("Reproduction: Streamed widgets")
    draft.page("Executive summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |\n| 5 | TOY |")
    shared = draft.page("Claims 1 & 2: widgets and gadgets")
    shared.markdown("Both hold at the paper's scale.\n\n**Verdict: VERIFIED.**", title="Verdict")
    for n in (3, 4, 5):
        draft.page(f"Claim {n}: widget {n}").markdown(f"Runs for claim {n}.\n\n**Verdict: FALSIFIED.**")
    return draft.write(workspace)


def show_preview(qtbot: QtBot, window: MainWindow, source: Path) -> Logbook:
    window.controller.open(source)
    qtbot.waitUntil(lambda: window.controller.previewing and not window.evidence.busy, timeout=LOAD_TIMEOUT_MS)
    preview = window.controller.preview
    assert preview is not None
    return preview


def test_the_first_claim_is_shown_before_the_whole_logbook_is_read(
    qtbot: QtBot, window: MainWindow, held_reading: threading.Event, demo_copy: Path, screenshots: Screenshots
) -> None:
    preview = show_preview(qtbot, window, demo_copy)
    controller = window.controller
    assert controller.loading and controller.logbook is None  # the whole reading has not even started
    first = preview.claims[0]
    assert window.current_key == first.key
    assert window.claim_model.keys() == [claim.key for claim in preview.claims]
    title = window.evidence.header.title.text()
    assert title and title in first.title
    assert window.evidence.cards and {card.page_slug for card in window.evidence.cards} == {first.page}
    assert "reading the rest of the logbook" in window.status_label.text()
    screenshots.take(window, "streamed-open-preview")

    with qtbot.waitSignal(controller.loaded, timeout=LOAD_TIMEOUT_MS):
        held_reading.set()
    wait_idle(qtbot, window)
    assert not controller.previewing and controller.logbook is not None
    assert window.claim_model.keys() == [claim.key for claim in controller.claims]
    assert len(controller.claims) > len(preview.claims)
    assert window.current_key == first.key and window.evidence.header.title.text() == title
    assert "reading the rest" not in window.status_label.text()
    screenshots.take(window, "streamed-open-whole")


def test_a_verdict_key_during_the_preview_records_nothing(
    qtbot: QtBot, window: MainWindow, held_reading: threading.Event, demo_copy: Path
) -> None:
    preview = show_preview(qtbot, window, demo_copy)
    key = preview.claims[0].key
    actions = window.actions_by_name
    assert not actions["verdict_verified"].isEnabled() and not actions["save_verdict"].isEnabled()
    assert not actions["add_note"].isEnabled() and not actions["undo"].isEnabled()
    assert "once the whole logbook is read" in window.review.editor.summary.text()
    view = window.claim_panel.view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_1)
    QTest.keyClick(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    refused: list[CommandFailed] = []
    window.controller.submit(lambda review: review.set_verdict(key, "verified", "typed early"), None, refused.append)
    assert refused and "Still reading" in str(refused[0])
    with pytest.raises(CommandFailed, match="Still reading"):
        window.controller.open_as(Identity("Someone Else", "asked"), "reviewer")

    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        held_reading.set()
    wait_idle(qtbot, window)
    assert window.controller.active and window.current_key == key
    assert window.controller.human_verdicts() == {}  # nothing was written against the provisional claim
    assert window.controller.my_verdict(key) is None
    assert actions["verdict_verified"].isEnabled()  # the review is attached: the keys work again


def test_the_claim_chosen_during_the_preview_stays_shown(
    qtbot: QtBot, window: MainWindow, held_reading: threading.Event, tmp_path: Path
) -> None:
    preview = show_preview(qtbot, window, shared_claims_logbook(tmp_path))
    assert [claim.label for claim in preview.claims] == ["Claim 1", "Claim 2"]
    QTest.keyClick(window.claim_panel.view, Qt.Key.Key_J)  # the reviewer steps on while the rest is read
    second = preview.claims[1].key
    qtbot.waitUntil(lambda: window.current_key == second and not window.evidence.busy)
    title = window.evidence.header.title.text()

    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        held_reading.set()
    wait_idle(qtbot, window)
    assert [claim.label for claim in window.controller.claims] == [f"Claim {n}" for n in range(1, 6)]
    assert window.current_key == second
    assert window.claim_panel.current_key() == second
    assert window.evidence.header.title.text() == title


def test_no_preview_when_blind_or_when_the_logbook_is_in_memory(
    qtbot: QtBot, window: MainWindow, demo_copy: Path
) -> None:
    previews: list[Logbook] = []
    window.controller.previewed.connect(previews.append)
    window.controller.blind_mode = True  # the names a blind logbook hides are known once all of it is read
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(demo_copy)
    wait_idle(qtbot, window)
    window.controller.blind_mode = False
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(demo_copy)  # read by this process already: shown whole at once
    wait_idle(qtbot, window)
    assert previews == []
    forget_recent()  # as in a new process: the parse cache's stored entry serves it whole, as quick as a preview
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(demo_copy)
    wait_idle(qtbot, window)
    assert previews == []
    page = next(demo_copy.rglob("pages/*/page.md"))
    page.write_text(page.read_text(encoding="utf-8") + "\nA line added since.\n", encoding="utf-8")
    os.utime(page, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns + 10_000_000))
    forget_recent()
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(demo_copy)  # changed since it was stored: read again, its start shown first
    wait_idle(qtbot, window)
    assert len(previews) == 1


def test_a_large_logbook_is_parsed_by_a_child_while_its_start_is_shown(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, demo_copy: Path
) -> None:
    from reviewapp.core.logbook import reader

    def parsed_here(*_args: object, **_kwargs: object) -> Logbook:
        raise AssertionError("the whole logbook was parsed in the window's process")

    monkeypatch.setattr(reader, "read_logbook", parsed_here)  # the child, a process of its own, has the real one
    previews: list[Logbook] = []
    window.controller.previewed.connect(previews.append)
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(demo_copy)
    wait_idle(qtbot, window)
    assert errors == [] and len(previews) == 1  # its start first, then the whole, from the entry the child stored
    logbook = window.controller.logbook
    assert logbook is not None and [c.key for c in logbook.claims] == [
        c.key for c in read_logbook_cached(demo_copy).claims
    ]
    assert window.current_key == previews[0].claims[0].key


def test_a_reading_that_fails_after_the_preview_leaves_nothing_open(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, demo_copy: Path
) -> None:
    release = threading.Event()

    def failing(*_args: object, **_kwargs: object) -> Logbook:
        assert release.wait(LOAD_TIMEOUT_MS / 1000)
        raise OSError("the disk went away")

    monkeypatch.setattr(controller_module, "read_logbook_cached", failing)
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    show_preview(qtbot, window, demo_copy)
    release.set()
    qtbot.waitUntil(lambda: bool(errors), timeout=LOAD_TIMEOUT_MS)
    assert "the disk went away" in errors[0]
    assert window.context is None and window.claim_model.rowCount() == 0 and window.page_model.rowCount() == 0
    assert not window.controller.previewing and window.controller.rows() == []


def the_app() -> QApplication:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    return app


def test_open_with_a_claim_past_the_first_claim_page_selects_it_once_read(
    qtbot: QtBot, window: MainWindow, held_reading: threading.Event, tmp_path: Path
) -> None:
    """`reviewapp open SOURCE --claim 4` in a window a person uses (no --screenshot) and in one rendered offscreen:
    claim 4 is not in the preview, so it is selected once the whole logbook is read."""
    source = shared_claims_logbook(tmp_path / "workspace")
    running = RunningApp(the_app(), lambda: window, deadline=None)  # a person's window: no deadline
    review_window(running, WindowRequest(source=str(source), claim="4"))
    qtbot.waitUntil(lambda: window.controller.previewing, timeout=LOAD_TIMEOUT_MS)
    assert window.current_claim is not None and window.current_claim.label != "Claim 4"
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        held_reading.set()
    assert window.current_claim is not None and window.current_claim.label == "Claim 4"
    assert window.claim_panel.current_key() == window.current_key


def test_open_with_no_such_claim_says_so_and_shows_the_first(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    source = shared_claims_logbook(tmp_path / "workspace")
    running = RunningApp(the_app(), lambda: window, deadline=None)
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        review_window(running, WindowRequest(source=str(source), claim="9"))
    assert "No claim '9'" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.current_claim is not None, timeout=LOAD_TIMEOUT_MS)  # the turn after the list
    assert window.current_claim is not None and window.current_claim.label == "Claim 1"


def test_a_small_logbook_is_shown_whole_without_its_start_first(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Read whole about as soon as its start, a small logbook is drawn once: no preview, then its first claim."""
    from reviewapp.core.logbook import parse_apart

    monkeypatch.setattr(parse_apart, "LARGE_PAGES_BYTES", 4_000_000)
    source = shared_claims_logbook(tmp_path / "workspace")
    previews: list[Logbook] = []
    window.controller.previewed.connect(previews.append)
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(source)
    wait_idle(qtbot, window)
    assert previews == []
    assert window.current_claim is not None and window.current_claim.label == "Claim 1"
    assert [claim.label for claim in window.controller.claims] == [f"Claim {n}" for n in range(1, 6)]


def test_an_open_cancelled_just_after_a_logbook_arrives_leaves_its_first_claim_shown(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, demo_copy: Path
) -> None:
    """Another open begun in the turn the claims are listed (before the first claim is shown), then cancelled:
    the logbook that arrived is shown with its first claim, not an empty evidence view under its claim list."""
    from reviewapp.core.logbook import parse_apart

    monkeypatch.setattr(parse_apart, "LARGE_PAGES_BYTES", 4_000_000)  # read whole: no preview takes the window
    source = shared_claims_logbook(tmp_path / "workspace")
    release = threading.Event()
    real = read_logbook_cached

    def held_for_the_demo(path: Path, *args: object, **kwargs: object) -> Logbook:
        if Path(path) == demo_copy:
            assert release.wait(LOAD_TIMEOUT_MS / 1000), "the test never released the reading"
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(controller_module, "read_logbook_cached", held_for_the_demo)

    def open_the_demo(_logbook: object) -> None:
        window.controller.loaded.disconnect(open_the_demo)
        window.controller.open(demo_copy)

    window.controller.loaded.connect(open_the_demo)
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(source)
    qtbot.waitUntil(lambda: window.current_key is not None, timeout=LOAD_TIMEOUT_MS)
    assert window.center.currentWidget() is window.load_panel  # the demo's reading is in front
    with qtbot.waitSignal(window.controller.load_cancelled, timeout=LOAD_TIMEOUT_MS):
        window.controller.cancel_loading()
        release.set()
    wait_idle(qtbot, window)
    assert window.center.currentWidget() is window.evidence
    assert window.current_claim is not None and window.current_claim.label == "Claim 1"
    assert window.evidence.header.title.text()
