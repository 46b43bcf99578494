"""One write lane for the application: commands run one at a time on one thread, in order; a submitted command's
result comes back on the GUI thread through a signal, without a nested event loop."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import Qt, QThread, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.pairs import PairRatingWindow
from reviewapp.qt.write_lane import LaneResult, WriteLane
from tests.qt.conftest import OpenWindow
from tests.qt.review_helpers import fill_verdict, records, save, save_note, show_claim, written


def test_submitted_commands_run_in_order_one_at_a_time_and_report_on_the_gui_thread(qtbot: QtBot) -> None:
    lane = WriteLane.shared()
    assert WriteLane.shared() is lane
    active, most, ran_on, order = [0], [0], set(), []
    delivered_on: list[bool] = []

    def command(n: int) -> int:
        active[0] += 1
        most[0] = max(most[0], active[0])
        ran_on.add(threading.get_ident())
        time.sleep(0.002)  # room for another command to overlap, were the lane not one thread
        active[0] -= 1
        return n

    def done(n: int) -> None:
        delivered_on.append(QThread.currentThread() is QApplication.instance().thread())  # type: ignore[union-attr]
        order.append(n)

    finished: list[LaneResult] = []
    lane.finished.connect(finished.append)
    submitted = []
    for n in range(6):
        lane.submit(lambda n=n: command(n), done, initiator="queue window" if n % 2 else "review window")
        submitted.append(n)
    assert order == []  # submit returned at once: nothing waited for the commands
    qtbot.waitUntil(lambda: len(order) == 6)
    lane.finished.disconnect(finished.append)

    assert order == submitted and all(delivered_on)
    assert most[0] == 1 and ran_on and threading.get_ident() not in ran_on and len(ran_on) == 1
    assert [r.initiator for r in finished[:2]] == ["review window", "queue window"]  # a screen can skip its own


def test_a_failing_command_reaches_on_failed_and_the_lane_goes_on(qtbot: QtBot) -> None:
    lane = WriteLane.shared()
    failures: list[BaseException] = []
    results: list[object] = []

    def fail() -> None:
        raise OSError("disk full")

    lane.submit(fail, results.append, failures.append)
    lane.submit(lambda: "next", results.append, failures.append)
    qtbot.waitUntil(lambda: len(results) + len(failures) == 2)
    assert [str(f) for f in failures] == ["disk full"] and results == ["next"]
    assert not lane.busy


def test_the_review_window_writes_on_the_applications_lane(open_window: OpenWindow) -> None:
    assert open_window().controller.lane is WriteLane.shared()


def test_a_pair_rating_is_written_on_the_lane_and_the_review_window_hears_of_it(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 4)  # claim 4 owns the demo's image pairs
    qtbot.mouseClick(window.review.editor.pairs_button, Qt.MouseButton.LeftButton)
    pairs = window.review.tools.pair_window
    assert isinstance(pairs, PairRatingWindow)
    qtbot.waitUntil(lambda: pairs.can_answer, timeout=30_000)
    review = window.controller.logbook_review
    assert review is not None
    written_on: list[int] = []
    review.history.listeners.append(lambda _change: written_on.append(threading.get_ident()))
    heard: list[ChangeRecord] = []
    window.controller.changed.connect(lambda change, _initiator: heard.append(change))

    assert pairs.answer("left")
    assert not pairs.answer("left")  # the pair shown is being written: not answerable twice
    qtbot.waitUntil(lambda: bool(written_on))

    assert written_on and threading.get_ident() not in written_on  # appended and fsynced on the lane
    qtbot.waitUntil(lambda: [c.kind for c in heard] == ["rate_pair"])  # told on the GUI thread, nothing else asked
    pairs.close()
    qtbot.waitUntil(lambda: window.review.tools.pair_window is None)


def test_a_save_nests_no_event_loop_and_keys_pressed_meanwhile_wait_for_it(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 2)
    editor = fill_verdict(qtbot, window, Verdict.PARTIAL, "Only the small benchmark ran.")
    lane, gate = WriteLane.shared(), threading.Event()
    lane.submit(lambda: gate.wait(30))  # the lane is busy with another window's write until the timer fires
    inside_save: list[bool] = []
    saving = [True]

    def timer_fired() -> None:
        inside_save.append(saving[0])
        gate.set()

    QTimer.singleShot(0, timer_fired)  # a nested event loop in the save would run this before save() returned
    assert editor.save()
    saving[0] = False
    # Ctrl+Enter again while the first save is in flight: queued, then finds nothing left to save
    qtbot.keyClick(editor.rationale, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert editor.state.text() == "Saving…"  # "Saved" only once the record is on disk
    qtbot.waitUntil(lambda: editor.state.text().startswith("Saved at"))
    written(qtbot, window)

    assert inside_save == [False]
    verdicts = [r for r in records(window) if r["kind"] == "verdict"]
    assert [r["payload"]["verdict"] for r in verdicts] == ["partial"]  # saved once, not twice


def test_a_change_says_who_asked_for_it_and_listeners_redo_only_what_it_names(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    show_claim(qtbot, window, 2)
    heard: list[tuple[str, object]] = []
    window.controller.changed.connect(lambda change, initiator: heard.append((change.kind, initiator)))
    panel = window.review.notes_panel
    refreshed: list[str] = []
    original = panel.set_notes
    panel.set_notes = lambda summary, shown: (refreshed.append(summary), original(summary, shown))[1]  # type: ignore[method-assign]

    editor = fill_verdict(qtbot, window, Verdict.PARTIAL, "Only the small benchmark ran.")
    editor_refreshes: list[str | None] = []
    editor_refresh = editor.refresh
    editor.refresh = lambda: (editor_refreshes.append(editor.claim_key), editor_refresh())[1]  # type: ignore[method-assign]
    assert save(qtbot, editor)
    assert heard == [("set_verdict", editor)]  # the editor can tell its own change from another window's
    assert refreshed == []  # a verdict is not a note: the notes tab is left alone (not blind)
    assert editor_refreshes == []  # its own save: the editor shows what it saved, nothing is read again

    window.actions_by_name["undo"].trigger()  # asked for by no screen: the editor shows the verdict undone
    written(qtbot, window)
    assert heard[-1] == ("set_verdict", None) and len(editor_refreshes) == 1 and editor.stored is None
    window.actions_by_name["redo"].trigger()
    written(qtbot, window)
    assert len(editor_refreshes) == 2 and editor.stored is not None

    window.actions_by_name["add_note"].trigger()
    save_note(qtbot, window, "Timing includes warm-up")
    assert [kind for kind, _ in heard][-1] == "add_note" and len(refreshed) == 1
