"""Splitting a page into cells, and every way a page can be malformed."""

from __future__ import annotations

import json

from reviewapp.core.logbook.model import CellKind
from reviewapp.core.logbook.page_parser import decode_page, parse_page


def cell(header: dict | str, body: str) -> str:
    text = header if isinstance(header, str) else json.dumps(header)
    return f"\n---\n<!-- trackio-cell\n{text}\n-->\n{body}\n"


def test_standard_page() -> None:
    text = "# Claim 1: Widgets\n\nIntro text.\n" + cell(
        {"type": "markdown", "id": "cell_a", "title": "Setup"}, "Body A"
    )
    text += cell(
        {"type": "code", "id": "cell_b", "command": ["python", "x.py"], "exit_code": 0}, "````output\nok\n````"
    )
    parsed = parse_page(text, "claim-1", "pages/claim-1/page.md")
    assert parsed.h1_title == "Claim 1: Widgets"
    assert parsed.preamble == "Intro text."
    assert [(c.kind, c.id, c.title, c.body) for c in parsed.cells] == [
        (CellKind.MARKDOWN, "cell_a", "Setup", "Body A"),
        (CellKind.CODE, "cell_b", "Run: python x.py", "````output\nok\n````"),
    ]
    first, second = parsed.cells
    assert text.split("\n")[first.line - 1] == "---"
    assert text.split("\n")[first.body_line - 1] == "Body A"
    assert text.split("\n")[second.line - 1] == "---"
    assert [c.key for c in parsed.cells] == ["claim-1/0", "claim-1/1"]
    assert parsed.problems == []


def test_a_cell_at_the_very_start_of_the_file() -> None:
    text = cell({"type": "markdown"}, "only").lstrip("\n")
    parsed = parse_page(text, "p", "f")
    assert [c.body for c in parsed.cells] == ["only"] and parsed.cells[0].line == 1


def test_a_bare_rule_in_a_body_is_markdown_not_a_cell() -> None:
    text = "# T\n" + cell({"type": "markdown"}, "above\n\n---\n\nbelow")
    parsed = parse_page(text, "p", "f")
    assert len(parsed.cells) == 1 and "below" in parsed.cells[0].body


def test_bad_json_header_is_reported_and_kept_as_text() -> None:
    text = "# T\n" + cell('{"type": "code", "id": ', "body survives") + cell({"type": "markdown"}, "next")
    parsed = parse_page(text, "p", "pages/p/page.md")
    bad, good = parsed.cells
    assert bad.kind is CellKind.MARKDOWN and bad.body == "body survives" and bad.header_raw.startswith('{"type"')
    assert good.body == "next"
    [problem] = parsed.problems
    assert problem.file == "pages/p/page.md" and problem.line == 5 and "not valid JSON" in problem.message


def test_header_that_is_not_an_object_or_empty() -> None:
    parsed = parse_page("# T\n" + cell("[1, 2]", "a") + cell("", "b"), "p", "f")
    assert [c.kind for c in parsed.cells] == [CellKind.MARKDOWN, CellKind.MARKDOWN]
    assert [p.message.split(";")[0] for p in parsed.problems] == [
        "cell header is not a JSON object",
        "empty cell header",
    ]


def test_unknown_and_missing_types() -> None:
    text = "# T\n" + cell({"type": "widget", "title": "W"}, "w") + cell({"id": "x"}, "m") + cell({"type": 3}, "n")
    parsed = parse_page(text, "p", "f")
    assert [(c.kind, c.type_name) for c in parsed.cells] == [
        (CellKind.GENERIC, "widget"),
        (CellKind.MARKDOWN, "markdown"),
        (CellKind.MARKDOWN, "markdown"),
    ]
    assert len(parsed.problems) == 1 and "'type' is not a string" in parsed.problems[0].message


def test_marker_after_its_body_with_literal_newline_header() -> None:
    header = json.dumps({"type": "markdown", "id": "cell_x", "title": "Summary"})
    text = f"## Summary\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n---\n<!-- trackio-cell\n{header}\\n-->\n"
    parsed = parse_page(text, "summary", "pages/summary/page.md")
    [only] = parsed.cells
    assert only.title == "Summary" and only.body.startswith("## Summary") and "| 1 | 2 |" in only.body
    assert only.body_line == 1
    assert parsed.preamble == ""
    messages = [p.message for p in parsed.problems]
    assert any("not closed by a line of its own" in m for m in messages)
    assert any("comes after its body" in m for m in messages)
    assert all(p.line == 9 for p in parsed.problems)


def test_header_never_closed() -> None:
    parsed = parse_page('# T\n\n---\n<!-- trackio-cell\n{"type": "markdown"\nno closing at all', "p", "f")
    assert len(parsed.cells) == 1
    assert any("never closed" in p.message for p in parsed.problems)


def test_marker_without_rule_line_is_reported_not_split() -> None:
    text = "# T\n" + cell({"type": "markdown"}, "a\n<!-- trackio-cell\n{}\n-->\nstill a")
    parsed = parse_page(text, "p", "f")
    assert len(parsed.cells) == 1 and "still a" in parsed.cells[0].body
    [problem] = parsed.problems
    assert problem.line == 8 and "without the '---' line" in problem.message


def test_markers_with_trailing_spaces_still_open_cells() -> None:
    text = "# T\n\n---  \n<!-- trackio-cell \n{}\n-->\nbody\n"
    parsed = parse_page(text, "p", "f")
    assert [c.body for c in parsed.cells] == ["body"]


def test_crlf_and_bom_are_normalized() -> None:
    raw = ("\ufeff# Title\r\n" + cell({"type": "markdown", "title": "A"}, "x\ny")).replace("\n", "\r\n").encode()
    text, problems = decode_page(raw, "f")
    assert problems == [] and "\r" not in text and not text.startswith("\ufeff")
    parsed = parse_page(text, "p", "f")
    assert parsed.h1_title == "Title" and parsed.cells[0].body == "x\ny"


def test_non_utf8_bytes_are_replaced_and_reported_with_line() -> None:
    text, problems = decode_page(b"# T\n\nok line\nbad \xff byte\n", "pages/p/page.md")
    assert "bad \ufffd byte" in text
    [problem] = problems
    assert problem.line == 4 and "0xff" in problem.message


def test_page_without_cells_and_without_h1() -> None:
    parsed = parse_page("## Claim 2\n\nJust prose.\n", "claim-2", "f")
    assert parsed.h1_title is None and parsed.cells == [] and parsed.preamble.startswith("## Claim 2")


def test_h1_rule_follows_trackio_even_inside_a_cell() -> None:
    parsed = parse_page("intro\n" + cell({"type": "markdown"}, "```bash\n# not a heading really\n```"), "p", "f")
    assert parsed.h1_title == "not a heading really"


def test_derived_titles() -> None:
    text = "# T\n" + cell({"type": "code"}, "````python title=train.py\nx\n````") + cell({"type": "figure"}, "x")
    text += cell({"type": "markdown"}, "\n\n**Bold** first line\nmore") + cell({"type": "markdown"}, "")
    long_command = ["python", "-c", "x" * 100]
    text += cell({"type": "code", "command": long_command}, "")
    titles = [c.title for c in parse_page(text, "p", "f").cells]
    assert titles[:4] == ["Code: train.py", "Figure", "Bold first line", "Markdown cell"]
    assert titles[4].startswith("Run: python -c") and titles[4].endswith("…") and len(titles[4]) == 85


def test_unicode_escapes_in_headers_are_decoded() -> None:
    parsed = parse_page("# T\n" + cell('{"type": "markdown", "title": "Claim 4 \\u2014 **toy**"}', "b"), "p", "f")
    assert parsed.cells[0].title == "Claim 4 — **toy**"


def test_content_hash_changes_with_the_body() -> None:
    one = parse_page("# T\n" + cell({"type": "markdown"}, "a"), "p", "f").cells[0]
    two = parse_page("# T\n" + cell({"type": "markdown"}, "b"), "p", "f").cells[0]
    assert one.content_hash != two.content_hash and len(one.content_hash) == 16
