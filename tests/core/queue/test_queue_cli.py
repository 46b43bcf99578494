"""`score`, `flag`, `queue` and `rank` from the command line, in subprocesses like a judge's terminal."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.annotation_helpers import small_logbook, subprocess_env


@pytest.fixture
def team(tmp_path: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        small_logbook(tmp_path, name)
    (tmp_path / "queue.txt").write_text("alpha\nbeta\ngamma\nlost/and/gone\n")
    (tmp_path / "home").mkdir()
    return tmp_path


def cli(team: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewapp", *args],
        capture_output=True,
        text=True,
        env=subprocess_env(team / "home"),
        cwd=team,
        timeout=120,
        check=False,
    )


def score(team: Path, logbook: str, judge: str, value: float) -> str:
    done = cli(team, "score", logbook, "--overall", str(value), "--annotator", judge)
    assert done.returncode == 0, done.stderr
    assert f"as {judge} (judge)" in done.stderr
    return done.stdout.strip()


def test_score_prints_the_record_id_once_saved(team: Path) -> None:
    done = cli(team, "score", "alpha", "--criterion", "rigor=4", "--criterion", "scale=2", "--criterion",
               "honesty=5", "--criterion", "clarity=3", "--criterion-comment", "scale=a 10% proxy",
               "--comment", "careful", "--annotator", "Ada")  # fmt: skip
    assert done.returncode == 0, done.stderr
    record_id = done.stdout.strip()
    saved = (team / "alpha" / ".trackio" / "logbook" / "reviews" / "ada.jsonl").read_text()
    record = json.loads(saved.splitlines()[-1])
    assert record["id"] == record_id and record["kind"] == "rubric_score"
    assert record["payload"]["overall"] == 3.5
    assert record["payload"]["criteria"][1] == {"name": "scale", "value": 2.0, "weight": 1.0, "comment": "a 10% proxy"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--overall", "3", "--criterion", "rigor=2"], "either it or --criterion"),
        ([], "give --criterion NAME=VALUE"),
        (["--criterion", "rigor=high"], "must be a number"),
        (["--criterion", "rigor=9", "--criterion", "scale=1", "--criterion", "honesty=1", "--criterion", "clarity=1"],
         "outside the scale"),
        (["--criterion", "speed=3"], "no criterion 'speed'"),
    ],
)  # fmt: skip
def test_bad_scores_save_nothing_and_say_why(team: Path, args: list[str], message: str) -> None:
    done = cli(team, "score", "alpha", *args, "--annotator", "Ada")
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""
    assert not (team / "alpha" / ".trackio" / "logbook" / "reviews" / "ada.jsonl").exists()


def test_queue_shows_progress_status_and_the_next_claim(team: Path) -> None:
    assert cli(team, "annotate", "alpha", "--claim", "1", "--verdict", "verified", "--rationale", "ok",
               "--annotator", "Ada").returncode == 0  # fmt: skip
    score(team, "beta", "Ada", 4)
    flagged = cli(team, "flag", "gamma", "--reason", "figure 2 is from another run", "--annotator", "Bob")
    assert flagged.returncode == 0, flagged.stderr
    done = cli(team, "queue", "queue.txt", "--annotator", "Ada", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = {row["source"]: row for row in json.loads(done.stdout)}
    assert (rows["alpha"]["reviewed_by_me"], rows["alpha"]["claims"], rows["alpha"]["status"]) == (1, 3, "in progress")
    assert (rows["beta"]["my_score"], rows["beta"]["status"]) == (4.0, "in progress")
    assert (rows["gamma"]["status"], rows["gamma"]["flag_reason"]) == ("flagged", "figure 2 is from another run")
    assert "lost/and/gone" not in rows and "no such folder" in done.stderr
    nxt = cli(team, "queue", "queue.txt", "--annotator", "Ada", "--next", "--format", "json")
    assert json.loads(nxt.stdout)["source"] == "alpha" and json.loads(nxt.stdout)["claim"].endswith("#2")
    cleared = cli(team, "flag", "gamma", "--clear", "--annotator", "Ada")
    assert cleared.returncode == 0
    again = {row["source"]: row for row in json.loads(cli(team, "queue", "queue.txt", "--json").stdout)}
    assert again["gamma"]["status"] == "not started"


def test_the_queue_writes_my_score_as_the_rubric_scale_does(team: Path) -> None:
    score(team, "alpha", "Ada", 4)
    score(team, "beta", "Ada", 3.25)
    done = cli(team, "queue", "queue.txt", "--annotator", "Ada", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = {row["source"]: row for row in csv.DictReader(io.StringIO(done.stdout))}
    # a whole score on the 1-5 scale is 4, as the score dialog shows it; a fraction keeps its decimals
    assert (rows["alpha"]["my score"], rows["beta"]["my score"], rows["gamma"]["my score"]) == ("4", "3.25", "")
    text = cli(team, "queue", "queue.txt", "--annotator", "Ada").stdout
    assert "4.00" not in text and "3.25" in text


def test_a_logbook_is_done_when_every_claim_has_my_verdict_and_my_score(team: Path) -> None:
    for n in (1, 2, 3):
        assert cli(team, "annotate", "alpha", "--claim", str(n), "--verdict", "toy", "--rationale", "small",
                   "--annotator", "Ada").returncode == 0  # fmt: skip
    score(team, "alpha", "Ada", 3)
    rows = json.loads(cli(team, "queue", "queue.txt", "--annotator", "Ada", "--json").stdout)
    assert rows[0]["status"] == "done"
    nxt = cli(team, "queue", "queue.txt", "--annotator", "Ada", "--next", "--json")
    assert json.loads(nxt.stdout)["source"] == "beta"  # crosses to the next logbook


def test_rank_normalizes_per_judge_and_prints_every_format(team: Path) -> None:
    score(team, "alpha", "Harsh", 2)
    score(team, "beta", "Harsh", 1)
    score(team, "beta", "Lenient", 5)
    score(team, "gamma", "Lenient", 4)
    ranked = json.loads(cli(team, "rank", "queue.txt", "--json").stdout)
    assert [(r["logbook"], r["score"]) for r in ranked["ranking"]] == [("alpha", 1.0), ("beta", 0.0), ("gamma", -1.0)]
    assert ranked["ranking"][1]["judges"] == {"Harsh": 1.0, "Lenient": 5.0}
    markdown = cli(team, "rank", "queue.txt", "--format", "markdown").stdout
    assert markdown.startswith("## Leaderboard\n") and "| 1 | alpha |" in markdown
    rows = list(csv.reader(io.StringIO(cli(team, "rank", "queue.txt", "--format", "csv").stdout)))
    assert rows[0][:4] == ["rank", "logbook", "title", "score"] and rows[3][3] == "-1.0"
    text = cli(team, "rank", "queue.txt").stdout
    assert "Harsh scored 2 logbooks" in text


def test_ties_are_flagged_in_the_leaderboard(team: Path) -> None:
    score(team, "alpha", "Ada", 4)
    score(team, "beta", "Ada", 4)
    score(team, "gamma", "Ada", 1)
    ranked = json.loads(cli(team, "rank", "queue.txt", "--json").stdout)["ranking"]
    assert [(r["logbook"], r["rank"], r["tied"]) for r in ranked] == [
        ("alpha", 1, True),
        ("beta", 1, True),
        ("gamma", 3, False),
    ]


def test_rank_and_decide_write_scores_as_the_rubric_scale_does(team: Path) -> None:
    score(team, "alpha", "Ada", 4)
    score(team, "beta", "Ada", 3.6666666667)
    score(team, "alpha", "Bob", 4)
    score(team, "gamma", "Bob", 2)
    text = cli(team, "rank", "queue.txt").stdout
    alpha = next(line for line in text.splitlines() if " alpha " in f" {line} ")
    # a whole mean on the 1-5 scale is 4 (not 4.00), a judge's fraction two decimals (not 3.66667)
    assert "4.00" not in alpha and " 4 " in f" {alpha} " and "4 (+" in alpha
    assert "3.67 (" in text and "3.66667" not in text
    done = cli(team, "decide", "queue.txt", "--annotator", "Cy")
    assert done.returncode == 0, done.stderr
    report = (team / "queue-decision.md").read_text()
    assert "Ada 3.67 (" in report and "Ada 4 (" in report and "3.66667" not in report
    rows = {r["logbook"]: r for r in csv.DictReader(io.StringIO((team / "queue-decision.csv").read_text()))}
    assert (rows["alpha"]["Ada"], rows["beta"]["Ada"], rows["gamma"]["Bob"]) == ("4", "3.67", "2")
