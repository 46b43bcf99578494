"""A bad row is one bad row: a Space that breaks opening is marked on its row, the others are listed; `rank`
ranks Hub logbooks from their saved scores and cached copies without downloading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from tests.core.commit_helpers import published_files
from tests.support.hostile_server import HostileHub, Misbehaviour

pytest_plugins = ["tests.support.hub_fixtures"]

GOOD, BAD = "alice/repro-good", "mallory/repro-odd-names"


@pytest.fixture
def hub(hostile_hub: HostileHub) -> HostileHub:
    return hostile_hub


def _publish(hub: HostileHub, tmp_path: Path, repo_id: str) -> None:
    hub.create_repo(repo_id, repo_type="space", files=dict(published_files(tmp_path / "drafts" / repo_id, repo_id)))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _queue(tmp_path: Path, *sources: str) -> Path:
    path = tmp_path / "queues" / "queue.txt"  # beside no folder named like a source (a folder would win)
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(f"{s}\n" for s in sources))
    return path


def test_a_space_whose_tree_breaks_huggingface_hub_is_one_row_of_the_queue(
    hub: HostileHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _publish(hub, tmp_path, GOOD)
    _publish(hub, tmp_path, BAD)
    odd = {"type": "file", "path": "pages/../escape.md", "size": 4, "oid": "0" * 40}  # a name it refuses
    real = json.loads(hub.handle("GET", f"/api/spaces/{BAD}/tree/main?recursive=1", {}, b"").body)
    hub.misbehave(f"/api/spaces/{BAD}/tree/", Misbehaviour(body=json.dumps([*real, odd]).encode()))

    code, out, err = _run(capsys, "queue", str(_queue(tmp_path, BAD, GOOD)), "--json", "--annotator", "Ada")

    assert code == 0, err
    rows = {row["source"]: row for row in json.loads(out)}
    assert rows[GOOD]["problem"] is None and rows[GOOD]["claims"] > 0
    assert rows[BAD]["problem"].startswith(f"Space {BAD}") and "escape.md" in rows[BAD]["problem"]
    assert "Traceback" not in err


def test_rank_uses_saved_scores_and_cached_copies_without_downloading(
    hub: HostileHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _publish(hub, tmp_path, GOOD)
    assert _run(capsys, "score", GOOD, "--overall", "4", "--annotator", "Ada")[0] == 0
    queue = _queue(tmp_path, GOOD, "bob/never-downloaded")
    hub.stop()  # nothing may be asked of the Hub now

    code, out, err = _run(capsys, "rank", str(queue), "--json")

    assert code == 0, err
    ranked = json.loads(out)["ranking"]
    assert [(r["logbook"], r["judges"]) for r in ranked] == [(GOOD, {"Ada": 4.0})]
    assert "bob/never-downloaded" in err and "--download" in err


def test_paper_of_two_spaces_shows_the_one_that_opens_and_names_the_other(
    hub: HostileHub, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _publish(hub, tmp_path, GOOD)
    _publish(hub, tmp_path, BAD)
    hub.misbehave(f"/api/spaces/{BAD}$", Misbehaviour(status=500, body=b"broken"))

    code, out, err = _run(capsys, "paper", GOOD, BAD, "--json")

    assert code == 0, err
    assert GOOD in out and f"warning: {BAD}: Space {BAD}" in err
    assert "Traceback" not in err
