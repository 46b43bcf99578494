"""A queue file may name the roster of reviewers' keys (`roster: FILE`): the queue's rows, `rank`, `decide` and
`queue --disagreements` then check every logbook's records against it, with no roster in the settings, and it
wins over the settings' roster. A record the team forged in its own repository is set apart, never counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.queue.decision import queue_ranking
from reviewapp.core.queue.queue_file import read_queue, write_queue
from reviewapp.core.queue.rubric import DEFAULT_RUBRIC
from reviewapp.core.queue.scoring import record_rubric_score, score_payload
from reviewapp.core.queue.status import queue_status
from reviewapp.core.review.signing import create_signing_key, public_key_text
from tests.core.annotation_helpers import open_review, small_logbook
from tests.core.review.test_signed_records import ADA, BEA, CRITERIA, be, forge


@pytest.fixture
def forged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    return write_forged_queue(tmp_path, monkeypatch)


def write_forged_queue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A team's logbook Bea judged (claim 1 falsified, score 2, signed), with a forged copy of each of her records
    (verified, score 5) in the review file in the team's folder; a queue naming the judges' roster. Ada then reads
    it with no roster in her settings. Returns the queue file and the roster."""
    home = tmp_path / "people"
    ada_key = be(ADA, home, monkeypatch)
    bea_key = be(BEA, home, monkeypatch)
    roster = tmp_path / "judges" / "keys.txt"
    roster.parent.mkdir()
    roster.write_text(f"{bea_key} {BEA}\n{ada_key} {ADA}\n", encoding="utf-8")
    workspace = small_logbook(tmp_path / "teams")
    bea = open_review(workspace, BEA)
    bea.set_verdict(1, "falsified", "The gap is the other way round.", confidence=3)
    record_rubric_score(bea, score_payload(DEFAULT_RUBRIC, dict.fromkeys(CRITERIA, 2)))
    review_file = bea.store.file_for("bea-judge")
    verdict, score = (json.loads(line) for line in review_file.read_text(encoding="utf-8").splitlines()[-2:])
    forge(review_file, verdict, verdict="verified", rationale="Reproduced exactly.")
    forge(review_file, score, overall=5.0)
    queue = tmp_path / "judges" / "queue.txt"
    queue.write_text(f"# prize queue\nroster: keys.txt\n{workspace}\n", encoding="utf-8")
    be(ADA, home, monkeypatch)  # no roster in her settings
    return queue, roster


def test_the_queue_names_its_roster_relative_to_itself(forged: tuple[Path, Path]) -> None:
    queue_file, roster = forged
    queue = read_queue(queue_file)
    assert queue.roster == roster.resolve() and len(queue.entries) == 1 and queue.problems == []


def test_a_saved_queue_keeps_its_roster_and_a_bad_roster_line_is_said(forged: tuple[Path, Path]) -> None:
    queue_file, roster = forged
    saved = queue_file.parent / "saved.csv"
    write_queue(saved, read_queue(queue_file).entries, read_queue(queue_file).roster)
    assert "roster: keys.txt" in saved.read_text(encoding="utf-8")  # relative, so the judges can share both
    again = read_queue(saved)
    assert again.roster == roster.resolve() and len(again.entries) == 1

    twice = queue_file.parent / "twice.txt"
    twice.write_text("roster: keys.txt\nROSTER: other.txt\nroster:\n", encoding="utf-8")
    queue = read_queue(twice)
    assert queue.roster == roster.resolve()
    assert [p.message for p in queue.problems] == ["a second roster; the first one is used", "`roster:` names no file"]


def test_forged_records_are_set_apart_in_the_rows_rank_and_decide(forged: tuple[Path, Path]) -> None:
    queue_file, _roster = forged
    (row,) = queue_status(read_queue(queue_file), ADA)
    assert row.scores[BEA].payload.overall == 2.0  # hers, not the planted 5
    assert len(row.unverified) == 2 and all(u.startswith(f"claims to be {BEA}") for u in row.unverified)

    result = queue_ranking([row])
    (ranked,) = result.ranking.rows
    assert ranked.raw_mean == 2.0
    assert result.candidates[row.entry.source].summary.headline.value == "falsified"


def test_without_the_queue_roster_the_forgery_counts_as_today(forged: tuple[Path, Path]) -> None:
    queue_file, _roster = forged
    lines = queue_file.read_text(encoding="utf-8").splitlines()
    queue_file.write_text("\n".join(line for line in lines if not line.startswith("roster:")) + "\n")
    (row,) = queue_status(read_queue(queue_file), ADA)
    assert row.scores[BEA].payload.overall == 5.0 and row.unverified == []


def test_the_queue_roster_wins_over_the_settings_roster(
    forged: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    queue_file, _roster = forged
    stranger = tmp_path / "stranger-roster.txt"  # Bea under a key that is not hers: nothing of hers would count
    stranger.write_text(f"{public_key_text(create_signing_key())} {BEA}\n", encoding="utf-8")
    from reviewapp.core.review.preferences import Preferences, save_preferences

    save_preferences(Preferences(annotator=ADA, annotator_source="asked", roster=str(stranger)))
    (row,) = queue_status(read_queue(queue_file), ADA)
    assert row.scores[BEA].payload.overall == 2.0 and len(row.unverified) == 2


def test_a_roster_that_cannot_be_read_counts_no_one_elses_records(forged: tuple[Path, Path]) -> None:
    queue_file, roster = forged
    roster.unlink()
    (row,) = queue_status(read_queue(queue_file), ADA)
    assert BEA not in row.scores


def test_the_commands_check_against_the_queue_roster(
    forged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    queue_file, _roster = forged
    assert main(["queue", str(queue_file), "--format", "json", "--annotator", ADA]) == 0
    out = capsys.readouterr()
    (row,) = json.loads(out.out)
    assert len(row["unverified"]) == 2 and "unverified record(s) set apart" in out.err

    assert main(["rank", str(queue_file), "--format", "json"]) == 0
    (ranked,) = json.loads(capsys.readouterr().out)["ranking"]
    assert ranked["judges"] == {BEA: 2.0} and ranked["verdicts"] == {"falsified": 1}

    assert main(["decide", str(queue_file), "--format", "json", "--annotator", "Carl Chair"]) == 0
    (decided,) = json.loads(capsys.readouterr().out)["payload"]["ranking"]
    assert decided["judges"] == {BEA: 2.0} and decided["verdicts"] == {"falsified": 1}


def test_a_judge_the_team_made_up_raises_no_disagreement(
    forged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    queue_file, _roster = forged
    workspace = Path(read_queue(queue_file).entries[0].location)
    bea_file = next(workspace.rglob("bea-judge.jsonl"))
    record = json.loads(bea_file.read_text(encoding="utf-8").splitlines()[0])
    made_up = dict(record, id=record["id"][:-4] + "CYCY", annotator="Cy Judge")
    made_up["payload"] = {**record["payload"], "verdict": "toy", "rationale": "A smaller model only."}
    (bea_file.parent / "cy-judge.jsonl").write_text(json.dumps(made_up) + "\n", encoding="utf-8")

    assert main(["queue", str(queue_file), "--disagreements", "--format", "json", "--annotator", ADA]) == 0
    assert json.loads(capsys.readouterr().out) == []

    lines = queue_file.read_text(encoding="utf-8").splitlines()
    queue_file.write_text("\n".join(line for line in lines if not line.startswith("roster:")) + "\n")
    assert main(["queue", str(queue_file), "--disagreements", "--format", "json", "--annotator", ADA]) == 0
    assert (
        json.loads(capsys.readouterr().out) != []
    )  # without the roster the made-up judge disagrees with the forged Bea
