"""Queue files in each form, and bad rows reported per row while the rest stays usable."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.queue.queue_file import QueueError, read_queue, write_queue
from tests.core.annotation_helpers import small_logbook


@pytest.fixture
def team(tmp_path: Path) -> Path:
    for name in ("alpha", "beta", "gamma"):
        small_logbook(tmp_path / "logbooks", name)
    return tmp_path


def test_a_text_queue_resolves_paths_relative_to_the_file(team: Path) -> None:
    queue_file = team / "queue.txt"
    queue_file.write_text("# prize candidates\nlogbooks/alpha\n\n  logbooks/beta  \nsomeone/their-space@abc123\n")
    queue = read_queue(queue_file)
    assert [e.source for e in queue.entries] == ["logbooks/alpha", "logbooks/beta", "someone/their-space@abc123"]
    assert queue.entries[0].location == str((team / "logbooks" / "alpha").resolve())
    assert [e.remote for e in queue.entries] == [False, False, True]
    assert [e.line for e in queue.entries] == [2, 4, 5]
    assert queue.problems == []


def test_a_csv_queue_keeps_paper_notes_and_extra_columns(team: Path) -> None:
    queue_file = team / "queue.csv"
    queue_file.write_text(
        'source,paper,notes,track\nlogbooks/alpha,GW3umRqsZZ,"first, with a comma",oral\n'
        "https://huggingface.co/spaces/a/b,,,poster\n"
    )
    queue = read_queue(queue_file)
    first, second = queue.entries
    assert (first.paper, first.notes, first.extra) == ("GW3umRqsZZ", "first, with a comma", {"track": "oral"})
    assert second.remote and second.line == 3


def test_bad_rows_are_reported_and_the_rest_is_usable(team: Path) -> None:
    (team / "not-a-logbook").mkdir()
    queue_file = team / "queue.csv"
    queue_file.write_text(
        "source,paper\nlogbooks/alpha,P1\nlogbooks/old/missing,P2\n,P3\n./logbooks/alpha,P1\nnot-a-logbook,P4\n"
        "logbooks/gamma,P5\n"
    )
    queue = read_queue(queue_file)
    assert [e.source for e in queue.entries] == ["logbooks/alpha", "logbooks/gamma"]
    problems = {p.line: p.message for p in queue.problems}
    assert problems[3].startswith("no such folder")
    assert problems[4] == "no source in this row"
    assert problems[5] == "duplicate of line 2; skipped"
    assert problems[6].startswith("not a logbook")


def test_a_folder_is_a_queue_of_every_logbook_in_it(team: Path) -> None:
    queue = read_queue(team / "logbooks")
    assert sorted(Path(e.location).name for e in queue.entries) == ["alpha", "beta", "gamma"]
    empty = team / "empty"
    empty.mkdir()
    assert read_queue(empty).problems[0].message == "no logbook found in this folder"


def test_a_queue_written_is_read_back_the_same(team: Path) -> None:
    source = team / "queue.txt"
    source.write_text("logbooks/beta\nlogbooks/alpha\nowner/space\n")
    queue = read_queue(source)
    shared = team / "shared.csv"
    write_queue(shared, queue.entries)
    assert "logbooks/beta" in shared.read_text()  # relative, so the team can commit and share it
    again = read_queue(shared)
    assert [(e.location, e.remote) for e in again.entries] == [(e.location, e.remote) for e in queue.entries]


def test_a_file_that_is_no_queue_is_refused_with_its_name(tmp_path: Path) -> None:
    bad = tmp_path / "queue.csv"
    bad.write_text("path,paper\nx,y\n")
    with pytest.raises(QueueError, match="needs a `source` column"):
        read_queue(bad)
    binary = tmp_path / "queue.txt"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(QueueError, match=str(binary)):
        read_queue(binary)
