"""A queue's folders are parsed ahead in a child process, so its rows are then served by the parse cache."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.io.child_process import run_in_child
from reviewapp.core.logbook.parse_cache import CacheStats, forget_recent, read_logbook_cached
from reviewapp.core.queue.status import read_ahead
from tests.core.annotation_helpers import small_logbook


def test_the_child_fills_the_parse_cache_and_says_each_folder_done(tmp_path: Path) -> None:
    first, second = small_logbook(tmp_path, "one"), small_logbook(tmp_path, "two")
    not_a_logbook = tmp_path / "empty"
    not_a_logbook.mkdir()
    done: list[int] = []
    run_in_child(read_ahead, ([str(first), str(not_a_logbook), str(second)],), on_message=done.append)
    assert done == [0, 1, 2]  # a folder that is not a logbook is passed over, its row says why
    forget_recent()
    for folder in (first, second):
        stats = CacheStats()
        read_logbook_cached(folder, stats=stats)
        assert stats.whole and stats.parsed == 0  # parsed by the child, served here


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
