"""Each queue row's figures kept between runs, so a queue of a thousand reopens without decoding a logbook or
replaying its review: one SQLite file beside the parse cache (WAL journal, one writer at a time).

A cache, never the truth: the logbooks and their review files are. A row is served only while everything it was
computed from is as it was: the logbook's files (the parse cache's content key), the git state its logbook id was
derived under, who is judging, the trust in force, the code that computes rows (`lead`), and then the review
files' and the Logbook Judge import's sizes and times (`stamp`, which needs the logbook id the row carries). A row
whose key changed is computed again, alone. The file may be deleted at any time; a damaged or foreign one is
deleted and built again with a warning in the log, never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
import threading
from functools import cache
from pathlib import Path
from typing import Any

from reviewapp import __version__
from reviewapp.core.io.paths import user_cache_dir

SCHEMA = 1
log = logging.getLogger(__name__)


def row_cache_path() -> Path:
    return user_cache_dir() / "queue-rows.sqlite3"


@cache
def rows_version() -> str:
    """Changes whenever the code a row is computed by may have changed (and with every release)."""
    digest = hashlib.sha256(__version__.encode())
    core = Path(__file__).resolve().parents[1]
    for folder in ("queue", "review", "logbook_judge", "logbook"):
        for source in sorted((core / folder).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


class RowCache:
    """The database of rows; safe to share between threads (one connection behind a lock)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or row_cache_path()
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def row(self, folder: str, who: str, lead: str) -> tuple[str, dict[str, Any]] | None:
        """The stamp and figures stored for the logbook at `folder` as judged by `who`, if stored under `lead`."""
        with self._lock:
            found = self._run(
                lambda db: db.execute(
                    "SELECT stamp, row FROM rows WHERE folder = ? AND who = ? AND lead = ?", (folder, who, lead)
                ).fetchone()
            )
        if not found:
            return None
        try:
            figures = json.loads(found[1])
        except ValueError:
            return None
        return (str(found[0]), figures) if isinstance(figures, dict) else None

    def store(self, folder: str, who: str, lead: str, stamp: str, figures: dict[str, Any]) -> None:
        """Keep the row's figures (replacing what was kept for that folder and judge)."""
        text = json.dumps(figures, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._run(
                lambda db: db.execute(
                    "INSERT OR REPLACE INTO rows (folder, who, lead, stamp, row) VALUES (?, ?, ?, ?, ?)",
                    (folder, who, lead, stamp, text),
                )
            )

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _run(self, query: Any) -> Any:
        """`query(db)`; a database that turns out damaged is deleted and built again once (logged), and a cache
        that cannot be used at all (a read-only folder, say) answers nothing: rows are then computed."""
        for attempt in (1, 2):
            try:
                if self._db is None:
                    self._db = self._open()
                return query(self._db)
            except sqlite3.DatabaseError as exc:
                if attempt == 2 or (isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)):
                    log.warning("queue row cache %s cannot be used (%s): rows are computed", self.path, exc)
                    return None
                log.warning("queue row cache %s is damaged (%s): building it again", self.path, exc)
                self._discard()
            except OSError as exc:
                log.warning("queue row cache %s cannot be used (%s): rows are computed", self.path, exc)
                return None
        return None

    def _discard(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}{suffix}").unlink()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=False)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA):
                raise sqlite3.DatabaseError(f"queue row cache schema {version}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a cache: a crash may lose the last rows, never corrupt
            db.execute(
                "CREATE TABLE IF NOT EXISTS rows (folder TEXT NOT NULL, who TEXT NOT NULL, lead TEXT NOT NULL, "
                "stamp TEXT NOT NULL, row TEXT NOT NULL, PRIMARY KEY (folder, who))"
            )
            if version == 0:
                db.execute(f"PRAGMA user_version = {SCHEMA}")
            db.execute("SELECT folder FROM rows LIMIT 1").fetchall()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db


_SHARED: dict[Path, RowCache] = {}
_SHARED_LOCK = threading.Lock()


def shared_row_cache(path: Path | None = None) -> RowCache:
    """One cache per file per process: a queue's chunks share it."""
    path = path or row_cache_path()
    with _SHARED_LOCK:
        found = _SHARED.get(path)
        if found is None:
            found = _SHARED[path] = RowCache(path)
        return found


def forget_shared_row_caches() -> None:
    """Close the connections kept (before the file is deleted, say)."""
    with _SHARED_LOCK:
        for kept in _SHARED.values():
            kept.close()
        _SHARED.clear()
