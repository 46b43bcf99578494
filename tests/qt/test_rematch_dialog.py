"""The re-match dialog lists the Logbook Judge's claims best candidate first, with their scores."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.entries import read_verdicts
from reviewapp.core.logbook_judge.judged import judge_logbook
from reviewapp.qt.logbook_judge.rematch_dialog import NONE, RematchDialog
from tests.core.judge_match_cases import cases, write_cases
from tests.qt.conftest import Screenshots


def test_an_unmatched_claim_shows_its_best_two_candidates_with_scores(
    qtbot: QtBot, tmp_path: Path, screenshots: Screenshots
) -> None:
    case = next(c for c in cases() if c.name == "older-claim-list")
    paths = write_cases(tmp_path, [case])
    (entry,) = read_verdicts(paths.verdicts).entries
    logbook = read_logbook(tmp_path / case.name)
    judged = judge_logbook(logbook, entry)
    left_over = judged.result.unmatched_claims[0]  # the old list's claim the registry dropped
    dialog = RematchDialog(judged, left_over, "Claim 2")
    qtbot.addWidget(dialog)
    dialog.show()
    rows = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert rows[0].split(".")[0] != rows[1].split(".")[0]
    assert "candidate 1, score" in rows[0] and "candidate 2, score" in rows[1]
    scores = [float(r.split("score ")[1].split(" ")[0]) for r in rows[:2]]
    assert scores[0] >= scores[1]
    assert all("candidate" not in r for r in rows[2:])
    assert dialog.chosen() == NONE  # not matched: "none of them" stays selected until a person picks
    screenshots.take(dialog, "46-rematch-candidates")

    matched = next(m for m in judged.result.matches if m.matched)
    assert matched.claim_key is not None
    dialog = RematchDialog(judged, matched.claim_key, "Claim 1")
    qtbot.addWidget(dialog)
    first = dialog.list.item(0).text()
    assert first.startswith(f"{matched.judge.index}.") and "candidate 1" in first and "now by text" in first
    assert dialog.chosen() == matched.judge.index
