"""Hostile transcripts: junk lines, one huge line, random bytes. Bounded warnings, bounded memory, and a file
with no readable event is refused instead of attached as thousands of placeholder events."""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest

from reviewapp.core.review.trace_links import prepare_transcript
from reviewapp.core.trace import formats
from reviewapp.core.trace.index import MAX_LINE, MAX_LINE_VALUES, MAX_PROBLEMS, built, open_transcript
from reviewapp.core.trace.transcripts import TranscriptError
from tests.core.hostile_helpers import run_python_bounded
from tests.core.trace_fixtures import claude_records, write_jsonl

MB = 1024 * 1024
PEAK_BOUND_MB = 300


def test_a_million_junk_lines_give_bounded_problems_and_no_events(tmp_path: Path) -> None:
    path = tmp_path / "junk.jsonl"
    good = "\n".join(json.dumps(r) for r in claude_records())
    path.write_text(good + "\n" + "{x\n" * 1_000_000)

    index = built(open_transcript(path))

    assert len(index.problems) == MAX_PROBLEMS + 1
    assert f"{1_000_000 - MAX_PROBLEMS:,} more lines" in index.problems[-1].message
    clean = built(open_transcript(write_jsonl(tmp_path / "good.jsonl", claude_records())))
    assert index.count == clean.count + MAX_PROBLEMS  # a placeholder per listed problem, none for the rest
    assert index.readable > 0


def test_random_bytes_are_refused_not_attached(tmp_path: Path) -> None:
    path = tmp_path / "random.jsonl"
    path.write_bytes(os.urandom(2 * MB))

    with pytest.raises(TranscriptError, match="no event could be read") as refused:
        prepare_transcript(path)

    assert str(path) in str(refused.value)


def test_only_lines_that_are_records_count_as_events(tmp_path: Path) -> None:
    lines = [json.dumps(r) for r in claude_records()]
    path = write_jsonl(tmp_path / "mixed.jsonl", [*lines, "12", '"text"', "{broken"])

    index, _stored = prepare_transcript(path)

    clean = built(open_transcript(write_jsonl(tmp_path / "clean.jsonl", lines)))
    assert index.readable == clean.count  # numbers, strings and broken lines are shown, not counted
    assert index.count > index.readable


def test_a_line_of_too_many_values_is_refused_unparsed_and_the_rest_is_read(tmp_path: Path) -> None:
    bomb = "[" + ",".join(["{}"] * (MAX_LINE_VALUES + 1)) + "]"  # under the byte cap, millions of dicts if parsed
    lines = [json.dumps(r) for r in claude_records()]
    path = write_jsonl(tmp_path / "bomb.jsonl", [bomb, *lines, '{"unclosed": 1'])

    index = built(open_transcript(path))

    assert [p.line for p in index.problems] == [1, len(lines) + 2]
    assert "too large to read" in index.problems[0].message
    assert "not closed" in index.problems[1].message or "truncated" in index.problems[1].message
    clean = built(open_transcript(write_jsonl(tmp_path / "clean.jsonl", lines)))
    assert index.readable == clean.readable


def test_commas_inside_a_string_are_not_values_so_a_huge_csv_output_is_read(tmp_path: Path) -> None:
    csv_output = "\n".join(",".join(["0.5"] * 100) for _ in range(MAX_LINE_VALUES // 50))  # 2M commas, 8 MB
    records = claude_records()
    result = {"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": csv_output}]}}  # fmt: skip
    lines = [json.dumps(r) for r in records]
    path = write_jsonl(tmp_path / "csv.jsonl", [*lines, json.dumps(result)])

    index = built(open_transcript(path))

    assert index.problems == []
    clean = built(open_transcript(write_jsonl(tmp_path / "clean.jsonl", lines)))
    assert index.readable == clean.readable + 1


def _peak_bytes_telling_the_format(path: Path) -> tuple[str, int]:
    tracemalloc.start()
    try:
        told = open_transcript(path).format  # opening tells the format from the first records; nothing is read yet
        return told, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_telling_the_format_holds_one_record_at_a_time(tmp_path: Path) -> None:
    # Records of many containers each, under the value budget: a hundred of a million values each, all kept while
    # the format was told, were gigabytes.
    record = json.dumps({"type": "user", "message": {"role": "user", "content": [{}] * 20_000}})
    one = write_jsonl(tmp_path / "one.jsonl", [record])
    hundred = write_jsonl(tmp_path / "hundred.jsonl", [record] * formats.DETECT_RECORDS)

    told_one, peak_one = _peak_bytes_telling_the_format(one)
    told_hundred, peak_hundred = _peak_bytes_telling_the_format(hundred)

    assert told_one == told_hundred == formats.CLAUDE
    assert peak_hundred < 3 * peak_one, (peak_one, peak_hundred)


def test_a_line_longer_than_the_cap_is_skipped_without_holding_it(tmp_path: Path) -> None:
    size = MAX_LINE * 4 + 17  # a valid record: read whole, it would cost several times its size
    path = tmp_path / "huge-line.jsonl"
    with path.open("wb") as out:
        out.write(b'{"type": "user", "message": {"role": "user", "content": "')
        block = b"a" * MB
        for _ in range(size // MB):
            out.write(block)
        out.write(b'"}}\n')
        out.write((json.dumps(claude_records()[0]) + "\n").encode())
    # the child's own high-water mark: ru_maxrss keeps the forking test process's size across exec
    code = f"""
from pathlib import Path
from reviewapp.core.review.trace_links import prepare_transcript
index, stored = prepare_transcript(Path({str(path)!r}))
status = Path("/proc/self/status").read_text()
peak = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))) // 1024
print(index.readable, index.problems[0].line, index.problems[0].message, sep="|")
print("peak", peak)
"""
    run = run_python_bounded(tmp_path, code)

    assert run.returncode == 0, run.stderr[-2000:]
    first, peak_line = run.stdout.strip().splitlines()
    readable, line, message = first.split("|")
    assert int(readable) >= 1 and line == "1" and "too long" in message
    peak = int(peak_line.split()[1])
    print(f"peak {peak} MB for a {size // MB} MB line")
    assert peak < PEAK_BOUND_MB
