"""A queue's logbooks are parsed ahead in child processes, so its rows are then served by the parse cache and the
row cache."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.io.child_process import run_in_child
from reviewapp.core.logbook.parse_cache import CacheStats, forget_recent, read_logbook_cached
from reviewapp.core.queue.queue_file import QueueEntry
from reviewapp.core.queue.row_cache import RowCache
from reviewapp.core.queue.status import queue_status, read_ahead
from tests.core.annotation_helpers import small_logbook


def test_the_child_fills_the_parse_cache_and_says_each_folder_done(tmp_path: Path) -> None:
    first, second = small_logbook(tmp_path, "one"), small_logbook(tmp_path, "two")
    not_a_logbook = tmp_path / "empty"
    not_a_logbook.mkdir()
    done: list[int] = []
    entries = [QueueEntry(str(folder), str(folder), False, 1) for folder in (first, not_a_logbook, second)]
    run_in_child(read_ahead, (entries, "Ada", None), on_message=done.append)
    assert done == [0, 1, 2]  # a folder that is not a logbook is passed over, its row says why
    forget_recent()
    for folder in (first, second):
        stats = CacheStats()
        read_logbook_cached(folder, stats=stats)
        assert stats.whole and stats.parsed == 0  # parsed by the child, served here


def test_the_child_keeps_each_row_so_this_process_reads_no_logbook(tmp_path: Path) -> None:
    from reviewapp.core.queue.queue_file import Queue
    from tests.support.paper_fixtures import write_team_logbook

    # no page in common: neither row is read to be compared with the other as a copy
    folders = [write_team_logbook(tmp_path / name, name, [(n, "verified")]) for n, name in enumerate(("a", "b"))]
    entries = [QueueEntry(str(folder), str(folder), False, 1) for folder in folders]
    run_in_child(read_ahead, (entries, "Ada", None), on_message=lambda _position: None)
    forget_recent()
    rows = queue_status(Queue(tmp_path / "queue.txt", entries, []), "Ada", row_cache=RowCache())
    assert [row.claims for row in rows] == [1, 1]
    assert all(row._logbook is None for row in rows)  # served from the row the child kept


def test_is_cached_tells_a_whole_hit_without_decoding(tmp_path: Path) -> None:
    from reviewapp.core.logbook.parse_cache import is_cached

    workspace = small_logbook(tmp_path)
    assert not is_cached(workspace) and not is_cached(tmp_path / "nowhere")
    read_logbook_cached(workspace)
    forget_recent()
    assert is_cached(workspace)
    page = next(workspace.rglob("page.md"))
    page.write_text(page.read_text() + "\nmore\n")
    assert not is_cached(workspace)
