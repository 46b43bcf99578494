"""Prepare markdown cell bodies for display: math kept legible, the duplicate title heading dropped.

There is no math engine: TeX is shown as written, in a monospace face. Wrapping `$...$` in code spans does that
and also stops the markdown parser from reading `_` and `*` inside formulas as emphasis.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
# Pandoc's rule: no space just inside the dollars, and a closing dollar not followed by a digit ("$4 to $9").
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?=[^\s$])(?P<tex>(?:[^$\n\\]|\\.)+?)(?<=[^\s\\])\$(?![\d$])")
_DISPLAY_MATH = re.compile(r"\$\$(?P<tex>.+?)\$\$", re.DOTALL)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<text>.*?)\s*#*\s*$")


def prepare_markdown(text: str, title: str | None = None) -> str:
    """The body as it should be rendered: math as code, and no leading heading that repeats `title`."""
    if title:
        text = drop_title_heading(text, title)
    if "$" not in text:
        return text
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        marker = _FENCE.match(line)
        if fence is None and marker:
            if prose:
                out.append(_math_as_code("\n".join(prose)))
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
        out.append(_math_as_code("\n".join(prose)))
    return "\n".join(out)


def _closes(marker: str, fence: str, line: str) -> bool:
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip("`~ ")


def drop_title_heading(text: str, title: str) -> str:
    """Drop a first heading equal to the cell title (as Trackio's viewer does), ignoring case and emphasis marks."""
    stripped = text.lstrip("\n")
    first, _, rest = stripped.partition("\n")
    match = _HEADING.match(first)
    if match and _plain(match.group("text")) == _plain(title):
        return rest.lstrip("\n")
    return text


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
    for code in _INLINE_CODE.finditer(line):
        parts.append(_INLINE_MATH.sub(_code_span, line[pos : code.start()]))
        parts.append(code.group(0))
        pos = code.end()
    parts.append(_INLINE_MATH.sub(_code_span, line[pos:]))
    return "".join(parts)


def _code_span(match: re.Match[str]) -> str:
    tex = match.group(0)
    longest = max((len(run) for run in re.findall(r"`+", tex)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if tex.startswith("`") or tex.endswith("`") else ""
    return f"{ticks}{pad}{tex}{pad}{ticks}"
