"""Prepare markdown cell bodies for display: math kept legible, the duplicate title heading dropped.

There is no math engine: TeX is shown as written, in a monospace face. Wrapping `$...$` in code spans does that
and also stops the markdown parser from reading `_` and `*` inside formulas as emphasis.

Everything here sees untrusted text, so every pattern is linear: no lazy group before an optional tail (a
heading with 1,500 blanks took seconds, 3,000 minutes), and code spans are paired by scanning backtick runs
instead of a backreference pattern (1,500 backticks after `$x$` took 37 s). Qt lays out a markdown table in
time that grows steeply with its cells (2,000 x 50 took over a minute), so a table past MAX_TABLE_CELLS is shown
as its text in a code block, with a line saying why. Qt's line layout also stalls for minutes on a line holding
a huge run of one character (100k blanks, 400k backticks), so a run of blanks or punctuation longer than
MAX_RUN is shown as a note of its length.
"""

from __future__ import annotations

import bisect
import re

_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
_BACKTICKS = re.compile(r"`+")
# Pandoc's rule: no space just inside the dollars, and a closing dollar not followed by a digit ("$4 to $9").
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=[^\s$])(?P<tex>(?:[^$\n\\]|\\.)+?)(?<=[^\s\\])\$(?![\d$])")
_DISPLAY_MATH = re.compile(r"\$\$(?P<tex>.+?)\$\$", re.DOTALL)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*)$")  # closing #s stripped in Python, see _heading_text
_TABLE_ROW = re.compile(r"^[ ]{0,3}\|")
MAX_TABLE_CELLS = 5_000
MAX_RUN = 256
_RUN_FROM = re.compile(r"([^\n])\1*")
# Letters, digits and base64's own symbols are kept: a data URI's image (a run of "A" is a zero-filled bitmap)
# must reach the image checks whole.
_KEEP_RUNS = frozenset("\nABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def prepare_markdown(text: str, title: str | None = None) -> str:
    """The body as it should be rendered: math as code, and no leading heading that repeats `title`."""
    if title:
        text = drop_title_heading(text, title)
    text = _shorten_runs(text)
    if "$" not in text and "|" not in text:
        return text
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        marker = _FENCE.match(line)
        if fence is None and marker:
            if prose:
                out.append(_prose(prose))
            prose = []
            fence = marker.group(1)
            out.append(line)
        elif fence is not None:
            out.append(line)
            if marker and _closes(marker.group(1), fence, line):
                fence = None
        else:
            prose.append(line)
    if prose:
        out.append(_prose(prose))
    return "\n".join(out)


def _shorten_runs(text: str) -> str:
    """Runs of one character longer than MAX_RUN replaced by a note, in linear time.

    A run longer than MAX_RUN holds a whole window of MAX_RUN // 2 + 1 characters starting at a multiple of
    MAX_RUN // 2 from the last run found, so only those windows are probed (with str.count, in C); a pattern
    like `(.)\1{256,}` would rescan up to 256 characters at every position of a shorter run.
    """
    step = MAX_RUN // 2
    parts: list[str] = []
    done = probe = 0
    while probe + step < len(text):
        char = text[probe]
        if char in _KEEP_RUNS or text[probe + step] != char or text.count(char, probe, probe + step + 1) != step + 1:
            probe += step
            continue
        start = probe
        while start > done and text[start - 1] == char:
            start -= 1
        found = _RUN_FROM.match(text, probe)
        end = found.end() if found else probe + step + 1
        if end - start > MAX_RUN:
            parts.extend((text[done:start], _run_note(char, end - start)))
            done = end
        probe = max(end, probe + step)
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def _run_note(char: str, length: int) -> str:
    if char in " \t":
        return f" [… {length:,} blanks …] "
    shown = "\\" + char if char.isascii() and not char.isalnum() else char  # escaped: a backtick stays text
    return f" [… {length:,} × {shown} …] "


def _prose(lines: list[str]) -> str:
    lines = _fence_large_tables(lines)
    text = "\n".join(lines)
    return _math_as_code(text) if "$" in text else text


def _fence_large_tables(lines: list[str]) -> list[str]:
    """Runs of table rows with more than MAX_TABLE_CELLS cells, put in a code block with a note."""
    out: list[str] = []
    start = 0
    while start < len(lines):
        if not _TABLE_ROW.match(lines[start]):
            out.append(lines[start])
            start += 1
            continue
        end = start
        while end < len(lines) and _TABLE_ROW.match(lines[end]):
            end += 1
        rows = lines[start:end]
        columns = max(row.count("|") for row in rows)
        if len(rows) * columns > MAX_TABLE_CELLS:
            fence = "`" * max(3, 1 + max((len(r) for row in rows for r in _BACKTICKS.findall(row)), default=0))
            out.append(
                f"*A table of {len(rows):,} rows and about {columns:,} columns, too large to lay out; shown as text.*"
            )
            out.extend(["", fence, *rows, fence])
        else:
            out.extend(rows)
        start = end
    return out


def _closes(marker: str, fence: str, line: str) -> bool:
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip("`~ ")


def drop_title_heading(text: str, title: str) -> str:
    """Drop a first heading equal to the cell title (as Trackio's viewer does), ignoring case and emphasis marks."""
    stripped = text.lstrip("\n")
    first, _, rest = stripped.partition("\n")
    match = _HEADING.match(first)
    if match and _plain(_heading_text(match.group("text"))) == _plain(title):
        return rest.lstrip("\n")
    return text


def _heading_text(text: str) -> str:
    """A heading's text without its closing #s and the blanks around them."""
    return text.rstrip().rstrip("#").rstrip()


def _plain(text: str) -> str:
    return re.sub(r"[*_`#]", "", text).strip().lower()


def _math_as_code(text: str) -> str:
    text = _DISPLAY_MATH.sub(_display, text)
    lines = []
    for line in text.split("\n"):
        lines.append(_inline_math_line(line) if "$" in line and not line.startswith("    ") else line)
    return "\n".join(lines)


def _display(match: re.Match[str]) -> str:
    tex = match.group("tex").strip()
    fence = "````" if "```" in tex else "```"
    return f"\n{fence}math\n{tex}\n{fence}\n"


def _inline_math_line(line: str) -> str:
    """Wrap inline math in code spans, leaving existing code spans alone."""
    parts: list[str] = []
    pos = 0
    for start, end in _code_spans(line):
        parts.append(_INLINE_MATH.sub(_code_span, line[pos:start]))
        parts.append(line[start:end])
        pos = end
    parts.append(_INLINE_MATH.sub(_code_span, line[pos:]))
    return "".join(parts)


def _code_spans(line: str) -> list[tuple[int, int]]:
    """(start, end) of each code span: a backtick run closed by the next run of the same length (CommonMark).

    Runs are listed once and the closing run found by bisecting the runs of that length: O(n log n) however
    many backticks the line holds.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        after = bisect.bisect_right(same, index)
        if after == len(same):  # never closed: literal backticks
            index += 1
            continue
        closing = same[after]
        spans.append((start, runs[closing][1]))
        index = closing + 1
    return spans


def _code_span(match: re.Match[str]) -> str:
    tex = match.group(0)
    longest = max((len(run) for run in re.findall(r"`+", tex)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if tex.startswith("`") or tex.endswith("`") else ""
    return f"{ticks}{pad}{tex}{pad}{ticks}"
