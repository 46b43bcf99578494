"""Queues of Hub sources: every logbook on a paper (`--orid`), every judged Space (`--from-verdicts`), a queue
saved to share, and Spaces that cannot be reached reported on their row with the rest usable."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.queue.queue_file import read_queue
from tests.core.commit_helpers import published_files
from tests.core.judge_fixtures import entry, write_logbook, write_verdicts
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

ORID = "QueuePaper1"


def _publish(server: HubServer, tmp_path: Path, *spaces: str) -> None:
    for space in spaces:
        files = published_files(tmp_path / space.replace("/", "-"), space)
        server.create_repo(space, repo_type="space", tags=["icml2026-repro", f"paper-{ORID}"], files=files)


def test_orid_queues_every_published_logbook_and_saves_a_shareable_file(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _publish(hub_server, tmp_path, "ada/repro-a", "bob/repro-b")
    hub_server.create_repo("cy/other-paper", repo_type="space", tags=["icml2026-repro", "paper-Elsewhere"])
    saved = tmp_path / "team" / "queue.csv"
    saved.parent.mkdir()

    assert main(["queue", "--orid", ORID, "--save", str(saved), "--annotator", "Ada", "--json"]) == 0

    rows = {r["source"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"ada/repro-a", "bob/repro-b"}
    assert all(r["claims"] == 3 and r["problem"] is None and r["paper"] == ORID for r in rows.values())
    with saved.open() as handle:
        written = list(csv.DictReader(handle))
    assert sorted(r["source"] for r in written) == ["ada/repro-a", "bob/repro-b"]
    again = read_queue(saved)  # the team commits the file; reading it back gives the same queue
    assert sorted(e.source for e in again.entries) == ["ada/repro-a", "bob/repro-b"] and not again.problems


def test_an_unreachable_space_is_reported_on_its_row_and_the_rest_is_usable(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _publish(hub_server, tmp_path, "ada/repro-a")
    write_logbook(tmp_path / "local")
    queue = tmp_path / "queue.txt"
    queue.write_text("ada/repro-a\nnobody/missing-space\nlocal\nlocal\nhttps://127.0.0.1:9/gone/\n")

    assert main(["queue", str(queue), "--annotator", "Ada", "--json"]) == 0

    captured = capsys.readouterr()
    rows = {r["source"]: r for r in json.loads(captured.out)}
    assert rows["ada/repro-a"]["claims"] == 3 and rows["local"]["claims"] == 4
    assert "nobody/missing-space" in rows["nobody/missing-space"]["problem"]
    assert rows["https://127.0.0.1:9/gone/"]["problem"]
    assert "line 4: local: duplicate of line 3" in captured.err


def test_from_verdicts_queues_every_judged_space_filtered_by_verdict_or_points(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    judged = {
        "ada/repro-a": ["VERIFIED", "VERIFIED", "TOY"],  # 5 of 6 points
        "bob/repro-b": ["FALSIFIED", "INCONCLUSIVE"],  # 2 of 4
        "cy/repro-c": ["TOY", "INCONCLUSIVE", "INCONCLUSIVE"],  # 1 of 6
    }
    for number, (space, verdicts) in enumerate(judged.items()):
        workspace = write_logbook(tmp_path / f"ws{number}", metadata_space=space).parents[1]
        file = write_verdicts(tmp_path / f"v{number}.json", {space: entry(verdicts, space_id=space)})
        assert main(["verdicts", "import", str(file), str(workspace)]) in (0, 1)
    capsys.readouterr()
    saved = tmp_path / "judged.csv"

    assert main(["queue", "--from-verdicts", "--save", str(saved), "--format", "csv"]) == 0
    assert sorted(e.source for e in read_queue(saved).entries) == sorted(judged)
    capsys.readouterr()
    assert main(["queue", "--from-verdicts", "--verdict", "falsified", "--save", str(saved)]) == 0
    assert [e.source for e in read_queue(saved).entries] == ["bob/repro-b"]
    assert main(["queue", "--from-verdicts", "--min-points", "2", "--save", str(saved)]) == 0
    assert [e.source for e in read_queue(saved).entries] == ["ada/repro-a", "bob/repro-b"]
    capsys.readouterr()
    # the same logbooks opened from a folder queue: their claims match none of the imported verdicts (which carry
    # no claim text), so the points count nothing and say how many verdicts were left out, as the J badges do
    (tmp_path / "local.txt").write_text("ws0\nws1\nws2\n")
    assert main(["queue", str(tmp_path / "local.txt"), "--annotator", "Ada", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    points = [(r["logbook_judge_points"], r["logbook_judge_unmatched"]) for r in rows]
    assert points == [(None, 3), (None, 2), (None, 3)]
    assert main(["queue", str(tmp_path / "local.txt"), "--annotator", "Ada"]) == 0
    assert "3 unmatched" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give one of LIST, --orid ORID or --from-verdicts"),
        (["queue.txt", "--from-verdicts"], "got LIST, --from-verdicts"),
        (["queue.txt", "--verdict", "toy"], "filter --from-verdicts"),
        (["--from-verdicts", "--verdict", "great"], "unknown verdict"),
    ],
)
def test_bad_queue_requests_are_usage_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queue", *args]) == 2
    assert message in capsys.readouterr().err
