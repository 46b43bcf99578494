"""Split one page file into its H1 title, preamble and cells, collecting problems instead of raising.

Trackio's rule (logbook-format.md §6.1): a cell opens at a line `---` followed by the line `<!-- trackio-cell`,
then a JSON header, then a line `-->`; the body runs to the next such opening. Everything here is str.find and
compiled regexes over the whole text so that multi-megabyte pages parse at close to read speed.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from reviewapp.core.logbook.model import Cell, CellKind, Problem
from reviewapp.core.progress import CancelToken

_OPENING = re.compile(r"(?:^|\n)---[ \t]*\n<!--[ \t]*trackio-cell[ \t]*\n")
_BARE_MARKER = re.compile(r"^[ \t]*<!--[ \t]*trackio-cell\b", re.MULTILINE)
# Greedy to the line end, trailing blanks and #s stripped in Python: a lazy title before `[ \t#]*$` retried the
# whole blank run at every character (`# x` + 100k spaces + `y` took minutes).
_H1 = re.compile(r"^[ \t]*#[ \t]+(\S[^\n]*)$", re.MULTILINE)
_KINDS = {kind.value: kind for kind in CellKind if kind is not CellKind.GENERIC}
_MARKS = re.compile(r"[*_`#>\[\]]+")


@dataclass
class ParsedPage:
    h1_title: str | None
    preamble: str
    cells: list[Cell]
    problems: list[Problem] = field(default_factory=list)
    preamble_line: int = 1  # file line where the preamble's text starts


def decode_page(data: bytes, file: str) -> tuple[str, list[Problem]]:
    """Bytes to text: UTF-8 with replacement (reported), BOM dropped, CRLF/CR normalized to LF."""
    problems: list[Problem] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problems.append(Problem(file, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); shown with replacements"))
        text = data.decode("utf-8", errors="replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, problems


_CANCEL_EVERY = 256


class _LineCounter:
    """Line numbers for increasing offsets in O(total length)."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._pos = 0
        self._line = 1

    def at(self, pos: int) -> int:
        if pos < self._pos:  # rare: restart rather than count backwards
            self._pos, self._line = 0, 1
        self._line += self._text.count("\n", self._pos, pos)
        self._pos = pos
        return self._line


_MARK = "---\n<!-- trackio-cell\n"
_WHITESPACE = " \t\n\r\f\v"


def _find_openings(text: str) -> tuple[list[tuple[int, int]], bool]:
    """(start of the `---` line, start of the header) for every opening, by plain find (fast); and whether some
    `trackio-cell` text was not a plain opening (then the lenient regex decided and stray markers are reported)."""
    openings: list[tuple[int, int]] = []
    if text.startswith(_MARK):
        openings.append((0, len(_MARK)))
    needle = "\n" + _MARK
    at = text.find(needle)
    while at >= 0:
        openings.append((at + 1, at + 1 + len(_MARK)))
        at = text.find(needle, at + len(needle))
    if text.count("trackio-cell") > len(openings):  # rare: spaces after the markers; let the regex decide
        lenient = [(_start_of(m, text), m.end()) for m in _OPENING.finditer(text)]
        return lenient, True
    return openings, False


def parse_page(text: str, slug: str, file: str, cancel: CancelToken | None = None) -> ParsedPage:
    """Cells and heading of one page; `cancel` is checked every few hundred cells, so one page can be cancelled."""
    problems: list[Problem] = []
    h1 = _H1.search(text)
    h1_title = _h1_title(h1.group(1)) if h1 else None
    openings, irregular = _find_openings(text)
    lines = _LineCounter(text)
    first = openings[0][0] if openings else len(text)
    preamble = _strip_h1(text[:first], h1)
    preamble_line = _preamble_line(text, first, h1)
    cells: list[Cell] = []
    for ordinal, (start, header_start) in enumerate(openings):
        if cancel is not None and ordinal % _CANCEL_EVERY == 0:
            cancel.check()
        limit = openings[ordinal + 1][0] if ordinal + 1 < len(openings) else len(text)
        cells.append(_parse_cell(text, start, header_start, limit, slug, file, ordinal, lines, problems))
    if irregular:
        _report_bare_markers(text, {h for _, h in openings}, file, problems)
    if cells and _markers_follow_bodies(cells, preamble):
        _shift_bodies_back(cells, preamble, preamble_line, file, problems)
        preamble = ""
    return ParsedPage(h1_title, preamble, cells, problems, preamble_line)


def _h1_title(text: str) -> str:
    """The heading's text without closing #s and blanks, keeping its first character (`# #` is titled "#")."""
    return (text[0] + text[1:].rstrip(" \t#")).strip()


def _start_of(opening: re.Match[str], text: str) -> int:
    start = opening.start()
    return start + 1 if text.startswith("\n", start) else start


def _preamble_line(text: str, first: int, h1: re.Match[str] | None) -> int:
    start = h1.end() if h1 and h1.end() <= first and not text[: h1.start()].strip() else 0
    rest = text[start:first]
    return text.count("\n", 0, start + len(rest) - len(rest.lstrip())) + 1


def _strip_h1(preamble: str, h1: re.Match[str] | None) -> str:
    if h1 and h1.end() <= len(preamble):
        preamble = preamble[: h1.start()] + preamble[h1.end() :]
    return preamble.strip()


def _find_closing(text: str, header_start: int, limit: int) -> tuple[int, int] | None:
    """(end of header, start of body) for the first line that is exactly `-->` (trailing blanks allowed)."""
    at = text.find("\n-->", header_start - 1, limit)
    while at >= 0:
        after = at + 4
        while after < limit and text[after] in " \t":
            after += 1
        if after >= len(text) or text[after] == "\n":
            return max(at, header_start), min(after + 1, len(text))
        at = text.find("\n-->", at + 1, limit)
    return None


def _stripped_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _WHITESPACE:
        start += 1
    while end > start and text[end - 1] in _WHITESPACE:
        end -= 1
    return start, end


def _parse_cell(
    text: str,
    start: int,
    header_start: int,
    limit: int,
    slug: str,
    file: str,
    ordinal: int,
    lines: _LineCounter,
    problems: list[Problem],
) -> Cell:
    marker_line = lines.at(start)
    closing = _find_closing(text, header_start, limit)
    if closing is not None:
        header_text = text[header_start : closing[0]]
        body_start = closing[1]
    else:
        header_text, body_start = _recover_header(text, header_start, limit, file, marker_line, problems)
    header, header_raw = _decode_header(header_text, file, marker_line + 2, problems)
    body_from, body_to = _stripped_bounds(text, body_start, limit)
    body = text[body_from:body_to]
    body_line = lines.at(body_from)
    type_value = header.get("type")
    if isinstance(type_value, str) and type_value:
        type_name = type_value
        kind = _KINDS.get(type_value, CellKind.GENERIC)
    else:
        if "type" in header:
            problems.append(Problem(file, marker_line + 2, "cell header 'type' is not a string; read as markdown"))
        type_name, kind = "markdown", CellKind.MARKDOWN
    raw_id = header.get("id")
    return Cell(
        page=slug,
        ordinal=ordinal,
        kind=kind,
        type_name=type_name,
        id=raw_id if isinstance(raw_id, str) and raw_id else None,
        title=derive_title(header, kind, body),
        header=header,
        body=body,
        line=marker_line,
        body_line=body_line,
        header_raw=header_raw,
    )


def _recover_header(
    text: str, header_start: int, limit: int, file: str, marker_line: int, problems: list[Problem]
) -> tuple[str, int]:
    """A header without its own `-->` line: accept `-->` at the end of the header line (seen after a literal \\n)."""
    close = text.find("-->", header_start, limit)
    if close < 0:
        problems.append(Problem(file, marker_line, "cell header is never closed by '-->'; the cell is read as text"))
        end = text.find("\n", header_start, limit)
        end = limit if end < 0 else end
        return text[header_start:end], end
    header = text[header_start:close].rstrip()
    if header.endswith("\\n"):
        header = header[:-2]
    line_end = text.find("\n", close, limit)
    problems.append(
        Problem(file, marker_line, "cell header is not closed by a line of its own '-->' (Trackio skips this cell)")
    )
    return header, limit if line_end < 0 else line_end + 1


def _decode_header(
    header_text: str, file: str, line: int, problems: list[Problem]
) -> tuple[dict[str, Any], str | None]:
    stripped = header_text.strip()
    if not stripped:
        problems.append(Problem(file, line, "empty cell header; read as markdown"))
        return {}, header_text
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
        problems.append(Problem(file, line, f"cell header is not valid JSON ({detail}); read as markdown"))
        return {}, header_text
    if not isinstance(value, dict):
        problems.append(Problem(file, line, "cell header is not a JSON object; read as markdown"))
        return {}, header_text
    return value, None


def _report_bare_markers(text: str, header_starts: set[int], file: str, problems: list[Problem]) -> None:
    lines = _LineCounter(text)  # counted on from the previous marker: 200k markers stay linear
    for bare in _BARE_MARKER.finditer(text):
        line_end = text.find("\n", bare.start())
        if (line_end + 1 if line_end >= 0 else len(text)) in header_starts:
            continue
        message = "cell marker without the '---' line before it; not read as a cell"
        problems.append(Problem(file, lines.at(bare.start()), message))


def _markers_follow_bodies(cells: list[Cell], preamble: str) -> bool:
    """Text before the first marker, every cell but the last filled, the last empty: each marker trails its body."""
    return bool(preamble) and not cells[-1].body and all(cell.body for cell in cells[:-1])


def _shift_bodies_back(
    cells: list[Cell], preamble: str, preamble_line: int, file: str, problems: list[Problem]
) -> None:
    bodies = [(preamble, preamble_line)] + [(cell.body, cell.body_line) for cell in cells[:-1]]
    for cell, (body, line) in zip(cells, bodies, strict=True):
        cell.body, cell.body_line = body, line
        if not _header_title(cell.header):
            cell.title = derive_title(cell.header, cell.kind, body)
        problems.append(Problem(file, cell.line, "cell marker comes after its body; the text above it is the cell"))


def _header_title(header: dict[str, Any]) -> str | None:
    title = header.get("title")
    return title.strip() if isinstance(title, str) and title.strip() else None


def derive_title(header: dict[str, Any], kind: CellKind, body: str) -> str:
    """Trackio's title rule (logbook-format.md §6.8)."""
    title = _header_title(header)
    if title:
        return title
    command = header.get("command")
    if kind is CellKind.CODE and isinstance(command, list) and command:
        joined = shlex.join(str(part) for part in command)
        return "Run: " + (joined if len(joined) <= 80 else joined[:79] + "…")
    if kind is CellKind.CODE:
        attached = re.search(r"^(?:`{3,}|~{3,})[^\n]*\btitle=(\S+)", body, re.MULTILINE)
        return f"Code: {attached.group(1)}" if attached else "Code cell"
    if kind is CellKind.FIGURE:
        return "Figure"
    for line in body.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(("```", "~~~")):
            plain = _MARKS.sub("", stripped).strip()
            if plain:
                return plain if len(plain) <= 80 else plain[:79] + "…"
    return "Markdown cell"
