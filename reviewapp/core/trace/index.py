"""A trace index: every event of a session addressable by position, with bounded memory.

Events are not kept. Indexing reads the file once and keeps, per event, a few numbers in flat arrays (kind,
turn, time, tool, flags, the paired call or result) and, per source record, where it starts (a byte offset in
a JSONL transcript, a chunk file of Trackio's normalized trace). Showing an event reads its record again; a
small cache holds the records last shown. Search scans the raw bytes first and parses only the records that
contain the text, so it never materializes the whole trace.

Indexing runs in a worker: it appends to the arrays and then raises `count`, so a reader on another thread sees
only complete entries (array appends are atomic under the interpreter lock). The window has the work done in
another process (`index_process`), which sends these columns back in batches.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import threading
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from reviewapp.core.io.safepath import UnsafeReference, read_capped, resolve_inside
from reviewapp.core.logbook.model import TraceInfo
from reviewapp.core.progress import CancelToken
from reviewapp.core.trace import formats
from reviewapp.core.trace.events import KINDS, Event, LineProblem, SessionFacts, kind_code

ERROR = 1
USAGE = 2  # this event carries its API message's token usage (counted once per message id)
SIDECHAIN = 4
IMAGES = 8
CACHE_RECORDS = 256
BLOCK = 4 * 1024 * 1024
MAX_LINE = 32 * 1024 * 1024  # a longer line is skipped unread (and said so): its JSON would take 3-6x in memory
MAX_PROBLEMS = 100  # problems listed per trace; the rest are counted in one last problem
DETECT_LINES = 1_000  # lines looked at to tell the format
RECORD_STARTS = (b"{", b"[")
RECORD_ENDS = {b"{": b"}", b"[": b"]"}
# Each bracket or comma can become one Python object of 50+ bytes: a line of "[{},{},...]" under MAX_LINE would
# build ten million dicts. Real transcript lines hold a few hundred; past this budget a line is refused unparsed.
MAX_LINE_VALUES = 1_000_000
_STRING = re.compile(rb'"[^"]*"')  # a JSON string literal once its escapes are dropped (see _values_outside_strings)
_JSON = json.JSONDecoder()  # one decoder for every line (json.loads makes one and sniffs the encoding each time)
CHUNK_LIMIT = 64 * 1024 * 1024
FIRST_ROWS = 100  # events published before the rest: what a timeline shows first
Progress = Callable[[int], None]  # events indexed so far


def parse_time(value: str | None) -> float:
    if not value:
        return math.nan
    try:
        stamp = datetime.fromisoformat(value)
    except ValueError:
        return math.nan
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=UTC)
    return stamp.timestamp()


@dataclass(frozen=True)
class EventFilter:
    """Which events to show; None or empty means no restriction."""

    kinds: frozenset[str] = frozenset()
    tools: frozenset[str] = frozenset()
    turns: tuple[int, int] | None = None  # inclusive
    errors_only: bool = False
    since: float | None = None  # epoch seconds
    until: float | None = None

    @property
    def active(self) -> bool:
        return bool(self.kinds or self.tools or self.turns or self.errors_only or self.since or self.until)


class TraceIndex:
    """The shared part of both sources: columns, filters, jumps and search over verified records."""

    format: str
    label: str  # the file or session shown to the user
    # the arrays that make the index, in the order a batch fills them: where records start comes first, so any
    # event a reader can see has its record
    COLUMNS: tuple[str, ...] = ("kinds", "turns", "times", "tools", "flags", "partner")

    def __init__(self) -> None:
        self.kinds = array("b")
        self.turns = array("i")
        self.times = array("d")
        self.tools = array("H")
        self.flags = array("B")
        self.partner = array("i")
        self.tool_names: list[str] = [""]
        self._tool_code: dict[str, int] = {"": 0}
        self.count = 0  # events visible to readers
        self.complete = False
        self.problems: list[LineProblem] = []
        self.problems_left_out = 0  # past MAX_PROBLEMS: counted, not listed
        self.readable = 0  # events from records that could be read (not the placeholders of unreadable lines)
        self.facts = SessionFacts(format="")
        self.sha256: str | None = None
        self.size = 0
        self._pending_calls: dict[str, int] = {}
        self.late_pairs: list[int] | None = None  # when kept: (call, result) positions, flat, as they pair
        self._cache: OrderedDict[int, list[Event]] = OrderedDict()
        self.cache_records = CACHE_RECORDS  # records kept decoded: what a scrolled view shows again
        self._lock = threading.Lock()

    # -- building --------------------------------------------------------------------------------------------

    def _add(self, event: Event) -> None:
        position = len(self.kinds)
        self.kinds.append(kind_code(event.kind))
        self.turns.append(event.turn if event.turn is not None else -1)
        self.times.append(parse_time(event.timestamp))
        tool = event.tool_name or ""
        partner = -1
        if event.call_id:
            if event.kind == "tool_call":
                self._pending_calls[event.call_id] = position
            elif event.kind == "tool_result":
                call = self._pending_calls.pop(event.call_id, -1)
                if call >= 0:
                    partner = call
                    self.partner[call] = position
                    if self.late_pairs is not None:
                        self.late_pairs += (call, position)
                    tool = tool or self.tool_names[self.tools[call]]
        code = self._tool_code.get(tool)
        if code is None:
            code = self._tool_code[tool] = len(self.tool_names)
            self.tool_names.append(tool)
        self.tools.append(code)
        self.partner.append(partner)
        self.flags.append(
            (ERROR if event.error else 0)
            | (USAGE if event.usage else 0)
            | (SIDECHAIN if event.sidechain else 0)
            | (IMAGES if event.images else 0)
        )

    def _publish(self) -> None:
        self.count = len(self.kinds)

    def _finish(self) -> None:
        self._pending_calls = {}
        if self.problems_left_out:
            label = self.problems[-1].file if self.problems else self.label
            more = f"and {self.problems_left_out:,} more lines or events that could not be read (not listed)"
            self.problems.append(LineProblem(label, 0, more))
        self._publish()
        self.complete = True

    def _problem(self, file: str, line: int, message: str) -> bool:
        """Note a problem; False once MAX_PROBLEMS are listed (it is counted, and shows no placeholder)."""
        if len(self.problems) >= MAX_PROBLEMS:
            self.problems_left_out += 1
            return False
        self.problems.append(LineProblem(file, line, message))
        return True

    def build(
        self,
        cancel: CancelToken | None = None,
        progress: Progress | None = None,
        every: int = 2_000,
        stop_at: int | None = None,
    ) -> None:
        """Read the whole source; with `stop_at`, only until that many events are published (not complete)."""
        digest = hashlib.sha256()
        next_publish = min(every, FIRST_ROWS)  # the first screenful as soon as it is read
        records = self._read_records(digest)
        try:
            for _record in records:
                if cancel is not None:
                    cancel.check()
                if len(self.kinds) >= next_publish:
                    self._publish()
                    next_publish = len(self.kinds) + every
                    if progress is not None:
                        progress(self.count)
                    if stop_at is not None and self.count >= stop_at:
                        return
        finally:
            records.close()
        self.sha256 = digest.hexdigest()
        self._finish()
        if progress is not None:
            progress(self.count)

    def _read_records(self, digest: Any) -> Generator[None, None, None]:
        """Add each source record's events (a line, a chunk), yielding after each; hash what is read into
        `digest`; once all are read, close the record table with its end entry."""
        raise NotImplementedError

    def recipe(self) -> tuple[type[TraceIndex], tuple[Any, ...], str]:
        """What another process needs to build the same index: its class, constructor arguments and label."""
        raise NotImplementedError

    # -- taking in what another process built -----------------------------------------------------------------

    def take_batch(self, starts: dict[str, int], columns: dict[str, array[Any]], tool_names: list[str],
                   pairs: list[int], published: int) -> None:  # fmt: skip
        """Add the entries another process built (from `starts` on) and publish them.

        Entries this index already holds (a first screenful read here meanwhile) are the same and are written
        over; calls paired since the last batch get their results.
        """
        if len(tool_names) > len(self.tool_names):  # before any event that uses a new code is published
            self.tool_names = list(tool_names)
        for name in self.COLUMNS:
            _merge(getattr(self, name), starts[name], columns[name])
        for at in range(0, len(pairs), 2):
            self.partner[pairs[at]] = pairs[at + 1]
        self.count = max(self.count, published)

    def take_final(self, problems: list[LineProblem], facts: SessionFacts, sha256: str | None, size: int) -> None:
        self._tool_code = {name: code for code, name in enumerate(self.tool_names)}
        self.problems = list(problems)
        self.facts = facts
        self.sha256 = sha256
        self.size = size
        self._finish()

    # -- reading ---------------------------------------------------------------------------------------------

    def _record_events(self, record: int) -> list[Event]:
        raise NotImplementedError

    def _locate(self, position: int) -> tuple[int, int]:
        """(record number, index of the event among that record's events)."""
        raise NotImplementedError

    def sequence(self, position: int) -> int:
        return position + 1

    def event(self, position: int) -> Event:
        if not 0 <= position < self.count:
            raise IndexError(position)
        record, offset = self._locate(position)
        with self._lock:
            events = self._cache.get(record)
            if events is None:
                events = self._record_events(record)
                self._cache[record] = events
                if len(self._cache) > self.cache_records:
                    self._cache.popitem(last=False)
            else:
                self._cache.move_to_end(record)
        raw = events[offset] if offset < len(events) else Event("status", "Event no longer in the file", error=True)
        turn = self.turns[position]
        tool = self.tool_names[self.tools[position]]
        usage = raw.usage if self.flags[position] & USAGE else None
        return raw.placed(
            position,
            sequence=self.sequence(position),
            turn=None if turn < 0 else turn,
            tool_name=raw.tool_name or tool or None,
            usage=usage,
        )

    def events(self, first: int = 0, last: int | None = None) -> Iterator[Event]:
        stop = self.count if last is None else min(last + 1, self.count)
        for position in range(max(first, 0), stop):
            yield self.event(position)

    def kind(self, position: int) -> str:
        return KINDS[self.kinds[position]]

    def is_error(self, position: int) -> bool:
        return bool(self.flags[position] & ERROR)

    def paired(self, position: int) -> int:
        """The result of a call or the call of a result, -1 when there is none."""
        return self.partner[position]

    def record_of(self, position: int) -> int:
        return self._locate(position)[0]

    # -- filtering and jumping -------------------------------------------------------------------------------

    def filter(self, wanted: EventFilter, cancel: CancelToken | None = None) -> array[int]:
        count = self.count
        if not wanted.active:
            return array("i", range(count))
        kinds = {kind_code(k) for k in wanted.kinds} if wanted.kinds else None
        tools = {self._tool_code[t] for t in wanted.tools if t in self._tool_code} if wanted.tools else None
        low, high = wanted.turns or (-(2**31), 2**31 - 1)
        since = wanted.since if wanted.since is not None else -math.inf
        until = wanted.until if wanted.until is not None else math.inf
        timed = wanted.since is not None or wanted.until is not None
        out = array("i")
        k, tl, tu, fl, tm = self.kinds, self.tools, self.turns, self.flags, self.times
        for position in range(count):
            if cancel is not None and position % 20_000 == 0:
                cancel.check()
            if kinds is not None and k[position] not in kinds:
                continue
            if tools is not None and tl[position] not in tools:
                continue
            if wanted.turns is not None and not low <= tu[position] <= high:
                continue
            if wanted.errors_only and not fl[position] & ERROR:
                continue
            if timed and not since <= tm[position] <= until:  # an event without a time fails a time filter
                continue
            out.append(position)
        return out

    def position_of_sequence(self, sequence: int) -> int:
        position = sequence - 1
        return position if 0 <= position < self.count else -1

    def first_of_turn(self, turn: int) -> int:
        """The first event of that turn, else of the next turn that has events; -1 past the end."""
        best = -1
        for position in range(self.count):
            value = self.turns[position]
            if value == turn:
                return position
            if value > turn and best < 0:
                best = position
        return best

    def first_at_time(self, when: float) -> int:
        """The first event stamped at or after `when` (sources may be out of order: the earliest such in file)."""
        times = self.times
        for position in range(self.count):
            if times[position] >= when:
                return position
        return -1

    def turn_count(self) -> int:
        """How many turns the events name; 0 when none names one (a missing turn is stored as -1)."""
        return max(max(self.turns[: self.count], default=0), 0)

    def time_range(self) -> tuple[float, float] | None:
        stamps = [t for t in self.times[: self.count] if not math.isnan(t)]
        return (min(stamps), max(stamps)) if stamps else None

    # -- search ----------------------------------------------------------------------------------------------

    def search(self, query: str, cancel: CancelToken | None = None) -> array[int]:
        """Positions of every event whose text contains `query` (case-insensitive), in order."""
        query = query.strip()
        hits = array("i")
        if not query:
            return hits
        needles = _needles(query)
        folded = query.casefold()
        for record in self._candidate_records(needles, cancel):
            for event in self._verified(record):
                if any(folded in value.casefold() for value in event.searchable()):
                    hits.append(event.position)
        return hits

    def _candidate_records(self, needles: list[bytes], cancel: CancelToken | None) -> Iterator[int]:
        raise NotImplementedError

    def _verified(self, record: int) -> Iterator[Event]:
        raise NotImplementedError


def _merge(column: array[Any], start: int, incoming: array[Any]) -> None:
    """Write `incoming` into `column` from `start`: over entries it holds, then appended."""
    if start > len(column):
        raise ValueError(f"a batch starting at {start} leaves a gap after {len(column)} entries")
    overlap = min(len(column) - start, len(incoming))
    if overlap > 0:
        column[start : start + overlap] = incoming[:overlap]
    column.extend(incoming[overlap:])


def _needles(query: str) -> list[bytes]:
    """The query as raw bytes may hold it: as UTF-8, and JSON-escaped (quotes, backslashes, \\uXXXX)."""
    escaped = json.dumps(query)[1:-1]
    forms = {query.lower().encode("utf-8"), escaped.lower().encode("ascii")}
    forms.add(json.dumps(query, ensure_ascii=False)[1:-1].lower().encode("utf-8"))
    forms.add(json.dumps(escaped)[1:-1].lower().encode("ascii"))  # JSON text inside JSON (tool input)
    return sorted(forms, key=len)


class JsonlTrace(TraceIndex):
    """A raw transcript, one JSON record per line (Claude Code, Codex, Pi, STS, opencode, unknown)."""

    COLUMNS = ("line_offsets", "line_first", *TraceIndex.COLUMNS)

    def __init__(self, path: Path, format_name: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.label = path.name
        self.size = path.stat().st_size
        self.line_offsets = array("q", [0])  # start of each line read, then where the last one read ends
        self.line_first = array("i")  # first event position of each line; one more entry for the end
        self.format = format_name or self._detect()
        self.facts.format = self.format
        self._convert = formats.converter(self.format)

    def _detect(self) -> str:
        with self.path.open("rb") as handle:
            return formats.detect(self._first_records(handle))

    def _first_records(self, handle: BinaryIO) -> Iterator[Any]:
        """The first lines' records, one at a time and under the reading's value budget: detection looks at each
        and drops it, so a hundred records of a million values each never sit in memory together."""
        found = 0
        for looked, (raw, _length) in enumerate(capped_lines(handle, MAX_LINE), 1):
            parsed = _parsed_record(raw)
            found += len(parsed)
            yield from parsed
            if found >= formats.DETECT_RECORDS or looked >= DETECT_LINES:
                return

    def recipe(self) -> tuple[type[TraceIndex], tuple[Any, ...], str]:
        return JsonlTrace, (self.path, self.format), self.label

    def _read_records(self, digest: Any) -> Generator[None, None, None]:
        state = formats.ReadState(self.facts)
        offset = 0
        line = 0
        with self.path.open("rb") as handle:
            for raw, length in capped_lines(handle, MAX_LINE, digest):
                line += 1
                self.line_first.append(len(self.kinds))
                offset += length
                self.line_offsets.append(offset)  # before the line's events are published: it can be read again
                if raw is None or raw.strip():
                    for event in self._decode(raw, line, offset == self.size, state, length):
                        self._add(event)
                yield
        self.line_first.append(len(self.kinds))

    def _decode(
        self, raw: bytes | None, line: int, last: bool, state: formats.ReadState | None, length: int = 0
    ) -> list[Event]:
        if raw is None:
            record: Any = None
            problem = f"line of {length:,} bytes is too long to read (the limit is {MAX_LINE // (1024 * 1024)} MB)"
        elif (refused := _refused_unparsed(raw, last)) is not None:  # junk, cheaply: no parse, no exception
            record, problem = None, refused
        else:
            try:
                record = _JSON.decode(raw.decode("utf-8-sig"))
                problem = ""
            except (ValueError, RecursionError) as exc:
                record = None
                cut = last and not raw.endswith(b"\n")
                problem = "truncated last line (the file ends mid-record)" if cut else f"not valid JSON: {exc}"
        if problem:
            if state is not None and not self._problem(self.label, line, problem):
                return []  # past the listed problems: no placeholder either, so junk adds no events
            return [Event("status", f"Unreadable line {line}", text=problem, error=True, record=line)]
        try:
            events = self._convert(record, line, state or formats.ReadState(SessionFacts(self.format)))
        except (AttributeError, TypeError, ValueError, KeyError) as exc:  # a record of an unexpected shape
            if state is not None:
                self._problem(self.label, line, f"record not understood: {exc}")
            return [formats.other_event(record, line, "Record not understood")]
        if state is not None and isinstance(record, dict):
            self.readable += len(events)  # a bare number or string on a line is not a transcript's record
        return events

    def _read_line(self, line: int) -> bytes | None:
        """The line's bytes, or None when it is too long to read."""
        start = self.line_offsets[line - 1]
        end = self.line_offsets[line]
        if end - start > MAX_LINE:
            return None
        fd = os.open(self.path, os.O_RDONLY)
        try:
            return os.pread(fd, end - start, start)
        finally:
            os.close(fd)

    def _record_events(self, record: int) -> list[Event]:
        raw = self._read_line(record)
        if raw is not None and not raw.strip():
            return []
        length = self.line_offsets[record] - self.line_offsets[record - 1]
        return self._decode(raw, record, record == len(self.line_offsets) - 1, None, length)

    def _locate(self, position: int) -> tuple[int, int]:
        # every line read so far has its entry (the end sentinel, once built, is never past a shown position)
        index = bisect_right(self.line_first, position) - 1
        return index + 1, position - self.line_first[index]

    def _candidate_records(self, needles: list[bytes], cancel: CancelToken | None) -> Iterator[int]:
        lines = len(self.line_offsets) - 1
        end = self.line_offsets[lines] if lines >= 0 and self.complete else 0
        overlap = max(len(n) for n in needles) - 1
        found: set[int] = set()
        fd = os.open(self.path, os.O_RDONLY)
        try:
            start = 0
            while start < end:
                if cancel is not None:
                    cancel.check()
                block = os.pread(fd, min(BLOCK + overlap, end - start), start).lower()
                for needle in needles:
                    at = block.find(needle)
                    while at >= 0:
                        line = bisect_right(self.line_offsets, start + at, 0, lines) - 1
                        if line not in found:
                            found.add(line)
                        # skip to the next line: one hit per line is enough
                        at = block.find(needle, self.line_offsets[line + 1] - start)
                start += BLOCK
        finally:
            os.close(fd)
        for line in sorted(found):
            yield line + 1

    def _verified(self, record: int) -> Iterator[Event]:
        first = self.line_first[record - 1]
        for offset in range(self.line_first[record] - first):
            yield self.event(first + offset)


class TrackioTrace(TraceIndex):
    """Trackio's normalized trace: a session index and 200-event chunk files, read one chunk at a time."""

    format = "Trackio"
    COLUMNS = ("chunk_first", "sequences", *TraceIndex.COLUMNS)

    def __init__(self, root: Path, trace: TraceInfo) -> None:
        super().__init__()
        self.root = root
        self.trace = trace
        self.label = trace.title or trace.id
        self.facts = SessionFacts(
            format=self.format, session_id=trace.id, model=trace.model, started_at=trace.started_at
        )
        self.chunk_first = array("i")
        self.sequences = array("i")
        self.provider = trace.provider

    def recipe(self) -> tuple[type[TraceIndex], tuple[Any, ...], str]:
        return TrackioTrace, (self.root, self.trace), self.label

    def _read_records(self, digest: Any) -> Generator[None, None, None]:
        if self.trace.index_file:
            with contextlib.suppress(UnsafeReference, OSError, ValueError):
                digest.update(read_capped(resolve_inside(self.root, self.trace.index_file), CHUNK_LIMIT))
        for number in range(len(self.trace.chunks)):
            self.chunk_first.append(len(self.kinds))
            for event in self._read_chunk(number, report=True):
                self.sequences.append(event.sequence)
                self._add(event)
            yield
        self.chunk_first.append(len(self.kinds))

    def _chunk_bytes(self, number: int) -> bytes:
        return read_capped(resolve_inside(self.root, self.trace.chunks[number].file), CHUNK_LIMIT)

    def _read_chunk(self, number: int, report: bool = False) -> list[Event]:
        file = self.trace.chunks[number].file
        try:
            data = self._chunk_bytes(number)
            self.size += len(data) if report else 0
            payload = json.loads(data)
        except (UnsafeReference, OSError, ValueError, RecursionError) as exc:
            if report:
                self._problem(file, 0, f"event file not readable: {exc}")
            return []
        items = payload.get("events") if isinstance(payload, dict) else None
        events = []
        for place, item in enumerate(items if isinstance(items, list) else []):
            event = _trackio_event(item)
            if event is None:
                if report:
                    self._problem(file, place + 1, "event without a sequence number; skipped")
                continue
            events.append(event)
        if report:
            self.readable += len(events)
        return events

    def _record_events(self, record: int) -> list[Event]:
        return self._read_chunk(record)

    def _locate(self, position: int) -> tuple[int, int]:
        # only the chunks read so far have an entry while the index is still being built
        chunk = bisect_right(self.chunk_first, position) - 1
        return chunk, position - self.chunk_first[chunk]

    def sequence(self, position: int) -> int:
        return self.sequences[position]

    def record_of(self, position: int) -> int:
        return self.sequences[position]

    def position_of_sequence(self, sequence: int) -> int:
        guess = sequence - 1
        if 0 <= guess < self.count and self.sequences[guess] == sequence:
            return guess
        try:
            found = self.sequences.index(sequence)
        except ValueError:
            return -1
        return found if found < self.count else -1

    def _candidate_records(self, needles: list[bytes], cancel: CancelToken | None) -> Iterator[int]:
        for number in range(len(self.chunk_first) - 1):
            if cancel is not None:
                cancel.check()
            try:
                data = self._chunk_bytes(number).lower()
            except (UnsafeReference, OSError, ValueError):
                continue
            if any(needle in data for needle in needles):
                yield number

    def _verified(self, record: int) -> Iterator[Event]:
        first = self.chunk_first[record]
        for offset in range(self.chunk_first[record + 1] - first):
            yield self.event(first + offset)


def _trackio_event(item: Any) -> Event | None:
    if not isinstance(item, dict):
        return None
    sequence = item.get("sequence")
    if not isinstance(sequence, int) or isinstance(sequence, bool):
        return None

    def text(key: str) -> str | None:
        value = item.get(key)
        if value is None:
            return None
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    kind = text("kind") or "status"
    status = text("status")
    turn = item.get("turn")
    return Event(
        kind=kind if kind in KINDS else ("assistant" if kind == "message" else "other"),
        title=text("title") or kind,
        text=text("text") or "",
        tool_name=text("tool_name"),
        call_id=text("call_id"),
        input=text("input"),
        output=text("output"),
        status=status,
        timestamp=text("timestamp"),
        turn=turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
        error=status == "error" or (kind == "status" and "abort" in (status or text("title") or "").lower()),
        record=sequence,
        record_type=kind,
        sidechain=isinstance(item.get("depth"), int) and item["depth"] > 0,
        uuid=text("id"),
        sequence=sequence,
    )


def capped_lines(handle: Any, cap: int, digest: Any = None) -> Iterator[tuple[bytes | None, int]]:
    """(line, its length) for each line of a binary file; (None, length) for a line longer than `cap`, whose
    rest is read past in blocks and never held (so a 600 MB line costs `cap`, not 600 MB). Every byte read is
    fed to `digest` when given."""
    while raw := handle.readline(cap + 1):
        if digest is not None:
            digest.update(raw)
        if len(raw) <= cap:
            yield raw, len(raw)
            continue
        length = len(raw)
        ended = raw.endswith(b"\n")
        del raw
        while not ended and (block := handle.readline(BLOCK)):
            if digest is not None:
                digest.update(block)
            length += len(block)
            ended = block.endswith(b"\n")
        yield None, length


def open_transcript(path: Path, format_name: str | None = None) -> JsonlTrace:
    """An index over a raw transcript, not yet built (call build(), in a worker for big files)."""
    return JsonlTrace(path, format_name)


def built(index: TraceIndex) -> TraceIndex:
    index.build()
    return index


def _parsed_record(raw: bytes | None) -> list[Any]:
    """The line's record (a list of one), or none when the line is blank, junk or over the value budget."""
    if raw is None or not raw.strip() or _refused_unparsed(raw, last=False) is not None:
        return []
    try:
        return [json.loads(raw)]
    except (ValueError, RecursionError):
        return []


def _value_count(text: bytes) -> int:
    return text.count(b",") + text.count(b"{") + text.count(b"[")


def _values_outside_strings(text: bytes, counted: int) -> int:
    """The values of `text` counted outside its string literals (a CSV tool output holds commas, not values).
    Escaped backslashes, then escaped quotes, are dropped first so that no quote left ends a string early; a line
    of more strings than the budget has too many values whatever they hold, and keeps its first count."""
    bare = text.replace(b"\\\\", b"").replace(b'\\"', b"")
    if bare.count(b'"') > 2 * MAX_LINE_VALUES:
        return counted
    return _value_count(_STRING.sub(b'""', bare))


def _refused_unparsed(raw: bytes, last: bool) -> str | None:
    """Why a line is not parsed at all, from byte counts alone, or None when it may be a record."""
    text = raw.strip()
    start = text[:1]
    if start not in RECORD_STARTS:
        return "not valid JSON: not a record (it does not start with { or [)"
    if not text.endswith(RECORD_ENDS[start]):
        cut = last and not raw.endswith(b"\n")
        return "truncated last line (the file ends mid-record)" if cut else "not valid JSON: the record is not closed"
    values = _value_count(text)
    if values > MAX_LINE_VALUES:
        values = _values_outside_strings(text, values)
    if values > MAX_LINE_VALUES:
        return f"a record of {values:,} values is too large to read (the limit is {MAX_LINE_VALUES:,})"
    return None
