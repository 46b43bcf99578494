"""Links both ways between a logbook's cells and the trace events that produced them, each with its reason.

A tool call is linked to a run cell when it runs the cell's command, when `trackio logbook run --page P -- CMD`
put CMD's cell on page P, when it names a file the cell shows (an attached script, an artifact path), or when a
`trackio logbook run` call's time matches the cell's recorded run. The call's result comes along. One pass over
the tool calls; everything else is never read.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from reviewapp.core.logbook.model import Cell, CellKind, Logbook, Page
from reviewapp.core.progress import CancelToken
from reviewapp.core.trace.events import KIND_CODE
from reviewapp.core.trace.excerpts import _command_variants, normalized_command
from reviewapp.core.trace.index import TraceIndex, parse_time

RUNS_COMMAND = "runs the cell's command"
PAGE_RUN = "`trackio logbook run --page` put this run on the page"
NAMES_FILE = "names a file the cell shows: {}"
AT_RUN_TIME = "a `trackio logbook run` at the time the cell records"
RESULT_OF = "result of a linked call"
MAX_PER_CELL = 500
_SCAN = 8_192
_TIME_SLACK = 5.0  # seconds either side of the recorded run
_RUN = re.compile(r"trackio\s+logbook\s+run\b(?P<options>.*?)(?:\s--\s(?P<command>.*)|$)", re.DOTALL)
_PAGE_OPTION = re.compile(r"--page(?:=|\s+)(?:\"(?P<dq>[^\"]+)\"|'(?P<sq>[^']+)'|(?P<bare>\S+))")
# a base name, starting after a separator (a lazily matched directory prefix made long paths cost n^3)
_FILE_TOKEN = re.compile(r"(?<![\w.-])([\w-]+\.[A-Za-z][A-Za-z0-9]{0,5})\b")
_FENCE_TITLE = re.compile(r"`{3,}\w*\s+title=(\S+)")
_MIN_FILE = 6  # shorter names ("a.py") name nothing in particular


@dataclass(frozen=True, slots=True)
class CellRef:
    page: str
    ordinal: int | None  # None: the page, no particular cell


@dataclass
class TraceLinks:
    by_cell: dict[CellRef, list[tuple[int, str]]] = field(default_factory=dict)
    by_event: dict[int, list[tuple[CellRef, str]]] = field(default_factory=dict)
    _seen: set[tuple[CellRef, int, str]] = field(default_factory=set, repr=False)

    def events_for(self, page: str, ordinal: int | None = None) -> list[tuple[int, str]]:
        """Events linked to a cell (or, with no ordinal, to anything on the page), in trace order."""
        if ordinal is not None:
            return sorted(self.by_cell.get(CellRef(page, ordinal), []))
        found = [item for ref, items in self.by_cell.items() if ref.page == page for item in items]
        return sorted(set(found))

    def cells_for(self, position: int) -> list[tuple[CellRef, str]]:
        return self.by_event.get(position, [])

    def add(self, ref: CellRef, position: int, reason: str) -> None:
        items = self.by_cell.setdefault(ref, [])
        # a set, not a scan of the cell's links: a 100,000-event trace adds hundreds of thousands of them
        if len(items) >= MAX_PER_CELL or (ref, position, reason) in self._seen:
            return
        self._seen.add((ref, position, reason))
        items.append((position, reason))
        self.by_event.setdefault(position, []).append((ref, reason))

    def __getstate__(self) -> dict[str, object]:
        # Links come back from the process that indexed the trace: tens of thousands of them. Sent as plain
        # tuples they are unpickled without a Python call each; the by-event side is derived again here.
        return {"cells": [(ref.page, ref.ordinal, items) for ref, items in self.by_cell.items()]}

    def __setstate__(self, state: dict[str, list[tuple[str, int | None, list[tuple[int, str]]]]]) -> None:
        self.by_cell = {CellRef(page, ordinal): items for page, ordinal, items in state["cells"]}
        self.by_event = {}
        for ref, items in self.by_cell.items():
            for position, reason in items:
                self.by_event.setdefault(position, []).append((ref, reason))
        self._seen = set()


def page_named(logbook: Logbook, name: str) -> Page | None:
    """The page `trackio logbook run --page NAME` means: by slug, by title, or a title that starts `NAME:`."""
    slug = _page_slug([(page.slug, page.title) for page in logbook.pages], name)
    return logbook.page(slug) if slug is not None else None


def _page_slug(pages: list[tuple[str, str]], name: str) -> str | None:
    wanted = name.strip().casefold()
    slug = re.sub(r"[^a-z0-9]+", "-", wanted).strip("-")
    for page_slug, title in pages:
        if page_slug == slug or title.casefold() == wanted:
            return page_slug
    for page_slug, title in pages:
        if title.casefold().startswith(wanted + ":") or page_slug.startswith(slug + "-"):
            return page_slug
    return None


def cell_command(cell: Cell) -> str | None:
    command = cell.header.get("command")
    if cell.kind is CellKind.CODE and isinstance(command, list) and command:
        return normalized_command(shlex.join(str(c) for c in command))
    return None


def cell_files(cell: Cell) -> set[str]:
    """Base names of the files a cell shows: scripts attached to a run, artifact paths."""
    names = {m.rsplit("/", 1)[-1] for m in fence_titles(cell.body)}
    for key in ("path", "artifact", "file"):
        value = cell.header.get(key)
        if isinstance(value, str) and value:
            names.add(value.rsplit("/", 1)[-1].split(":", 1)[0])
    return {n for n in names if len(n) >= _MIN_FILE and "." in n}


def fence_titles(text: str) -> list[str]:
    """The `title=` of each code fence: only the lines that hold "title=" are matched (run outputs run to
    megabytes, and a multiline `^` is tried at every character of them)."""
    titles = []
    at = text.find("title=")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        match = _FENCE_TITLE.match(text, start, end)
        if match:
            titles.append(match.group(1))
        at = text.find("title=", end)
    return titles


def cell_run_window(cell: Cell) -> tuple[float, float] | None:
    created = cell.header.get("created_at")
    if not isinstance(created, str):
        return None
    end = parse_time(created)
    if end != end:  # NaN
        return None
    duration = cell.header.get("duration_s")
    start = end - (float(duration) if isinstance(duration, (int, float)) else 0.0)
    return start - _TIME_SLACK, end + _TIME_SLACK


@dataclass
class LinkPlan:
    """What linking needs of a logbook, in plain values: it travels to the process that indexes the trace."""

    by_command: dict[str, list[CellRef]] = field(default_factory=dict)
    by_file: dict[str, list[CellRef]] = field(default_factory=dict)
    windows: list[tuple[float, float, CellRef]] = field(default_factory=list)
    commands_on_page: dict[str, dict[str, int]] = field(default_factory=dict)
    pages: list[tuple[str, str]] = field(default_factory=list)  # (slug, title)

    def __getstate__(self) -> dict[str, object]:
        # to the child process as plain tuples: a slotted dataclass pickles through a Python call per cell
        def plain(table: dict[str, list[CellRef]]) -> dict[str, list[tuple[str, int | None]]]:
            return {key: [(ref.page, ref.ordinal) for ref in refs] for key, refs in table.items()}

        return {
            "by_command": plain(self.by_command),
            "by_file": plain(self.by_file),
            "windows": [(start, end, ref.page, ref.ordinal) for start, end, ref in self.windows],
            "commands_on_page": self.commands_on_page,
            "pages": self.pages,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        def refs(table: dict[str, list[tuple[str, int | None]]]) -> dict[str, list[CellRef]]:
            return {key: [CellRef(*ref) for ref in items] for key, items in table.items()}

        self.by_command = refs(state["by_command"])
        self.by_file = refs(state["by_file"])
        self.windows = [(start, end, CellRef(page, ordinal)) for start, end, page, ordinal in state["windows"]]
        self.commands_on_page = state["commands_on_page"]
        self.pages = state["pages"]

    @classmethod
    def of(cls, logbook: Logbook) -> LinkPlan:
        plan = cls(pages=[(page.slug, page.title) for page in logbook.pages])
        for page in logbook.pages:
            for cell in page.cells:
                ref = CellRef(page.slug, cell.ordinal)
                command = cell_command(cell)
                if command:
                    plan.by_command.setdefault(command, []).append(ref)
                    plan.commands_on_page.setdefault(page.slug, {}).setdefault(command, cell.ordinal)
                    window = cell_run_window(cell)
                    if window:
                        plan.windows.append((*window, ref))
                for name in cell_files(cell):
                    plan.by_file.setdefault(name, []).append(ref)
        return plan

    def link(self, index: TraceIndex, cancel: CancelToken | None = None) -> TraceLinks:
        links = TraceLinks()
        call_kind = KIND_CODE["tool_call"]
        for position in range(index.count):
            if index.kinds[position] != call_kind:
                continue
            if cancel is not None and position % 5_000 == 0:
                cancel.check()
            event = index.event(position)
            command = _command_text(event.input or "")[:_SCAN]
            before = len(links.by_event.get(position, ()))
            for variant in _command_variants(command):
                for ref in self.by_command.get(variant, ()):
                    links.add(ref, position, RUNS_COMMAND)
            run = _RUN.search(command)
            if run:
                self._link_run(links, run, position, index.times[position])
            for match in _FILE_TOKEN.finditer(command):
                for ref in self.by_file.get(match.group(1), ()):
                    links.add(ref, position, NAMES_FILE.format(match.group(1)))
            if len(links.by_event.get(position, ())) > before:
                result = index.paired(position)
                if result >= 0:
                    for ref, _reason in list(links.by_event[position]):
                        links.add(ref, result, RESULT_OF)
        return links

    def _link_run(self, links: TraceLinks, run: re.Match[str], position: int, when: float) -> None:
        page_match = _PAGE_OPTION.search(run.group("options") or "")
        named = page_match.group("dq") or page_match.group("sq") or page_match.group("bare") if page_match else None
        target = _page_slug(self.pages, named) if named else None
        if target is not None:
            inner = normalized_command(run.group("command") or "")
            ordinal = self.commands_on_page.get(target, {}).get(inner)
            links.add(CellRef(target, ordinal), position, PAGE_RUN)
        if when == when:  # not NaN
            for start, end, ref in self.windows:
                if start <= when <= end:
                    links.add(ref, position, AT_RUN_TIME)


def link_trace(logbook: Logbook, index: TraceIndex, cancel: CancelToken | None = None) -> TraceLinks:
    return LinkPlan.of(logbook).link(index, cancel)


def _command_text(text: str) -> str:
    from reviewapp.core.logbook.model import TraceEvent
    from reviewapp.core.trace.excerpts import command_of

    return command_of(TraceEvent(0, "tool_call", "", "", input=text))


def describe(ref: CellRef, logbook: Logbook) -> str:
    page = logbook.page(ref.page)
    title = page.title if page else ref.page
    return title if ref.ordinal is None else f"{title}, cell {ref.ordinal + 1}"
