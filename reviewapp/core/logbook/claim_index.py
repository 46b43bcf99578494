"""A search over every claim of every logbook read on this machine: SQLite's full-text index (FTS5).

A cache like the parse cache: one database file in the cache folder, deletable at any time (the logbooks and
their review files stay the source of truth; a damaged or foreign file is deleted and built again). One writer at
a time (SQLite's write lock, WAL journal so searches go on while a logbook is added); every value goes in as a
parameter, never as SQL text, and a search's words are quoted into FTS5 strings, so no logbook or query can
reach the query language.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.io.paths import user_cache_dir
from reviewapp.core.logbook.model import CellKind, Claim, Logbook

SCHEMA = 1
RANK_LIMIT = 5_000  # matches ranked by relevance; past it, only title matches are (see ClaimIndex.search)
SNIPPET_CHARS = 160
TEXT_LIMIT = 8_000  # characters of a claim's own text indexed beyond its title: enough to find it by its wording
_WORD = re.compile(r"\w+", re.UNICODE)


def index_path() -> Path:
    return user_cache_dir() / "claims.sqlite3"


@dataclass(frozen=True, slots=True)
class ClaimEntry:
    """What the index holds of one claim."""

    logbook_id: str
    logbook_title: str
    paper_id: str | None
    claim_key: str
    title: str
    verdict: str
    text: str  # the statement of the verdict and the claim's markdown, cut to TEXT_LIMIT


@dataclass(frozen=True, slots=True)
class ClaimHit:
    logbook_id: str
    logbook_title: str
    paper_id: str | None
    claim_key: str
    title: str
    verdict: str
    snippet: str  # the text around the first matched word, matched words between [ and ]


@dataclass(frozen=True, slots=True)
class ClaimSearch:
    hits: list[ClaimHit]
    total: int  # every claim that matched, of which `hits` are the first
    ranked: bool  # hits in order of relevance (else newest first: too many matches to rank, refine the search)


def claim_entries(logbook: Logbook) -> list[ClaimEntry]:
    """The index's entries for every claim of `logbook`."""
    pages = {page.slug: page for page in logbook.pages}
    return [
        ClaimEntry(
            logbook.logbook_id,
            logbook.title,
            logbook.paper_id,
            claim.key,
            claim.title,
            claim.verdict.value,
            _claim_text(claim, pages.get(claim.page)),
        )
        for claim in logbook.claims
    ]


def _claim_text(claim: Claim, page: object) -> str:
    parts = [claim.verdict_mention.text] if claim.verdict_mention is not None else []
    cells = getattr(page, "cells", [])
    for ordinal in claim.cells:
        if 0 <= ordinal < len(cells) and cells[ordinal].kind is CellKind.MARKDOWN:
            parts.append(cells[ordinal].body[:TEXT_LIMIT])
    return "\n".join(parts)[:TEXT_LIMIT]


def _snippet(text: str, words: list[str]) -> str:
    """About SNIPPET_CHARS of `text` around the first of `words` found (the last may be a word's start), with
    every matched word between [ and ]."""
    if not words:
        return text[:SNIPPET_CHARS]
    last = re.escape(words[-1])
    pattern = re.compile(
        "|".join([*(rf"\b{re.escape(w)}\b" for w in words[:-1]), rf"\b{last}\w*"]), re.IGNORECASE | re.UNICODE
    )
    first = pattern.search(text)
    start = max(0, first.start() - SNIPPET_CHARS // 3) if first else 0
    piece = " ".join(text[start : start + SNIPPET_CHARS].split())
    marked = pattern.sub(lambda m: f"[{m.group(0)}]", piece)
    return ("…" if start else "") + marked + ("…" if start + SNIPPET_CHARS < len(text) else "")


def fts_query(text: str) -> str | None:
    """The words of `text` as an FTS5 query: every word must occur, the last may be the start of a word. Each
    word is a quoted string, so nothing the user types is read as FTS5 syntax."""
    words = _WORD.findall(text)
    if not words:
        return None
    quoted = [f'"{word}"' for word in words]
    quoted[-1] += "*"
    return " ".join(quoted)


class ClaimIndex:
    """The database; use as a context manager or call close()."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or index_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._open()
        except sqlite3.DatabaseError:  # not a database, or another schema: a cache is rebuilt, never repaired
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(FileNotFoundError):
                    Path(f"{self.path}{suffix}").unlink()
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA):
                raise sqlite3.DatabaseError(f"claim index schema {version}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a cache: a crash may lose the last additions, never corrupt
            db.executescript(
                """
                CREATE TABLE IF NOT EXISTS claims (
                    id INTEGER PRIMARY KEY,
                    logbook_id TEXT NOT NULL,
                    logbook_title TEXT NOT NULL,
                    paper_id TEXT,
                    claim_key TEXT NOT NULL,
                    title TEXT NOT NULL,
                    verdict TEXT NOT NULL
                );
                CREATE INDEX IF NOT EXISTS claims_by_logbook ON claims (logbook_id);
                CREATE TABLE IF NOT EXISTS logbooks (logbook_id TEXT PRIMARY KEY, read_as TEXT NOT NULL);
                CREATE VIRTUAL TABLE IF NOT EXISTS claim_words USING fts5(
                    title, text, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4'
                );
                """
            )
            if version == 0:  # the title weighs four times the text; kept in the table, used by ORDER BY rank
                db.execute("INSERT INTO claim_words (claim_words, rank) VALUES ('rank', 'bm25(4.0, 1.0)')")
            if version == 0:
                db.execute(f"PRAGMA user_version = {SCHEMA}")
            db.execute("SELECT rowid FROM claim_words LIMIT 1").fetchall()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def __enter__(self) -> ClaimIndex:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def read_as(self, logbook_id: str) -> str | None:
        """What the logbook was indexed from (the parse cache's key of that reading), None when it never was."""
        row = self._db.execute("SELECT read_as FROM logbooks WHERE logbook_id = ?", (logbook_id,)).fetchone()
        return str(row[0]) if row else None

    def replace(
        self, entries: Iterable[ClaimEntry], logbook_ids: Iterable[str] = (), *, read_as: str | None = None
    ) -> None:
        """Index `entries` in one transaction, first dropping what was indexed for each of their logbooks (and for
        `logbook_ids`, which may have no claims now); `read_as` names the reading they came from."""
        entries = list(entries)
        stale = {entry.logbook_id for entry in entries} | set(logbook_ids)
        with self._transaction():
            if read_as is not None:
                self._db.executemany(
                    "INSERT OR REPLACE INTO logbooks (logbook_id, read_as) VALUES (?, ?)",
                    ((logbook_id, read_as) for logbook_id in stale),
                )
            for logbook_id in stale:
                ids = [row[0] for row in self._db.execute("SELECT id FROM claims WHERE logbook_id = ?", (logbook_id,))]
                self._db.executemany("DELETE FROM claim_words WHERE rowid = ?", ((i,) for i in ids))
                self._db.execute("DELETE FROM claims WHERE logbook_id = ?", (logbook_id,))
            for entry in entries:
                cursor = self._db.execute(
                    "INSERT INTO claims (logbook_id, logbook_title, paper_id, claim_key, title, verdict)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        entry.logbook_id,
                        entry.logbook_title,
                        entry.paper_id,
                        entry.claim_key,
                        entry.title,
                        entry.verdict,
                    ),
                )
                self._db.execute(
                    "INSERT INTO claim_words (rowid, title, text) VALUES (?, ?, ?)",
                    (cursor.lastrowid, entry.title, entry.text),
                )

    def add_logbook(self, logbook: Logbook, read_as: str | None = None) -> None:
        """Index every claim of `logbook`, replacing what was indexed for it before, unless it was indexed from
        the reading `read_as` already."""
        if read_as is not None and self.read_as(logbook.logbook_id) == read_as:
            return
        self.replace(claim_entries(logbook), [logbook.logbook_id], read_as=read_as)

    def search(self, text: str, limit: int = 50) -> ClaimSearch:
        """Claims whose title or text hold every word of `text` (the last as a prefix), best match first.

        Ranking costs time in proportion to the matches, so it is spent where it tells claims apart: all matches
        are ranked when there are at most RANK_LIMIT, else those matching in their title are (then the rest
        follow, newest first); a search that matches most titles too lists the newest claims, with the total."""
        query = fts_query(text)
        if query is None:
            return ClaimSearch([], 0, ranked=False)
        total = self._count(query)
        if total == 0:
            return ClaimSearch([], 0, ranked=False)
        in_titles = f"{{title}} : ({query})"
        if total <= RANK_LIMIT:
            best, ranked = self._ranked(query, limit), True
        elif 0 < self._count(in_titles) <= RANK_LIMIT:
            best, ranked = self._ranked(in_titles, limit), True
            if len(best) < limit:
                seen = set(best)
                best += [i for i in self._newest(query, limit + len(best)) if i not in seen][: limit - len(best)]
        else:
            best, ranked = self._newest(query, limit), False
        return ClaimSearch(self._hits(best, _WORD.findall(text)), total, ranked=ranked)

    def _count(self, query: str) -> int:
        return int(
            self._db.execute("SELECT count(*) FROM claim_words WHERE claim_words MATCH ?", (query,)).fetchone()[0]
        )

    def _ranked(self, query: str, limit: int) -> list[int]:
        sql = "SELECT rowid FROM claim_words WHERE claim_words MATCH ? ORDER BY rank LIMIT ?"
        return [row[0] for row in self._db.execute(sql, (query, limit))]

    def _newest(self, query: str, limit: int) -> list[int]:
        sql = "SELECT rowid FROM claim_words WHERE claim_words MATCH ? ORDER BY rowid DESC LIMIT ?"
        return [row[0] for row in self._db.execute(sql, (query, limit))]

    def _hits(self, rowids: list[int], words: list[str]) -> list[ClaimHit]:
        """The claims by rowid, in that order, each with a snippet around its first matched word (cut here:
        FTS5's snippet() walked every match of the query before the rowids narrowed them)."""
        if not rowids:
            return []
        marks = ",".join("?" * len(rowids))
        rows = self._db.execute(
            "SELECT c.id, c.logbook_id, c.logbook_title, c.paper_id, c.claim_key, c.title, c.verdict, w.text"
            f" FROM claims c JOIN claim_words w ON w.rowid = c.id WHERE c.id IN ({marks})",
            rowids,
        )
        found = {
            rowid: ClaimHit(logbook_id, title, paper, key, claim_title, verdict, _snippet(text, words))
            for rowid, logbook_id, title, paper, key, claim_title, verdict, text in rows
        }
        return [found[rowid] for rowid in rowids if rowid in found]

    def count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM claims").fetchone()[0])

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")  # the write lock now, not halfway through
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")


_SHARED: dict[Path, ClaimIndex] = {}
_SHARED_LOCK = threading.RLock()


def add_to_shared_index(logbook: Logbook, read_as: str, path: Path | None = None) -> None:
    """Index `logbook` (read as `read_as`) in the index at `path` (the cache folder's by default) unless it is
    there from that reading, through one connection per process: the parse cache adds every logbook it reads or
    serves, a queue a thousand in a row."""
    with _SHARED_LOCK:
        shared_index(path).add_logbook(logbook, read_as)


def shared_index(path: Path | None = None) -> ClaimIndex:
    """This process's connection to the index at `path` (the cache folder's by default), opened on first use."""
    path = path or index_path()
    with _SHARED_LOCK:
        index = _SHARED.get(path)
        if index is None:
            for other in _SHARED.values():  # one open at a time: the cache folder rarely changes
                other.close()
            _SHARED.clear()
            index = _SHARED[path] = ClaimIndex(path)
        return index


def forget_shared() -> None:
    """Close the connections add_to_shared_index keeps (before the file is deleted, say)."""
    with _SHARED_LOCK:
        for index in _SHARED.values():
            index.close()
        _SHARED.clear()
