"""Untrusted text made inert in HTML the app writes: text and attribute values escaped, addresses never links.

An HTML report shows what a logbook or a review file says, never runs or loads it: every character that starts
markup or ends an attribute is an entity, and an address (even a harmless-looking `https://`) is shown as code so
that opening the report follows nothing.
"""

from __future__ import annotations

import html


def html_text(text: str) -> str:
    """`text` for an element's content or an attribute value in double or single quotes."""
    return html.escape(text, quote=True)


def html_paragraph(text: str) -> str:
    """`text` as one paragraph, its line breaks kept as `<br>` (each line escaped)."""
    return "<p>" + "<br>".join(html_text(line) for line in text.splitlines()) + "</p>"


def html_code(text: str) -> str:
    """`text` (an address, a path, a command) shown as typed."""
    return f"<code>{html_text(text)}</code>"
