"""The queue window through a queue of three generated logbooks with two judges: progress, the next unreviewed
claim across logbooks, scoring on the rubric, flags, filters and blind mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from reviewapp.core.queue.scoring import rubric_scores
from reviewapp.core.verdicts import Verdict
from reviewapp.qt import theme
from reviewapp.qt.queue.queue_model import LOGBOOK, STATUS
from reviewapp.qt.queue.queue_window import QueueWindow
from reviewapp.qt.queue.score_dialog import ScoreDialog
from tests.core.annotation_helpers import open_review
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle
from tests.qt.review_helpers import fill_verdict, save
from tests.support.paper_fixtures import write_team_logbook

QUEUE_TIMEOUT_MS = 60_000


@pytest.fixture
def queue_file(tmp_path: Path) -> Path:
    for team in ("ada-lovelace", "bob", "cy"):
        write_team_logbook(tmp_path / "logbooks" / f"{team}-repro", team, [(0, "verified"), (1, "toy"), (2, "toy")])
    path = tmp_path / "queue.csv"
    path.write_text(
        "source,paper\nlogbooks/ada-lovelace-repro,P1\nlogbooks/bob-repro,P2\nlogbooks/cy-repro,P1\nlogbooks/old/gone,P3\n"
    )
    return path


def open_queue(qtbot: QtBot, path: Path, me: str, opened: list[tuple[Path, str | None]]) -> QueueWindow:
    window = QueueWindow(path, me, lambda folder, key, _blind: opened.append((folder, key)))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.model.rows) == 3 and not window.loading, timeout=QUEUE_TIMEOUT_MS)
    return window


def test_progress_next_unreviewed_and_filters(qtbot: QtBot, queue_file: Path, screenshots: Screenshots) -> None:
    root = queue_file.parent / "logbooks"
    for n in (1, 2, 3):
        open_review(root / "ada-lovelace-repro", "Grace").set_verdict(n, "verified", "Re-ran it.")
    open_review(root / "bob-repro", "Grace").set_verdict(1, "toy", "Tiny.")
    open_review(root / "bob-repro", "Alan").set_verdict(1, "falsified", "Wrong units.")
    opened: list[tuple[Path, str | None]] = []
    window = open_queue(qtbot, queue_file, "Grace", opened)
    rows = {Path(r.entry.location).name: r for r in window.model.rows}
    assert (rows["ada-lovelace-repro"].reviewed_by_me, rows["ada-lovelace-repro"].status) == (3, "in progress")
    assert rows["bob-repro"].reviewed_by_me == 1 and rows["bob-repro"].disagreements == 1
    assert rows["ada-lovelace-repro"].disagreements == 2
    assert "4 of 9 claims reviewed by you" in window.summary.text()
    assert "1 row(s) cannot be used" in window.summary.text()
    window.table.selectRow(0)
    qtbot.keyClick(window.table, Qt.Key.Key_N)  # ada's logbook has no claim left: go on to bob's claim 2
    assert "bob-repro" in opened[-1][0].parts and opened[-1][1] is not None and opened[-1][1].endswith("#2")
    qtbot.keyClick(window.table, Qt.Key.Key_N)
    qtbot.keyClick(window.table, Qt.Key.Key_N)
    assert "cy-repro" in opened[-1][0].parts  # crossed into the next logbook
    window.status_filter.setCurrentIndex(2)  # in progress
    assert window.proxy.rowCount() == 2
    window.status_filter.setCurrentIndex(0)
    qtbot.keyClicks(window.paper_filter, "P1")
    assert window.proxy.rowCount() == 2
    window.paper_filter.clear()
    rows["bob-repro"].points, rows["cy-repro"].points = (4, 6), (1, 6)  # as stored imports would give them
    window.points_filter.setValue(2)
    assert [window.proxy.index(i, 1).data().split(" (")[0][-3:] for i in range(window.proxy.rowCount())] == ["bob"]
    window.points_filter.setValue(0)
    assert window.proxy.rowCount() == 3
    qtbot.keyClick(window.table, Qt.Key.Key_D)  # disagreements first
    first = window.proxy.mapToSource(window.proxy.index(0, 0)).row()
    # ada's agent said toy twice where Grace says verified; bob's once
    assert Path(window.model.rows[first].entry.location).name == "ada-lovelace-repro"
    screenshots.take(window, "queue-light")
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "queue-dark")


def test_the_queue_in_its_own_order_is_shown_unsorted_and_every_column_still_sorts(
    qtbot: QtBot, queue_file: Path
) -> None:
    from reviewapp.qt.queue.queue_model import PAPER

    window = open_queue(qtbot, queue_file, "Grace", [])
    header = window.table.horizontalHeader()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (0, Qt.SortOrder.AscendingOrder)
    assert window.proxy.sortColumn() == -1  # "#" ascending: the model's order, not sorted row by row

    def shown() -> list[str]:
        return [window.proxy.index(i, 0).data() for i in range(window.proxy.rowCount())]

    assert shown() == ["1", "2", "3"]
    window.table.sortByColumn(0, Qt.SortOrder.DescendingOrder)
    assert shown() == ["3", "2", "1"] and window.proxy.sortColumn() == 0
    window.table.sortByColumn(PAPER, Qt.SortOrder.DescendingOrder)  # P2, then the two P1 rows
    assert [window.proxy.index(i, PAPER).data() for i in range(3)] == ["P2", "P1", "P1"]
    window.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert shown() == ["1", "2", "3"] and window.proxy.sortColumn() == -1
    window.reload()  # read again: listed, then filled, in the queue's order throughout
    qtbot.waitUntil(lambda: not window.loading, timeout=QUEUE_TIMEOUT_MS)
    assert shown() == ["1", "2", "3"]
    assert [window.proxy.mapToSource(window.proxy.index(i, 0)).row() for i in range(3)] == [0, 1, 2]


def test_the_read_ahead_starts_in_the_pool_and_the_chunks_go_there_a_few_at_a_time(
    qtbot: QtBot, queue_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc
    import threading

    from reviewapp.qt.queue import queue_window

    monkeypatch.setattr(queue_window, "CHUNK", 1)  # three chunks, one in flight: each read one submits the next
    monkeypatch.setattr(queue_window, "IN_FLIGHT", 1)
    pending: list[int] = []
    collector: list[bool] = []
    submit, set_rows = queue_window.TaskRunner.submit, queue_window.QueueTableModel.set_rows

    def counted(runner: queue_window.TaskRunner, *args: object, **kwargs: object) -> None:
        pending.append(runner.pending)
        submit(runner, *args, **kwargs)  # type: ignore[arg-type]

    def listed(model: queue_window.QueueTableModel, *args: object, **kwargs: object) -> None:
        collector.append(gc.isenabled())
        set_rows(model, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(queue_window.TaskRunner, "submit", counted)
    started_on: list[bool] = []  # whether the read-ahead was started on the GUI thread
    start = queue_window._ReadAhead.__init__

    def starting(ahead: queue_window._ReadAhead, *args: object, **kwargs: object) -> None:
        started_on.append(threading.current_thread() is threading.main_thread())
        start(ahead, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(queue_window._ReadAhead, "__init__", starting)
    children_started_on: list[bool] = []  # whether its children were started on the GUI thread
    start_children = queue_window._ReadAhead.start

    def starting_children(ahead: queue_window._ReadAhead) -> None:
        children_started_on.append(threading.current_thread() is threading.main_thread())
        start_children(ahead)

    monkeypatch.setattr(queue_window._ReadAhead, "start", starting_children)
    monkeypatch.setattr(queue_window.QueueTableModel, "set_rows", listed)
    values: list[int] = []
    window = QueueWindow(queue_file, "Grace", lambda *_: None)
    qtbot.addWidget(window)
    window.progress.valueChanged.connect(values.append)
    window.show()
    qtbot.waitUntil(lambda: len(window.model.rows) == 3 and not window.loading, timeout=QUEUE_TIMEOUT_MS)
    assert all(row.status != "reading…" for row in window.model.rows)
    assert [Path(row.entry.location).name for row in window.model.rows] == [
        "ada-lovelace-repro",
        "bob-repro",
        "cy-repro",
    ]
    assert max(pending) <= 1  # never more than the one chunk (besides the submitting task's own) at a time
    assert values[-1] == 3 and values == sorted(values)
    assert collector == [False] and gc.isenabled()  # the collector off while listing, and on again after
    assert started_on == [False]  # made with the queue's reading, in the pool
    assert children_started_on and not any(children_started_on)  # by the chunks, in the pool


def _cells(model: object) -> list[list[tuple[object, ...]]]:
    """Every role the table shows of every cell of a model."""
    from reviewapp.qt.queue.queue_model import COLUMNS, SORT_ROLE, QueueTableModel

    assert isinstance(model, QueueTableModel)
    roles = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole, SORT_ROLE]
    return [
        [tuple(model.index(row, column).data(role) for role in roles) for column in range(len(COLUMNS))]
        for row in range(model.rowCount())
    ]


def test_a_queue_changed_step_by_step_shows_what_one_listed_afresh_shows(qtbot: QtBot, queue_file: Path) -> None:
    import dataclasses

    from reviewapp.qt.queue.queue_model import QueueTableModel

    window = open_queue(qtbot, queue_file, "Grace", [])
    model = window.model
    before = _cells(model)
    maker = Path(model.rows[1].entry.location).name.removesuffix("-repro")
    flagged = dataclasses.replace(model.rows[1], flag_reason=f"numbers off by {maker}", status="flagged")
    model.replace_row(1, flagged)
    window.blind_box.setChecked(True)  # labels and texts through the blinders
    qtbot.waitUntil(lambda: window.runner.pending == 0, timeout=QUEUE_TIMEOUT_MS)  # blinders that know git authors
    changed = _cells(model)
    afresh = QueueTableModel()
    afresh.blind = True
    afresh.set_rows(list(model.rows), [model._blinders[n] for n in range(len(model.rows))])
    assert changed == _cells(afresh)
    tip = changed[1][STATUS][1]
    assert changed != before and isinstance(tip, str) and tip.startswith("Flagged: numbers off by ")
    assert maker not in tip and all("ada-lovelace" not in str(cell) for row in changed for cell in row)
    window.blind_box.setChecked(False)
    assert _cells(model)[0] == before[0] and _cells(model)[1][STATUS][1] == f"Flagged: numbers off by {maker}"


def test_painting_and_sorting_the_queue_run_no_python(qtbot: QtBot, queue_file: Path) -> None:
    """The table's cells are answered by Qt: a paint that called Python once a cell waited for the interpreter at
    each call while workers ran Python (20-50 ms a paint while a long queue filled)."""
    import sys
    import threading
    from types import FrameType

    from reviewapp.qt.queue.queue_model import SORT_ROLE

    window = open_queue(qtbot, queue_file, "Grace", [])
    window.table.viewport().grab()
    called: list[str] = []

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event == "call" and threading.current_thread() is threading.main_thread():
            called.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")

    sys.setprofile(profile)
    try:
        window.table.viewport().grab()
        window.table.sortByColumn(LOGBOOK, Qt.SortOrder.DescendingOrder)
        window.table.viewport().grab()
    finally:
        sys.setprofile(None)
    ours = [c.rsplit(":", 1)[1] for c in called if "reviewapp" in c and "test_queue_window" not in c]
    assert set(ours) <= {"sort"} and len(ours) <= 2  # the filter's own sort is called once a sort, not a compare
    keys = [window.proxy.index(r, LOGBOOK).data(SORT_ROLE) for r in range(window.proxy.rowCount())]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 3


def test_blind_mode_hides_who_made_each_logbook(qtbot: QtBot, queue_file: Path) -> None:
    window = open_queue(qtbot, queue_file, "Grace", [])
    labels = [window.model.label(i) for i in range(3)]
    assert any("by ada-lovelace" in label for label in labels)
    qtbot.keyClick(window, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert window.model.blind
    blinded = [window.proxy.index(i, LOGBOOK).data() for i in range(window.proxy.rowCount())]
    assert all(label.startswith("Participant ") for label in blinded)
    assert not any("ada" in label.lower() or "bob" in label.lower() for label in blinded), blinded
    qtbot.waitUntil(lambda: window.model.complete, timeout=QUEUE_TIMEOUT_MS)  # every author's name known
    blinded = [window.proxy.index(i, LOGBOOK).data() for i in range(window.proxy.rowCount())]
    assert all("Reproduction of flat minima by Participant " in label for label in blinded)
    assert len(set(blinded)) == 3  # a stable pseudonym per logbook


def test_scoring_and_flagging_from_the_queue(qtbot: QtBot, queue_file: Path) -> None:
    window = open_queue(qtbot, queue_file, "Grace", [])
    window.table.selectRow(0)
    number = window.selected_row()
    assert number is not None

    def fill_and_save() -> None:
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, ScoreDialog) and w.isVisible())
        for name, value in {"rigor": 4, "scale": 2, "honesty": 5, "clarity": 3}.items():
            dialog.values[name].setValue(value)
        dialog.comments["scale"].setText("a 10% proxy")
        assert dialog.overall.text() == "<b>3.50</b>"
        qtbot.keyClick(dialog, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    QTimer.singleShot(200, fill_and_save)
    qtbot.keyClick(window.table, Qt.Key.Key_S)
    qtbot.waitUntil(lambda: window.model.rows[number].my_score is not None, timeout=QUEUE_TIMEOUT_MS)
    assert window.model.rows[number].my_score == 3.5
    folder = Path(window.model.rows[number].entry.location)
    review = open_review(folder, "Alan")
    score = rubric_scores(review.state)["Grace"]
    assert score.payload.criteria[1].comment == "a 10% proxy" and not score.payload.blind


def test_file_open_queue_takes_the_review_window_to_the_claim(
    qtbot: QtBot, queue_file: Path, open_window: OpenWindow
) -> None:
    main = open_window()
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 3 and not queue.loading, timeout=QUEUE_TIMEOUT_MS)
    queue.table.selectRow(1)
    target = Path(queue.model.rows[queue.selected_row() or 0].entry.location)
    with qtbot.waitSignal(main.controller.loaded, timeout=QUEUE_TIMEOUT_MS):
        qtbot.keyClick(queue.table, Qt.Key.Key_Return)
    wait_idle(qtbot, main)
    assert main.controller.logbook is not None and main.controller.logbook.root.parents[1] == target.resolve()
    assert main.current_claim is not None and main.current_claim.n == 1  # the first claim without my verdict
    number = queue.selected_row()
    assert number is not None and queue.model.rows[number].reviewed_by_me == 0
    editor = fill_verdict(qtbot, main, Verdict.TOY, "Ran at a tenth of the paper's scale.")
    assert save(qtbot, editor)
    # the queue hears of the verdict and reads that row again
    qtbot.waitUntil(lambda: queue.model.rows[number].reviewed_by_me == 1, timeout=QUEUE_TIMEOUT_MS)
    assert queue.model.rows[number].status == "in progress"


def test_a_rubric_file_beside_the_queue_is_used_and_a_bad_one_is_said(
    qtbot: QtBot, queue_file: Path, open_window: OpenWindow
) -> None:
    main = open_window()
    (queue_file.parent / "rubric.toml").write_text(
        'name = "team"\nscale = [0, 10]\n[[criterion]]\nname = "rigor"\nweight = 2\n[[criterion]]\nname = "fun"\n'
    )
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    assert queue.rubric.name == "team" and [c.name for c in queue.rubric.criteria] == ["rigor", "fun"]
    errors: list[str] = []
    main.error_shown.connect(errors.append)
    bad = queue_file.parent / "bad.toml"
    bad.write_text("scale = [5, 1]\n")
    queue = main.queue.open_queue(queue_file, bad)
    qtbot.addWidget(queue)
    assert queue.rubric.name == "reviewapp default"
    assert errors and "bad.toml" in errors[0] and "scale" in errors[0]


def test_the_score_dialog_shows_whole_numbers_on_an_integer_scale_and_each_criterion_description(
    qtbot: QtBot,
) -> None:
    from PySide6.QtWidgets import QLabel

    from reviewapp.core.queue.rubric import DEFAULT_RUBRIC
    from reviewapp.qt.queue.score_dialog import ScoreDialog

    dialog = ScoreDialog(DEFAULT_RUBRIC, "kestrel", None, None)
    qtbot.addWidget(dialog)
    spins = list(dialog.values.values())
    assert spins and all(spin.decimals() == 0 for spin in spins)
    assert spins[0].text() == "3"  # the middle of 1-5, without ".0"
    shown = {label.text() for label in dialog.findChildren(QLabel)}
    assert all(c.description in shown for c in DEFAULT_RUBRIC.criteria)


def test_a_broken_logbook_shows_its_problems_in_the_window_and_on_its_queue_row(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    from tests.support.look_fixtures import write_broken_logbook

    broken = write_broken_logbook(tmp_path / "lost")
    window = open_window(broken)
    text = window.evidence.hint.text()
    assert window.evidence.hint.isVisible()
    assert text.startswith("This logbook is broken: none of its claims could be read (4 problems).")
    assert "• pages/index.md:7: table of contents links to" in text and "logbook.json: page" in text
    assert "Open a logbook" not in text
    (tmp_path / "queue.txt").write_text("lost\n", encoding="utf-8")
    queue = window.queue.open_queue(tmp_path / "queue.txt", me="Rae Reviewer")
    qtbot.waitUntil(lambda: not queue.loading, timeout=60_000)
    status = queue.model.index(0, STATUS).data()
    assert status.startswith("broken: no claims could be read: pages/index.md")


def test_a_queue_opened_with_an_empty_review_window_starts_it_on_the_first_logbook(
    qtbot: QtBot, queue_file: Path
) -> None:
    from reviewapp.qt.controller import LogbookController
    from reviewapp.qt.main_window import MainWindow

    main = MainWindow(LogbookController(), remember_state=False)
    qtbot.addWidget(main)
    main.show()
    queue = main.queue.open_queue(queue_file, me="Someone Else")
    qtbot.addWidget(queue)
    assert queue.me == "Someone Else"  # --annotator: whose progress the queue shows
    qtbot.waitUntil(lambda: main.controller.logbook is not None, timeout=60_000)
    first = queue_file.parent / "logbooks" / "ada-lovelace-repro"
    assert main.controller.logbook is not None
    assert main.controller.logbook.root.resolve() == (first / ".trackio" / "logbook").resolve()
    qtbot.waitUntil(lambda: main.current_claim is not None, timeout=60_000)
    queue.close()


def test_a_copy_read_in_a_later_chunk_is_merged_once_the_queue_is_read(qtbot: QtBot, tmp_path: Path) -> None:
    import shutil

    from reviewapp.qt.queue.queue_window import CHUNK

    write_team_logbook(tmp_path / "kestrel", "kestrel", [(0, "verified"), (1, "toy")])
    others = [f"team{n}" for n in range(CHUNK)]
    for team in others:
        write_team_logbook(tmp_path / team, team, [(2, "verified")])
    shutil.copytree(tmp_path / "kestrel" / ".trackio" / "logbook", tmp_path / "kestrel-published")
    path = tmp_path / "queue.txt"
    path.write_text("\n".join(["kestrel", *others, "kestrel-published"]) + "\n", encoding="utf-8")
    window = QueueWindow(path, "Ada", lambda *_: None)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: len(window.model.rows) == CHUNK + 2 and not window.loading, timeout=QUEUE_TIMEOUT_MS)
    copy = window.model.rows[-1]
    assert copy.status == "merged" and copy.claims == 0
    status = window.model.data(window.model.index(CHUNK + 1, STATUS))
    assert status.startswith("merged: the same logbook as row 1 (kestrel;")


def test_the_queue_reads_again_only_the_row_a_change_names_and_only_when_the_row_shows_it(
    qtbot: QtBot, queue_file: Path, open_window: OpenWindow
) -> None:
    from tests.qt.review_helpers import act

    main = open_window()
    queue = main.queue.open_queue(queue_file)
    qtbot.addWidget(queue)
    qtbot.waitUntil(lambda: len(queue.model.rows) == 3 and not queue.loading, timeout=QUEUE_TIMEOUT_MS)
    queue.table.selectRow(1)
    number = queue.selected_row()
    assert number is not None
    with qtbot.waitSignal(main.controller.loaded, timeout=QUEUE_TIMEOUT_MS):
        qtbot.keyClick(queue.table, Qt.Key.Key_Return)
    wait_idle(qtbot, main)
    qtbot.waitUntil(
        lambda: not main.queue._refresh_timer.isActive() and not queue.runner.pending,
        timeout=QUEUE_TIMEOUT_MS,
    )
    redrawn: list[int] = []  # the rows read again, one entry per read
    resets: list[int] = []
    replace_row = queue.model.replace_row

    def counted(row_number: int, row: object) -> None:
        redrawn.append(row_number)
        replace_row(row_number, row)

    queue.model.replace_row = counted  # type: ignore[method-assign]
    queue.model.modelReset.connect(lambda: resets.append(1))

    review = main.controller
    act(qtbot, review, lambda r: r.add_note(r.claim_target(1), "timed on one GPU"))  # a note: no row shows it
    assert not main.queue._refresh_timer.isActive() and redrawn == []

    editor = fill_verdict(qtbot, main, Verdict.FALSIFIED, "The table's numbers are not reached.")
    assert save(qtbot, editor)
    qtbot.waitUntil(lambda: queue.model.rows[number].reviewed_by_me == 1, timeout=QUEUE_TIMEOUT_MS)
    assert redrawn == [number] and resets == []  # that row, once
