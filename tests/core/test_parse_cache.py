"""The parse cache: a hit equals a fresh read, any change to the logbook misses, a damaged entry is a miss."""

from __future__ import annotations

import json
import os
from pathlib import Path

from reviewapp.core.logbook import parse_cache
from reviewapp.core.logbook.locate import find_logbooks
from reviewapp.core.logbook.parse_cache import encode, forget_recent, read_logbook_cached
from reviewapp.core.logbook.reader import read_logbook
from tests.core.annotation_helpers import small_logbook


def entries(folder: Path) -> list[Path]:
    return sorted(parse_cache.cache_folder().glob("*.json")) if folder.exists() else []


def test_a_cached_read_equals_a_fresh_one(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    first = read_logbook_cached(workspace)
    stored = entries(parse_cache.cache_folder())
    assert len(stored) == 1
    json.loads(stored[0].read_text())  # plain JSON, never pickle
    assert read_logbook_cached(workspace) is first  # the same process: kept in memory, not decoded again
    forget_recent()
    second = read_logbook_cached(workspace)  # decoded from the file
    assert second is not first
    assert encode(second) == encode(first) == encode(read_logbook(workspace))
    assert second.claims[0].verdict == first.claims[0].verdict and second.root == first.root


def test_a_changed_page_is_read_again(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    before = read_logbook_cached(workspace)
    page = next((before.root / "pages").glob("claim-2-*/page.md"))
    page.write_text(page.read_text().replace("FALSIFIED", "VERIFIED"))
    os.utime(page, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns + 10_000_000))
    after = read_logbook_cached(workspace)
    assert before.claims[1].verdict.value == "falsified" and after.claims[1].verdict.value == "verified"
    assert len(entries(parse_cache.cache_folder())) == 2


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    expected = encode(read_logbook_cached(workspace))
    (entry,) = entries(parse_cache.cache_folder())
    entry.write_bytes(b'{"key": "' + entry.stem.encode() + b'", "logbook": {"root": 3}}')
    forget_recent()
    assert encode(read_logbook_cached(workspace)) == expected
    entry.write_bytes(b"\x80garbage")
    forget_recent()
    assert encode(read_logbook_cached(workspace)) == expected


def test_every_corpus_logbook_survives_the_round_trip(corpus: Path) -> None:
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
        root = folder if (folder / ".trackio").is_dir() else find_logbooks(folder, max_depth=2)[0]
        fresh = read_logbook(root)
        read_logbook_cached(root)
        forget_recent()
        assert encode(read_logbook_cached(root)) == encode(fresh), folder.name
