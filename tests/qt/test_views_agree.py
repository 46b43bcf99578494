"""The review window shows what the queue, the paper view and the command line show
(tests/core/review/test_views_agree.py checks those against the ReviewWorkspace), and a verdict save does not match
the Logbook Judge again."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.demo import DEMO_VERDICTS_FILE
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.importer import import_verdicts
from reviewapp.core.review.changes import ChangeRecord
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.verdicts import Verdict
from reviewapp.qt.models.claim_table import ClaimRole
from tests.core import judge_fixtures
from tests.core.disputed_logbook import OTHER, write_disputed_logbook
from tests.qt.conftest import LOAD_TIMEOUT_MS, REVIEWER, OpenWindow, wait_idle
from tests.qt.review_helpers import act, written


def test_the_window_row_gives_the_same_verdicts_disagreement_and_hidden_names(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    disputed = write_disputed_logbook(tmp_path, me=REVIEWER)
    truth = ReviewWorkspace()
    truth_id = truth.open(read_logbook(disputed.folder), REVIEWER)
    window = open_window()
    with qtbot.waitSignal(window.controller.loaded, timeout=LOAD_TIMEOUT_MS):
        window.controller.open(disputed.folder, blind=True)
    wait_idle(qtbot, window)
    model, review = window.claim_model, window.controller
    assert review.blind

    shown = {}
    for row in range(model.rowCount()):
        index = model.index(row)
        slots = index.data(ClaimRole.SLOTS)
        shown[index.data(ClaimRole.KEY)] = (
            (slots.agent, slots.logbook_judge, slots.human),
            index.data(ClaimRole.DISAGREEMENT),
        )
    expected = {
        r.key: ((r.slots.agent, r.slots.logbook_judge, r.slots.human), r.disagreement) for r in truth.rows(truth_id)
    }
    assert shown == expected
    assert shown[disputed.contradicted] == ((Verdict.TOY, None, Verdict.TOY), True)
    assert set(disputed.parts) <= set(shown) and disputed.split not in shown
    # blind: Bob's verdict shows where I have given mine, and stays hidden (name and all) where I have not
    assert [r.annotator for r in review.other_verdicts(disputed.seen_blind)] == [OTHER]
    assert review.other_verdicts(disputed.hidden_blind) == []
    # the people the workspace names on each claim under the window's rule: what the other views show blind
    # (tests/core/review/test_views_agree.py), with me beside Bob where I judged too
    blind_truth = ReviewWorkspace()
    blind_id = blind_truth.open(read_logbook(disputed.folder), REVIEWER, rule=review.rule)
    for key in shown:
        others = {r.annotator for r in review.other_verdicts(key)}
        assert set(blind_truth.people(blind_id, key)) - {REVIEWER} == others, key
    # and no row names the participant (the Space its metadata names)
    texts = [
        str(model.index(row).data(role) or "")
        for row in range(model.rowCount())
        for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
    ]
    for name in judge_fixtures.SPACE.split("/"):
        assert not any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", t, re.IGNORECASE) for t in texts), name


def test_a_verdict_save_does_not_match_the_logbook_judge_again_and_a_re_match_does(
    qtbot: QtBot, open_window: OpenWindow, demo_copy: Path
) -> None:
    logbook = read_logbook(demo_copy)
    assert import_verdicts(demo_copy / DEMO_VERDICTS_FILE, [logbook]).all_stored
    window = open_window(demo_copy)
    controller = window.controller
    logbook_id = controller.logbook_id
    assert logbook_id is not None and controller.logbook_judge() is not None
    matched = controller.workspace.logbook_judge_matches_made(logbook_id)
    heard: list[ChangeRecord] = []
    heard_undone: list[str | None] = []
    failures: list[BaseException] = []
    controller.changed.connect(lambda change, _initiator: heard.append(change))
    first = controller.claims[0].key

    act(qtbot, controller, lambda s: s.set_verdict(first, Verdict.PARTIAL, "half of it"))
    act(qtbot, controller, lambda s: s.add_note(s.claim_target(first), "checked the table"))
    controller.undo(heard_undone.append, failures.append)
    qtbot.waitUntil(lambda: bool(heard_undone))
    wait_idle(qtbot, window)

    assert [c.kind for c in heard] == ["set_verdict", "add_note", "add_note"] and not failures
    assert controller.workspace.logbook_judge_matches_made(logbook_id) == matched  # counted, not timed
    window.logbook_judge.apply_rematch(first, 2)  # registry claim 2 is claim 1, by hand
    written(qtbot, window)
    assert controller.workspace.logbook_judge_matches_made(logbook_id) == matched + 1
    judged = controller.logbook_judge()
    assert judged is not None and judged.match(first).method == "by hand"  # type: ignore[union-attr]
    assert window.logbook_judge.judged is judged  # the panel shows the workspace's slot, not a match of its own
