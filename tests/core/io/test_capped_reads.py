"""Every file read whole under a cap goes through safepath: a file over the cap is refused without being read, a
FIFO or a folder is refused without waiting, and each refusal names the file and the problem in its reader's words."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from reviewapp.core.commit.files import ReviewFileError, bring_into, read_review_file
from reviewapp.core.logbook_judge.entries import FILE_LIMIT, VerdictsFileError, read_verdicts
from reviewapp.core.logbook_judge.registry import read_registry
from reviewapp.core.queue.queue_file import MAX_QUEUE_BYTES, QueueError, read_queue
from reviewapp.core.queue.rubric import MAX_RUBRIC_BYTES, RubricError, load_rubric
from reviewapp.core.review.signing import MAX_ROSTER_BYTES, RosterError, read_roster
from reviewapp.core.review.store import MAX_FILE_BYTES
from reviewapp.crash_report import last_log_lines


@dataclass(frozen=True)
class CappedReader:
    read: Callable[[Path], object]
    error: type[Exception]
    name: str  # the file's name, as the reader expects it
    limit: int
    too_large: str  # what the refusal of a file over the cap says
    cannot_read: str  # what the refusal of a file that cannot be read says, before the file or the reason


READERS = {
    "rubric": CappedReader(
        load_rubric,
        RubricError,
        "rubric.toml",
        MAX_RUBRIC_BYTES,
        "larger than 256 KB; not a rubric",
        "cannot read the rubric: ",
    ),
    "queue": CappedReader(
        read_queue,
        QueueError,
        "queue.txt",
        MAX_QUEUE_BYTES,
        "larger than 8 MB; not a queue file",
        "cannot read the queue: ",
    ),
    "roster": CappedReader(
        read_roster,
        RosterError,
        "roster.txt",
        MAX_ROSTER_BYTES,
        "a roster of reviewers' keys is at most 1,048,576 bytes",
        "cannot read the roster of reviewers' keys (",
    ),
    "Logbook Judge verdicts": CappedReader(
        read_verdicts, VerdictsFileError, "verdicts.json", FILE_LIMIT, "larger than 256 MB", "cannot read: "
    ),
    "claim registry": CappedReader(
        read_registry,
        VerdictsFileError,
        "claims.json",
        FILE_LIMIT,
        "claim registry larger than 256 MB",
        "cannot read claim registry: ",
    ),
    "review file to commit": CappedReader(
        read_review_file,
        ReviewFileError,
        "ada.jsonl",
        MAX_FILE_BYTES,
        "is larger than 256 MB; not committed",
        "cannot read ",
    ),
}


def sparse(path: Path, size: int) -> Path:
    """A file of `size` bytes that takes no disk: reading it whole would cost `size` bytes of memory."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_file_over_the_cap_is_refused_naming_it(tmp_path: Path, reader: CappedReader) -> None:
    path = sparse(tmp_path / reader.name, reader.limit + 1)
    with pytest.raises(reader.error) as refused:
        reader.read(path)
    assert reader.name in str(refused.value)
    assert reader.too_large in str(refused.value)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path, reader: CappedReader) -> None:
    fifo = tmp_path / reader.name
    os.mkfifo(fifo)
    with pytest.raises(reader.error) as refused:
        reader.read(fifo)
    assert reader.cannot_read in str(refused.value)
    assert "not a regular file" in str(refused.value)
    assert reader.name in str(refused.value)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_missing_file_is_named_with_the_systems_reason(tmp_path: Path, reader: CappedReader) -> None:
    with pytest.raises(reader.error) as refused:
        reader.read(tmp_path / reader.name)
    assert reader.cannot_read in str(refused.value)
    assert os.strerror(2) in str(refused.value)
    assert "cannot read: " not in str(refused.value).replace(reader.cannot_read, "", 1)  # said once


def test_the_crash_report_reads_only_the_end_of_the_log_and_never_a_fifo(tmp_path: Path) -> None:
    log = tmp_path / "reviewapp.log"
    log.write_text("".join(f"line {number}\n" for number in range(300_000)))  # over the 2 MB read of the log
    assert last_log_lines(log, count=2) == ["line 299998", "line 299999"]
    fifo = tmp_path / "fifo.log"
    os.mkfifo(fifo)
    assert last_log_lines(fifo) == []


def test_a_review_file_over_the_cap_in_the_clone_gets_nothing_added(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    (clone / "reviews").mkdir(parents=True)
    target = sparse(clone / "reviews" / "ada.jsonl", MAX_FILE_BYTES + 1)
    with pytest.raises(ReviewFileError, match=r"ada\.jsonl is larger than 256 MB; nothing was added to it"):
        bring_into(clone, "reviews/ada.jsonl", b'{"id": "r1"}\n')
    assert target.stat().st_size == MAX_FILE_BYTES + 1
    assert bring_into(clone, "reviews/bob.jsonl", b'{"id": "r2"}\n')  # a file under the cap is still brought in
    assert bring_into(clone, "reviews/bob.jsonl", b'{"id": "r2"}\n{"id": "r3"}\n')
    assert (clone / "reviews" / "bob.jsonl").read_bytes() == b'{"id": "r2"}\n{"id": "r3"}\n'
