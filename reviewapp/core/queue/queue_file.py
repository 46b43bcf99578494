"""Queue files: the list of logbooks a team of judges works through, kept wherever the team keeps it.

A queue is a text file (one source a line; blank lines and lines starting with ``#`` are skipped), a CSV file with a
``source`` column and optional ``paper`` and ``notes`` columns (other columns are kept), or a folder holding many
logbooks. A source is a folder (relative to the queue file), a Space id ``OWNER/NAME``, ``datasets/OWNER/NAME`` or a
URL; an existing path always wins. Rows that cannot be used (no source, a duplicate, a folder that is gone) are
reported with their line and skipped; the rest of the queue stays usable.

A line (or a CSV row's source) ``roster: FILE`` names the roster of reviewers' public keys the queue's records are
checked against (FILE relative to the queue file, in the format `reviewapp key roster` takes); it wins over the
roster in the reviewer's settings for everything read through this queue.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.safepath import FileTooLarge, UnsafeReference, read_capped, why_unreadable
from reviewapp.core.logbook.locate import NotALogbookError, find_logbooks, locate

MAX_QUEUE_BYTES = 8 * 1024 * 1024
MAX_FOLDER_LOGBOOKS = 5000
_HUB_ID = re.compile(r"^(datasets/|spaces/)?[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w.-]{0,95}(@[\w./-]{1,200})?$")
_URL = re.compile(r"^https?://", re.IGNORECASE)
ROSTER_DIRECTIVE = "roster:"


class QueueError(ValueError):
    """The queue as a whole cannot be read (the message names the file)."""


@dataclass(frozen=True, slots=True)
class QueueEntry:
    source: str  # as written in the queue
    location: str  # a resolved folder for local sources, else the remote source as written
    remote: bool
    line: int  # 1-based line in the queue file (0 for logbooks found in a folder)
    paper: str = ""
    notes: str = ""
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class QueueProblem:
    line: int
    source: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.source or '(empty)'}: {self.message}" if self.line else self.message


@dataclass(slots=True)
class Queue:
    path: Path
    entries: list[QueueEntry]
    problems: list[QueueProblem]
    roster: Path | None = None  # the roster of reviewers' keys the queue names (None: the settings' roster)


def read_queue(path: Path) -> Queue:
    """Read a queue file or folder; raise QueueError only when nothing can be read at all."""
    if path.is_dir():
        return _queue_from_folder(path)
    try:
        raw = read_capped(path, MAX_QUEUE_BYTES)
    except FileTooLarge:
        raise QueueError(f"{path}: larger than {MAX_QUEUE_BYTES // (1024 * 1024)} MB; not a queue file") from None
    except (UnsafeReference, OSError) as exc:
        raise QueueError(f"{path}: cannot read the queue: {why_unreadable(exc)}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise QueueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    rows = _csv_rows(text) if _looks_like_csv(path, text) else _text_rows(text)
    queue = Queue(path=path, entries=[], problems=[])
    seen: dict[str, int] = {}
    for line, source, paper, notes, extra in rows:
        if source[: len(ROSTER_DIRECTIVE)].lower() == ROSTER_DIRECTIVE:
            _set_roster(queue, path.parent, line, source)
        else:
            _add(queue, seen, path.parent, line, source, paper, notes, extra)
    return queue


def _set_roster(queue: Queue, base: Path, line: int, directive: str) -> None:
    named = directive[len(ROSTER_DIRECTIVE) :].strip()
    if not named:
        queue.problems.append(QueueProblem(line, directive, "`roster:` names no file"))
    elif queue.roster is not None:
        queue.problems.append(QueueProblem(line, directive, "a second roster; the first one is used"))
    else:
        candidate = Path(named).expanduser()
        queue.roster = (candidate if candidate.is_absolute() else base / candidate).resolve()


def _looks_like_csv(path: Path, text: str) -> bool:
    if path.suffix.lower() == ".csv":
        return True
    first = next((line for line in text.splitlines() if line.strip()), "")
    return "," in first and "source" in [c.strip().lower() for c in first.split(",")]


_Row = tuple[int, str, str, str, dict[str, str]]  # line, source, paper, notes, other columns


def _text_rows(text: str) -> list[_Row]:
    rows: list[_Row] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            rows.append((number, stripped, "", "", {}))
    return rows


def _csv_rows(text: str) -> list[_Row]:
    reader = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    rows: list[_Row] = []
    for record in reader:
        number = reader.line_num
        if header is None:
            if not any(c.strip() for c in record):
                continue
            header = [c.strip().lower() for c in record]
            if "source" not in header:
                raise QueueError(f"line {number}: a CSV queue needs a `source` column (found: {', '.join(header)})")
            continue
        if not any(c.strip() for c in record) or record[0].lstrip().startswith("#"):
            continue
        values = dict(zip(header, (c.strip() for c in record), strict=False))
        extra = {k: v for k, v in values.items() if k not in {"source", "paper", "notes"} and k}
        rows.append((number, values.get("source", ""), values.get("paper", ""), values.get("notes", ""), extra))
    return rows


def _add(
    queue: Queue,
    seen: dict[str, int],
    base: Path,
    line: int,
    source: str,
    paper: str,
    notes: str,
    extra: dict[str, str],
) -> None:
    if not source:
        queue.problems.append(QueueProblem(line, source, "no source in this row"))
        return
    candidate = Path(source).expanduser()
    candidate = candidate if candidate.is_absolute() else base / candidate
    if candidate.exists():
        location, remote = str(candidate.resolve()), False
        try:
            locate(candidate)
        except NotALogbookError as exc:
            queue.problems.append(QueueProblem(line, source, f"not a logbook: {exc}"))
            return
    elif _HUB_ID.match(source) or _URL.match(source):
        location, remote = source, True
    else:
        queue.problems.append(QueueProblem(line, source, "no such folder, and not a Space id or URL"))
        return
    key = location.lower() if remote else location
    if key in seen:
        queue.problems.append(QueueProblem(line, source, f"duplicate of line {seen[key]}; skipped"))
        return
    seen[key] = line
    queue.entries.append(QueueEntry(source, location, remote, line, paper, notes, extra))


def _queue_from_folder(folder: Path) -> Queue:
    """Every logbook below `folder` (a few levels deep), nearest first, then by name."""
    queue = Queue(path=folder, entries=[], problems=[])
    seen: dict[str, int] = {}
    for found in find_logbooks(folder, max_depth=3, limit=MAX_FOLDER_LOGBOOKS):
        _add(queue, seen, folder, 0, str(found.relative_to(folder)), "", "", {})
    if not queue.entries:
        queue.problems.append(QueueProblem(0, str(folder), "no logbook found in this folder"))
    return queue


def write_queue(path: Path, entries: list[QueueEntry], roster: Path | None = None) -> None:
    """Save a queue as CSV with sources relative to the file where they are local, so a team can share it; a
    `roster` is kept as a `roster: FILE` row (relative where it can be) so the saved queue checks records alike."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    extra_columns = sorted({k for e in entries for k in e.extra})
    writer.writerow(["source", "paper", "notes", *extra_columns])
    if roster is not None:
        writer.writerow([f"{ROSTER_DIRECTIVE} {_relative_to(path, str(roster))}"])
    for entry in entries:
        source = entry.location if entry.remote else _relative_to(path, entry.location)
        writer.writerow([source, entry.paper, entry.notes, *(entry.extra.get(k, "") for k in extra_columns)])
    atomic_write(path, out.getvalue().encode("utf-8"))


def _relative_to(queue_path: Path, location: str) -> str:
    try:
        return str(Path(location).relative_to(queue_path.parent.resolve()))
    except ValueError:
        return location
