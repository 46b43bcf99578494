"""Study results in the window: offered in the rating window once the rater is done, every rater's results combined,
the forest plot and the consistency strip shown and exported; screenshots in both themes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from reviewapp.core.pairs.study import combine
from reviewapp.qt import theme
from reviewapp.qt.pairs import PairRatingWindow
from reviewapp.qt.pairs.study_dialog import StudyDialog, draw_study
from tests.core.pairs.test_pairs_results import honest, rate_all
from tests.core.study_fixtures import SimulatedRater, simulate
from tests.qt.conftest import Screenshots
from tests.support.pair_fixtures import open_annotations, write_pair_logbook


def test_the_rating_window_offers_the_study_once_the_rater_is_done(qtbot: QtBot, tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 6, controls={"rate": 0.5})
    for name in ("Ada", "Ben"):
        rate_all(workspace, answer=honest, name=name)
    unfinished = PairRatingWindow.for_set(open_annotations(workspace, "Cy"), "test")
    qtbot.addWidget(unfinished)
    assert unfinished.study_button.isHidden()  # others' results stay out of sight while rating
    window = PairRatingWindow.for_set(open_annotations(workspace, "Ada"), "test")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.study_button.isVisible(), timeout=20_000)
    window.study_button.click()
    qtbot.waitUntil(lambda: getattr(window, "study_dialog", None) is not None, timeout=60_000)
    dialog = window.study_dialog
    assert [r.annotator for r in dialog.study.raters] == ["Ada", "Ben"]
    assert dialog.study.scores[0].condition == "baseline"
    assert all(not label.pixmap().isNull() for label in dialog.pictures.values())
    assert "Ada: consistency" in dialog.summary.toPlainText()
    written = dialog.export_report(tmp_path / "report" / "study.md")
    assert [p.name for p in written] == [
        "study.md",
        "study-scores.png",
        "study-scores.svg",
        "study-raters.png",
        "study-raters.svg",
    ]
    dialog.close()
    window.close()


@pytest.mark.parametrize("choice", [theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK])
def test_study_screenshots(qtbot: QtBot, screenshots: Screenshots, choice: theme.ThemeChoice) -> None:
    theme.manager().apply(choice)
    truth = {"small": -1.2, "medium": 0.0, "large": 0.9, "huge": 1.8}
    raters = [SimulatedRater(f"rater {k}", noise=0.3, reliability=0.3 if k == 2 else 0.95) for k in range(6)]
    study = combine(simulate(truth, raters, pairs_per_set=15, seed=2), resamples=300)
    drawn = "dark" if choice is theme.ThemeChoice.DARK else "light"
    dialog = StudyDialog(study, draw_study(study, drawn), theme=drawn)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    screenshots.take(dialog, f"study-scores-{choice.value}", min_colors=8)
    dialog.tabs.setCurrentIndex(1)
    screenshots.take(dialog, f"study-raters-{choice.value}", min_colors=8)


@pytest.mark.parametrize("choice", [theme.ThemeChoice.LIGHT, theme.ThemeChoice.DARK])
def test_the_study_opened_from_the_rating_window_is_drawn_in_its_theme(
    qtbot: QtBot, tmp_path: Path, choice: theme.ThemeChoice
) -> None:
    theme.manager().apply(choice)
    workspace = write_pair_logbook(tmp_path / "ws", 4)
    for name in ("Ada", "Ben"):
        rate_all(workspace, answer=honest, name=name)
    window = PairRatingWindow.for_set(open_annotations(workspace, "Ada"), "test")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.study_button.isVisible(), timeout=20_000)
    window.study_button.click()
    qtbot.waitUntil(lambda: getattr(window, "study_dialog", None) is not None, timeout=60_000)
    dialog = window.study_dialog
    for label in dialog.pictures.values():
        corner = label.pixmap().toImage().pixelColor(2, 2).lightness()  # the figure's own background
        assert corner < 90 if choice is theme.ThemeChoice.DARK else corner > 160, corner
    assert dialog.theme == ("dark" if choice is theme.ThemeChoice.DARK else "light")
    dialog.close()
    window.close()
