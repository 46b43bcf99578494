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
    done: list[tuple[int, object]] = []
    entries = [QueueEntry(str(folder), str(folder), False, 1) for folder in (first, not_a_logbook, second)]
    run_in_child(read_ahead, (entries, "Ada", None), on_message=done.append)
    assert [position for position, _figures in done] == [0, 1, 2]
    assert done[1][1] is None  # a folder that is not a logbook is passed over, its row says why
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


def test_the_rows_made_from_the_figures_the_child_sent_are_the_rows_computed_here(tmp_path: Path) -> None:
    from reviewapp.core.queue.queue_file import Queue
    from tests.core.annotation_helpers import open_review
    from tests.support.paper_fixtures import write_team_logbook

    # no page in common: neither row is read to be compared with the other as a copy
    claims = {"a": [(0, "verified"), (1, "toy")], "b": [(2, "verified")]}
    folders = [write_team_logbook(tmp_path / name, name, found) for name, found in claims.items()]
    import shutil

    from reviewapp.core.logbook.parse_cache import cache_folder

    open_review(folders[0], "Ada").set_verdict(1, "falsified", "Wrong units.")
    shutil.rmtree(cache_folder(), ignore_errors=True)  # as if never read: the child parses both logbooks
    forget_recent()
    (tmp_path / "empty").mkdir()
    entries = [QueueEntry(str(folder), str(folder), False, 1) for folder in [*folders, tmp_path / "empty"]]
    sent: dict[int, object] = {}
    run_in_child(read_ahead, (entries, "Ada", None), on_message=lambda message: sent.update([message]))
    assert sent[0] is not None and sent[1] is not None
    assert sent[2] is None  # not a logbook: read here, where its row says why
    queue = Queue(tmp_path / "queue.txt", entries, [])
    made = queue_status(queue, "Ada", computed=[sent[0], sent[1], sent[2]])  # type: ignore[list-item]
    here = queue_status(queue, "Ada")
    fields = ("title", "paper", "claims", "reviewed_by_me", "status", "root", "logbook_id", "claim_keys")
    for mine, theirs in zip(made, here, strict=True):
        assert [getattr(mine, f) for f in fields] == [getattr(theirs, f) for f in fields]
        assert (mine.unreviewed, mine.points, mine.problem, mine.trust) == (
            theirs.unreviewed,
            theirs.points,
            theirs.problem,
            theirs.trust,
        )
    assert made[0].reviewed_by_me == 1 and made[0].status == "in progress"
    assert made[0]._logbook is None and made[0].logbook is not None  # read through the parse cache when asked
    assert made[2].problem and made[2].root is None
    open_review(folders[1], "Ada").set_verdict(1, "verified", "Re-ran it.")  # after the child computed the row
    again = queue_status(queue, "Ada", computed=[sent[0], sent[1], sent[2]])  # type: ignore[list-item]
    assert again[1].reviewed_by_me == 1 and again[0]._logbook is None  # that row read again, the other not


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


def test_a_row_the_caches_serve_comes_back_from_the_child_with_its_figures(tmp_path: Path) -> None:
    from reviewapp.core.queue.queue_file import Queue
    from tests.support.paper_fixtures import write_team_logbook

    folders = [write_team_logbook(tmp_path / name, name, [(n, "verified")]) for n, name in enumerate(("a", "b"))]
    entries = [QueueEntry(str(folder), str(folder), False, 1) for folder in folders]
    run_in_child(read_ahead, (entries, "Ada", None), on_message=lambda _message: None)  # parsed, rows kept
    sent: dict[int, object] = {}
    run_in_child(read_ahead, (entries, "Ada", None), on_message=lambda message: sent.update([message]))
    assert sent[0] is not None and sent[1] is not None  # served by the caches there, and sent all the same
    forget_recent()
    queue = Queue(tmp_path / "queue.txt", entries, [])
    made = queue_status(queue, "Ada", computed=[sent[0], sent[1]])  # type: ignore[list-item]
    assert [row.claims for row in made] == [1, 1] and all(row._logbook is None for row in made)
