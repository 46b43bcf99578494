"""The parse cache: a hit equals a fresh read, any change to the logbook misses, a damaged entry is a miss."""

from __future__ import annotations

import json
import os
from pathlib import Path

from reviewapp.core.logbook import parse_cache
from reviewapp.core.logbook.locate import find_logbooks
from reviewapp.core.logbook.parse_cache import CacheStats, encode, forget_recent, read_logbook_cached
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
    assert len(entries(parse_cache.cache_folder())) == 1  # one entry per logbook, replaced


def test_only_the_changed_page_is_parsed_again(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    first = CacheStats()
    logbook = read_logbook_cached(workspace, stats=first)
    pages = len(logbook.pages)
    assert (first.whole, first.parsed, first.recalled) == (False, pages, 0)
    forget_recent()
    again = CacheStats()
    assert encode(read_logbook_cached(workspace, stats=again)) == encode(logbook)
    assert (again.whole, again.parsed, again.recalled) == (True, 0, 0)  # nothing parsed: served whole

    page = next((logbook.root / "pages").glob("claim-2-*/page.md"))
    page.write_text(page.read_text().replace("FALSIFIED", "VERIFIED"))
    os.utime(page, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns + 10_000_000))
    changed = CacheStats()
    after = read_logbook_cached(workspace, stats=changed)
    assert (changed.whole, changed.parsed, changed.recalled) == (False, 1, pages - 1)
    assert encode(after) == encode(read_logbook(workspace))  # the recalled pages are what a fresh read gives

    other = next((logbook.root / "pages").glob("claim-1-*/page.md"))
    os.utime(other, ns=(other.stat().st_atime_ns, other.stat().st_mtime_ns + 10_000_000))  # touched, same bytes
    touched = CacheStats()
    read_logbook_cached(workspace, stats=touched)
    assert (touched.whole, touched.parsed, touched.recalled) == (False, 0, pages)


def test_a_hit_reads_a_page_only_when_its_cells_are_asked_for(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    logbook = read_logbook_cached(workspace)
    (entry,) = entries(parse_cache.cache_folder())
    longest = max((cell for page in logbook.pages for cell in page.cells), key=lambda cell: len(cell.body))
    assert len(longest.body) > 40 and longest.body not in entry.read_text()  # where it sits, not a second copy
    forget_recent()
    before = parse_cache.page_texts_read
    hit = read_logbook_cached(workspace)
    assert hit.cell_counts() == logbook.cell_counts() and hit.claims == logbook.claims
    assert parse_cache.page_texts_read == before  # claims, counts and titles come from the entry alone
    assert [len(page.cells) for page in hit.pages] == [len(page.cells) for page in logbook.pages]
    assert parse_cache.page_texts_read == before + len(logbook.pages)  # each page read once, when asked
    assert encode(hit) == encode(logbook)
    assert parse_cache.page_texts_read == before + len(logbook.pages)


def test_the_cell_records_sit_apart_and_a_hit_without_them_reads_the_pages(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    logbook = read_logbook_cached(workspace)
    (entry,) = entries(parse_cache.cache_folder())
    cells_file = entry.with_suffix(".cells")
    stored_cells = json.loads(cells_file.read_text())["pages"]
    assert [len(record["cells"]) for record in stored_cells] == [len(page.cells) for page in logbook.pages]
    assert not any("cells" in record for record in json.loads(entry.read_text())["pages"])  # a hit decodes none
    expected = encode(logbook)
    for damage in (b"\x80garbage", b'{"key": "another", "pages": []}', None):
        if damage is None:
            cells_file.unlink()
        else:
            cells_file.write_bytes(damage)
        forget_recent()
        stats = CacheStats()
        hit = read_logbook_cached(workspace, stats=stats)
        assert stats.whole and hit.cell_counts() == logbook.cell_counts()  # still served, counts from the entry
        assert encode(hit) == expected  # the cells parsed from the page files instead


def test_a_page_rewritten_behind_the_fingerprint_shows_what_its_file_holds(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    logbook = read_logbook_cached(workspace)
    # The same size and time: the fingerprint cannot tell. Its text no longer has the stored length, so its cells
    # are read from the file as it is now rather than cut from it where the stored ones were.
    page = logbook.root / logbook.pages[1].file
    info = page.stat()
    text = page.read_text(encoding="utf-8")
    index = text.index(" ", text.index("\n<!-- trackio-cell"))  # a blank in the first cell header: still JSON
    page.write_bytes((text[:index] + text[index + 2 :] + "é").encode())  # two bytes out, two in, one character
    os.utime(page, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert page.stat().st_size == info.st_size
    forget_recent()
    stats = CacheStats()
    hit = read_logbook_cached(workspace, stats=stats)
    assert stats.whole
    assert hit.pages[1].cells[-1].body.endswith("é")
    assert encode(hit.pages[1].cells) == encode(read_logbook(workspace).pages[1].cells)


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


def test_a_verdict_mention_stored_in_another_shape_is_a_miss(tmp_path: Path) -> None:
    """Mentions are stored by position: one with a field more or less, or not a list, makes the entry a miss."""
    workspace = small_logbook(tmp_path)
    expected = encode(read_logbook_cached(workspace))
    (entry,) = entries(parse_cache.cache_folder())
    stored = json.loads(entry.read_text(encoding="utf-8"))
    claim = next(c for c in stored["logbook"]["claims"] if c["considered"])
    assert isinstance(claim["considered"][0], list)
    for damaged in (claim["considered"][0][:-1], [*claim["considered"][0], 1], {"verdict": "verified"}):
        claim["considered"][0] = damaged
        entry.write_text(json.dumps(stored), encoding="utf-8")
        forget_recent()
        stats = CacheStats()
        assert encode(read_logbook_cached(workspace, stats=stats)) == expected
        assert not stats.whole


def test_an_entry_over_its_cap_or_not_a_file_is_a_miss(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    expected = encode(read_logbook_cached(workspace))
    (entry,) = entries(parse_cache.cache_folder())
    with entry.open("r+b") as handle:  # sparse: reading it whole would cost half a gigabyte
        handle.truncate(parse_cache.MAX_ENTRY_BYTES + 1)
    forget_recent()
    stats = CacheStats()
    assert encode(read_logbook_cached(workspace, stats=stats)) == expected
    assert not stats.whole
    entry.unlink()
    os.mkfifo(entry)  # opened as a file, it would wait for a writer forever
    forget_recent()
    stats = CacheStats()
    assert encode(read_logbook_cached(workspace, stats=stats)) == expected
    assert not stats.whole


def test_every_corpus_logbook_survives_the_round_trip(corpus: Path) -> None:
    for folder in sorted(p for p in corpus.iterdir() if p.is_dir()):
        root = folder if (folder / ".trackio").is_dir() else find_logbooks(folder, max_depth=2)[0]
        fresh = read_logbook(root)
        read_logbook_cached(root)
        forget_recent()
        assert encode(read_logbook_cached(root)) == encode(fresh), folder.name


def test_served_whole_only_while_the_logbook_is_unchanged(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    forget_recent()
    assert not parse_cache.is_cached(workspace)
    logbook = read_logbook_cached(workspace)
    assert parse_cache.is_cached(workspace)  # this process holds it
    forget_recent()
    assert parse_cache.is_cached(workspace)  # the stored entry serves it whole
    page = next((logbook.root / "pages").glob("claim-2-*/page.md"))
    page.write_text(page.read_text() + "\nMore.\n")
    os.utime(page, ns=(page.stat().st_atime_ns, page.stat().st_mtime_ns + 10_000_000))
    assert not parse_cache.is_cached(workspace)
    assert not parse_cache.is_cached(tmp_path / "nothing here")


def test_every_form_of_a_logbooks_path_shares_one_entry_and_says_what_was_given(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    first = read_logbook_cached(workspace)
    forget_recent()
    stats = CacheStats()
    inner = read_logbook_cached(first.root, stats=stats)  # its .trackio/logbook folder, as a queue row names it
    assert stats.whole and stats.parsed == 0
    assert len(entries(parse_cache.cache_folder())) == 1
    assert inner.source == first.root and first.source == workspace  # each read says what it was given
    assert encode(inner) != encode(first) and inner.claims == first.claims
    again = read_logbook_cached(workspace)  # kept in memory under the inner form: the source is the one given
    assert again.source == workspace and again.claims == first.claims
