"""The review window keeps no list of claims of its own: the claim list, the claim shown and its header all show the
workspace's rows (ReviewedClaim) after a split, a merge, an undo, a correction made elsewhere and a reload.

Each check asks for the workspace's own row objects (`is`), not equal ones: a copy kept anywhere in the window is
equal until the first change it misses, and the identity check finds it before then.
"""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.main_window import MainWindow
from reviewapp.qt.models.claim_table import ClaimRole, short_title
from tests.qt.conftest import LOAD_TIMEOUT_MS, OpenWindow, wait_idle
from tests.qt.review_helpers import act, show_claim, written


def assert_every_view_shows_the_workspace(window: MainWindow) -> None:
    controller = window.controller
    assert controller.logbook_id is not None
    rows = controller.workspace.rows(controller.logbook_id)
    model = window.claim_model
    listed = [model.row_info(position).reviewed for position in range(model.rowCount())]
    assert [row.key for row in listed] == [row.key for row in rows]
    assert all(shown is row for shown, row in zip(listed, rows, strict=True))  # the workspace's rows, no copies
    assert [model.index(i).data(ClaimRole.MARK) for i in range(model.rowCount())] == [row.mark for row in rows]
    assert all(claim is row.claim for claim, row in zip(controller.claims, rows, strict=True))
    key = window.current_key
    assert key is not None
    row = controller.workspace.row(controller.logbook_id, key)
    assert row is not None and window.current_claim is row.claim
    header = window.evidence.header
    assert header.title.text() == short_title(row.claim)
    badges = header.badges
    shown = (badges["agent"].verdict, badges["judge"].verdict, badges["human"].verdict)
    assert shown == (row.slots.agent, row.slots.logbook_judge, row.slots.human)


def test_after_a_split_a_merge_their_undo_and_a_reload_every_view_shows_the_workspace(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    review = window.controller
    show_claim(qtbot, window, 3)
    original = window.current_key
    assert_every_view_shows_the_workspace(window)

    act(qtbot, review, lambda r: r.split_claim(3, [{"title": "First half"}, {"title": "Second half"}], "two"))
    wait_idle(qtbot, window)
    assert window.current_key == f"{original}.1"
    assert window.claim_model.index(2).data(ClaimRole.MARK)  # the part says it was split
    assert_every_view_shows_the_workspace(window)

    window.actions_by_name["undo"].trigger()
    written(qtbot, window)
    wait_idle(qtbot, window)
    assert window.current_key == original
    assert_every_view_shows_the_workspace(window)

    first, second = (row.key for row in window.controller.rows()[:2])
    act(qtbot, review, lambda r: r.merge_claims([first, second], "Both at once", "one result"))
    wait_idle(qtbot, window)
    show_claim(qtbot, window, window.controller.rows()[0].key)
    assert window.current_claim is not None and window.current_claim.title == "Both at once"
    assert_every_view_shows_the_workspace(window)

    window.actions_by_name["undo"].trigger()
    written(qtbot, window)
    wait_idle(qtbot, window)
    assert window.controller.rows()[0].key == first
    assert_every_view_shows_the_workspace(window)

    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(demo_copy)  # the same logbook again: every row derived anew
    wait_idle(qtbot, window)
    assert_every_view_shows_the_workspace(window)


def test_a_correction_made_elsewhere_shows_on_the_claim_shown_once_the_review_is_read_again(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    window = open_window(demo_copy)
    review = window.controller
    show_claim(qtbot, window, 2)
    shown = window.current_claim
    assert shown is not None and review.identity is not None
    corrected = Verdict.FALSIFIED if shown.verdict is not Verdict.FALSIFIED else Verdict.VERIFIED
    # the command line, in the same reviewer's name: nothing in the window hears of it until it reads the files
    elsewhere = LogbookReview.open(read_logbook(demo_copy), review.identity)
    elsewhere.correct_agent_verdict(2, corrected, "the table says otherwise")

    review.reload()
    wait_idle(qtbot, window)

    assert window.current_claim is not None and window.current_claim.verdict is corrected
    assert window.claim_model.index(1).data(ClaimRole.SLOTS).agent is corrected
    assert_every_view_shows_the_workspace(window)
