"""Annotation files on disk: where they live, appending a record durably, and reading them back.

Annotations live with the logbook in `<logbook root>/reviews/<annotator slug>.jsonl` when that folder can be
written (checked by actually writing), else in `<user data>/reviews/<logbook id, made safe>/`, beside a
`source.json` naming the logbook; the commit feature copies them into the repository from there. Keyed by the
logbook id (not the folder), two clones of one remote, or a Space downloaded twice, share that folder. Folders of
earlier versions, keyed by a hash of the logbook's path, are moved there on first use.

An append is one write of the whole line to a file opened with O_APPEND, then fsync (and an fsync of the folder
when the file is new), all under an exclusive advisory lock, so that once `append` returns the record survives a
crash and concurrent writers never interleave. Readers take a shared lock and stream line by line: an invalid line
is reported with its file and line number and the rest still loads. A torn last line (a writer killed mid-write,
a power cut) is moved into a side file `<name>.jsonl.torn-<time>` and reported before the next append; it is never
dropped silently and never breaks the lines before it.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, Literal

from reviewapp.core.io.durable import (
    O_BINARY,
    O_CLOEXEC,
    O_NOFOLLOW,
    atomic_write,
    fsync_dir,
    locked,
    open_for_append,
    write_all,
)
from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.io.safepath import (
    FileTooLarge,
    UnsafeReference,
    hub_blob_target,
    hub_repo_folder,
    open_capped,
    read_capped,
    why_unreadable,
)
from reviewapp.core.logbook.logbook_id import LogbookId, logbook_id_for, safe_folder_name
from reviewapp.core.review.identity import annotator_slug
from reviewapp.core.review.records import (
    MAX_LINE_BYTES,
    SCHEMA_VERSION,
    RecordBase,
    RecordError,
    json_schema_text,
    parse_line,
    record_line,
)
from reviewapp.core.review.secret_scan import known_secrets
from reviewapp.core.review.trust import Trust
from reviewapp.core.review.write_errors import SecretInRecord as SecretInRecord  # re-exported: where it used to be
from reviewapp.core.review.write_errors import StoreError, check_secrets

REVIEWS_DIR = "reviews"
SCHEMA_FILE = "SCHEMA.json"
GITATTRIBUTES_FILE = ".gitattributes"
GITATTRIBUTES = "*.jsonl merge=union\n"
SOURCE_FILE = "source.json"
RECORD_SUFFIX = ".jsonl"
TORN_MARKER = ".torn-"
_CHUNK = 64 * 1024
MAX_FILE_BYTES = 256 * 1024 * 1024  # a review file this large is not something a person wrote
_SCHEMA_LIMIT = 1024 * 1024  # our own SCHEMA.json is a few KB; anything bigger is not ours


@dataclass(frozen=True)
class StoreIssue:
    file: Path
    line: int | None
    message: str
    severity: Literal["error", "warning"]

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else str(self.file)
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class TailRepair:
    """What was done about the end of a file a writer did not finish."""

    file: Path
    line: int
    size: int  # bytes concerned
    set_aside: Path | None  # side file holding the torn bytes; None when the line was only completed or left
    kept: int | None = None  # bytes in the side file when fewer than `size` (a tail longer than any record)

    @property
    def issue(self) -> StoreIssue:
        if self.set_aside is not None:
            message = f"torn last line ({self.size:,} bytes, never saved completely) moved to {self.set_aside.name}"
            if self.kept is not None:
                message += f"; only its first {self.kept:,} bytes were kept (no record is that long)"
        else:
            message = f"last line had no line end; one was added ({self.size} bytes kept)"
        return StoreIssue(self.file, self.line, message, "warning")


@dataclass(frozen=True)
class ReviewsLocation:
    logbook_root: Path
    folder: Path  # where this process appends
    fallback: bool  # True: the logbook folder is not writable, annotations go to the user data folder
    reason: str | None  # why the fallback was used

    @property
    def in_repo_folder(self) -> Path:
        return self.logbook_root / REVIEWS_DIR


@dataclass
class LoadResult:
    records: list[tuple[RecordBase, str]] = field(default_factory=list)  # replay order, with "file:line"
    issues: list[StoreIssue] = field(default_factory=list)
    repairs: list[TailRepair] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    unverified: list[tuple[RecordBase, str]] = field(default_factory=list)  # claim a name they cannot prove
    trust: Trust | None = None  # how records were checked

    @property
    def errors(self) -> list[StoreIssue]:
        return [i for i in self.issues if i.severity == "error"]


def fallback_folder(logbook_root: Path, logbook_id: LogbookId | None = None) -> Path:
    """Per-logbook folder under the user's data directory, keyed by the logbook id (derived when not given)."""
    return user_data_dir() / REVIEWS_DIR / safe_folder_name(logbook_id or logbook_id_for(logbook_root))


def legacy_fallback_folder(logbook_root: Path) -> Path:
    """Where earlier versions kept the annotations of a read-only logbook: a hash of its resolved path."""
    digest = hashlib.sha256(str(logbook_root.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return user_data_dir() / REVIEWS_DIR / digest


def migrate_legacy_folder(logbook_root: Path, logbook_id: LogbookId) -> Path | None:
    """Move a path-hash folder of `logbook_root` into the id-keyed one; return the folder moved, if any.

    A folder that does not exist there yet is renamed whole; otherwise each file moves in, and a record file
    both hold gets the lines it lacks appended (records are line-unioned like `merge=union`), so nothing is lost.
    Raises StoreError when something cannot be moved; what was not moved stays in the old folder and is still read.
    """
    legacy = legacy_fallback_folder(logbook_root)
    if legacy.is_symlink() or not legacy.is_dir():
        return None
    target = fallback_folder(logbook_root, logbook_id)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.rename(legacy, target)
        except OSError:  # the id-keyed folder exists (another clone of the same remote wrote there): merge
            for item in sorted(legacy.iterdir()):
                _move_into(item, target / item.name)
            legacy.rmdir()
        else:
            fsync_dir(target.parent)
        atomic_write(target / SOURCE_FILE, _source_json(logbook_root.resolve(), logbook_id))
    except OSError as exc:
        raise StoreError(f"cannot move the annotations in {legacy} to {target}: {exc.strerror or exc}") from exc
    return legacy


def _move_into(item: Path, destination: Path) -> None:
    if item.is_symlink() or not item.is_file():
        return  # never followed; left in the old folder, whose rmdir then fails loudly
    if not destination.exists():
        os.rename(item, destination)
        return
    if item.name.endswith(RECORD_SUFFIX):
        have = set(destination.read_bytes().splitlines())
        missing = [line for line in item.read_bytes().splitlines() if line.strip() and line not in have]
        if missing:
            fd, _ = open_for_append(destination)
            try:
                with locked(fd, exclusive=True):
                    _repair_tail(fd, destination)
                    write_all(fd, b"".join(line + b"\n" for line in missing))
                    os.fsync(fd)
            finally:
                os.close(fd)
    item.unlink()  # SCHEMA.json, .gitattributes, source.json: the id-keyed folder's own copy wins


def locate_reviews(
    logbook_root: Path, *, writable: bool | None = None, logbook_id: LogbookId | None = None
) -> ReviewsLocation:
    """Decide where new annotations go. `writable` None probes by writing; True/False forces the answer."""
    root = logbook_root.resolve()
    reason: str | None
    if writable is None:
        reason = _unwritable_reason(root)
    else:
        reason = None if writable else "annotations kept outside the logbook as requested"
    if reason is None:
        return ReviewsLocation(root, root / REVIEWS_DIR, False, None)
    return ReviewsLocation(root, fallback_folder(root, logbook_id), True, reason)


def _unwritable_reason(root: Path) -> str | None:
    if hub_repo_folder(root) is not None:  # writable, but shared with other tools and replaced by the next download
        return "a downloaded copy in the Hugging Face cache is never written to"
    if root.is_relative_to((user_data_dir() / "downloads").resolve()):  # a published URL's copy (sources.web_source)
        return "a downloaded copy of a published URL is replaced by the next download, so it is never written to"
    reviews = root / REVIEWS_DIR
    if reviews.is_symlink():
        return f"{reviews} is a symbolic link; annotations are not written through links"
    if reviews.exists() and not reviews.is_dir():
        return f"{reviews} exists but is not a folder"
    where = reviews if reviews.is_dir() else root
    probe = where / f".reviewapp-write-probe-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_CLOEXEC, 0o644)
        os.close(fd)
        probe.unlink()
    except OSError as exc:
        return f"cannot write in {where}: {exc.strerror or exc}"
    return None


class AnnotationStore:
    """The annotation files of one logbook."""

    def __init__(
        self, logbook_root: Path, *, writable: bool | None = None, logbook_id: LogbookId | None = None
    ) -> None:
        self.logbook_root = logbook_root.resolve()
        self._writable = writable
        self._logbook_id = logbook_id
        self._location: ReviewsLocation | None = None
        self.known_secrets: list[str] | None = None  # None: the user's own tokens, looked up on first append
        self._prepared = False
        self._migrated = False
        self.trust: Trust | None = None  # None: from the reviewer's settings at each load

    @property
    def logbook_id(self) -> LogbookId:
        if self._logbook_id is None:
            self._logbook_id = logbook_id_for(self.logbook_root)
        return self._logbook_id

    @property
    def location(self) -> ReviewsLocation:
        """Where appends go; probed (by writing) on first use, so read-only commands never probe."""
        if self._location is None:
            self._location = locate_reviews(self.logbook_root, writable=self._writable, logbook_id=self.logbook_id)
        return self._location

    def migrate(self) -> Path | None:
        """Move annotations an earlier version kept under a path-hash folder (once per store); see
        `migrate_legacy_folder`. A failure leaves them where they were, still read."""
        if self._migrated:
            return None
        self._migrated = True
        try:
            return migrate_legacy_folder(self.logbook_root, self.logbook_id)
        except StoreError:
            return None

    @property
    def folder(self) -> Path:
        return self.location.folder

    def file_for(self, slug: str) -> Path:
        if not slug or "/" in slug or "\\" in slug or slug.startswith("."):
            raise ValueError(f"not a safe annotator file name: {slug!r}")
        return self.folder / f"{slug}{RECORD_SUFFIX}"

    def read_folders(self) -> list[Path]:
        """Folders whose *.jsonl belong to this logbook: the repository's reviews/, then the fallback."""
        self.migrate()
        folders = []
        in_repo = self.logbook_root / REVIEWS_DIR
        if in_repo.is_dir() and not in_repo.is_symlink():
            folders.append(in_repo)
        for fallback in (
            fallback_folder(self.logbook_root, self.logbook_id),
            legacy_fallback_folder(self.logbook_root),
        ):
            if fallback.is_dir() and not fallback.is_symlink():
                folders.append(fallback)
        return folders

    def files(self) -> list[Path]:
        found: list[Path] = []
        for folder in self.read_folders():
            found.extend(sorted(p for p in folder.iterdir() if p.name.endswith(RECORD_SUFFIX)))
        return found

    # -- writing ----------------------------------------------------------------------------------------------

    def check_secrets(self, record: RecordBase) -> None:
        """Raise SecretInRecord when any text in the record looks like a token, key or password."""
        if self.known_secrets is None:
            self.known_secrets = known_secrets()
        check_secrets(record, self.known_secrets)

    def append(self, record: RecordBase, slug: str) -> TailRepair | None:
        """Write `record` as the last line of `<slug>.jsonl`; on return it is on disk.

        Returns what was done about a torn last line left by an earlier writer, if anything.
        Raises SecretInRecord (nothing written) or StoreError.
        """
        self.check_secrets(record)
        line = record_line(record)
        path = self.file_for(slug)
        if not self._prepared:
            self.prepare_folder()
        try:
            fd, created = open_for_append(path)
        except FileNotFoundError:  # the folder went away while the window was open: make it again
            self.prepare_folder()
            fd, created = self._open(path)
        except OSError as exc:
            raise StoreError(f"cannot open {path} for writing: {exc.strerror or exc}") from exc
        try:
            with locked(fd, exclusive=True):
                try:
                    repair = _repair_tail(fd, path)
                except OSError as exc:  # appending after a torn line would glue this record onto it
                    raise StoreError(f"cannot set aside the unfinished last line of {path}: {exc}") from exc
                size = os.fstat(fd).st_size
                try:
                    write_all(fd, line)
                    os.fsync(fd)
                except OSError as exc:
                    _truncate_quietly(fd, size)  # never leave half a line of our own behind
                    raise StoreError(f"cannot write to {path}: {exc.strerror or exc}") from exc
        finally:
            os.close(fd)
        if created:
            fsync_dir(path.parent)
        return repair

    def _open(self, path: Path) -> tuple[int, bool]:
        try:
            return open_for_append(path)
        except OSError as exc:
            raise StoreError(f"cannot open {path} for writing: {exc.strerror or exc}") from exc

    def prepare_folder(self) -> Path:
        """Create the folder with its SCHEMA.json and .gitattributes (and source.json for the fallback)."""
        folder = self.folder
        try:
            if self.location.fallback:
                self.migrate()
                folder.mkdir(parents=True, exist_ok=True)
                _write_if_missing(folder / SOURCE_FILE, _source_json(self.location.logbook_root, self.logbook_id))
            else:
                if folder.is_symlink():
                    raise StoreError(f"{folder} is a symbolic link; annotations are not written through links")
                folder.mkdir(exist_ok=True)
            _write_if_missing(folder / GITATTRIBUTES_FILE, GITATTRIBUTES.encode())
            _write_schema(folder / SCHEMA_FILE)
        except OSError as exc:
            raise StoreError(f"cannot create {folder}: {exc.strerror or exc}") from exc
        self._prepared = True
        return folder

    # -- reading ----------------------------------------------------------------------------------------------

    def load(self, *, repair: bool = True) -> LoadResult:
        """Every record of every file, merged into replay order; invalid lines reported, never raised.

        With `repair`, a torn last line is set aside (or an unterminated valid one completed) where the folder
        can be written; otherwise it is only reported.
        """
        result = LoadResult()
        per_file: list[list[tuple[RecordBase, str]]] = []
        for path in self.files():
            result.files.append(path)
            records, issues, tail_damaged = read_file(path)
            result.issues.extend(issues)
            if tail_damaged:
                repaired, done = self._repair(path) if repair else (False, None)
                if not repaired:
                    message = "last line is incomplete; left as it is (the folder cannot be written)"
                    result.issues.append(StoreIssue(path, None, message, "warning"))
                else:
                    if done is not None:
                        result.repairs.append(done)
                        result.issues.append(done.issue)
                    if done is None or done.set_aside is None:  # completed (or finished by a writer): re-read
                        records, issues, _ = read_file(path)
            per_file.append(_own_records(path, records, result.issues))
        per_file = _without_conflicts(result.files, per_file, result.issues)
        trust = self.trust or Trust.from_settings()
        result.trust = trust
        if trust.problem:
            result.issues.append(
                StoreIssue(trust.roster.path if trust.roster else Path(), None, trust.problem, "error")
            )
        per_file = _trusted(result.files, per_file, trust, result)
        result.records = list(heapq.merge(*per_file, key=lambda item: item[0].created_at))
        return result

    def _repair(self, path: Path) -> tuple[bool, TailRepair | None]:
        """(whether the tail is sound now, what was done to it: None when a writer already had)."""
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | O_BINARY | O_CLOEXEC | O_NOFOLLOW)
        except OSError:
            return False, None
        try:
            with locked(fd, exclusive=True):
                return True, _repair_tail(fd, path)
        except OSError:
            return False, None
        finally:
            os.close(fd)


def file_owner(path: Path) -> str:
    """The annotator slug a review file belongs to: its name (`reviews/ada-lovelace.jsonl` -> "ada-lovelace")."""
    return path.name.removesuffix(RECORD_SUFFIX)


def _own_records(
    path: Path, records: list[tuple[RecordBase, str]], issues: list[StoreIssue]
) -> list[tuple[RecordBase, str]]:
    """The records of `path` that its owner wrote; another person's record or a reused id is invalid.

    A record counts only for the annotator whose file holds it: whatever its `annotator` field claims, a record
    in mallory.jsonl can never stand for Ada, so a copy of her record or a retraction in her name is refused.
    """
    owner = file_owner(path)
    names: set[str] = set()
    kept: list[tuple[RecordBase, str]] = []
    seen: dict[str, RecordBase] = {}
    for record, where in records:
        line = _line_of(where)
        if annotator_slug(record.annotator) != owner:
            message = (
                f"record {record.id} names {record.annotator!r} as its annotator but is in {path.name}, "
                f"the file of {owner!r}; a record counts only in its author's file, so it is ignored"
            )
            issues.append(StoreIssue(path, line, message, "error"))
            continue
        first = seen.get(record.id)
        if first is not None:
            if first != record:
                message = f"id {record.id} is used by an earlier, different record of this file; ignored"
                issues.append(StoreIssue(path, line, message, "error"))
            continue  # an identical line twice (a union merge can duplicate lines) is harmless
        seen[record.id] = record
        names.add(record.annotator)
        kept.append((record, where))
    if len(names) > 1:  # written before names had to stay apart ("ada_tester" and "ada-tester")
        listed = ", ".join(repr(n) for n in sorted(names))
        message = f"holds records of {len(names)} names that share this file name ({listed}); each is shown apart"
        issues.append(StoreIssue(path, None, message, "warning"))
    return kept


def _trusted(
    files: list[Path], per_file: list[list[tuple[RecordBase, str]]], trust: Trust, result: LoadResult
) -> list[list[tuple[RecordBase, str]]]:
    """The records of each file that count (`core/review/trust.py`); the others are reported and set apart. A
    record set apart in one file whose identical copy counts from another (her data folder's copy of a file she
    committed before she had a key) is that counted record, not an impostor: it is neither reported nor set apart
    (copies that differ were dropped before, by `_without_conflicts`)."""
    now = datetime.now(UTC)
    judged = [
        [(record, where, trust.future(record, now), trust.counts(record, path)) for record, where in records]
        for path, records in zip(files, per_file, strict=True)
    ]
    counted = {record.id for file in judged for record, _, future, counts in file if counts and not future}
    kept: list[list[tuple[RecordBase, str]]] = []
    for path, file in zip(files, judged, strict=True):
        kept.append([])
        for record, where, future, counts in file:
            if future:
                message = f"record {record.id} is dated in the future ({record.created_at.isoformat()}); refused"
                result.issues.append(StoreIssue(path, _line_of(where), message, "error"))
            elif counts:
                kept[-1].append((record, where))
            elif record.id not in counted:
                result.unverified.append((record, where))
                message = (
                    f"unverified: claims to be {record.annotator} ({record.kind} {record.id}); no signature the "
                    "roster of reviewers' keys vouches for, so it is not counted"
                )
                result.issues.append(StoreIssue(path, _line_of(where), message, "warning"))
    return kept


def _without_conflicts(
    paths: list[Path], per_file: list[list[tuple[RecordBase, str]]], issues: list[StoreIssue]
) -> list[list[tuple[RecordBase, str]]]:
    """Drop every copy of an id that two files hold as different records (identical copies, such as the data
    folder's and the committed copy of one file, are one record). Neither can be trusted over the other, so
    neither is applied, and both places are named."""
    where_of: dict[str, list[tuple[RecordBase, str, Path]]] = {}
    for path, records in zip(paths, per_file, strict=True):
        for record, where in records:
            where_of.setdefault(record.id, []).append((record, where, path))
    conflicting: set[str] = set()
    for record_id, copies in where_of.items():
        if any(other != copies[0][0] for other, _, _ in copies[1:]):
            conflicting.add(record_id)
            places = ", ".join(where for _, where, _ in copies)
            for _, where, path in copies:
                message = f"id {record_id} is held by different records ({places}); none of them is applied"
                issues.append(StoreIssue(path, _line_of(where), message, "error"))
    if not conflicting:
        return per_file
    return [[item for item in records if item[0].id not in conflicting] for records in per_file]


def _line_of(where: str) -> int | None:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else None


def read_file(path: Path) -> tuple[list[tuple[RecordBase, str]], list[StoreIssue], bool]:
    """Records of one file in line order, the issues found, and whether its last line is torn.

    A last line that is complete but not JSON, or that has no line end and is not a valid record, is torn:
    it is left out of the records and not reported as invalid (the caller sets it aside and reports that).
    """
    records: list[tuple[RecordBase, str]] = []
    issues: list[StoreIssue] = []
    label = _label(path)
    try:
        # a downloaded logbook's own review files link into its Hub cache's blobs/; no other link is followed
        handle = os.fdopen(open_capped(hub_blob_target(path) or path, MAX_FILE_BYTES, follow=False), "rb")
    except FileTooLarge as exc:  # not read, repaired or copied: a person's reviews are a few MB at most
        message = f"file is {exc.size or 0:,} bytes, over the {MAX_FILE_BYTES:,} bytes a review file may have; not read"
        issues.append(StoreIssue(path, None, message, "error"))
        return records, issues, False
    except UnsafeReference as exc:
        issues.append(StoreIssue(path, None, f"cannot read: {why_unreadable(exc)}", "error"))
        return records, issues, False
    pending: tuple[int, bytes, str] | None = None  # a line that is torn if nothing follows it
    torn = False
    with handle, locked(handle.fileno(), exclusive=False):
        for number, raw in enumerate(_lines(handle), start=1):
            if pending is not None:
                issues.append(StoreIssue(path, pending[0], pending[2], "error"))
                pending = None
            terminated = raw.endswith(b"\n")
            try:
                records.append((parse_line(raw), f"{label}:{number}"))
            except RecordError as exc:
                if not terminated or not _is_json(raw):
                    pending = (number, raw, str(exc))
                else:
                    issues.append(StoreIssue(path, number, str(exc), "error"))
                continue
            if not terminated:
                torn = True  # a valid record without its line end: kept, and the line end added on repair
        if pending is not None:
            torn = True
    return records, issues, torn


def _lines(handle: BinaryIO) -> Iterator[bytes]:
    """Lines with their b"\\n" (the last may lack it); an over-long line is yielded truncated, never held whole."""
    while True:
        line = handle.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            rest = handle.readline(_CHUNK)
            while rest and not rest.endswith(b"\n"):
                rest = handle.readline(_CHUNK)
            line = line + (b"\n" if rest else b"")
        yield line


def _is_json(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return True


def _label(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _repair_tail(fd: int, path: Path) -> TailRepair | None:
    """With the exclusive lock held: complete or set aside an unfinished last line."""
    size = os.fstat(fd).st_size
    if size == 0:
        return None
    last_end = _last_newline(fd, size)  # offset just after the final line end inside the file, 0 if none
    # Only a tail no longer than a record is ever held in memory: a longer one (a file extended by
    # `truncate -s 2G`, or zeros after a crash) cannot be a record, so only its head is set aside.
    if last_end == size:  # ends with a line end: torn only if the last line is not JSON at all
        start = _last_newline(fd, size - 1)
        if size - start <= MAX_LINE_BYTES + 1 and _is_json(os.pread(fd, size - start, start)):
            return None
        cut = start
    else:
        cut = last_end
        if size - cut <= MAX_LINE_BYTES:
            tail = os.pread(fd, size - cut, cut)
            try:
                parse_line(tail)
            except RecordError:
                pass
            else:  # a complete record only missing its line end: keep it
                write_all(fd, b"\n")
                os.fsync(fd)
                return TailRepair(path, _count_lines(fd, cut) + 1, len(tail), None)
    side = path.with_name(
        f"{path.name}{TORN_MARKER}{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{secrets.token_hex(3)}"
    )
    kept = min(size - cut, MAX_LINE_BYTES)
    side_fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_BINARY | O_CLOEXEC, 0o644)
    try:
        for start in range(cut, cut + kept, _CHUNK):  # in chunks: bounded memory whatever the tail
            write_all(side_fd, os.pread(fd, min(_CHUNK, cut + kept - start), start))
        os.fsync(side_fd)
    finally:
        os.close(side_fd)
    fsync_dir(path.parent)  # the side file exists on disk before the bytes leave the annotation file
    line = _count_lines(fd, cut) + 1
    os.ftruncate(fd, cut)
    os.fsync(fd)
    return TailRepair(path, line, size - cut, side, kept if kept < size - cut else None)


def _last_newline(fd: int, end: int) -> int:
    """Offset just after the last b"\\n" before `end`, or 0."""
    position = end
    while position > 0:
        start = max(0, position - _CHUNK)
        chunk = os.pread(fd, position - start, start)
        found = chunk.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        position = start
    return 0


def _count_lines(fd: int, end: int) -> int:
    count = 0
    for start in range(0, end, _CHUNK):
        count += os.pread(fd, min(_CHUNK, end - start), start).count(b"\n")
    return count


def _truncate_quietly(fd: int, size: int) -> None:
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    except OSError:
        pass  # the next append's tail repair sets aside whatever is left


def _write_if_missing(path: Path, data: bytes) -> None:
    if not path.exists():
        atomic_write(path, data)


def _write_schema(path: Path) -> None:
    """Write SCHEMA.json unless one of this or a newer schema version is there (so writers never fight over it)."""
    try:
        existing = json.loads(read_capped(path, _SCHEMA_LIMIT, follow=False)).get("x-schema-version")
    except (UnsafeReference, ValueError, AttributeError):
        existing = None
    if isinstance(existing, int) and existing >= SCHEMA_VERSION:
        return
    atomic_write(path, json_schema_text().encode("utf-8"))


def _source_json(root: Path, logbook_id: LogbookId) -> bytes:
    info = {
        "logbook_id": logbook_id,
        "logbook_root": str(root),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "note": "Annotations of a logbook whose folder could not be written; committing copies them into it.",
    }
    return (json.dumps(info, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
