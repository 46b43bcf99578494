"""Ratings as annotations, results files, and `pairs check`: valid output passes, anything altered fails."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.pairs.check import check_results
from reviewapp.core.pairs.protocol import Trial, build_trials
from reviewapp.core.pairs.rating import PairRatingRound, RatingError
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.review.records import PairRatingRecord, PairSessionRecord, RetractionRecord, parse_line
from tests.core.annotation_helpers import subprocess_env
from tests.support.pair_fixtures import open_annotations, write_pair_logbook


def honest(trial: Trial) -> str:
    """A rater who always prefers the baseline and sees identical pairs as identical."""
    if trial.control == "identical":
        return "same"
    return "left" if trial.left == "a" else "right"


def rate_all(workspace: Path, answer=honest, name: str = "Rita Rater", seed: int = 5) -> PairRatingRound:
    annotations = open_annotations(workspace, name)
    session = PairRatingRound.open(annotations, load_set(annotations.logbook), seed=seed)
    while (trial := session.current) is not None:
        b_sides = {"left_unusable": trial.left == "b", "right_unusable": trial.right == "b"}
        session.rate(answer(trial), **b_sides, confidence=2, response_ms=900)
    return session


def records(workspace: Path, slug: str = "rita-rater") -> list:
    path = workspace / ".trackio" / "logbook" / "reviews" / f"{slug}.jsonl"
    return [parse_line(line) for line in path.read_bytes().splitlines()]


def test_every_rating_is_an_annotation_on_disk_before_the_next(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 5)
    annotations = open_annotations(workspace)
    session = PairRatingRound.open(annotations, load_set(annotations.logbook), seed=42)
    [start] = records(workspace)
    assert isinstance(start, PairSessionRecord) and start.payload.seed == 42
    assert start.target.claim == annotations.logbook.claims[0].key
    expected = build_trials([f"p{i:02d}" for i in range(1, 6)], 42, session.pair_set.controls)
    assert start.payload.trial_order == [t.pair_id for t in expected]
    assert start.payload.sides == [t.left for t in expected]
    first = session.current
    assert first is not None
    session.rate("left", left_unusable=True, confidence=3, comment="banding", response_ms=1234)
    saved = records(workspace)[-1]
    assert isinstance(saved, PairRatingRecord)
    assert (saved.payload.trial, saved.payload.pair, saved.payload.response) == (0, first.pair_id, "left")
    assert saved.payload.left_unusable and saved.payload.confidence == 3 and saved.payload.comment == "banding"
    assert saved.payload.response_ms == 1234 and saved.role == "participant"


def test_undo_retracts_and_reopening_resumes_at_the_same_trial(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 6)
    annotations = open_annotations(workspace)
    session = PairRatingRound.open(annotations, load_set(annotations.logbook))
    for _ in range(3):
        session.rate("same")
    undone = session.undo()
    assert undone is not None and undone.trial.index == 2
    assert isinstance(records(workspace)[-1], RetractionRecord)
    assert session.current is not None and session.current.index == 2
    again = open_annotations(workspace)
    resumed = PairRatingRound.open(again, load_set(again.logbook))
    assert resumed.start.id == session.start.id and resumed.seed == session.seed
    assert resumed.current == session.current and len(resumed.ratings()) == 2
    assert resumed.progress().rated == 2 and resumed.progress().total == len(session.trials)
    other = PairRatingRound.open(open_annotations(workspace, "Other Rater"), load_set(again.logbook))
    assert other.start.id != session.start.id and other.current is not None and other.current.index == 0


def test_complete_session_writes_results_that_pass_check(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 10)
    session = rate_all(workspace)
    assert session.complete and session.results is not None
    csv_path, protocol_path = session.results
    assert csv_path == workspace / ".trackio" / "logbook" / "reviews" / "pairs" / "test-rita-rater.csv"
    protocol = json.loads(protocol_path.read_text())
    assert protocol["seed"] == 5 and protocol["csv"]["sha256"] == hashlib.sha256(csv_path.read_bytes()).hexdigest()
    assert protocol["app_version"] and protocol["set"]["conditions"] == {"a": "baseline", "b": "quantized"}
    report = check_results(csv_path)
    assert report.valid, report.errors
    summary = report.summary
    assert summary is not None
    assert summary.preferred["baseline"].count == 10 and summary.main_trials == 10
    assert summary.unusable["quantized"].count == 10 and summary.unusable["baseline"].count == 0
    assert summary.consistency.value == 1.0 and summary.consistency.total == 3
    with pytest.raises(RatingError):
        session.rate("left")


def test_undo_after_completion_removes_the_results(tmp_path: Path) -> None:
    session = rate_all(write_pair_logbook(tmp_path / "ws", 3))
    assert session.results is not None
    csv_path, protocol_path = session.results
    session.undo()
    assert not csv_path.exists() and not protocol_path.exists() and not session.complete


def tamper(csv_path: Path, old: str, new: str, *, fix_hash: bool) -> None:
    text = csv_path.read_text()
    assert old in text
    csv_path.write_text(text.replace(old, new, 1))
    if fix_hash:
        protocol_path = csv_path.with_name(csv_path.name.replace(".csv", ".protocol.json"))
        protocol = json.loads(protocol_path.read_text())
        protocol["csv"]["sha256"] = hashlib.sha256(csv_path.read_bytes()).hexdigest()
        protocol_path.write_text(json.dumps(protocol))


@pytest.fixture
def results(tmp_path: Path) -> Path:
    session = rate_all(write_pair_logbook(tmp_path / "ws", 10))
    assert session.results is not None
    return session.results[0]


def test_edited_csv_fails_on_its_hash(results: Path) -> None:
    tamper(results, ",left,baseline,", ",right,quantized,", fix_hash=False)
    report = check_results(results)
    assert not report.valid and any("does not match the protocol" in e for e in report.errors)


def test_edited_csv_with_a_recomputed_hash_still_fails_on_its_content(results: Path) -> None:
    tamper(results, ",left,baseline,", ",left,quantized,", fix_hash=True)
    report = check_results(results)
    assert not report.valid and any("does not follow from response" in e for e in report.errors)


def test_a_dropped_row_fails(results: Path) -> None:
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:3] + lines[4:]))
    protocol_path = results.with_name(results.name.replace(".csv", ".protocol.json"))
    protocol = json.loads(protocol_path.read_text())
    protocol["csv"]["sha256"] = hashlib.sha256(results.read_bytes()).hexdigest()
    protocol_path.write_text(json.dumps(protocol))
    report = check_results(results)
    assert any("1 of 13 trials not rated (trials 2)" in e for e in report.errors)


def test_an_altered_seed_fails(results: Path) -> None:
    protocol_path = results.with_name(results.name.replace(".csv", ".protocol.json"))
    protocol = json.loads(protocol_path.read_text())
    protocol["seed"] += 1
    protocol_path.write_text(json.dumps(protocol))
    report = check_results(results)
    assert not report.valid and any("is not what the seed gives" in e for e in report.errors)


def test_missing_protocol_fails(results: Path) -> None:
    results.with_name(results.name.replace(".csv", ".protocol.json")).unlink()
    report = check_results(results)
    assert not report.valid and "protocol file missing" in report.errors[0]


def test_check_command_exit_codes_json_and_threshold(
    tmp_path: Path, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pairs", "check", str(results)]) == 0
    out = capsys.readouterr().out
    assert "valid (test, rated by Rita Rater)" in out and "baseline: 100.0%" in out
    assert main(["pairs", "check", str(results), "--json", "--min-consistency", "0.9"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] and data["passed"] and data["consistency"] == 1.0 and data["seed"] == 5

    def contrary(trial: Trial) -> str:  # honest but inconsistent: picks the left image every time
        return "left"

    session = rate_all(write_pair_logbook(tmp_path / "other", 10), contrary, name="Lefty")
    assert session.results is not None
    lefty = session.results[0]
    assert main(["pairs", "check", str(lefty)]) == 0  # reported, not failed
    out = capsys.readouterr().out
    assert "consistency: 0.0%" in out and "side bias: left 13, right 0" in out
    assert main(["pairs", "check", str(lefty), "--min-consistency", "0.5"]) == 1
    assert "below the required 50.0%" in capsys.readouterr().err
    tamper(results, ",left,baseline,", ",right,quantized,", fix_hash=False)
    assert main(["pairs", "check", str(results)]) == 1
    out = capsys.readouterr().out
    assert f"{results}: INVALID" in out.splitlines()  # on stdout, where the summary is


def test_check_runs_without_qt(results: Path, tmp_path: Path) -> None:
    code = (
        "import sys; from reviewapp.cli import main; rc = main(['pairs', 'check', sys.argv[1]]); "
        "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt imported'; sys.exit(rc)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(results)],
        env=subprocess_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "valid" in done.stdout
