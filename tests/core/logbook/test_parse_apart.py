"""A large logbook is parsed into the parse cache by a child process; a small one is left to the caller."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook import parse_apart as apart
from reviewapp.core.logbook import parse_cache
from reviewapp.core.logbook.parse_cache import CacheStats, forget_recent, is_cached, read_logbook_cached
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.progress import Cancelled, CancelToken
from tests.core.annotation_helpers import small_logbook


def test_a_large_logbook_is_parsed_by_a_child_and_then_served_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = small_logbook(tmp_path)
    monkeypatch.setattr(apart, "LARGE_PAGES_BYTES", 1)  # the small logbook counts as large
    forget_recent()
    told: list[tuple[int, int, str]] = []
    apart.parse_apart(workspace, lambda done, total, page: told.append((done, total, page)))
    assert is_cached(workspace)
    assert not parse_cache._RECENT  # parsed elsewhere: a parse here would be kept in this process's memory
    pages = len(read_logbook(workspace).pages) - 1  # the index page is read before the others are counted
    assert [done for done, _total, _page in told] == list(range(1, pages + 1)) and told[-1][1] == pages
    stats = CacheStats()
    logbook = read_logbook_cached(workspace, stats=stats)
    assert stats.whole and stats.parsed == 0
    assert parse_cache.encode(logbook) == parse_cache.encode(read_logbook(workspace))


def test_a_small_logbook_or_none_is_left_to_the_callers_own_read(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    assert 0 < apart.pages_bytes(workspace) < apart.LARGE_PAGES_BYTES
    apart.parse_apart(workspace)
    assert not is_cached(workspace)
    nothing = tmp_path / "empty"
    nothing.mkdir()
    assert apart.pages_bytes(nothing) == 0
    apart.parse_apart(nothing)  # the read says what is wrong, not this


def test_a_cancelled_read_stops_the_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = small_logbook(tmp_path)
    monkeypatch.setattr(apart, "LARGE_PAGES_BYTES", 1)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        apart.parse_apart(workspace, cancel=token)
    assert not is_cached(workspace)


def test_a_downloaded_logbook_is_parsed_under_the_id_its_download_knows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reviewapp.core.logbook.logbook_id import hub_logbook_id

    workspace = small_logbook(tmp_path)
    known = hub_logbook_id("space", "alice/repro")
    monkeypatch.setattr(apart, "LARGE_PAGES_BYTES", 1)
    forget_recent()
    apart.parse_apart(workspace, logbook_id=known)
    assert is_cached(workspace, logbook_id=known) and not is_cached(workspace)  # its entry, not the folder's own
    stats = CacheStats()
    logbook = read_logbook_cached(workspace, logbook_id=known, stats=stats)
    assert stats.whole and stats.parsed == 0 and logbook.logbook_id == known
