"""A figure's raw data (the `raw` fence: CSV or JSON written for agents) as a table for people.

Shown as numbers, never re-plotted. Large payloads are cut to a row cap, and the table says how much was cut.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

MAX_ROWS = 2_000
MAX_COLUMNS = 64
MAX_CELL_CHARS = 200


@dataclass(frozen=True, slots=True)
class RawTable:
    kind: str  # "csv", "tsv" or "json"
    columns: list[str]
    rows: list[list[str]]  # at most MAX_ROWS, each as long as `columns`
    total_rows: int  # before the cap

    @property
    def truncated(self) -> bool:
        return self.total_rows > len(self.rows)


def parse_raw_table(raw: str, max_rows: int = MAX_ROWS) -> RawTable | None:
    """A table when `raw` is tabular (CSV/TSV with a header, or JSON records/columns); None for free text."""
    text = raw.strip()
    if not text:
        return None
    if text[0] in "[{":
        return _json_table(text, max_rows)
    return _delimited_table(text, max_rows)


def _delimited_table(text: str, max_rows: int) -> RawTable | None:
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first else "," if "," in first else ";" if ";" in first else None
    if delimiter is None:
        return None
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except (csv.Error, StopIteration):
        return None
    if len(header) < 2:
        return None
    width = min(len(header), MAX_COLUMNS)
    rows: list[list[str]] = []
    total = 0
    try:
        for record in reader:
            if not record:
                continue
            total += 1
            if len(rows) < max_rows:
                rows.append(_fit([_cell(v) for v in record], width))
    except csv.Error:
        return None
    if total == 0:
        return None
    return RawTable("tsv" if delimiter == "\t" else "csv", [_cell(h) for h in header[:width]], rows, total)


def _json_table(text: str, max_rows: int) -> RawTable | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict):
        columns_of_lists = {k: v for k, v in value.items() if isinstance(v, list)}
        if columns_of_lists and len(columns_of_lists) == len(value):
            return _column_table(columns_of_lists, max_rows)
        if len(value) == 1 and isinstance(next(iter(value.values())), list):
            return _json_table(json.dumps(next(iter(value.values()))), max_rows)
        items = list(value.items())
        rows = [[_cell(k), _cell(v)] for k, v in items[:max_rows]]
        return RawTable("json", ["key", "value"], rows, len(items))
    if isinstance(value, list) and value:
        if all(isinstance(item, dict) for item in value):
            columns: list[str] = []
            for item in value[:max_rows]:
                for key in item:
                    if key not in columns and len(columns) < MAX_COLUMNS:
                        columns.append(key)
            rows = [[_cell(item.get(c, "")) for c in columns] for item in value[:max_rows]]
            return RawTable("json", [_cell(c) for c in columns], rows, len(value))
        if all(isinstance(item, list) for item in value):
            width = min(max(len(item) for item in value), MAX_COLUMNS)
            rows = [_fit([_cell(v) for v in item], width) for item in value[:max_rows]]
            return RawTable("json", [str(i) for i in range(width)], rows, len(value))
        rows = [[_cell(v)] for v in value[:max_rows]]
        return RawTable("json", ["value"], rows, len(value))
    return None


def _column_table(columns: dict[str, list[Any]], max_rows: int) -> RawTable:
    names = list(columns)[:MAX_COLUMNS]
    total = max(len(v) for v in columns.values())
    rows = [
        [_cell(columns[name][i]) if i < len(columns[name]) else "" for name in names]
        for i in range(min(total, max_rows))
    ]
    return RawTable("json", names, rows, total)


def _fit(values: list[str], width: int) -> list[str]:
    return values[:width] + [""] * (width - len(values))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_CELL_CHARS else text[: MAX_CELL_CHARS - 1] + "…"
