"""A queue's rows are kept in the row cache and served from it while what they were computed from holds: a changed
review file or page computes that row again, alone; a damaged cache is rebuilt with a warning, never an error."""

from __future__ import annotations

import dataclasses
import logging
import shutil
from pathlib import Path

import pytest

from reviewapp.core.logbook.parse_cache import forget_recent
from reviewapp.core.queue.queue_file import Queue, read_queue
from reviewapp.core.queue.queue_row import QueueRow
from reviewapp.core.queue.row_cache import RowCache
from reviewapp.core.queue.status import find_copies, queue_status
from tests.core.annotation_helpers import open_review, small_logbook
from tests.support.paper_fixtures import write_team_logbook

NAMES = ("one", "two", "three")


@pytest.fixture
def queue(tmp_path: Path) -> Queue:
    for number, name in enumerate(NAMES):  # no page in common: no row is compared with another as a copy
        write_team_logbook(tmp_path / name, name, [(2 * number, "verified"), (2 * number + 1, "toy")])
    (tmp_path / "queue.txt").write_text("\n".join(NAMES) + "\n", encoding="utf-8")
    return read_queue(tmp_path / "queue.txt")


def figures(row: QueueRow) -> dict[str, object]:
    """What a row shows and counts (not the logbook object it may hold)."""
    return {f.name: getattr(row, f.name) for f in dataclasses.fields(row) if f.name != "_logbook"}


def read(queue: Queue, cache: RowCache, me: str = "Ada Lovelace") -> tuple[list[QueueRow], list[str]]:
    """The rows, and which of them were computed (read their logbook) rather than served from the cache."""
    forget_recent()
    rows = queue_status(queue, me, row_cache=cache)
    return rows, [row.entry.source for row in rows if row._logbook is not None]


def test_rows_are_served_from_the_cache_with_the_figures_they_were_computed_with(queue: Queue, tmp_path: Path) -> None:
    open_review(tmp_path / "two").set_verdict(1, "falsified", "The accuracy drop is 4 points.")
    cache = RowCache(tmp_path / "rows.sqlite3")
    computed, first = read(queue, cache)
    served, second = read(queue, cache)
    assert first == list(NAMES) and second == []
    assert [figures(r) for r in served] == [figures(r) for r in computed]
    assert served[1].reviewed_by_me == 1 and served[1].unreviewed == computed[1].unreviewed
    assert served[0].logbook is not None and served[0].logbook.title == computed[0].title  # read when asked
    assert served[0].logbook.logbook_id == computed[0].logbook_id


def test_a_changed_review_file_computes_exactly_that_row_again(queue: Queue, tmp_path: Path) -> None:
    cache = RowCache(tmp_path / "rows.sqlite3")
    read(queue, cache)
    open_review(tmp_path / "three").set_verdict(2, "verified", "Measured 2.1x.")
    rows, computed = read(queue, cache)
    assert computed == ["three"] and rows[2].reviewed_by_me == 1 and rows[0].reviewed_by_me == 0
    assert read(queue, cache)[1] == []


def test_a_changed_page_computes_exactly_that_row_again(queue: Queue, tmp_path: Path) -> None:
    cache = RowCache(tmp_path / "rows.sqlite3")
    before, _computed = read(queue, cache)
    page = next((tmp_path / "one").rglob("claim-2-*/page.md"))
    page.write_text(page.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    after, computed = read(queue, cache)
    assert computed == ["one"]
    assert after[0].page_hashes != before[0].page_hashes and after[1].page_hashes == before[1].page_hashes


def test_another_judge_has_rows_of_their_own(queue: Queue, tmp_path: Path) -> None:
    open_review(tmp_path / "one").set_verdict(1, "verified", "Within 0.3 points.")
    cache = RowCache(tmp_path / "rows.sqlite3")
    read(queue, cache)
    rows, computed = read(queue, cache, me="Grace Hopper")
    assert computed == list(NAMES) and rows[0].reviewed_by_me == 0


def test_a_damaged_cache_is_rebuilt_with_a_warning(
    queue: Queue, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "rows.sqlite3"
    path.write_bytes(b"not a database, whatever it was" * 100)
    with caplog.at_level(logging.WARNING, logger="reviewapp.core.queue.row_cache"):
        rows, computed = read(queue, RowCache(path))
    assert computed == list(NAMES) and [r.problem for r in rows] == [None] * 3
    assert any("damaged" in message and str(path) in message for message in caplog.messages)
    assert read(queue, RowCache(path))[1] == []  # built again, and serving


def test_a_deleted_cache_only_costs_time(queue: Queue, tmp_path: Path) -> None:
    path = tmp_path / "rows.sqlite3"
    cache = RowCache(path)
    computed, _ = read(queue, cache)
    cache.close()
    for kept in tmp_path.glob("rows.sqlite3*"):
        kept.unlink()
    again, which = read(queue, RowCache(path))
    assert which == list(NAMES) and [figures(r) for r in again] == [figures(r) for r in computed]


def test_copies_are_found_among_rows_served_from_the_cache(tmp_path: Path) -> None:
    small_logbook(tmp_path, "kestrel")
    shutil.copytree(tmp_path / "kestrel" / ".trackio" / "logbook", tmp_path / "kestrel-published")
    (tmp_path / "queue.txt").write_text("kestrel\nkestrel-published\n", encoding="utf-8")
    queue = read_queue(tmp_path / "queue.txt")
    cache = RowCache(tmp_path / "rows.sqlite3")
    read(queue, cache)
    rows, _computed = read(queue, cache)  # served, then compared: they share their pages
    assert rows[1].status == "merged" and rows[1].problem is not None
    assert rows[1].problem.startswith("the same logbook as row 1 (kestrel;")
    assert rows[0].status != "merged" and not find_copies(rows)  # marked once, and nothing else is a copy
