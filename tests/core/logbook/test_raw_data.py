"""A figure's raw data becomes a table when it is one (CSV, TSV, JSON), capped, and text otherwise."""

from __future__ import annotations

import json

from reviewapp.core.logbook.raw_data import MAX_CELL_CHARS, parse_raw_table


def test_csv_with_header() -> None:
    table = parse_raw_table("step,loss\n0,2.31\n100,1.07\n")
    assert table is not None
    assert (table.kind, table.columns, table.rows, table.total_rows) == (
        "csv",
        ["step", "loss"],
        [["0", "2.31"], ["100", "1.07"]],
        2,
    )


def test_tsv_and_ragged_rows_are_padded() -> None:
    table = parse_raw_table("a\tb\tc\n1\t2\n4\t5\t6\t7")
    assert table is not None and table.kind == "tsv"
    assert table.rows == [["1", "2", ""], ["4", "5", "6"]]


def test_row_cap_keeps_the_total() -> None:
    table = parse_raw_table("x,y\n" + "\n".join(f"{i},{i * i}" for i in range(5000)), max_rows=100)
    assert table is not None and len(table.rows) == 100 and table.total_rows == 5000 and table.truncated


def test_json_records_columns_and_mappings() -> None:
    records = parse_raw_table(json.dumps([{"a": 1, "b": "x"}, {"a": 2, "c": None}]))
    assert (
        records is not None and records.columns == ["a", "b", "c"] and records.rows == [["1", "x", ""], ["2", "", ""]]
    )
    columns = parse_raw_table(json.dumps({"step": [0, 1, 2], "loss": [3.0, 2.0]}))
    assert columns is not None and columns.rows == [["0", "3.0"], ["1", "2.0"], ["2", ""]]
    mapping = parse_raw_table(json.dumps({"claim_1": {"verdict": "ok"}, "n": 3}))
    assert mapping is not None and mapping.columns == ["key", "value"]
    assert mapping.rows == [["claim_1", '{"verdict": "ok"}'], ["n", "3"]]


def test_long_cells_are_cut() -> None:
    table = parse_raw_table(json.dumps([{"blob": "x" * 10_000}]))
    assert table is not None and len(table.rows[0][0]) == MAX_CELL_CHARS


def test_free_text_and_broken_json_are_not_tables() -> None:
    assert parse_raw_table("just some notes written for an agent") is None
    assert parse_raw_table("{not json") is None
    assert parse_raw_table("[" * 100_000) is None  # deep nesting must not crash
    assert parse_raw_table("   ") is None
