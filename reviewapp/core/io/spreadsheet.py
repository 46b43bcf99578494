"""Cells of every CSV the app writes, made safe to open in a spreadsheet.

Text from a logbook or a review (claim titles, comments, pair ids, condition names) may start with `=`, `+`,
`-`, `@`, a tab or a carriage return, which Excel, LibreOffice and Google Sheets run as a formula. Such a text cell
gets a leading apostrophe (the spreadsheets' own "this is text" mark, hidden when shown). A number — an int or
float, or text that reads as a plain number such as "-3.5" — is left alone, so numbers stay numbers.
"""

from __future__ import annotations

import re
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(value: Any) -> Any:
    """`value` with an apostrophe before text a spreadsheet would run; every other value unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def spreadsheet_plain(text: str) -> str:
    """The text spreadsheet_safe was given (for reading back a CSV the app wrote)."""
    if text.startswith("'") and text[1:].startswith(FORMULA_START) and not _NUMBER.fullmatch(text[1:]):
        return text[1:]
    return text
