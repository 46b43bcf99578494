"""A cache of parsed logbooks, so that reopening a logbook, or a queue of a thousand, does not parse it again.

One entry per logbook folder (and reader version): plain JSON written atomically; never pickle, which would run
code from a file anyone with access to the cache folder could write. A damaged or foreign entry is a miss, never
an error. Two levels:

- the whole logbook, served when the path, size and modification time of every file the reader may read under
  the folder are as they were (a `fingerprint`);
- each page's parse, kept by the sha256 of the page's bytes: when something changed, the reader reads every page
  again but parses only the pages whose bytes changed (finding claims still looks at all of them).

Cell bodies are most of a logbook's bytes and are slices of their page's text, so an entry stores where each body
sits in its page, and a hit reads the page files again (a fraction of the time JSON takes to decode the same text)
instead of holding a second copy of every run output in the cache. Those cell records sit in a file of their own
beside the entry (`.cells`), decoded only when a page's cells are asked for or a changed logbook recalls pages.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, Union

from reviewapp import __version__
from reviewapp.core.io.collector import collector_paused
from reviewapp.core.io.fork_split import run_apart
from reviewapp.core.io.paths import user_cache_dir
from reviewapp.core.io.safepath import is_contained, open_regular, read_capped
from reviewapp.core.logbook import model
from reviewapp.core.logbook.locate import Location, NotALogbookError, locate
from reviewapp.core.logbook.logbook_id import LogbookId, git_state, logbook_id_for
from reviewapp.core.logbook.model import Cell, Logbook, Page, Problem
from reviewapp.core.logbook.page_parser import ParsedPage, decode_page
from reviewapp.core.progress import CancelToken, ProgressCallback

FORMAT = 3
MAX_ENTRY_BYTES = 512 * 1024 * 1024
_SKIP_DIRS = frozenset({"reviews", ".git", "__pycache__", "node_modules", ".cache"})


def cache_folder() -> Path:
    return user_cache_dir() / "parsed"


@cache
def reader_version() -> str:
    """Changes whenever the code that reads logbooks changes (and with every release)."""
    digest = hashlib.sha256(__version__.encode())
    core = Path(__file__).resolve().parents[1]
    for folder in ("logbook", "io"):
        for source in sorted((core / folder).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    verdicts = core / "verdicts.py"
    if verdicts.is_file():  # a bundle carries compiled modules only: its version names its code
        digest.update(verdicts.read_bytes())
    return digest.hexdigest()[:16]


def fingerprint(root: Path, extra_files: tuple[Path, ...] = ()) -> str:
    """Path, size and mtime of every file below `root` the reader could read (reviews excluded), plus extras."""
    return _walk(root, extra_files)[0]


def _walk(root: Path, extra_files: tuple[Path, ...]) -> tuple[str, bool]:
    """The fingerprint, and whether the walk met no symbolic link (then a file it saw is inside `root` as named)."""
    digest = hashlib.sha256()
    plain = True
    stack: list[str] = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    plain = False
                if entry.is_dir():
                    if entry.name not in _SKIP_DIRS:
                        stack.append(entry.path)
                    continue
                info = entry.stat()
            except OSError:
                continue
            digest.update(f"{entry.path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode("utf-8", "surrogatepass"))
    for path in extra_files:
        try:
            info = path.stat()
        except OSError:
            digest.update(f"{path}\0missing\n".encode())
            continue
        digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest(), plain


@dataclass
class CacheStats:
    """What one cached read did: served the whole logbook, or read it and parsed or recalled each page."""

    whole: bool = False
    parsed: int = 0
    recalled: int = 0


def read_logbook_cached(
    source: Path | str,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    folder: Path | None = None,
    *,
    logbook_id: LogbookId | None = None,
    stats: CacheStats | None = None,
    store_apart: bool = False,
    index_later: Callable[[Callable[[], None]], None] | None = None,
) -> Logbook:
    """`read_logbook`, answered from the cache when nothing the reader reads has changed since it was stored, and
    with the pages whose bytes did not change taken from the cache when something did.

    For a caller that answers with the logbook and then ends (a command): `store_apart`, a logbook read is stored by
    a forked child where that is safe (fork_split.run_apart), while this process goes on with it; the caller then
    calls fork_split.wait_apart before anything looks for the entry. `index_later` is given the work of adding the
    logbook to the claim search, to run once the caller has answered, instead of running it now."""
    with collector_paused():  # what is read only grows the heap, and it holds no cycles (see core/io/collector.py)
        given_stats = stats if stats is not None else CacheStats()
        return _read_cached(source, progress, cancel, folder, logbook_id, given_stats, store_apart, index_later)


def _read_cached(
    source: Path | str,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
    folder: Path | None,
    logbook_id: LogbookId | None,
    stats: CacheStats,
    store_apart: bool = False,
    index_later: Callable[[Callable[[], None]], None] | None = None,
) -> Logbook:
    source = Path(source)
    where, name, key, plain = _keys(source, logbook_id)
    with _RECENT_LOCK:
        recent = _RECENT.get(key)
    if recent is not None:
        stats.whole = True
        return _as_given(recent, source)
    entry = (folder or cache_folder()) / f"{name}.json"
    stored = _load_entry(entry)
    cells_file = _cells_file(entry)
    fits = stored is not None and stored.get("key") == key
    hit = _whole(stored, where.root, plain, _CellRecords(cells_file, key)) if stored is not None and fits else None
    if hit is not None and stored is not None:
        stats.whole = True
        _recall_id(hit, stored)
        hit = _as_given(hit, source)
        _index_claims(hit, key, folder, index_later)
        _remember(key, hit)
        return hit
    from reviewapp.core.logbook.reader import read_logbook  # the reader's patterns take a while to compile

    memory = _PageMemory(_load_cell_records(cells_file)[1] if stored is not None else None)
    derived: dict[str, str] = {}
    cells_written: list[bool] = []

    def meanwhile(root: Path) -> None:  # while the claims are found: the pages' records, the folder's id
        if logbook_id is None:
            derived.update(_derived_id(root))
        with contextlib.suppress(OSError, TypeError, ValueError):  # a cache that cannot be written only costs time
            cells_text = json.dumps({"key": key, "pages": memory.learned}, ensure_ascii=False, separators=(",", ":"))
            entry.parent.mkdir(parents=True, exist_ok=True)
            _write_entry(cells_file, cells_text.encode("utf-8", "surrogatepass"))
            cells_written.append(True)
        _open_claim_index(folder)  # opened now, so that indexing the claims once found is all that is left

    logbook = read_logbook(
        source, progress=progress, cancel=cancel, logbook_id=logbook_id, memory=memory, meanwhile=meanwhile
    )
    stats.parsed, stats.recalled = memory.parsed, memory.recalled
    if derived:  # only when no id was given (explicit_id)
        logbook._derived_id = derived["id"]
    _remember(key, logbook)

    def store() -> None:
        try:
            cells_apart = [dataclasses.replace(p, cells=[]) for p in logbook.pages]
            shell = encode(dataclasses.replace(logbook, pages=cells_apart))
            pages = [_page_index(record) for record in memory.learned]
            data = {"key": key, "logbook": shell, "pages": pages, "derived_id": derived or None}
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            _write_entry(entry, text.encode("utf-8", "surrogatepass"))
        except (OSError, TypeError, ValueError):
            pass  # a cache that cannot be written only costs time

    if cells_written and store_apart:  # an entry only beside the pages' records of its reading
        run_apart(store)
    elif cells_written:
        store()
    _index_claims(logbook, key, folder, index_later)
    return logbook


def _index_claims(
    logbook: Logbook, key: str, folder: Path | None, later: Callable[[Callable[[], None]], None] | None = None
) -> None:
    """Every logbook read or served is in the claim search (claim_index), which lives beside the parse cache;
    added now, or handed to `later`."""
    if later is not None:
        later(lambda: _index_claims(logbook, key, folder))
        return
    import sqlite3

    from reviewapp.core.logbook.claim_index import add_to_shared_index

    # a search index that cannot be written only misses this logbook until it is read again
    with contextlib.suppress(sqlite3.Error, OSError):
        add_to_shared_index(logbook, key, _claim_index_path(folder))


def _open_claim_index(folder: Path | None) -> None:
    import sqlite3

    from reviewapp.core.logbook.claim_index import shared_index

    with contextlib.suppress(sqlite3.Error, OSError):  # else _index_claims tries again, and gives up quietly
        shared_index(_claim_index_path(folder))


def _claim_index_path(folder: Path | None) -> Path | None:
    """The claim search beside the parse cache's folder (None: the user's, index_path())."""
    from reviewapp.core.logbook.claim_index import index_path

    return folder.parent / index_path().name if folder is not None else None


def _derived_id(root: Path) -> dict[str, str]:
    """The id of the logbook in `root` as its folder gives it (looked up now, once) with the git state it was
    derived under."""
    return {"git_state": git_state(root), "id": logbook_id_for(root)}


def _as_given(logbook: Logbook, source: Path) -> Logbook:
    """The logbook as read from `source`: an entry stored under another form of its path says what was given then."""
    return logbook if logbook.source == source else dataclasses.replace(logbook, source=source)


def _recall_id(logbook: Logbook, stored: dict[str, Any]) -> None:
    """The stored logbook id, unless the repository around the folder changed since (then it is asked again)."""
    derived = stored.get("derived_id")
    if logbook.explicit_id is not None or not isinstance(derived, dict) or not isinstance(derived.get("id"), str):
        return
    if derived.get("git_state") == git_state(logbook.root):
        logbook._derived_id = derived["id"]


def _keys(source: Path, logbook_id: LogbookId | None) -> tuple[Location, str, str, bool]:
    """Where the logbook is, its entry's name, the key of its files as they are now, and whether its folder
    holds no symbolic link (see _walk)."""
    where = locate(source)
    extras = tuple(p for p in (where.metadata_file, where.workspace and where.workspace / ".trackio") if p)
    # named by where the logbook is, not by the form of the path given: the workspace folder, its .trackio and
    # its logbook folder are read alike, so a queue's row and the window it opens share one entry
    located = [str(where.root), str(where.workspace or ""), str(where.metadata_file or "")]
    name_text = json.dumps([FORMAT, reader_version(), *located, logbook_id])
    name = hashlib.sha256(name_text.encode("utf-8", "surrogatepass")).hexdigest()
    tree, plain = _walk(where.root, extras)
    return where, name, hashlib.sha256(f"{name}\0{tree}".encode()).hexdigest(), plain


def content_key(source: Path | str) -> str:
    """The key of the logbook's files as they are now (what a cache entry is served by): equal keys, the same
    logbook read the same way. Walks the folder, reads nothing; NotALogbookError when it holds no logbook."""
    return _keys(Path(source), None)[2]


def is_cached(source: Path | str, folder: Path | None = None, *, logbook_id: LogbookId | None = None) -> bool:
    """Whether `read_logbook_cached(source, logbook_id=logbook_id)` would be served whole, told without decoding the
    entry (its key leads it): a queue asks this of every row to know which need parsing first."""
    try:
        _where, name, key, _plain = _keys(Path(source), logbook_id)
        with _RECENT_LOCK:
            if key in _RECENT:
                return True
        lead = f'{{"key":"{key}",'.encode()
        with ((folder or cache_folder()) / f"{name}.json").open("rb") as handle:
            return handle.read(len(lead)) == lead
    except (OSError, ValueError, NotALogbookError):
        return False


class _PageMemory:
    """The reader's PageMemory over a stored entry's pages: recalls a page by its bytes' sha256, slug and file."""

    def __init__(self, stored_pages: Any) -> None:
        self.known: dict[tuple[str, str, str], dict[str, Any]] = {}
        for record in stored_pages if isinstance(stored_pages, list) else ():
            with contextlib.suppress(KeyError, TypeError):
                self.known[(record["sha256"], record["slug"], record["file"])] = record
        self.learned: list[dict[str, Any]] = []
        self.recalled = 0
        self._recalls: dict[int, ParsedPage] = {}  # by id, held so that no id is reused: the parses recalled here

    @property
    def parsed(self) -> int:
        return len(self.learned) - self.recalled

    def recall(self, slug: str, file: str, sha256: str, text: str) -> ParsedPage | None:
        record = self.known.get((sha256, slug, file))
        parsed = _parsed_page(record, text) if record is not None else None
        if parsed is not None:
            self._recalls[id(parsed)] = parsed
        return parsed

    def record(self, page: Page, read_bytes: int, text: str, parsed: ParsedPage) -> tuple[dict[str, Any], bool]:
        """The page's record, and whether it was recalled (told here: the reading may be in another process)."""
        return {
            "slug": page.slug,
            "file": page.file,
            "sha256": page.sha256,
            "read_bytes": read_bytes,
            "text_length": len(text),
            "h1_title": parsed.h1_title,
            "preamble": parsed.preamble,
            "preamble_line": parsed.preamble_line,
            "problems": encode(parsed.problems),
            "cells": _cells_in(text, parsed.cells),
        }, self._recalls.pop(id(parsed), None) is not None

    def keep(self, record: object) -> None:
        if isinstance(record, tuple):
            page, recalled = record
            self.learned.append(page)
            self.recalled += bool(recalled)


# The logbooks answered lately, by key: a queue opened again in the same process (or a logbook the window opens
# from it) is not decoded again. The key changes whenever a file does, so a changed logbook is never served.
# The reader's objects are read-only by convention; everyone holding one shares it.
RECENT_LIMIT = 128
_RECENT: OrderedDict[str, Logbook] = OrderedDict()
_RECENT_LOCK = threading.Lock()


def forget_recent() -> None:
    """Drop the logbooks kept in memory (the files on disk stay): the next read decodes its entry again."""
    with _RECENT_LOCK:
        _RECENT.clear()


def _remember(key: str, logbook: Logbook) -> None:
    with _RECENT_LOCK:
        _RECENT[key] = logbook
        _RECENT.move_to_end(key)
        while len(_RECENT) > RECENT_LIMIT:
            _RECENT.popitem(last=False)


def _write_entry(entry: Path, data: bytes) -> None:
    """Renamed into place so a reader never sees half an entry, but not synced to disk: a cache entry lost in a
    crash is a miss, and two fsyncs a logbook were most of the time a cold queue spent writing its cache."""
    import tempfile  # here, not at start-up: a logbook's first write is made while a second CPU finds claims

    handle, name = tempfile.mkstemp(prefix=f".{entry.stem[:16]}.", suffix=".tmp", dir=entry.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(name, entry)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def _cells_file(entry: Path) -> Path:
    """Beside the entry, the pages' full records (each cell's fields): a hit decodes them only when a page's
    cells are asked for, which `inspect` and a queue's rows never do, and a miss reads them to recall pages."""
    return entry.with_suffix(".cells")


def _page_index(record: dict[str, Any]) -> dict[str, Any]:
    """What the entry itself keeps of a page's full record: enough to check it and to list its cells' types."""
    light = {name: record[name] for name in ("slug", "file", "sha256", "read_bytes", "text_length")}
    return light | {"types": [cell[_TYPE_NAME] for cell in record["cells"]]}


def _load_cell_records(cells_file: Path) -> tuple[str | None, list[Any] | None]:
    """The key the pages' full records were stored under, and the records; (None, None) when unreadable."""
    data = _load_entry(cells_file)
    if data is None or not isinstance(data.get("pages"), list):
        return None, None
    key = data.get("key")
    return (key if isinstance(key, str) else None), data["pages"]


class _CellRecords:
    """The pages' full records of one entry, decoded on first use and only when stored under the entry's key."""

    def __init__(self, cells_file: Path, key: str) -> None:
        self.cells_file, self.key = cells_file, key
        self._records: list[Any] | None = None
        self._loaded = False
        self._lock = threading.Lock()

    def cells_of(self, index: int, page: dict[str, Any]) -> list[Any] | None:
        """The stored cells of the entry's page `index` (its light record `page`); None when they do not fit."""
        with self._lock:
            if not self._loaded:
                key, records = _load_cell_records(self.cells_file)
                self._records, self._loaded = (records if key == self.key else None), True
        try:
            record = self._records[index] if self._records is not None else None
            if record is None or (record["file"], record["sha256"]) != (page["file"], page["sha256"]):
                return None
            cells = record["cells"]
        except _DAMAGED:
            return None
        return cells if isinstance(cells, list) else None


def _load_entry(entry: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(read_capped(entry, MAX_ENTRY_BYTES).decode("utf-8", "surrogatepass"))
    except (OSError, ValueError, RecursionError):  # an entry over the cap or unreadable (UnsafeReference) too
        return None
    return data if isinstance(data, dict) else None


_DAMAGED = (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError)


def _whole(stored: dict[str, Any], root: Path, plain: bool, cell_records: _CellRecords) -> Logbook | None:
    """The stored logbook, each page's cells left to be cut from its file when first asked for; None when the
    entry does not fit. `plain`: the folder holds no symbolic link, so a page file named without `..` is inside
    it."""
    try:
        logbook = typing.cast(Logbook, decode(Logbook, stored["logbook"]))
        records = stored["pages"]
        if len(records) != len(logbook.pages):
            return None
        pages: list[Page] = []
        for index, (page, record) in enumerate(zip(logbook.pages, records, strict=True)):
            if record["file"] != page.file or record["sha256"] != page.sha256 or not isinstance(record["types"], list):
                return None
            types = record["types"]
            if not all(isinstance(name, str) for name in types):
                return None
            stored_cells = _StoredCells(root, plain, record, cell_records, index)
            pages.append(_StoredPage.of(page, stored_cells, types))
        logbook.pages = pages
        return logbook
    except _DAMAGED:
        return None


# Read from the files when a page's cells are first asked for (the window asks for them all, a queue's rows and
# `inspect` for none), so a queue of a thousand logbooks reopens without reading a thousand logbooks' pages.
page_texts_read = 0  # how many pages were read to give their cells (a count for tests)


class _StoredCells:
    """Where a stored page's cells are: its file (and the bytes the reader read) and their stored fields."""

    __slots__ = ("cell_records", "index", "plain", "record", "root")

    def __init__(self, root: Path, plain: bool, record: dict[str, Any], cell_records: _CellRecords, index: int) -> None:
        self.root, self.plain, self.record = root, plain, record
        self.cell_records, self.index = cell_records, index

    def cells(self) -> list[Cell]:
        """The cells as stored, their bodies cut from the page's text; when the file no longer gives the text
        they were stored from (changed since the cache was checked), the cells of the file as it is now."""
        global page_texts_read
        page_texts_read += 1
        record = self.record
        text = _page_text(self.root, record["file"], record["read_bytes"], self.plain)
        stored = self.cell_records.cells_of(self.index, record) if text is not None else None
        if text is not None and stored is not None and len(text) == record["text_length"]:
            with contextlib.suppress(*_DAMAGED):
                return [_decode_cell(cell, text) for cell in stored]
        if text is None:
            return []
        from reviewapp.core.logbook.page_parser import parse_page

        return parse_page(text, record["slug"], record["file"]).cells


_PAGE_CELLS = Page.__dict__["cells"]  # the slot itself, under the property below
_PAGE_FIELDS = tuple(field.name for field in dataclasses.fields(Page) if field.name != "cells")


class _StoredPage(Page):
    """A page from the cache whose cells are read on first use; otherwise a Page like any other (its fields,
    `dataclasses.replace`, encoding, pickling)."""

    __slots__ = ("_stored", "_types")
    _stored: _StoredCells
    _types: list[str]

    @classmethod
    def of(cls, page: Page, stored: _StoredCells, types: list[str]) -> _StoredPage:
        made = cls.__new__(cls)
        for name in _PAGE_FIELDS:
            setattr(made, name, getattr(page, name))
        made._stored, made._types = stored, types
        return made

    @property
    def cells(self) -> list[Cell]:
        try:
            return typing.cast(list[Cell], _PAGE_CELLS.__get__(self, Page))
        except AttributeError:
            cells = self._stored.cells()
            _PAGE_CELLS.__set__(self, cells)
            return cells

    @cells.setter
    def cells(self, value: list[Cell]) -> None:
        _PAGE_CELLS.__set__(self, value)

    @property
    def cell_types(self) -> list[str]:
        try:
            return [cell.type_name for cell in _PAGE_CELLS.__get__(self, Page)]
        except AttributeError:
            return list(self._types)


def _page_text(root: Path, file: str, read_bytes: int, plain: bool) -> str | None:
    """The decoded text of the first `read_bytes` bytes of a page file inside `root`, as the reader decoded it."""
    parts = file.split("/")
    if plain and file and not os.path.isabs(file) and not any(p == ".." or p in _SKIP_DIRS for p in parts):
        real = os.path.join(root, file)
    else:  # resolved, as the reader does: a link must not lead outside the logbook
        real = os.path.realpath(root / file)
        if not is_contained(root, Path(real)):
            return None
    try:
        with os.fdopen(open_regular(real, follow=False), "rb") as handle:
            data = handle.read(read_bytes)
    except OSError:
        return None
    return decode_page(data, file)[0] if len(data) == read_bytes else None


def _parsed_page(record: dict[str, Any], text: str) -> ParsedPage | None:
    try:
        if record["text_length"] != len(text):
            return None
        return ParsedPage(
            h1_title=record["h1_title"],
            preamble=record["preamble"],
            cells=[_decode_cell(cell, text) for cell in record["cells"]],
            problems=typing.cast(list[Problem], decode(list[Problem], record["problems"])),
            preamble_line=record["preamble_line"],
        )
    except _DAMAGED:
        return None


_CELL_FIELDS = tuple(f.name for f in dataclasses.fields(Cell))
_BODY = _CELL_FIELDS.index("body")
_TYPE_NAME = _CELL_FIELDS.index("type_name")
_KIND = _CELL_FIELDS.index("kind")
_CELL_KINDS = {kind.value: kind for kind in model.CellKind}


def _cells_in(text: str, cells: list[Cell]) -> list[list[Any]]:
    """Cells as lists of their fields in order (a logbook has thousands; building them from keywords was most of
    a hit), each body as its [start, end] in `text` when it is a slice of it, as bodies are."""
    encoded: list[list[Any]] = []
    pos = 0
    for cell in cells:
        # every field is a plain JSON value already (the header came from JSON) but the kind
        fields = [getattr(cell, name) for name in _CELL_FIELDS]
        fields[_KIND] = cell.kind.value
        body = cell.body
        at = _slice_at(text, body, pos) if body else -1
        if at >= 0:
            fields[_BODY] = [at, at + len(body)]
            pos = at + len(body)
        encoded.append(fields)
    return encoded


def _slice_at(text: str, body: str, pos: int) -> int:
    """Where `body` occurs in `text` from `pos`, found by its start and then compared whole (finding a run output
    of tens of kilobytes as one needle cost more than parsing it), or -1."""
    head = body[:64]
    at = text.find(head, pos)
    while at >= 0 and not text.startswith(body, at):
        at = text.find(head, at + 1)
    return at


def _decode_cell(fields: list[Any], text: str) -> Cell:
    if len(fields) != len(_CELL_FIELDS):
        raise ValueError("a cell of another shape")
    values = list(fields)
    body = values[_BODY]
    if isinstance(body, list):
        start, end = body
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(text)):
            raise ValueError("cell body outside its page")
        values[_BODY] = text[start:end]
    elif not isinstance(body, str):
        raise TypeError("cell body is neither text nor a slice")
    values[_KIND] = _CELL_KINDS[values[_KIND]]
    return Cell(*values)


# -- a codec for the reader's dataclasses: fields by name, values by their declared types ----------------------


def encode(value: Any) -> Any:
    """Plain JSON values; a dataclass's private fields (values looked up and kept on first use) are left out."""
    kind: type = type(value)
    if kind in _PLAIN:  # most values of a logbook: passed on before asking what else they might be
        return value
    names = _public_fields(kind)
    if names is not None and kind in _BY_POSITION:
        return [encode(getattr(value, name)) for name in names]
    if names is not None:
        return {name: encode(getattr(value, name)) for name in names}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


_PLAIN = frozenset({str, int, float, bool, type(None)})
# Stored as the list of their fields' values, in order, not by name: a 200-claim logbook has thousands of verdict
# mentions, and their names were a third of its entry, to write and to read again. (An entry is read only by the
# code that wrote it: reader_version is in its name.)
_BY_POSITION = frozenset({model.VerdictMention})


@cache
def _public_fields(kind: type) -> tuple[str, ...] | None:
    """The names of a dataclass's public fields, asked of `dataclasses` once per class (None: not a dataclass)."""
    if not dataclasses.is_dataclass(kind):
        return None
    return tuple(f.name for f in dataclasses.fields(kind) if f.name[0] != "_")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(model))


def decode(kind: Any, value: Any) -> Any:
    return _decoder(kind)(value)


def _same(value: Any) -> Any:
    return value


@cache
def _decoder(kind: Any) -> Callable[[Any], Any]:
    """A decoder for values of type `kind`, built once per type: a cached logbook has ~200,000 values, and asking
    `typing` about each one's type again cost more than reading the JSON."""
    origin = typing.get_origin(kind)
    if kind is Any or kind is typing.Any or kind in (str, int, bool, type(None)):
        return _same
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        if len(options) != 1:
            return _same
        inner = _decoder(options[0])
        return _same if inner is _same else lambda v: None if v is None else inner(v)
    if origin is list:
        (item,) = typing.get_args(kind) or (Any,)
        each = _decoder(item)
        return list if each is _same else lambda v: [each(x) for x in v]
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            one = _decoder(args[0])
            return tuple if one is _same else lambda v: tuple(one(x) for x in v)
        parts = [_decoder(a) for a in args]
        return lambda v: tuple(d(x) for d, x in zip(parts, v, strict=True))
    if origin is dict:
        _, item = typing.get_args(kind) or (str, Any)
        each = _decoder(item)
        return _same if each is _same else lambda v: {k: each(x) for k, x in v.items()}
    if isinstance(kind, type):
        if dataclasses.is_dataclass(kind):
            return _dataclass_decoder(kind)
        if issubclass(kind, Enum):
            members = {member.value: member for member in kind}  # a dict lookup: Enum(value) is slow
            return members.__getitem__
        if issubclass(kind, Path):
            return Path
        if kind is float:
            return lambda v: float(v) if isinstance(v, int) else v
    return _same


def _dataclass_decoder(kind: type) -> Callable[[Any], Any]:
    hints = _hints(kind)
    if kind in _BY_POSITION:
        return _positional_decoder(kind, [_decoder(hints[f.name]) for f in dataclasses.fields(kind)])
    fields = {f.name: _decoder(hints[f.name]) for f in dataclasses.fields(kind)}
    names = fields.keys()
    converted = [(name, each) for name, each in fields.items() if each is not _same]

    def build(value: Any) -> Any:
        given = dict(value) if value.keys() <= names else {k: v for k, v in value.items() if k in names}
        for name, each in converted:  # most fields are plain JSON values, passed on as they are
            if name in given:
                given[name] = each(given[name])
        return kind(**given)

    return build


def _positional_decoder(kind: type, each: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    converted = [(index, decoder) for index, decoder in enumerate(each) if decoder is not _same]

    def build(value: Any) -> Any:
        if type(value) is not list or len(value) != len(each):
            raise ValueError(f"a stored {kind.__name__} of another shape")
        values = list(value)
        for index, decoder in converted:
            values[index] = decoder(values[index])
        return kind(*values)

    return build
