"""The window with a roster of reviewers' keys: a verdict planted in a judge's file is shown apart as unverified
(with its file) among the problems, and the verdict the window shows for her is her own signed one."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from reviewapp.core.review.preferences import Preferences, save_preferences
from reviewapp.core.review.signing import create_signing_key, public_key_text
from tests.core.annotation_helpers import open_review, small_logbook
from tests.qt.conftest import REVIEWER, OpenWindow, wait_idle

BEA = "Bea Judge"


def test_a_planted_verdict_is_shown_apart_and_hers_is_shown(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = os.environ["REVIEWAPP_CONFIG_DIR"]
    monkeypatch.setenv("REVIEWAPP_CONFIG_DIR", str(tmp_path / "bea-config"))
    bea_key = public_key_text(create_signing_key())
    workspace = small_logbook(tmp_path)
    bea = open_review(workspace, BEA)
    bea.set_verdict(1, "falsified", "The gap is the other way round.")
    review_file = bea.store.file_for("bea-judge")
    planted = json.loads(review_file.read_text(encoding="utf-8"))
    planted.update(id=planted["id"][:-4] + "ZZZZ", supersedes=planted["id"])
    planted["created_at"] = (datetime.now(UTC) + timedelta(seconds=30)).isoformat()
    planted["payload"] = {**planted["payload"], "verdict": "verified", "rationale": "Reproduced exactly."}
    with review_file.open("a", encoding="utf-8") as out:
        out.write(json.dumps(planted) + "\n")
    monkeypatch.setenv("REVIEWAPP_CONFIG_DIR", mine)
    roster = tmp_path / "roster.txt"
    roster.write_text(f"{bea_key} {BEA}\n", encoding="utf-8")
    save_preferences(Preferences(annotator=REVIEWER, annotator_source="asked", roster=str(roster)))

    window = open_window(workspace)
    wait_idle(qtbot, window)
    shown = [r.payload.verdict.value for r in window.controller.other_verdicts(window.controller.claims[0].key)]
    assert shown == ["falsified"]
    problems = [p for p in window.controller.problems() if "unverified: claims to be Bea Judge" in p.message]
    assert len(problems) == 1 and problems[0].file.endswith("bea-judge.jsonl")
