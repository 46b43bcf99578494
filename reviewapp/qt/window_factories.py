"""The app's own windows in the window registry: review, queue, ranking, score, disagreements, paper, respond,
pair rating."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reviewapp.qt.window_kinds import RunningApp, ShownWindow, WindowKind, WindowProblem, WindowRequest

if TYPE_CHECKING:
    from reviewapp.qt.main_window import MainWindow


def builtin_windows() -> list[WindowKind]:
    return [
        WindowKind("review", "reviewapp open SOURCE", review_window),
        WindowKind("queue", "reviewapp queue LIST --window", queue_window),
        WindowKind("ranking", "reviewapp queue LIST --window --dialog ranking", ranking_dialog),
        WindowKind("score", "reviewapp queue LIST --window --dialog score", score_dialog),
        WindowKind("disagreements", "reviewapp queue LIST --window --dialog disagreements", disagreements_dialog),
        WindowKind("paper", "reviewapp paper SOURCE... --window", paper_window),
        WindowKind("respond", "reviewapp paper SOURCE... --window --dialog respond", respond_dialog),
        WindowKind("pairs", "reviewapp pairs rate SOURCE", pair_window),
        WindowKind("study", "reviewapp pairs study RESULTS.csv... --window", study_dialog),
    ]


def review_window(running: RunningApp, request: WindowRequest) -> ShownWindow:
    window = running.main
    errors: list[str] = []
    window.error_shown.connect(errors.append)
    if request.source is None:
        window.controller.open_demo()
    else:
        window.controller.open(request.source)
    first_error = lambda: errors[0] if errors else None  # noqa: E731
    if running.interactive:  # the window says itself what went wrong
        if request.claim is not None:
            _select_once_read(window, request.claim)
        return ShownWindow(window)
    # the whole logbook, not its preview: a claim past the first claim page is found only then
    running.wait(lambda: window.context is not None and not window.controller.previewing, first_error)
    if request.claim is not None and not window.select_claim(request.claim):
        raise WindowProblem(f"no claim {request.claim!r} in this logbook")
    return ShownWindow(window, window.is_idle, first_error)


def _select_once_read(window: MainWindow, claim: str) -> None:
    """`open SOURCE --claim N` in a window a person uses: the claim asked for, once the whole logbook is read (the
    window shows its first claim meanwhile); the status line says when there is no such claim."""

    def loaded(_logbook: object) -> None:
        window.controller.loaded.disconnect(loaded)
        if not window.select_claim(claim):
            window.say(f"No claim {claim!r} in this logbook: showing its first claim.")

    window.controller.loaded.connect(loaded)


def _queue(running: RunningApp, request: WindowRequest, *, loaded: bool) -> ShownWindow:
    if request.queue is None:
        raise WindowProblem("the queue window needs a queue file")
    window = running.main.queue.open_queue(request.queue, request.rubric, me=request.annotator)
    if loaded:
        running.wait(lambda: not window.loading)
    return ShownWindow(window, lambda: not window.loading and running.main.is_idle())


def queue_window(running: RunningApp, request: WindowRequest) -> ShownWindow:
    return _queue(running, request, loaded=False)


def ranking_dialog(running: RunningApp, request: WindowRequest) -> ShownWindow:
    queue = _queue(running, request, loaded=True).widget
    from reviewapp.qt.queue.queue_window import QueueWindow

    assert isinstance(queue, QueueWindow)
    queue.show_ranking()
    return ShownWindow(queue.ranking_dialog, dialog=True)


def score_dialog(running: RunningApp, request: WindowRequest) -> ShownWindow:
    queue = _queue(running, request, loaded=True).widget
    from reviewapp.qt.queue.queue_window import QueueWindow

    assert isinstance(queue, QueueWindow)
    queue.table.selectRow(request.row)
    dialog = queue.score_dialog()
    if dialog is None:
        raise WindowProblem(f"row {request.row + 1} of the queue cannot be scored (it cannot be read)")
    return ShownWindow(dialog, dialog=True)


def disagreements_dialog(running: RunningApp, request: WindowRequest) -> ShownWindow:
    queue = _queue(running, request, loaded=True).widget
    from reviewapp.qt.queue.queue_window import QueueWindow

    assert isinstance(queue, QueueWindow)
    queue.show_disagreements()  # listed off the GUI thread
    running.wait(lambda: getattr(queue, "disagreements_dialog", None) is not None)
    return ShownWindow(queue.disagreements_dialog, dialog=True)


def _paper(running: RunningApp, request: WindowRequest) -> ShownWindow:
    if request.paper is None:
        raise WindowProblem("the paper window needs the logbooks on the paper")
    window = running.main.paper.open_paper(request.paper, who=request.annotator)
    failures: list[str] = []
    window.failed.connect(failures.append)
    failure = lambda: failures[0] if failures else None  # noqa: E731
    return ShownWindow(window, lambda: window.gathered is not None and not window.busy, failure)


def paper_window(running: RunningApp, request: WindowRequest) -> ShownWindow:
    return _paper(running, request)


def respond_dialog(running: RunningApp, request: WindowRequest) -> ShownWindow:
    shown = _paper(running, request)
    running.wait(shown.ready, shown.problem)
    from reviewapp.qt.paper.matrix_model import FIRST_LOGBOOK
    from reviewapp.qt.paper.paper_window import PaperWindow

    window = shown.widget
    assert isinstance(window, PaperWindow)
    if not running.interactive and window.identity() is None:  # a screenshot never asks for a name
        raise WindowProblem("who responds? give --annotator NAME (or remember a name)")
    rows = window.model.rowCount()
    if rows == 0:
        raise WindowProblem("the paper has no claims to respond to")
    window.table.setCurrentIndex(window.model.index(min(request.row, rows - 1), FIRST_LOGBOOK))
    dialog = window.response_dialog()
    if dialog is None:
        raise WindowProblem("no response can be written here (the logbooks name no paper, or no name was given)")
    return ShownWindow(dialog, dialog=True)


def pair_window(running: RunningApp, request: WindowRequest) -> ShownWindow:
    if request.pairs is None:
        raise WindowProblem("the pair rating window needs a pair set")
    from reviewapp.core.pairs.rating import RatingError
    from reviewapp.qt.pairs import PairRatingWindow

    review, pair_set = request.pairs
    try:
        window = PairRatingWindow.for_set(review, pair_set=pair_set, preview=not running.interactive)
    except RatingError as exc:
        raise WindowProblem(str(exc)) from None
    return ShownWindow(window, lambda: window.can_answer or window.rating.current is None)


def study_dialog(running: RunningApp, request: WindowRequest) -> ShownWindow:
    """The study results as the rating window's "Study results of every rater…" shows them, figures drawn in the
    window's theme."""
    if request.study is None or not request.study.raters:
        raise WindowProblem("the study window needs valid results to combine")
    from reviewapp.core.plots.figures import Theme
    from reviewapp.qt import theme
    from reviewapp.qt.pairs.study_dialog import StudyDialog, draw_study

    drawn: Theme = "dark" if theme.colors().dark else "light"
    dialog = StudyDialog(request.study, draw_study(request.study, drawn), theme=drawn)
    return ShownWindow(dialog, dialog=True)
