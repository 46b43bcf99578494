"""Untrusted text (claim titles, rationales, author responses, names, evidence addresses) made inert in Markdown.

Every Markdown the app writes goes through these functions, so nothing a logbook or a review file says can add
markup to a report: no raw HTML (`<img>`, `<script>`, `<details>`, comments), no images or links (explicit, `<…>`
autolinks, or a bare address a renderer would turn into one), no heading, list or table of its own. Text is folded
onto one line (a line break cannot start a forged "## Claim 2" section); text meant as a paragraph is one quoted
paragraph; addresses are code spans with a fence longer than any run of backticks inside.
"""

from __future__ import annotations

import re

#: ASCII punctuation that means something in CommonMark or GFM inline text (emphasis, code, links, images, raw
#: HTML and entities, tables, strikethrough, footnotes); CommonMark lets any ASCII punctuation be escaped.
_INLINE_MARKUP = re.compile(r"[\\`*_\[\]<>!&|~^{}$]")
#: What a line may start with to become a block (heading, list, quote, setext underline, numbered list).
_BLOCK_START = re.compile(r"^(?:[#+=-]|\d{1,9}(?=[.)]))")
#: Words a renderer turns into a link by themselves (GFM's extended autolinks, email addresses) or that name a
#: scheme which runs or embeds something.
_ADDRESS = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9+.-]{0,31}://|www\.|(?:javascript|vbscript|data|file):)[^\s<>\"'`]*"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
    re.IGNORECASE,
)
_BACKTICKS = re.compile(r"`+")
_UNESCAPED_BAR = re.compile(r"(?<!\\)\|")


def one_line(text: str) -> str:
    """Every run of white space (line breaks included) as one blank."""
    return " ".join(text.split())


def markdown_code(text: str) -> str:
    """`text` on one line as a code span: shown as typed, never a link or markup."""
    flat = one_line(text)
    if not flat:
        return ""
    longest = max((len(run) for run in _BACKTICKS.findall(flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def markdown_inline(text: str) -> str:
    """`text` on one line with every markup character escaped and every address as a code span; safe anywhere in a
    line, at its start too (a leading `#`, `-` or `1.` is escaped)."""
    escaped = _escaped_line(text)
    start = _BLOCK_START.match(escaped)
    if start is None:
        return escaped
    # a marker is escaped itself; a number's delimiter is (a backslash before a digit would be shown)
    at = start.end() if start.group()[0].isdigit() else 0
    return escaped[:at] + "\\" + escaped[at:]


def _escaped_line(text: str) -> str:
    flat = one_line(text)
    parts: list[str] = []
    last = 0
    for match in _ADDRESS.finditer(flat):
        parts.append(_escape(flat[last : match.start()]))
        parts.append(markdown_code(match.group()))
        last = match.end()
    parts.append(_escape(flat[last:]))
    return "".join(parts)


def markdown_quote(text: str) -> str:
    """`text` as one quoted paragraph (its line breaks folded), or nothing when it is blank."""
    inline = markdown_inline(text)
    return f"> {inline}" if inline else ""


def markdown_table_cell(value: object) -> str:
    """A value for a cell of a Markdown table (`|` is escaped with the rest of the markup; a cell starts no block,
    so "-0.5" stays as it is)."""
    # GFM splits a row at every unescaped `|`, inside code spans too
    return _UNESCAPED_BAR.sub(r"\\|", _escaped_line("" if value is None else str(value)))


def _escape(text: str) -> str:
    return _INLINE_MARKUP.sub(lambda m: "\\" + m.group(), text)
