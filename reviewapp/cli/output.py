"""Output shared by the commands that print tables: `--format text|json|csv|markdown` (`--json` for short)."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from typing import Any

from reviewapp.core.io.markdown_safe import markdown_table_cell
from reviewapp.core.io.spreadsheet import spreadsheet_safe

FORMATS = ("text", "json", "csv", "markdown")


def add_format_option(parser: argparse.ArgumentParser, default: str = "text") -> None:
    parser.add_argument("--format", choices=FORMATS, default=default, help=f"output format (default: {default})")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")


def write_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, *, title: str = "") -> None:
    out = sys.stdout
    cells = [["" if v is None else v for v in row] for row in rows]
    if fmt == "json":
        json.dump([dict(zip(columns, row, strict=True)) for row in rows], out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([[spreadsheet_safe(v) for v in row] for row in cells])
    elif fmt == "markdown":
        if title:
            out.write(f"## {title}\n\n")
        out.write("| " + " | ".join(columns) + " |\n")
        out.write("|" + "|".join("---" for _ in columns) + "|\n")
        for row in cells:
            out.write("| " + " | ".join(markdown_table_cell(_text(v)) for v in row) + " |\n")
    else:
        text = [[_text(v) for v in row] for row in cells]
        widths = [max([len(c), *(len(r[i]) for r in text)]) for i, c in enumerate(columns)]
        if title:
            out.write(title + "\n")
        out.write("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip() + "\n")
        for row in text:
            out.write("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() + "\n")


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
