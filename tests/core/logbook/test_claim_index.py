"""The claim search: every claim of every logbook read, found by its words; a cache that rebuilds itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.logbook import claim_index
from reviewapp.core.logbook.claim_index import ClaimEntry, ClaimIndex, fts_query, index_path
from reviewapp.core.logbook.parse_cache import forget_recent, read_logbook_cached
from reviewapp.core.logbook.reader import read_logbook
from tests.core.annotation_helpers import small_logbook


def entry(logbook: str, key: str, title: str, text: str = "", verdict: str = "verified") -> ClaimEntry:
    return ClaimEntry(logbook, f"Logbook {logbook}", None, key, title, verdict, text)


def test_a_claim_is_found_by_its_words_in_any_order_and_by_a_word_start(tmp_path: Path) -> None:
    with ClaimIndex(tmp_path / "claims.sqlite3") as index:
        index.add_logbook(read_logbook(small_logbook(tmp_path)))
        assert [h.claim_key for h in index.search("pruning accuracy").hits] == [
            h.claim_key for h in index.search("accuracy Pruning").hits
        ]
        (hit,) = index.search("pruning keeps").hits
        assert hit.title.startswith("Claim 1") and hit.verdict == "verified"
        assert [h.claim_key for h in index.search("prun").hits] == [hit.claim_key]  # the last word as a prefix
        assert index.search("within 0.3").hits[0].snippet.count("[") >= 2  # the verdict's sentence is indexed
        assert index.search("pruning nonsenseword").total == 0


def test_what_is_typed_never_reaches_the_query_language(tmp_path: Path) -> None:
    with ClaimIndex(tmp_path / "claims.sqlite3") as index:
        index.replace([entry("a", "k#1", 'Quotes " and NEAR(x y) and -minus * star', "title: colon AND OR NOT")])
        for typed in ['"', "NEAR(x y)", "-minus", "* star", "title: colon", "AND", "OR NOT", "(", "^x", ""]:
            index.search(typed)  # never an FTS5 syntax error
        assert index.search("near x").total == 1 and index.search("AND").total == 1
        assert fts_query('a "b" c*') == '"a" "b" "c"*' and fts_query(" .. ") is None


def test_adding_a_logbook_again_replaces_its_claims(tmp_path: Path) -> None:
    with ClaimIndex(tmp_path / "claims.sqlite3") as index:
        index.replace([entry("a", "k#1", "alpha claim"), entry("a", "k#2", "beta claim"), entry("b", "k#1", "alpha")])
        index.replace([entry("a", "k#1", "gamma claim")])
        assert index.count() == 2
        assert [h.logbook_id for h in index.search("alpha").hits] == ["b"]
        assert index.search("beta").total == 0 and index.search("gamma").total == 1
        index.replace([], logbook_ids=["b"])  # a logbook that has no claims now
        assert index.search("alpha").total == 0


def test_ranking_is_spent_where_it_tells_claims_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(claim_index, "RANK_LIMIT", 3)
    with ClaimIndex(tmp_path / "claims.sqlite3") as index:
        index.replace([entry("a", f"k#{n}", f"claim {n}", "common word") for n in range(6)])
        index.replace([entry("b", "k#1", "common in the title", "common word")])
        found = index.search("common")
        assert found.total == 7 and found.ranked and found.hits[0].logbook_id == "b"  # the title match first
        assert len(found.hits) == 7
        many = index.search("word")  # in every text, no title: too many to rank, newest first
        assert (many.total, many.ranked) == (7, False) and many.hits[0].logbook_id == "b"
        few = index.search("title")
        assert (few.total, few.ranked) == (1, True)


def test_a_damaged_index_is_rebuilt_and_every_logbook_read_is_indexed(tmp_path: Path) -> None:
    path = index_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database at all" * 100)
    workspace = small_logbook(tmp_path)
    read_logbook_cached(workspace)  # the parse cache adds what it reads
    with ClaimIndex() as index:
        assert index.search("training faster").hits[0].title.startswith("Claim 2")
        assert index.count() == len(read_logbook(workspace).claims)


def test_a_logbook_served_from_the_parse_cache_is_indexed_once_it_is_missing(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    read_logbook_cached(workspace)
    claim_index.forget_shared()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{index_path()}{suffix}").unlink(missing_ok=True)  # a cache anyone may delete
    forget_recent()
    read_logbook_cached(workspace)  # served whole from the parse cache
    with ClaimIndex() as index:
        assert index.search("robust shift").total == 1


def test_search_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reviewapp.cli import main

    read_logbook_cached(small_logbook(tmp_path))
    assert main(["search", "training", "fast", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["total"] == 1 and found["hits"][0]["title"].startswith("Claim 2")
    assert main(["search", "zzzz-nothing"]) == 0
    assert "no claim matches" in capsys.readouterr().err
    assert main(["search", "--", "-*-"]) == 2
