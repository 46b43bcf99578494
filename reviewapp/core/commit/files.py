"""Which files are review files, where they are found, and how two versions of one are combined.

Review files are the annotation files (`reviews/**/*.jsonl`), `reviews/SCHEMA.json`, `reviews/.gitattributes` and
pair-rating results (`reviews/pairs/*.csv` with their `*.protocol.json`). Torn-line side files, temporary files
of atomic writes, the fallback folder's `source.json` and anything behind a symbolic link are never review files.

Annotation files only ever grow by whole lines, so two versions of one combine by keeping every line of both
(the same rule as git's `merge=union`); a version that lost or changed a line of the other was edited by hand,
and combining it is a conflict rather than a guess.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.io.durable import (
    O_BINARY,
    O_CLOEXEC,
    fsync_dir,
    locked,
    open_for_append,
    write_all,
    write_temp_beside,
)
from reviewapp.core.io.safepath import FileTooLarge, UnsafeReference, open_capped, read_open, why_unreadable
from reviewapp.core.review.review_files import PAIR_PROTOCOL_SUFFIX, PAIR_RESULTS_DIR
from reviewapp.core.review.store import GITATTRIBUTES_FILE, MAX_FILE_BYTES, RECORD_SUFFIX, SCHEMA_FILE

_MAX_DEPTH = 4


class ReviewFileError(CommitError):
    """A review file cannot be read or written; the message names it."""


@dataclass(frozen=True)
class ReviewSource:
    rel: str  # POSIX path inside the reviews folder: "ada.jsonl", "pairs/set-ada.csv"
    path: Path
    fallback: bool  # found in the user-data fallback folder rather than in the logbook


def is_review_file(rel: str) -> bool:
    parts = PurePosixPath(rel).parts
    if not parts or any(part.startswith(".") for part in parts[:-1]):
        return False
    name = parts[-1]
    if name in (GITATTRIBUTES_FILE, SCHEMA_FILE):
        return len(parts) == 1
    if name.startswith("."):  # temporary files of atomic writes
        return False
    if name.endswith(RECORD_SUFFIX):
        return True
    in_pairs = len(parts) == 2 and parts[0] == PAIR_RESULTS_DIR
    return in_pairs and (name.endswith(".csv") or name.endswith(PAIR_PROTOCOL_SUFFIX))


def is_record_file(rel: str) -> bool:
    return rel.endswith(RECORD_SUFFIX)


def review_sources(folder: Path, *, fallback: bool) -> list[ReviewSource]:
    """Review files under `folder`, sorted; symbolic links and hidden folders are not followed."""
    found: list[ReviewSource] = []
    if not folder.is_dir() or folder.is_symlink():
        return found
    for current, dirs, files in os.walk(folder, followlinks=False):
        here = Path(current)
        depth = len(here.relative_to(folder).parts)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and depth < _MAX_DEPTH)
        for name in files:
            path = here / name
            rel = path.relative_to(folder).as_posix()
            if is_review_file(rel) and not path.is_symlink() and path.is_file():
                found.append(ReviewSource(rel, path, fallback))
    return sorted(found, key=lambda s: s.rel)


def read_review_file(path: Path) -> bytes:
    """The file's bytes; a record file without its unfinished last line (a writer may be mid-way)."""
    try:
        fd = open_capped(path, MAX_FILE_BYTES, follow=False)
        try:
            with locked(fd, exclusive=False):
                data = read_open(fd, MAX_FILE_BYTES)
        finally:
            os.close(fd)
    except FileTooLarge as exc:
        raise ReviewFileError(f"{path} is larger than {_megabytes(MAX_FILE_BYTES)}; not committed") from exc
    except UnsafeReference as exc:
        raise ReviewFileError(f"cannot read {path}: {why_unreadable(exc)}") from exc
    return complete_lines(data) if path.name.endswith(RECORD_SUFFIX) else data


def _megabytes(size: int) -> str:
    return f"{size // (1024 * 1024)} MB"


def schema_version(data: bytes) -> int:
    """The version a SCHEMA.json declares (0 when unreadable), so a newer one is never replaced by an older."""
    try:
        value = json.loads(data).get("x-schema-version")
    except (ValueError, AttributeError, RecursionError):
        return 0
    return value if isinstance(value, int) else 0


def complete_lines(data: bytes) -> bytes:
    """`data` up to and including its last line end."""
    end = data.rfind(b"\n")
    return data[: end + 1] if end >= 0 else b""


def lines_of(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def union(first: bytes, second: bytes) -> bytes:
    """`first`, then the lines of `second` that `first` lacks, in their order (each once)."""
    first = _terminated(first)
    seen = set(lines_of(first))
    extra: list[bytes] = []
    for line in lines_of(_terminated(second)):
        if line not in seen:
            seen.add(line)
            extra.append(line)
    return first + b"".join(extra)


def keeps_all_lines(base: bytes, other: bytes) -> bool:
    """Every line of `base` is still in `other`: `other` only added lines (the append-only rule)."""
    present = set(lines_of(_terminated(other)))
    return all(line in present for line in lines_of(_terminated(base)))


def _terminated(data: bytes) -> bytes:
    return data if not data or data.endswith(b"\n") else data + b"\n"


def bring_into(folder: Path, rel: str, data: bytes) -> bool:
    """Make `folder/rel` hold `data` without losing anything already there; returns whether it changed.

    A missing file appears whole (written aside, then linked into place, so a concurrent writer is never
    overwritten). An existing record file gets the lines it lacks appended under the store's lock; any other
    existing file is left as it is.
    """
    target = folder / rel
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() and _create_whole(target, data):
            return True
        if not is_record_file(rel):
            return False
        fd, _ = open_for_append(target)
        try:
            with locked(fd, exclusive=True):
                try:
                    current = read_open(fd, MAX_FILE_BYTES)
                except FileTooLarge as exc:
                    raise ReviewFileError(
                        f"{target} is larger than {_megabytes(MAX_FILE_BYTES)}; nothing was added to it"
                    ) from exc
                if current and not current.endswith(b"\n"):
                    raise ReviewFileError(
                        f"{target} ends with an unfinished line; open the logbook once so that it is set aside, "
                        "then commit again"
                    )
                missing = union(current, data)[len(current) :]
                if not missing:
                    return False
                write_all(fd, missing)
                os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise ReviewFileError(f"cannot copy the review file into {target}: {exc.strerror or exc}") from exc
    return True


def _create_whole(target: Path, data: bytes) -> bool:
    """Create `target` holding `data` atomically; False when someone created it first."""
    tmp = write_temp_beside(target, data)
    try:
        try:
            os.link(tmp, target)
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links: create exclusively instead
            return _create_exclusive(target, data)
        fsync_dir(target.parent)
        return True
    finally:
        tmp.unlink(missing_ok=True)


def _create_exclusive(target: Path, data: bytes) -> bool:
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_BINARY | O_CLOEXEC, 0o644)
    except FileExistsError:
        return False
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    fsync_dir(target.parent)
    return True
