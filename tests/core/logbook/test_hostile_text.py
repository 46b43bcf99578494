"""Untrusted text built to make patterns backtrack or counts restart, and pages over their budget.

A freeze has no other symptom than time, so the cases that used to take minutes run the real CLI (or the
pattern) in a child with a generous deadline (tests/core/hostile_helpers.py); everything else is asserted on
results. The property test throws long runs of spaces, backticks, markers and brackets at every pattern that
sees page text, in one child with the same deadline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.logbook import reader
from reviewapp.core.logbook.markdown_prep import MAX_TABLE_CELLS, prepare_markdown
from reviewapp.core.logbook.model import Problem
from reviewapp.core.logbook.problem_cap import MAX_PER_KIND, cap_per_kind
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft, cell_text
from reviewapp.core.progress import Cancelled, CancelToken
from tests.core.hostile_helpers import run_bounded, run_python_bounded


def logbook_with_page(tmp_path: Path, text: str, index: str | None = None) -> Path:
    draft = LogbookDraft("Hostile text")
    draft.page("Claim 1: a claim", slug="claim-1").markdown("**Verdict: VERIFIED**")
    root = draft.write(tmp_path / "ws")
    (root / "pages" / "claim-1" / "page.md").write_text(text, encoding="utf-8")
    if index is not None:
        (root / "pages" / "index.md").write_text(index, encoding="utf-8")
    return root


HOSTILE_PAGES = {
    "heading with a long blank run": lambda: ("# x" + " " * 200_000 + "y\n", None),
    "bare cell markers": lambda: ("<!-- trackio-cell\n" * 200_000, None),
    "links to missing pages": lambda: ("# ok\n", "".join(f"- [p{i}](#/missing-{i})\n" for i in range(100_000))),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_PAGES))
def test_inspect_finishes_on_text_built_to_backtrack_and_caps_its_problems(tmp_path: Path, case: str) -> None:
    page, index = HOSTILE_PAGES[case]()
    root = logbook_with_page(tmp_path, page, index)
    done = run_bounded(tmp_path, "inspect", str(root), "--json")
    assert done.returncode == 0, done.stderr
    problems = json.loads(done.stdout)["problems"]
    assert len(problems) <= MAX_PER_KIND + 5  # capped per kind, with one line saying how many more
    assert len(done.stdout) < 200_000


def test_the_heading_keeps_its_text_without_closing_marks(tmp_path: Path) -> None:
    root = logbook_with_page(tmp_path, "# Claim 1: a claim ##   \n\nbody\n")
    logbook = read_logbook(root)
    assert any(page.h1_title is None and page.title == "Claim 1: a claim" for page in logbook.pages)
    lone = logbook_with_page(tmp_path / "lone", "# #\n")
    assert read_logbook(lone).pages[-1].title in {"#", "Claim 1: a claim"}


def test_bare_markers_and_missing_links_keep_their_line_numbers(tmp_path: Path) -> None:
    text = "intro\n" + "".join(f"line {i}\n<!-- trackio-cell\n" for i in range(3))
    index = "# Index\n\n- [a](#/missing-a)\n\n- [b](#/missing-b)\n"
    logbook = read_logbook(logbook_with_page(tmp_path, text, index))
    markers = [p.line for p in logbook.problems if "cell marker" in p.message]
    links = [p.line for p in logbook.problems if "table of contents" in p.message]
    assert markers == [3, 5, 7]
    assert links == [3, 5]


def test_problems_are_capped_per_kind_with_a_count_and_other_kinds_kept() -> None:
    many = [Problem("pages/index.md", i, f"table of contents links to 'p{i}', which has no page") for i in range(250)]
    other = Problem("logbook.json", None, "manifest is not a JSON object")
    capped = cap_per_kind([*many, other])
    assert capped[:MAX_PER_KIND] == many[:MAX_PER_KIND]
    assert other in capped
    assert capped[-1].message.startswith("150 more problems like")
    assert len(capped) == MAX_PER_KIND + 2


def test_one_page_can_be_cancelled_while_it_is_parsed(tmp_path: Path) -> None:
    cells = "".join(cell_text({"type": "markdown", "id": f"c{i}"}, f"body {i}") for i in range(2_000))
    root = logbook_with_page(tmp_path, "# Claim 1: a claim\n" + cells)
    token = CancelToken()
    calls = []

    class CancelOnSecondCheck(CancelToken):
        def check(self) -> None:  # the first check is before the index page; cancel once inside a page
            calls.append(1)
            if len(calls) > 3:
                token.cancel()
            token.check()

    with pytest.raises(Cancelled):
        read_logbook(root, cancel=CancelOnSecondCheck())
    assert len(calls) > 3  # checked inside the page, not only between pages (the logbook has two)


def test_an_over_budget_page_opens_truncated_with_a_problem_and_the_rest_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "PAGE_LIMIT", 4096)
    monkeypatch.setattr(reader, "PAGE_FLOOR", 1024)
    big = "# Claim 1: a claim\n\n**Verdict: VERIFIED**\n\n" + "".join(f"filler line {i}\n" for i in range(2_000))
    root = logbook_with_page(tmp_path, big)
    logbook = read_logbook(root)
    page = next(p for p in logbook.pages if p.slug == "claim-1")
    assert page.title == "Claim 1: a claim"
    assert page.size == len(big.encode())
    assert sum(len(c.body) for c in page.cells) + len(page.preamble) < 4096
    assert any("over the 4,096 bytes a page may have" in p.message and p.file.endswith("page.md")
               for p in logbook.problems)  # fmt: skip
    assert [c.n for c in logbook.claims] == [1]
    assert any(p.slug == "index" for p in logbook.pages)


def test_pages_past_the_logbooks_budget_still_open_with_their_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "LOGBOOK_LIMIT", 6000)
    monkeypatch.setattr(reader, "PAGE_FLOOR", 600)
    draft = LogbookDraft("Budget")
    for n in range(1, 6):
        draft.page(f"Claim {n}: claim {n}", slug=f"claim-{n}").markdown("x" * 2000)
    logbook = read_logbook(draft.write(tmp_path / "ws"))
    slugs = {p.slug for p in logbook.pages}
    assert {f"claim-{n}" for n in range(1, 6)} <= slugs  # no page lost
    assert any("left of the logbook's budget" in p.message for p in logbook.problems)
    assert sorted(c.n for c in logbook.claims) == [1, 2, 3, 4, 5]


def test_markdown_prep_keeps_code_spans_math_and_headings() -> None:
    assert prepare_markdown("a `$x$` and $y$ and ``a`b`` $z$") == "a `$x$` and `$y$` and ``a`b`` `$z$`"
    assert prepare_markdown("# Title ##  \n\nbody", "Title") == "body"
    small = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert prepare_markdown(small) == small


def test_runs_too_long_to_lay_out_are_shown_as_a_note_of_their_length() -> None:
    assert prepare_markdown("# x" + " " * 100_000 + "y") == "# x [… 100,000 blanks …] y"
    assert prepare_markdown("$x$" + "`" * 300) == "`$x$` [… 300 × \\` …] "
    assert prepare_markdown("=" * 256) == "=" * 256  # up to MAX_RUN, as written
    assert prepare_markdown("ab" * 1000) == "ab" * 1000
    data_uri = "![x](data:image/png;base64," + "A" * 5000 + ")"  # an image's bytes reach the image checks whole
    assert prepare_markdown(data_uri) == data_uri


def test_a_table_too_large_to_lay_out_is_shown_as_text() -> None:
    rows = ["|" + "|".join("c" for _ in range(50)) + "|"] * (MAX_TABLE_CELLS // 50 + 10)
    shown = prepare_markdown("before\n" + "\n".join(rows) + "\nafter")
    assert "too large to lay out" in shown
    assert "\n```\n" + rows[0] in shown and shown.endswith("```\nafter")


PROPERTY_CHILD = r"""
from hypothesis import given, settings, strategies as st, HealthCheck
from reviewapp.core.logbook.markdown_prep import prepare_markdown
from reviewapp.core.logbook.page_parser import parse_page
from reviewapp.core.logbook.page_tree import toc_links

PIECES = ["x", "#", "# x", "$x$", "$", "|", "[", "](", "(#/", "<!-- trackio-cell", "---", "-->", "<svg ", "**"]
UNITS = [" ", "`", "\t", "#", "[", "]", "(", "$", "|", "*", "_", "-", "\n", "<!-- trackio-cell\n"]
RUNS = st.tuples(st.sampled_from(UNITS), st.integers(1_000, 40_000)).map(lambda r: r[0] * r[1])
TEXT = st.lists(st.one_of(st.sampled_from(PIECES), RUNS), min_size=1, max_size=8).map("".join)

@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(TEXT, st.booleans())
def check(text, titled):
    parse_page(text, "p", "pages/p/page.md")
    prepare_markdown(text, "x" if titled else None)
    toc_links(text)

check()
print("finished")
"""


def test_long_runs_of_spaces_backticks_markers_and_brackets_all_finish(tmp_path: Path) -> None:
    done = run_python_bounded(tmp_path, PROPERTY_CHILD)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "finished" in done.stdout


def test_a_trace_chunk_listed_many_times_is_read_once(tmp_path: Path) -> None:
    from reviewapp.core.logbook.writer import write_trace

    draft = LogbookDraft("Repeated chunks")
    draft.page("Claim 1: a claim", slug="claim-1").markdown("**Verdict: VERIFIED**")
    root = draft.write(tmp_path / "ws")
    write_trace(root, "run-1", [{"sequence": 1, "type": "message", "role": "user", "content": "hi"}])
    index = root / "traces" / "run-1" / "index.json"
    session = json.loads(index.read_text(encoding="utf-8"))
    session["chunks"] = session["chunks"] * 300
    index.write_text(json.dumps(session), encoding="utf-8")
    logbook = read_logbook(root)
    chunks = [c.file for t in logbook.traces for c in t.chunks]
    assert len(chunks) == len(set(chunks)) >= 1
    assert any("is listed again; read once" in p.message for p in logbook.problems)
