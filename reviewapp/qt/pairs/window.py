"""The blinded pair-rating window: question and instructions on top, the compare canvas, answers by single keys.

Nothing that could reveal a condition is shown while rating: no file names, folder names, condition names or
metadata, and prompts only when they name no condition. Every answer is saved (core PairRatingRound) before
the next pair is shown; closing and reopening resumes at the same trial.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QImage, QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reviewapp.core.pairs.protocol import Trial
from reviewapp.core.pairs.rating import PairRatingRound, RatingError
from reviewapp.core.pairs.results import Rating
from reviewapp.core.pairs.sets import PairSet, load_set
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.write_errors import StoreError
from reviewapp.qt.pairs.canvas import CompareCanvas, CompareMode
from reviewapp.qt.pairs.loader import PairImageCache
from reviewapp.qt.plain import PlainLabel
from reviewapp.qt.workers import alive
from reviewapp.qt.write_lane import WriteLane

T = TypeVar("T")

if TYPE_CHECKING:
    from reviewapp.core.pairs.study import Study
    from reviewapp.core.plots.figures import Theme
    from reviewapp.qt.pairs.study_dialog import Pictures

PREFETCH = 4  # pairs decoded ahead of the one shown
TITLE = "Rate image pairs"

#: (keys, what they do): shown in the on-screen help and the README's shortcuts table.
SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("← or 1", "left is better"),
    ("→ or 3", "right is better"),
    ("↓, 2, Space", "no visible difference"),
    ("Q / P", "left / right unusable (toggle)"),
    ("Shift+1/2/3", "confidence: unsure / fair / certain"),
    ("C", "comment (Enter keeps, Esc drops)"),
    ("Ctrl+Z", "undo the last rating"),
    ("S F W D", "side by side, flicker, wipe, difference"),
    ("Z", "1:1 pixels or fit"),
    ("+ / −", "zoom (or the wheel); drag to pan"),
    ("[ / ]", "move the wipe line (or Shift+drag)"),
    ("H", "show or hide this help"),
    ("Esc", "stop for now (all is saved)"),
)
_CONFIDENCE_KEYS = {
    Qt.Key.Key_Exclam: 1,
    Qt.Key.Key_At: 2,
    Qt.Key.Key_NumberSign: 3,
    Qt.Key.Key_QuoteDbl: 2,  # Shift+2 on many European layouts
    Qt.Key.Key_section: 3,  # Shift+3 on German layouts
}
_MODE_KEYS = {
    Qt.Key.Key_S: CompareMode.SIDE_BY_SIDE,
    Qt.Key.Key_F: CompareMode.FLICKER,
    Qt.Key.Key_W: CompareMode.WIPE,
    Qt.Key.Key_D: CompareMode.DIFFERENCE,
}
_RESPONSE_KEYS = {
    Qt.Key.Key_Left: "left",
    Qt.Key.Key_1: "left",
    Qt.Key.Key_Right: "right",
    Qt.Key.Key_3: "right",
    Qt.Key.Key_Down: "same",
    Qt.Key.Key_2: "same",
    Qt.Key.Key_Space: "same",
}
_CONFIDENCE_WORDS = {1: "unsure", 2: "fairly sure", 3: "certain"}


def help_html() -> str:
    rows = "".join(f"<tr><td><b>{keys}</b></td><td>&nbsp;&nbsp;{what}</td></tr>" for keys, what in SHORTCUTS)
    return f"<table>{rows}</table>"


class PairRatingWindow(QWidget):
    """A top-level window (or a child widget when embedded) rating one pair set for one annotator."""

    rated = Signal(int)  # trial index, after its rating is on disk
    finished = Signal()  # every trial rated; results written

    def __init__(self, rating: PairRatingRound, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.rating = rating
        self.setWindowTitle(TITLE)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.resize(1400, 900)
        self.cache = PairImageCache(rating.pair_set.logbook, parent=self)
        self.cache.loaded.connect(self._pair_loaded)
        self._trial: Trial | None = None
        self._token = 0
        self._shown_at: float | None = None  # when the current pair was first fully painted
        self._left_unusable = False
        self._right_unusable = False
        self._writing = False  # a rating or an undo is on the write lane
        self._held_keys: list[QKeyEvent] = []  # pressed meanwhile, handled once it is written
        self._confidence: int | None = None
        self._comment: str | None = None
        self._build()
        self.canvas.painted.connect(self._painted)
        self.canvas.view_changed.connect(self._update_bar)
        self._show_current()
        if rating.set_changed():
            self._say("Some images changed since you started this set; rating goes on with the images as they are now.")

    @classmethod
    def for_set(
        cls,
        annotations: LogbookReview,
        set_name: str | None = None,
        parent: QWidget | None = None,
        *,
        pair_set: PairSet | None = None,
        preview: bool = False,
    ) -> PairRatingWindow:
        """Open (resuming where this annotator stopped) the rating of a pair set of the review's logbook.

        Raises PairSetError when the set cannot be loaded and RatingError when none of its pairs can be shown.
        A `preview` (a screenshot) starts no pair protocol on disk.
        """
        loaded = pair_set or load_set(annotations.logbook, set_name)
        return cls(PairRatingRound.open(annotations, loaded, preview=preview), parent)

    # -- layout -----------------------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(6)
        # Manifest text (question, instructions, prompts) and messages naming files are plain text, never HTML.
        self.question = PlainLabel(self.rating.question)
        font = self.question.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.question.setFont(font)
        self.question.setWordWrap(True)
        self.instructions = PlainLabel(self.rating.instructions)
        self.instructions.setWordWrap(True)
        self.prompt = PlainLabel()
        self.prompt.setWordWrap(True)
        self.prompt.setStyleSheet("font-style: italic;")
        layout.addWidget(self.question)
        layout.addWidget(self.instructions)
        layout.addWidget(self.prompt)
        middle = QHBoxLayout()
        self.canvas = CompareCanvas(self)
        middle.addWidget(self.canvas, 1)
        self.help = QLabel(help_html())
        self.help.setTextFormat(Qt.TextFormat.RichText)
        self.help.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.help.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)
        self.help.setContentsMargins(10, 4, 4, 4)
        middle.addWidget(self.help)
        layout.addLayout(middle, 1)
        self.wipe_slider = QSlider(Qt.Orientation.Horizontal)
        self.wipe_slider.setRange(0, 1000)
        self.wipe_slider.setValue(500)
        self.wipe_slider.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.wipe_slider.setToolTip("Wipe position ([ and ] or Shift+drag on the image)")
        self.wipe_slider.valueChanged.connect(lambda value: self.canvas.set_wipe(value / 1000))
        self.wipe_slider.hide()
        layout.addWidget(self.wipe_slider)
        # The three answers for the mouse as well (the keys stay on the window: the buttons never take focus).
        answers = QHBoxLayout()
        answers.addStretch(1)
        self.answer_buttons: dict[str, QPushButton] = {}
        for response, text in (
            ("left", "◀  Left is better (←)"),
            ("same", "No difference (↓)"),
            ("right", "Right is better (→)  ▶"),
        ):
            answer = QPushButton(text)
            answer.setObjectName("answer")
            answer.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            answer.clicked.connect(lambda _=False, r=response: self._answer_clicked(r))
            self.answer_buttons[response] = answer
            answers.addWidget(answer)
        answers.addStretch(1)
        layout.addLayout(answers)
        bar = QHBoxLayout()
        self.mode_buttons: dict[CompareMode, QToolButton] = {}
        for key, mode in _MODE_KEYS.items():
            button = self._button(f"{mode.value.capitalize()} ({_key_letter(key)})", checkable=True)
            button.clicked.connect(lambda _=False, m=mode: self.set_mode(m))
            self.mode_buttons[mode] = button
            bar.addWidget(button)
        self.zoom_button = self._button("1:1 (Z)")
        self.zoom_button.clicked.connect(self.canvas.toggle_one_to_one)
        bar.addWidget(self.zoom_button)
        bar.addSpacing(16)
        self.zoom_label = PlainLabel()
        self.left_unusable_button = self._button("Left unusable (Q)", checkable=True)
        self.left_unusable_button.clicked.connect(lambda: self.toggle_unusable("left"))
        self.right_unusable_button = self._button("Right unusable (P)", checkable=True)
        self.right_unusable_button.clicked.connect(lambda: self.toggle_unusable("right"))
        bar.addWidget(self.left_unusable_button)
        bar.addWidget(self.right_unusable_button)
        bar.addStretch(1)  # every button sits left of the texts that change, so that none moves as they do
        self.confidence_label = PlainLabel()
        bar.addWidget(self.zoom_label)
        bar.addSpacing(12)
        bar.addWidget(self.confidence_label)
        bar.addSpacing(12)
        self.progress = PlainLabel()
        bar.addWidget(self.progress)
        layout.addLayout(bar)

        self.comment_edit = QLineEdit()
        self.comment_edit.setPlaceholderText("Comment on this pair (Enter keeps it, Esc drops it)")
        self.comment_edit.setMaxLength(2000)
        self.comment_edit.returnPressed.connect(self._keep_comment)
        self.comment_edit.hide()
        layout.addWidget(self.comment_edit)
        self.status = PlainLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        # shown once this rater is done: seeing others' results earlier would bias the rating
        self.study_button = QPushButton("Study results of every rater…")
        self.study_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.study_button.clicked.connect(self.show_study)
        self.study_button.hide()
        layout.addWidget(self.study_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.mode_buttons[CompareMode.SIDE_BY_SIDE].setChecked(True)

    def _button(self, text: str, *, checkable: bool = False) -> QToolButton:
        button = QToolButton()
        button.setObjectName("toggle")  # styled with a checked state in both themes
        button.setText(text)
        button.setCheckable(checkable)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        return button

    # -- trials -----------------------------------------------------------------------------------------------

    def _show_current(self) -> None:
        self._token += 1
        self._shown_at = None
        trial = self.rating.current
        self._trial = trial
        if trial is None:
            self._show_finished()
            return
        pair = self.rating.pair(trial)
        shown = self.rating.pair_set.shown_prompt(pair) if pair else None
        self.prompt.setText(f"Prompt: {shown}" if shown else "")
        self.prompt.setVisible(bool(shown))
        upcoming = [p for p in (self.rating.pair(t) for t in self.rating.upcoming(PREFETCH + 1)) if p is not None]
        self.cache.fit_size = self.canvas.panel_size()
        self.cache.request(upcoming)
        self._present()
        self._update_bar()

    def _present(self) -> None:
        trial = self._trial
        if trial is None:
            return
        pair = self.rating.pair(trial)
        if pair is None:
            self.canvas.show_message(
                self._token, "This pair cannot be shown (its images are missing or damaged).\n\nPress Space to skip it."
            )
            return
        decoded = self.cache.get(pair.id)
        if decoded is None:
            self.canvas.show_message(self._token, "Loading…")
            return
        if decoded.error is not None:
            self.canvas.show_message(
                self._token, "This pair cannot be shown (an image could not be decoded).\n\nPress Space to skip it."
            )
            return
        left, right = decoded.images[trial.left], decoded.images[trial.right]
        fitted = {}
        if decoded.fitted:
            fitted = {
                "left": decoded.fitted[trial.left],
                "right": decoded.fitted[trial.right],
                "diff": decoded.fitted["diff"],
            }
        diff = decoded.images["diff"]
        if trial.left == trial.right:  # the same image twice: nothing differs
            diff = QImage(left.size(), QImage.Format.Format_RGB32)
            diff.fill(QColor(0, 0, 0))
            if "diff" in fitted:
                fitted["diff"] = QImage(fitted["left"].size(), QImage.Format.Format_RGB32)
                fitted["diff"].fill(QColor(0, 0, 0))
        self.canvas.show_images(self._token, left, right, diff, fitted, decoded.fit_size)

    def _pair_loaded(self, pair_id: str) -> None:
        if self._trial is not None and self._trial.pair_id == pair_id and not self.canvas.has_images:
            self._present()

    def _painted(self, token: int) -> None:
        if token == self._token and self._shown_at is None:
            self._shown_at = time.monotonic()

    @property
    def can_answer(self) -> bool:
        shown = self._trial is not None and (self._shown_at is not None or self._unshowable())
        return shown and not self._writing  # while a rating is written, the pair shown is not answerable again

    @property
    def writing(self) -> bool:
        """A rating or an undo is on the write lane (its result not yet shown)."""
        return self._writing

    def _unshowable(self) -> bool:
        trial = self._trial
        if trial is None:
            return False
        pair = self.rating.pair(trial)
        if pair is None:
            return True
        decoded = self.cache.get(pair.id)
        return decoded is not None and decoded.error is not None

    # -- answering --------------------------------------------------------------------------------------------

    def _answer_clicked(self, response: str) -> None:
        if self._trial is not None:
            self.answer(response)

    def answer(self, response: str) -> bool:
        """Start recording `response` for the shown pair: True when the write was started. The next pair appears
        once the rating is on disk (`rated` says so)."""
        if not self.can_answer:
            self._say("Wait until both images are shown.")
            return False
        if self._unshowable():
            response = "skipped"
        assert self._trial is not None
        elapsed = 0 if self._shown_at is None else round((time.monotonic() - self._shown_at) * 1000)
        left, right, confidence, comment = self._left_unusable, self._right_unusable, self._confidence, self._comment
        self._write(  # on the application's write lane, like every write: never beside another window's
            lambda: self.rating.rate(
                response, left_unusable=left, right_unusable=right, confidence=confidence, comment=comment,
                response_ms=elapsed,
            ),
            self._answered, "Not saved",
        )  # fmt: skip
        return True

    def _answered(self, done: Rating) -> None:
        self._reset_answer()
        self._say(f"Saved pair {done.trial.index + 1}.")
        self.rated.emit(done.trial.index)
        self._show_current()

    def undo(self) -> None:
        """Start undoing the last rating; the pair is shown again once the undo is on disk."""
        self._write(self.rating.undo, self._undone, "Undo not saved")

    def _undone(self, undone: Rating | None) -> None:
        if undone is None:
            self._say("Nothing to undo.")
            return
        self._left_unusable, self._right_unusable = undone.left_unusable, undone.right_unusable
        self._confidence, self._comment = undone.confidence, undone.comment
        self._say(f"Undid the rating of pair {undone.trial.index + 1}; rate it again.")
        self._show_current()

    def _write(self, command: Callable[[], T], done: Callable[[T], None], refused: str) -> None:
        """Run `command` on the write lane; keys pressed meanwhile wait for it (see `handle_key`)."""
        self._writing = True

        def settle() -> None:
            self._writing = False
            held, self._held_keys = self._held_keys, []
            for event in held:  # as if pressed now: on the pair shown after the write
                self.keyPressEvent(event)

        def finished(result: T) -> None:
            if alive(self):
                settle()
                done(result)

        def failed(exc: BaseException) -> None:
            if not alive(self):
                return
            settle()
            if not isinstance(exc, (StoreError, RatingError, ValueError)):
                raise exc
            self._say(f"{refused}: {exc}", error=True)

        WriteLane.shared().submit(command, finished, failed, initiator=self)

    def _reset_answer(self) -> None:
        self._left_unusable = self._right_unusable = False
        self._confidence = None
        self._comment = None
        self.comment_edit.clear()
        self.comment_edit.hide()

    def toggle_unusable(self, side: str) -> None:
        if side == "left":
            self._left_unusable = not self._left_unusable
        else:
            self._right_unusable = not self._right_unusable
        self._update_bar()

    def set_confidence(self, value: int) -> None:
        self._confidence = None if self._confidence == value else value
        self._update_bar()

    def set_mode(self, mode: CompareMode) -> None:
        self.canvas.set_mode(mode)
        self.wipe_slider.setVisible(mode is CompareMode.WIPE)
        self._update_bar()
        self.cache.fit_size = self.canvas.panel_size()

    def start_comment(self) -> None:
        if self._trial is None:
            return
        self.comment_edit.setText(self._comment or "")
        self.comment_edit.show()
        self.comment_edit.setFocus()

    def _keep_comment(self) -> None:
        self._comment = self.comment_edit.text().strip() or None
        self.comment_edit.hide()
        self.setFocus()
        self._update_bar()

    def _drop_comment(self) -> None:
        self.comment_edit.setText(self._comment or "")
        self.comment_edit.hide()
        self.setFocus()

    # -- status -----------------------------------------------------------------------------------------------

    def _update_bar(self) -> None:
        for mode, button in self.mode_buttons.items():
            button.setChecked(mode is self.canvas.mode)
        self.zoom_label.setText(f"Zoom: {self.canvas.zoom_label()}")
        self.left_unusable_button.setChecked(self._left_unusable)
        self.right_unusable_button.setChecked(self._right_unusable)
        words = _CONFIDENCE_WORDS.get(self._confidence or 0, "–")
        note = " · comment added" if self._comment else ""
        self.confidence_label.setText(f"Confidence: {words}{note}")
        progress = self.rating.progress()
        done = progress.rated >= progress.total
        self.progress.setText(f"All {progress.total} pairs rated" if done else f"Pair {progress.text}")
        controls: list[QAbstractButton] = [*self.answer_buttons.values()]
        for control in (*controls, self.left_unusable_button, self.right_unusable_button):
            control.setEnabled(not done)  # after the last pair nothing is left to rate

    def _say(self, text: str, *, error: bool = False) -> None:
        self.status.setStyleSheet("color: #c0392b;" if error else "")
        self.status.setText(text)

    def _show_finished(self) -> None:
        self.canvas.show_message(self._token, "")
        self.prompt.hide()
        results = self.rating.results
        where = ""
        if results is not None:
            where = f"\n\nResults: {results[0]}\nProtocol: {results[1]}"
        self.canvas.show_message(
            self._token,
            f"All {len(self.rating.trials)} pairs are rated. Thank you!{where}\n\n"
            "Ctrl+Z undoes the last rating; Esc closes this window.",
        )
        self._update_bar()
        self.study_button.show()
        self.finished.emit()

    def show_study(self) -> None:
        """Every rater's committed results of this set, combined as `pairs study` does, in a dialog."""
        from reviewapp.core.pairs.study import study_from_files
        from reviewapp.qt import theme
        from reviewapp.qt.pairs.study_dialog import StudyDialog, draw_study
        from reviewapp.qt.workers import TaskRunner

        set_name = self.rating.start.payload.set
        paths = sorted(p for p in self.rating.results_folder.glob("*.csv") if p.name.startswith(f"{set_name}-"))
        drawn: Theme = "dark" if theme.colors().dark else "light"
        self._say("Combining every rater's results…")

        def work(_progress: object) -> tuple[Study, Pictures]:
            study = study_from_files(paths)
            return study, draw_study(study, drawn) if study.raters else {}

        def done(found: tuple[Study, Pictures]) -> None:
            if not alive(self):
                return
            study, pictures = found
            if not study.raters:
                self._say("No valid results of this set yet.", error=True)
                return
            self._say("")
            self.study_dialog = StudyDialog(study, pictures, theme=drawn, parent=self)
            self.study_dialog.show()

        runner = getattr(self, "_study_runner", None) or TaskRunner(1, self)
        self._study_runner = runner
        runner.submit(work, done, lambda exc: self._say(f"The study could not be computed: {exc}", error=True))

    # -- events -----------------------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.handle_key(event):
            super().keyPressEvent(event)

    def handle_key(self, event: QKeyEvent) -> bool:
        if self._writing:
            # A key pressed while a rating is being written waits for it: it then acts on the pair shown after
            # the write (where it would have acted, had the write been instant), neither lost nor applied twice.
            self._held_keys.append(event.clone())
            return True
        key = Qt.Key(event.key())
        modifiers = event.modifiers()
        if self.comment_edit.isVisible() and self.comment_edit.hasFocus():
            if key == Qt.Key.Key_Escape:
                self._drop_comment()
                return True
            return False
        if modifiers & Qt.KeyboardModifier.ControlModifier:
            if key == Qt.Key.Key_Z:
                self.undo()
                return True
            return False
        shift = bool(modifiers & Qt.KeyboardModifier.ShiftModifier)
        if key in _CONFIDENCE_KEYS or (shift and key in (Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3)):
            value = _CONFIDENCE_KEYS.get(key) or {Qt.Key.Key_1: 1, Qt.Key.Key_2: 2, Qt.Key.Key_3: 3}[key]
            self.set_confidence(value)
            return True
        if key in _RESPONSE_KEYS:
            if self._trial is not None:
                self.answer(_RESPONSE_KEYS[key])
            return True
        if key in _MODE_KEYS:
            self.set_mode(_MODE_KEYS[key])
            return True
        simple = {
            Qt.Key.Key_Q: lambda: self.toggle_unusable("left"),
            Qt.Key.Key_P: lambda: self.toggle_unusable("right"),
            Qt.Key.Key_C: self.start_comment,
            Qt.Key.Key_Z: self.canvas.toggle_one_to_one,
            Qt.Key.Key_Plus: lambda: self.canvas.zoom_by(1.25),
            Qt.Key.Key_Equal: lambda: self.canvas.zoom_by(1.25),
            Qt.Key.Key_Minus: lambda: self.canvas.zoom_by(0.8),
            Qt.Key.Key_BracketLeft: lambda: self.wipe_slider.setValue(self.wipe_slider.value() - 50),
            Qt.Key.Key_BracketRight: lambda: self.wipe_slider.setValue(self.wipe_slider.value() + 50),
            Qt.Key.Key_H: lambda: self.help.setVisible(not self.help.isVisible()),
            Qt.Key.Key_F1: lambda: self.help.setVisible(not self.help.isVisible()),
            Qt.Key.Key_Escape: self.close,
        }
        action = simple.get(key)
        if action is None:
            return False
        action()
        return True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.setFocus()
        self._refit()
        if self.cache.closed:  # shown again after being closed: decode again
            self.cache.reopen()
            self._show_current()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refit()

    def _refit(self) -> None:
        size: QSize = self.canvas.panel_size()
        if self.cache.fit_size != size and self._trial is not None:
            self.cache.fit_size = size

    def closeEvent(self, event: QCloseEvent) -> None:
        runner = getattr(self, "_study_runner", None)
        if runner is not None:
            runner.wait(10_000)
        self.canvas.stop()
        self.cache.close()
        super().closeEvent(event)


def _key_letter(key: Qt.Key) -> str:
    return chr(key.value)  # letter keys' values are their upper-case ASCII codes
