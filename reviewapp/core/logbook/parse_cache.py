"""A cache of parsed logbooks, so that reopening a queue of a hundred logbooks does not parse them again.

Keyed by the logbook's resolved folder, the path, size and modification time of every file the reader may read
under it, and the reader's version (a hash of the reader's own source, so any change to how logbooks are read
invalidates every entry). Entries are plain JSON written atomically; never pickle, which would run code from a
file anyone with access to the cache folder could write. A damaged or foreign entry is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import tempfile
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, Union

from reviewapp import __version__
from reviewapp.core.io.paths import user_cache_dir
from reviewapp.core.logbook import model
from reviewapp.core.logbook.locate import locate
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.progress import CancelToken, ProgressCallback

FORMAT = 1
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
    digest.update((core / "verdicts.py").read_bytes())
    return digest.hexdigest()[:16]


def fingerprint(root: Path, extra_files: tuple[Path, ...] = ()) -> str:
    """Path, size and mtime of every file below `root` the reader could read (reviews excluded), plus extras."""
    digest = hashlib.sha256()
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir():
                    if entry.name not in _SKIP_DIRS:
                        stack.append(Path(entry.path))
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
    return digest.hexdigest()


def read_logbook_cached(
    source: Path | str,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    folder: Path | None = None,
) -> Logbook:
    """`read_logbook`, answered from the cache when nothing the reader reads has changed since it was stored."""
    from reviewapp.core.logbook.reader import read_logbook

    source = Path(source)
    where = locate(source)
    extras = tuple(p for p in (where.metadata_file, where.workspace and where.workspace / ".trackio") if p)
    key_text = json.dumps([FORMAT, reader_version(), str(source.resolve()), fingerprint(where.root, extras)])
    key = hashlib.sha256(key_text.encode("utf-8", "surrogatepass")).hexdigest()
    with _RECENT_LOCK:
        recent = _RECENT.get(key)
    if recent is not None:
        return recent
    entry = (folder or cache_folder()) / f"{key}.json"
    hit = _load(entry, key)
    if hit is not None:
        _remember(key, hit)
        return hit
    logbook = read_logbook(source, progress=progress, cancel=cancel)
    _remember(key, logbook)
    try:
        data = json.dumps({"key": key, "logbook": encode(logbook)}, ensure_ascii=False, separators=(",", ":"))
        entry.parent.mkdir(parents=True, exist_ok=True)
        _write_entry(entry, data.encode("utf-8", "surrogatepass"))
    except (OSError, TypeError, ValueError):
        pass  # a cache that cannot be written only costs time
    return logbook


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
    handle, name = tempfile.mkstemp(prefix=f".{entry.stem[:16]}.", suffix=".tmp", dir=entry.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(name, entry)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def _load(entry: Path, key: str) -> Logbook | None:
    try:
        with entry.open("rb") as handle:
            raw = handle.read(MAX_ENTRY_BYTES + 1)
        if len(raw) > MAX_ENTRY_BYTES:
            return None
        data = json.loads(raw.decode("utf-8", "surrogatepass"))
        if not isinstance(data, dict) or data.get("key") != key:
            return None
        return typing.cast(Logbook, decode(Logbook, data["logbook"]))
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None


# -- a codec for the reader's dataclasses: fields by name, values by their declared types ----------------------


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    return value


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
            return lambda v: tuple(one(x) for x in v)
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
            return kind
        if issubclass(kind, Path):
            return Path
        if kind is float:
            return lambda v: float(v) if isinstance(v, int) else v
    return _same


def _dataclass_decoder(kind: type) -> Callable[[Any], Any]:
    hints = _hints(kind)
    fields = {f.name: _decoder(hints[f.name]) for f in dataclasses.fields(kind)}

    def build(value: Any) -> Any:
        return kind(**{name: fields[name](v) for name, v in value.items() if name in fields})

    return build
