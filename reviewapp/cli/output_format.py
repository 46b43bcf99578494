"""`--format text|json|csv|markdown` (and `--json`) for the commands that take it."""

from __future__ import annotations

import argparse
import csv
import io
from collections.abc import Sequence
from typing import Any

FORMATS = ("text", "json", "csv", "markdown")


def add_format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="short for --format json")


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue().rstrip("\n")


def markdown_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def esc(value: Any) -> str:
        return str(_cell(value)).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(esc(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "@", "-") and not _number(text) else text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
