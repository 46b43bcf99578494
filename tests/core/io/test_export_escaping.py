"""One hostile logbook and review through every exporter: nothing it says becomes markup, a link, an image, a
section of its own or a spreadsheet formula. Each export is rendered or parsed by a real reader of its format and
compared with the same export of a harmless twin (same shape, plain words): the structure must be the same."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from reviewapp.cli.output import write_table
from reviewapp.core.io.html_safe import html_code, html_paragraph, html_text
from reviewapp.core.io.markdown_safe import markdown_code, markdown_inline, markdown_quote, markdown_table_cell
from reviewapp.core.io.spreadsheet import FORMULA_START
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.pairs.results import ResultRow
from reviewapp.core.pairs.study import RaterResults, combine
from reviewapp.core.pairs.study_report import render_markdown
from reviewapp.core.paper.export import response_markdown, view_json
from reviewapp.core.paper.gather import PaperRequest, gather_paper, rebuild
from reviewapp.core.paper.paper_review import PaperReview
from reviewapp.core.queue.adjudication import adjudicate
from reviewapp.core.queue.decision import QueueRanking, decision_csv, decision_markdown, decision_payload, queue_ranking
from reviewapp.core.queue.queue_file import Queue, read_queue
from reviewapp.core.queue.rubric import DEFAULT_RUBRIC
from reviewapp.core.queue.scoring import record_rubric_score, score_payload, set_flag
from reviewapp.core.queue.status import queue_status
from reviewapp.core.review.export import export_rows, write_csv, write_jsonl
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.records import DecisionRecord, EvidenceLink, Target, make_record
from reviewapp.core.sources.opener import open_source
from tests.core.annotation_helpers import open_review, small_logbook


@dataclass(frozen=True)
class Texts:
    """What a team controls: a claim's title, a rationale, an author's comment, an evidence address, a name."""

    title: str
    rationale: str
    comment: str
    url: str
    name: str


HOSTILE = Texts(
    title=(
        'SAM <img src="https://track.example/p.gif"> lowers ![pixel](https://track.example/i.png) error'
        " <script>alert(1)</script> [see](javascript:alert(1)) <!-- hidden --> <details open>x</details>"
        " www.track.example ada@track.example `code` ```` fence"
    ),
    rationale='=HYPERLINK("https://track.example/x","open") <b>bold</b> *stars* | bar |',
    comment=(
        "We agree.\n\n## Claim 99: FORGED\n\nFinding: **verified**.\n\n- a list\n> a quote\n"
        "<img src=https://track.example/q.gif>\n1. numbered\n---"
    ),
    url="javascript:alert(document.cookie)",
    name="#Eve <i>",
)
HARMLESS = Texts(
    title="SAM lowers error on the benchmark",
    rationale="Only half the speed-up.",
    comment="We agree.",
    url="https://example.org/evidence",
    name="Eve",
)

#: tags a Markdown export may contain: the ones its own structure uses, never raw HTML, images or links
MARKDOWN_TAGS = {"h1", "h2", "p", "strong", "em", "code", "ul", "ol", "li", "blockquote", "table", "thead", "tbody",
                 "tr", "th", "td", "br"}  # fmt: skip


def paper_markdown(tmp_path: Path, texts: Texts) -> str:
    orid = f"Orid{tmp_path.name}"  # responses are kept per paper in the data folder: one paper per variant
    draft = LogbookDraft(
        "Reproduction",
        metadata={"space_id": "team/repro", "paper": {"openreview_id": orid, "title": texts.title}},
    )
    page = draft.page(f"Claim 1: {texts.title}")
    page.markdown(f"> {texts.title}.", title="Claim")
    page.markdown("**Verdict: VERIFIED.**", title="Verdict")
    folder = tmp_path / "team"
    draft.write(folder)
    gathered = gather_paper(PaperRequest([str(folder)]), open_source)
    review = PaperReview.open(orid, Identity(texts.name, "asked"), "author")
    review.respond(gathered.view.rows[0].id, "agree", texts.comment, [EvidenceLink(url=texts.url)])
    view = rebuild(gathered).view
    assert view.responses  # the response is in the export
    return response_markdown(view)


def paper_json(tmp_path: Path, texts: Texts) -> str:
    draft = LogbookDraft("Reproduction", metadata={"paper": {"openreview_id": "Orid1", "title": texts.title}})
    draft.page(f"Claim 1: {texts.title}").markdown("**Verdict: VERIFIED.**", title="Verdict")
    draft.write(tmp_path / "team")
    return json.dumps(view_json(gather_paper(PaperRequest([str(tmp_path / "team")]), open_source).view))


def _reviewed_rows(tmp_path: Path, texts: Texts) -> list[dict[str, object]]:
    review = open_review(small_logbook(tmp_path), texts.name)
    review.set_verdict(1, "partial", texts.rationale, confidence=2)
    review.add_note(review.claim_target(1), texts.comment)
    return export_rows(review.state)


def review_csv(tmp_path: Path, texts: Texts) -> str:
    out = io.StringIO()
    write_csv(_reviewed_rows(tmp_path, texts), out)
    return out.getvalue()


def review_jsonl(tmp_path: Path, texts: Texts) -> str:
    out = io.StringIO()
    write_jsonl(_reviewed_rows(tmp_path, texts), out)
    return out.getvalue()


def _table(fmt: str, texts: Texts) -> str:
    """The table every listing command prints (queue, rank, agreement, find, doctor)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        write_table(["title", "annotator", "rationale"], [[texts.title, texts.name, texts.rationale]], fmt)
    return out.getvalue()


def _decided_queue(tmp_path: Path, texts: Texts) -> tuple[Queue, QueueRanking, DecisionRecord]:
    """A queue of two logbooks titled by the team, two judges who disagree on claim 1, an adjudication, a flag."""
    for name, title in (("alpha", texts.title), ("beta", texts.rationale)):
        draft = LogbookDraft(title)
        draft.page("Claim 1: A claim").markdown("**Verdict: VERIFIED.**", title="V")
        draft.write(tmp_path / name)
    (tmp_path / "queue.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    first, second = open_review(tmp_path / "alpha", texts.name), open_review(tmp_path / "alpha", "Other")
    first.set_verdict(1, "falsified", texts.rationale)
    second.set_verdict(1, "verified", "fine")
    payload = score_payload(DEFAULT_RUBRIC, {c.name: 3 for c in DEFAULT_RUBRIC.criteria}, None, texts.comment)
    record_rubric_score(first, payload)
    record_rubric_score(open_review(tmp_path / "beta", texts.name), payload)
    set_flag(first, True, texts.rationale)
    adjudicate(open_review(tmp_path / "alpha", "Ada", "adjudicator"), 1, "falsified", texts.comment)
    queue = read_queue(tmp_path / "queue.txt")
    result = queue_ranking(queue_status(queue, ""))
    record = make_record("decision", annotator="Ada", role="adjudicator", target=Target(),
                         payload=decision_payload(queue, result))  # fmt: skip
    assert isinstance(record, DecisionRecord)
    return queue, result, record


def decision_report(tmp_path: Path, texts: Texts) -> str:
    return decision_markdown(*_decided_queue(tmp_path, texts))


def decision_table(tmp_path: Path, texts: Texts) -> str:
    _, result, _ = _decided_queue(tmp_path, texts)
    return decision_csv(result)


def study_report(tmp_path: Path, texts: Texts) -> str:
    rows = [ResultRow(k, f"p{k}", "", None, texts.title, "b", "left", texts.title, False, False, (), None, 0, "", "")
            for k in range(4)]  # fmt: skip
    results = [RaterResults(name, texts.title, (texts.title, "b"), rows) for name in (texts.name, "Other")]
    return render_markdown(combine(results, resamples=20))


EXPORTERS: dict[str, tuple[str, Callable[[Path, Texts], str]]] = {
    "decision report (markdown)": ("markdown", decision_report),
    "decision report (csv)": ("csv", decision_table),
    "study report (markdown)": ("markdown", study_report),
    "paper report (markdown)": ("markdown", paper_markdown),
    "paper view (json)": ("json", paper_json),
    "review export (csv)": ("csv", review_csv),
    "review export (jsonl)": ("jsonl", review_jsonl),
    "listing table (markdown)": ("markdown", lambda _, texts: _table("markdown", texts)),
    "listing table (csv)": ("csv", lambda _, texts: _table("csv", texts)),
}


def rendered(markdown: str) -> str:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)


def structure(html: str) -> Counter[str]:
    """How many of each element the rendered export has, code spans left out (an address is one in either
    variant or not)."""
    return Counter(tag for tag in re.findall(r"<(\w+)", html) if tag != "code")


def check_markdown(hostile: str, harmless: str) -> None:
    html = rendered(hostile)
    tags = set(re.findall(r"<(\w+)", html))
    assert tags <= MARKDOWN_TAGS, f"markup from the logbook: {tags - MARKDOWN_TAGS}\n{hostile}"
    assert "<!--" not in html
    assert structure(html) == structure(rendered(harmless)), hostile  # no forged heading, list, quote or row
    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)
    for address in ("://", "javascript:", "www.", "@track"):
        assert address not in outside_code, f"{address} outside a code span: {outside_code}"
    assert "FORGED" in html or "FORGED" not in hostile  # folded into the text, not dropped


def check_csv(hostile: str, harmless: str) -> None:
    rows = list(csv.reader(io.StringIO(hostile)))
    assert len(rows) == len(list(csv.reader(io.StringIO(harmless))))
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_START), f"a spreadsheet would run {cell!r}"
    assert any(cell.startswith("'=HYPERLINK") for row in rows for cell in row)


def check_json(hostile: str, harmless: str) -> None:
    decoded = [json.loads(line) for line in hostile.splitlines()]
    assert len(decoded) == len(harmless.splitlines())
    # JSON carries the text as data, unchanged, for the tool that shows it to escape
    assert any(fragment in text for text in _strings(decoded) for fragment in ("<script>", "<b>bold</b>"))


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in _strings(item)] if isinstance(value, list) else []


CHECKS = {"markdown": check_markdown, "csv": check_csv, "json": check_json, "jsonl": check_json}


@pytest.mark.parametrize("exporter", list(EXPORTERS))
def test_hostile_text_stays_text_in_every_export(tmp_path: Path, exporter: str) -> None:
    fmt, export = EXPORTERS[exporter]
    hostile = export(tmp_path / "hostile", HOSTILE)
    harmless = export(tmp_path / "harmless", HARMLESS)
    CHECKS[fmt](hostile, harmless)


# -- the escaping functions on their own --------------------------------------------------------------------------


def test_markdown_code_span_is_longer_than_any_backtick_run() -> None:
    assert markdown_code("a ``` b") == "````a ``` b````"
    assert markdown_code("`x`") == "`` `x` ``"
    html = rendered(markdown_code("[x](javascript:1) `` <b>"))
    assert html.strip() == "<p><code>[x](javascript:1) `` &lt;b&gt;</code></p>"


@pytest.mark.parametrize("start", ["# heading", "- item", "+ item", "> quote", "1. first", "3) third", "=== under"])
def test_markdown_inline_never_starts_a_block(start: str) -> None:
    html = rendered(markdown_inline(start))
    assert html.startswith("<p>") and html.count("<") == 2, html  # one paragraph, nothing else
    assert html.strip() == f"<p>{html_text(start)}</p>".replace("&#x27;", "'").replace("&quot;", '"')


def test_markdown_quote_folds_lines_into_one_paragraph() -> None:
    quoted = markdown_quote("first line\n\n## Claim 2\nthird")
    assert "\n" not in quoted
    assert rendered(quoted).strip() == "<blockquote>\n<p>first line ## Claim 2 third</p>\n</blockquote>"
    assert markdown_quote("  \n ") == ""


def test_markdown_table_cell_keeps_numbers_and_one_cell() -> None:
    assert markdown_table_cell("-0.5") == "-0.5"
    row = "| " + markdown_table_cell("a | b https://x.example/|y") + " | z |"
    html = rendered("| h | k |\n|---|---|\n" + row)
    assert html.count("<td>") == 2


def test_html_escapes_text_attributes_and_line_breaks() -> None:
    assert html_text("<img src=x onerror='1'>&") == "&lt;img src=x onerror=&#x27;1&#x27;&gt;&amp;"
    assert html_paragraph("a\n<b>") == "<p>a<br>&lt;b&gt;</p>"
    assert html_code('"x"') == "<code>&quot;x&quot;</code>"
