"""The rating window, driven by key presses: rating with controls, undo, close and resume, then `pairs check`;
blinding; the compare modes (checked pixel by pixel at 1:1 and saved as screenshots); broken images."""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest
from PIL import Image
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from reviewapp.cli import main
from reviewapp.core.pairs.check import check_results
from reviewapp.core.pairs.pair_images import DIFFERENCE_GAIN
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.review.records import PairRatingRecord, parse_line
from reviewapp.qt import crash
from reviewapp.qt.pairs import PairRatingWindow
from reviewapp.qt.pairs.canvas import MIN_FLICKER_INTERVAL_MS, CompareMode
from reviewapp.qt.pairs.window import SHORTCUTS
from tests.support.pair_fixtures import (
    CONDITIONS,
    INSTRUCTIONS,
    QUESTION,
    break_images,
    open_annotations,
    write_pair_logbook,
)

TIMEOUT = 20_000


@pytest.fixture
def windows(qtbot: QtBot) -> Iterator[list[PairRatingWindow]]:
    opened: list[PairRatingWindow] = []
    yield opened
    for window in opened:
        window.close()


def open_rating(qtbot: QtBot, windows: list, workspace: Path, name: str = "Rita Rater") -> PairRatingWindow:
    window = PairRatingWindow.for_set(open_annotations(workspace, name), "test")
    qtbot.addWidget(window)
    windows.append(window)
    window.resize(1300, 820)
    window.show()
    qtbot.waitExposed(window)
    wait_shown(qtbot, window)
    return window


def wait_shown(qtbot: QtBot, window: PairRatingWindow) -> None:
    """Until the current pair is fully painted (or every trial is rated)."""
    qtbot.waitUntil(lambda: (window.rating.complete and not window.writing) or window.can_answer, timeout=TIMEOUT)


def press(qtbot: QtBot, window: PairRatingWindow, key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window, key, modifier)


def answer_key(window: PairRatingWindow) -> Qt.Key:
    """The honest rater: prefers the baseline (condition a), sees identical pairs as identical."""
    trial = window.rating.current
    assert trial is not None
    if trial.control == "identical":
        return Qt.Key.Key_Space
    return Qt.Key.Key_Left if trial.left == "a" else Qt.Key.Key_Right


def rate_one(qtbot: QtBot, window: PairRatingWindow, key: Qt.Key | None = None) -> None:
    before = window.rating.progress().rated
    press(qtbot, window, key or answer_key(window))
    wait_shown(qtbot, window)  # the next pair appears once the rating is on disk
    assert window.rating.progress().rated == before + 1


def jsonl(workspace: Path, slug: str = "rita-rater") -> list:
    path = workspace / ".trackio" / "logbook" / "reviews" / f"{slug}.jsonl"
    return [parse_line(line) for line in path.read_bytes().splitlines()]


def test_rate_with_keys_undo_close_resume_then_check(
    qtbot: QtBot, windows: list, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 10, controls={"rate": 0.4})
    window = open_rating(qtbot, windows, workspace)
    total = len(window.rating.trials)
    assert total == 14 and {t.control for t in window.rating.trials} == {"", "repeat", "identical"}
    assert window.question.text() == QUESTION and window.instructions.text() == INSTRUCTIONS
    assert window.question.isVisible() and window.instructions.isVisible()
    assert "1 of 14" in window.progress.text()

    # trial 0: unusable right image, confidence 3, a comment, then the answer
    first = window.rating.current
    assert first is not None
    press(qtbot, window, Qt.Key.Key_P)
    press(qtbot, window, Qt.Key.Key_3, Qt.KeyboardModifier.ShiftModifier)
    press(qtbot, window, Qt.Key.Key_C)
    assert window.comment_edit.isVisible()
    qtbot.keyClicks(window.comment_edit, "sky has banding")
    qtbot.keyClick(window.comment_edit, Qt.Key.Key_Return)
    assert not window.comment_edit.isVisible() and "comment added" in window.confidence_label.text()
    rate_one(qtbot, window)
    saved = jsonl(workspace)[-1]
    assert isinstance(saved, PairRatingRecord) and saved.payload.trial == 0
    assert saved.payload.right_unusable and not saved.payload.left_unusable
    assert saved.payload.confidence == 3 and saved.payload.comment == "sky has banding"
    if first.control == "identical":  # the seed is drawn per rater, so trial 0 may be an identical-image control
        assert saved.payload.response == "same"
    else:
        assert saved.payload.response == ("left" if first.left == "a" else "right")
    assert not window.right_unusable_button.isChecked()  # flags reset for the next pair

    rate_one(qtbot, window)
    rate_one(qtbot, window, Qt.Key.Key_2)  # a deliberate "no difference" on trial 2
    press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo it
    wait_shown(qtbot, window)
    assert window.rating.current is not None and window.rating.current.index == 2
    assert jsonl(workspace)[-1].kind == "retraction"
    rate_one(qtbot, window)  # trial 2 again, honestly
    for _ in range(3):
        rate_one(qtbot, window)
    stopped_at = window.rating.current
    assert stopped_at is not None and stopped_at.index == 6
    press(qtbot, window, Qt.Key.Key_Escape)  # stop: everything is saved already
    assert not window.isVisible()

    resumed = open_rating(qtbot, windows, workspace)
    assert resumed.rating.current == stopped_at and resumed.rating.seed == window.rating.seed
    assert "7 of 14" in resumed.progress.text()
    while not resumed.rating.complete:
        rate_one(qtbot, resumed)
    assert resumed.rating.results is not None
    csv_path, _ = resumed.rating.results
    assert "All 14 pairs are rated" in resumed.canvas.message

    report = check_results(csv_path)
    assert report.valid, report.errors
    assert report.summary is not None and report.summary.preferred["baseline"].count == 10
    assert report.summary.consistency.value == 1.0
    rows = csv_path.read_text().splitlines()
    assert len(rows) == 15 and "sky has banding" in rows[1] and ",3," in rows[1]

    assert main(["pairs", "check", str(csv_path), "--min-consistency", "0.8"]) == 0
    csv_path.write_text(csv_path.read_text().replace(",left,baseline,", ",left,quantized,", 1))
    assert main(["pairs", "check", str(csv_path)]) == 1
    out = capsys.readouterr().out
    assert f"{csv_path}: INVALID" in out.splitlines()  # on stdout, where the summary is


def visible_texts(root: QWidget) -> list[str]:
    texts = [root.windowTitle(), root.toolTip(), root.statusTip(), root.whatsThis(), root.accessibleName()]
    for widget in root.findChildren(QWidget):
        texts += [widget.toolTip(), widget.statusTip(), widget.whatsThis(), widget.accessibleName()]
        texts.append(widget.accessibleDescription())
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        if isinstance(widget, QLineEdit):
            texts += [widget.text(), widget.placeholderText()]
    return [t for t in texts if t]


def test_nothing_in_the_window_reveals_a_condition(qtbot: QtBot, windows: list, tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 6, controls={"rate": 0.5})
    window = open_rating(qtbot, windows, workspace)
    hidden = {w.casefold() for w in window.rating.pair_set.hidden_words()}
    assert {"baseline", "quantized", "p01.png", "baseline/p01.png"} <= hidden
    modes = [Qt.Key.Key_S, Qt.Key.Key_F, Qt.Key.Key_W, Qt.Key.Key_D]
    while not window.rating.complete:
        press(qtbot, window, modes[window.rating.progress().rated % 4])
        press(qtbot, window, Qt.Key.Key_C)
        shown = " | ".join(visible_texts(window)).casefold()
        leaks = sorted(w for w in hidden if w in shown)
        assert not leaks, f"trial {window.rating.current}: {leaks}"
        assert "Prompt: scene number" in window.prompt.text()  # neutral prompts are shown
        press(qtbot, window, Qt.Key.Key_Escape)  # drops the comment
        rate_one(qtbot, window)


def test_help_lists_every_shortcut(qtbot: QtBot, windows: list, tmp_path: Path) -> None:
    window = open_rating(qtbot, windows, write_pair_logbook(tmp_path / "ws", 2))
    assert window.help.isVisible()
    for _keys, what in SHORTCUTS:
        assert what in window.help.text()
    press(qtbot, window, Qt.Key.Key_H)
    assert not window.help.isVisible()


def pixel(window: PairRatingWindow, point: QPoint) -> tuple[int, int, int]:
    image = window.canvas.grab().toImage()
    colour = QColor(image.pixel(point))
    return colour.red(), colour.green(), colour.blue()


def source_pixel(workspace: Path, condition: str, pair_id: str, x: int, y: int) -> tuple[int, int, int]:
    with Image.open(workspace / "samples" / condition / f"{pair_id}.png") as image:
        return image.convert("RGB").getpixel((x, y))


def test_compare_modes_show_the_right_pixels(qtbot: QtBot, windows: list, tmp_path: Path, screenshots) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 3, size=1024, controls={"rate": 0})
    window = open_rating(qtbot, windows, workspace)
    canvas = window.canvas
    trial = window.rating.current
    assert trial is not None
    left_name = CONDITIONS[0] if trial.left == "a" else CONDITIONS[1]
    right_name = CONDITIONS[1] if trial.left == "a" else CONDITIONS[0]

    screenshots.take(window, "pairs-side-by-side")
    assert canvas.zoom_label() == "fit" and canvas.scale() < 1

    press(qtbot, window, Qt.Key.Key_Z)  # 1:1 pixels, centred
    assert canvas.view.zoom == 1.0
    screenshots.take(window, "pairs-one-to-one")
    left_panel, right_panel = canvas.panel_rects()
    for panel, name in ((left_panel, left_name), (right_panel, right_name)):
        rect = canvas.image_rect(panel)
        assert (rect.width(), rect.height()) == (1024, 1024)
        at = panel.center()
        x, y = int(at.x() - rect.x()), int(at.y() - rect.y())
        assert pixel(window, at) == source_pixel(workspace, name, trial.pair_id, x, y)

    press(qtbot, window, Qt.Key.Key_F)
    assert canvas.mode is CompareMode.FLICKER and canvas.flicker_interval >= MIN_FLICKER_INTERVAL_MS
    panel = canvas.panel_rects()[0]
    rect = canvas.image_rect(panel)
    at = panel.center()
    x, y = int(at.x() - rect.x()), int(at.y() - rect.y())
    assert pixel(window, at) == source_pixel(workspace, left_name, trial.pair_id, x, y)
    screenshots.take(window, "pairs-flicker-left")
    qtbot.waitUntil(lambda: canvas.flicker_right, timeout=2000)
    assert pixel(window, at) == source_pixel(workspace, right_name, trial.pair_id, x, y)
    screenshots.take(window, "pairs-flicker-right")
    canvas.set_flicker_interval(50)
    assert canvas.flicker_interval == MIN_FLICKER_INTERVAL_MS  # never faster than 3 switches a second

    press(qtbot, window, Qt.Key.Key_W)
    assert window.wipe_slider.isVisible()
    QApplication.processEvents()  # the slider takes room: the canvas is laid out again
    panel = canvas.panel_rects()[0]
    rect = canvas.image_rect(panel)
    cut = round(panel.x() + panel.width() * canvas.wipe)
    for dx, name in ((-20, left_name), (20, right_name)):
        point = QPoint(cut + dx, panel.center().y())
        expected = source_pixel(workspace, name, trial.pair_id, int(point.x() - rect.x()), int(point.y() - rect.y()))
        assert pixel(window, point) == expected
    press(qtbot, window, Qt.Key.Key_BracketLeft)
    assert canvas.wipe == pytest.approx(0.45)
    screenshots.take(window, "pairs-wipe")

    press(qtbot, window, Qt.Key.Key_D)
    QApplication.processEvents()
    panel = canvas.panel_rects()[0]
    rect = canvas.image_rect(panel)
    at = panel.center()
    x, y = int(at.x() - rect.x()), int(at.y() - rect.y())
    a = source_pixel(workspace, left_name, trial.pair_id, x, y)
    b = source_pixel(workspace, right_name, trial.pair_id, x, y)
    expected = tuple(min(255, abs(p - q) * DIFFERENCE_GAIN) for p, q in zip(a, b, strict=True))
    assert pixel(window, at) == expected
    screenshots.take(window, "pairs-difference", min_colors=10)

    # zoom and position persist to the next pair
    press(qtbot, window, Qt.Key.Key_S)
    canvas.pan_by(-200, -120)
    view = (canvas.view.zoom, canvas.view.centre_x, canvas.view.centre_y)
    rate_one(qtbot, window)
    assert (canvas.view.zoom, canvas.view.centre_x, canvas.view.centre_y) == view
    press(qtbot, window, Qt.Key.Key_Z)
    assert canvas.view.zoom is None


def test_bad_pairs_are_left_out_and_a_pair_damaged_later_can_be_skipped(
    qtbot: QtBot, windows: list, tmp_path: Path
) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 8, controls={"rate": 0})
    break_images(workspace)
    annotations = open_annotations(workspace)
    pair_set = load_set(annotations.logbook)
    assert [p.id for p in pair_set.rateable] == ["p07", "p08"]
    window = PairRatingWindow.for_set(annotations, pair_set=pair_set)
    qtbot.addWidget(window)
    windows.append(window)
    assert {t.pair_id for t in window.rating.trials} == {"p07", "p08"}
    second = window.rating.trials[1].pair_id
    (workspace / "samples" / "quantized" / f"{second}.png").write_bytes(b"gone bad after loading")
    window.show()
    wait_shown(qtbot, window)
    rate_one(qtbot, window, Qt.Key.Key_Left)
    assert "cannot be shown" in window.canvas.message
    press(qtbot, window, Qt.Key.Key_Space)
    wait_shown(qtbot, window)
    assert window.rating.complete
    assert window.rating.ratings()[1].response == "skipped"
    assert window.rating.results is not None
    report = check_results(window.rating.results[0])
    assert report.valid and report.summary is not None and report.summary.skipped == 1


def test_answers_wait_for_the_pair_to_be_shown(qtbot: QtBot, windows: list, tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2, controls={"rate": 0})
    window = PairRatingWindow.for_set(open_annotations(workspace), "test")
    qtbot.addWidget(window)
    windows.append(window)
    assert not window.can_answer  # never shown: a key press must not record anything
    window.answer("left")
    assert window.rating.progress().rated == 0 and "Wait" in window.status.text()
    protocol = json.loads(json.dumps(window.rating.start.payload.model_dump()))
    assert protocol["set"] == "test" and isinstance(protocol["seed"], int)
    assert QImage is not None


def test_a_closed_window_shown_again_carries_on(qtbot: QtBot, windows: list, tmp_path: Path) -> None:
    window = open_rating(qtbot, windows, write_pair_logbook(tmp_path / "ws", 3, controls={"rate": 0}))
    rate_one(qtbot, window)
    window.close()
    assert window.cache.closed and window.cache.nbytes == 0
    window.show()
    wait_shown(qtbot, window)
    assert window.canvas.has_images and window.rating.current is not None and window.rating.current.index == 1


def test_buttons_stay_in_place_as_the_bar_changes_and_rest_after_the_last_pair(
    qtbot: QtBot, windows: list, tmp_path: Path
) -> None:
    window = open_rating(qtbot, windows, write_pair_logbook(tmp_path / "ws", 2))
    where = {
        b.text(): b.mapTo(window, QPoint(0, 0)) for b in (window.left_unusable_button, window.right_unusable_button)
    }
    press(qtbot, window, Qt.Key.Key_2, Qt.KeyboardModifier.ShiftModifier)  # "fairly sure": a longer text
    press(qtbot, window, Qt.Key.Key_Plus)  # another zoom
    QApplication.processEvents()
    moved = {
        b.text(): b.mapTo(window, QPoint(0, 0)) for b in (window.left_unusable_button, window.right_unusable_button)
    }
    assert moved == where
    while not window.rating.complete:
        rate_one(qtbot, window)
    buttons = [*window.answer_buttons.values(), window.left_unusable_button, window.right_unusable_button]
    assert not any(b.isEnabled() for b in buttons)


def test_pairs_rate_opens_its_window_through_the_apps_one_start_up(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reviewapp pairs rate` starts the window as `reviewapp open` does (qt/app.py): the log file and the crash
    dialog are set up before its event loop runs, and the window is shown."""
    workspace = write_pair_logbook(tmp_path / "pairs")
    shown: list[PairRatingWindow] = []

    def event_loop(_app: QApplication) -> int:  # instead of waiting for the rater: note what is shown, then quit
        shown.extend(w for w in QApplication.topLevelWidgets() if isinstance(w, PairRatingWindow) and w.isVisible())
        return 0

    monkeypatch.setattr(QApplication, "exec", event_loop)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put back after the test, as the log level is
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert main(["pairs", "rate", str(workspace), "--annotator", "Rita Rater"]) == 0
        logs = [h for h in root.handlers if h not in handlers and isinstance(h, RotatingFileHandler)]
        assert [Path(h.baseFilename) for h in logs] == [crash.log_file()]
        assert sys.excepthook is not sys.__excepthook__ and sys.excepthook.__module__ == crash.__name__
    finally:
        for handler in [h for h in root.handlers if h not in handlers]:
            root.removeHandler(handler)
            handler.close()
        root.setLevel(level)
        for window in shown:
            window.close()
    assert len(shown) == 1
