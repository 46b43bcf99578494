"""A logbook read with problems and no claims is broken on its queue row, never "not started"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.queue.queue_file import read_queue
from reviewapp.core.queue.queue_row import BROKEN, MERGED, NOT_STARTED
from reviewapp.core.queue.status import find_copies, mark_copy, queue_status
from tests.support.look_fixtures import write_broken_logbook
from tests.support.paper_fixtures import write_team_logbook


@pytest.fixture
def queue(tmp_path: Path) -> Path:
    write_team_logbook(tmp_path / "kestrel", "kestrel", [(0, "verified")])
    write_broken_logbook(tmp_path / "lost")
    (tmp_path / "queue.txt").write_text("kestrel\nlost\n", encoding="utf-8")
    return tmp_path / "queue.txt"


def test_a_logbook_with_problems_and_no_claims_is_a_broken_row_naming_its_problem(queue: Path) -> None:
    good, lost = queue_status(read_queue(queue), "Ada")
    assert good.status == NOT_STARTED and good.problem is None
    assert lost.status == BROKEN and lost.logbook is not None  # it was read: it can be opened to see why
    assert lost.problem is not None and lost.problem.startswith("no claims could be read: ")
    assert "pages/index.md" in lost.problem and "(and 3 more)" in lost.problem


def test_the_queue_command_says_broken_with_the_problem(queue: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["queue", str(queue), "--annotator", "Ada", "--json"]) == 0
    rows = {r["source"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["lost"]["status"] == BROKEN and "no claims could be read" in rows["lost"]["problem"]
    assert main(["queue", str(queue), "--annotator", "Ada"]) == 0
    assert "broken: no claims could be read: pages/index.md" in capsys.readouterr().out


def test_a_workspace_and_its_published_snapshot_in_one_queue_count_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    write_team_logbook(tmp_path / "kestrel", "kestrel", [(0, "verified"), (1, "toy")])
    shutil.copytree(tmp_path / "kestrel" / ".trackio" / "logbook", tmp_path / "kestrel-published")
    write_team_logbook(tmp_path / "other", "other", [(2, "verified")])
    (tmp_path / "queue.txt").write_text("kestrel\nother\nkestrel-published\n", encoding="utf-8")
    first, other, copy = queue_status(read_queue(tmp_path / "queue.txt"), "Ada")
    assert first.claims == 2 and other.claims == 1 and other.status == NOT_STARTED
    assert copy.status == MERGED and copy.claims == 0 and copy.unreviewed == []
    assert copy.problem is not None and copy.problem.startswith("the same logbook as row 1 (kestrel; 100% of the pages")
    assert main(["queue", str(tmp_path / "queue.txt"), "--annotator", "Ada"]) == 0
    assert "merged: the same logbook as row 1 (kestrel;" in capsys.readouterr().out


def test_copies_are_found_without_changing_a_row_and_marked_after(tmp_path: Path) -> None:
    import shutil

    write_team_logbook(tmp_path / "kestrel", "kestrel", [(0, "verified"), (1, "toy")])
    shutil.copytree(tmp_path / "kestrel" / ".trackio" / "logbook", tmp_path / "kestrel-published")
    write_team_logbook(tmp_path / "other", "other", [(2, "verified")])
    (tmp_path / "queue.txt").write_text("kestrel\nother\nkestrel-published\n", encoding="utf-8")
    rows = queue_status(read_queue(tmp_path / "queue.txt"), "Ada")
    rows[2].status, rows[2].problem, rows[2].claims = NOT_STARTED, None, 2  # as a chunk of a window read it
    copies = find_copies(rows)
    assert [(c.number, c.twin) for c in copies] == [(2, 0)] and "100% of the pages" in copies[0].why
    assert rows[2].status == NOT_STARTED and rows[2].claims == 2  # looking changed nothing
    mark_copy(rows, copies[0])
    assert rows[2].status == MERGED and rows[2].claims == 0 and rows[2].unreviewed == []
    assert rows[2].problem is not None and rows[2].problem.startswith("the same logbook as row 1 (kestrel;")
