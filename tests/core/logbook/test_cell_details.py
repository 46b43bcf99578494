"""Type-specific reading of cells, done lazily when a cell is shown."""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewapp.core.logbook.cell_details import (
    artifact_details,
    code_details,
    dashboard_details,
    fence_spans,
    fences,
    figure_details,
    output_fence,
    output_text,
    prose,
)
from reviewapp.core.logbook.model import Cell, CellKind
from reviewapp.core.logbook.page_parser import parse_page
from reviewapp.core.logbook.writer import PageDraft, png_bytes


def cells_of(draft: PageDraft):
    return parse_page(draft.text(), draft.slug, "f").cells


def test_run_cell() -> None:
    long_output = "head\n... [123,456 chars elided] ...\ntail"
    [cell] = cells_of(PageDraft("P", "p").run(["python", "train.py", "--lr", "3e-4"], long_output, 2, 42.31))
    details = code_details(cell)
    assert details.command == ["python", "train.py", "--lr", "3e-4"]
    assert details.command_line == "python train.py --lr 3e-4"
    assert (details.exit_code, details.duration_s) == (2, 42.31)
    assert details.status_line == "exit 2 · 42.3s"
    assert details.output.text == long_output and details.elided_chars == 123456


def test_code_cell_with_attachments_and_result_fence() -> None:
    body = (
        "````bash\n$ python a.py\n````\n\nexit 0 · 1.0s\n\n````python title=a.py\nprint(1)\n````\n\n````result\n1\n````"
    )
    [cell] = parse_page('# P\n\n---\n<!-- trackio-cell\n{"type": "code"}\n-->\n' + body, "p", "f").cells
    details = code_details(cell)
    assert details.command is None and details.command_line == "python a.py" and details.exit_code == 0
    assert [(a.title, a.text) for a in details.attachments] == [("a.py", "print(1)")]
    assert details.output.lang == "result" and details.output.text == "1"


# Pieces of a run cell's body: fences of every language the reader tells apart, unclosed and mismatched fences,
# inline backticks and status lines, so that the output's position and the lines before it vary.
_BODY_PIECES = st.sampled_from(
    [
        "````bash\n$ python a.py\n````\n",
        "```sh\n$ ./run.sh --x\n$ second\n```\n",
        "````python title=a.py\nprint('```output')\n````\n",
        "```title=notes.txt\nnotes\n```\n",
        "````output\nloss 0.1\nverdict: VERIFIED\n````\n",
        "```output\n\n```\n",
        '~~~result\n{"verdict": "toy"}\n~~~\n',
        "```  output  extra\nx\n```\n",
        "```text\nplain\n```\n",
        "````output\nnever closed\n",
        "```\n",
        "inline ```output``` here\n",
        "exit 1 · 2.0s\n",
        "\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_BODY_PIECES, max_size=8))
def test_output_fence_is_the_output_code_details_finds(pieces: list[str]) -> None:
    body = "".join(pieces)
    cell = Cell("p", 0, CellKind.CODE, "code", None, "", {"type": "code"}, body, 1, 4)
    assert output_fence(cell) == code_details(cell).output


@settings(max_examples=300, deadline=None)
@given(st.lists(_BODY_PIECES | st.sampled_from(["~~~\n", "x ~~~ y\n", "~~~~ ~~~\n", "```~~~\n", "a```b"]), max_size=10))
def test_fences_are_those_a_line_by_line_reading_finds(pieces: list[str]) -> None:
    body = "".join(pieces)
    assert [(f.start, f.info, f.content_start, f.content_end, f.end) for f in fence_spans(body)] == _line_by_line(body)


def _line_by_line(body: str) -> list[tuple[int, str, int, int, int]]:
    """Trackio's rule read the plain way: a line of three or more backticks or tildes opens a block (unless its
    info holds a backtick), and the first later line that is the same fence and blanks only closes it."""
    lines, offset = [], 0
    for line in body.split("\n"):
        lines.append((line, offset))
        offset += len(line) + 1
    found, index = [], 0
    while index < len(lines):
        line, start = lines[index]
        opening = re.match(r"(`{3,}|~{3,})(.*)$", line)
        index += 1
        if not opening or "`" in opening.group(2):
            continue
        fence, content_start = opening.group(1), start + len(line) + 1
        close = next(
            (j for j in range(index, len(lines)) if re.fullmatch(re.escape(fence) + "[ \t]*", lines[j][0])), None
        )
        if close is None:
            return [*found, (start, opening.group(2), content_start, len(body), len(body))]
        found.append((start, opening.group(2), content_start, lines[close][1], lines[close][1] + len(lines[close][0])))
        index = close + 1
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(_BODY_PIECES, max_size=8))
def test_output_text_is_the_output_fences_text_and_where_it_starts(pieces: list[str]) -> None:
    body = "".join(pieces)
    cell = Cell("p", 0, CellKind.CODE, "code", None, "", {"type": "code"}, body, 1, 4)
    fence, found = output_fence(cell), output_text(cell)
    assert (found is None) == (fence is None)
    if fence is not None and found is not None:
        text, start = found
        assert text == fence.text and body[start : start + len(text)] == text
        assert body.count("\n", 0, start) == fence.line  # the content starts on the line after the opening fence


def test_fences_need_the_same_closing_fence() -> None:
    body = "````html\n<p>```inner```</p>\n```\nstill html\n````\n\n~~~raw\nx,y\n~~~"
    assert [(f.lang, f.text) for f in fences(body)] == [("html", "<p>```inner```</p>\n```\nstill html"), ("raw", "x,y")]


def test_figure_images_decode_lazily_and_respect_a_limit() -> None:
    from PIL import Image

    png = png_bytes(Image.new("RGB", (8, 8), "red"))
    [cell] = cells_of(PageDraft("P", "p").figure_png(png, "Loss", raw="step,loss\n0,1.0"))
    details = figure_details(cell)
    assert details.raw == "step,loss\n0,1.0" and not details.has_script and not details.is_full_document
    [image] = details.images
    assert image.mime == "image/png" and image.data(10_000) == png
    with pytest.raises(ValueError, match="over 10"):
        image.data(10)


def test_full_page_figures_with_scripts_are_flagged() -> None:
    b64 = base64.b64encode(b"\x89PNG fake").decode()
    html = (
        '<!DOCTYPE html><html><head><script src="https://cdn.plot.ly/plotly-2.0.min.js"></script></head>'
        f'<body><img src="data:image/jpeg;base64,{b64}"><svg width="2"><rect/></svg>'
        "<script>alert(1)</script></body></html>"
    )
    [cell] = cells_of(PageDraft("P", "p").figure_html(html, "Poster"))
    details = figure_details(cell)
    assert details.has_script and details.is_full_document and details.is_poster
    assert details.remote_urls == ["https://cdn.plot.ly/plotly-2.0.min.js"]
    assert [i.mime for i in details.images] == ["image/jpeg"] and len(details.svgs) == 1


def test_corrupt_base64_is_an_error_not_a_crash() -> None:
    [cell] = cells_of(PageDraft("P", "p").figure_html('<img src="data:image/png;base64,@@@@">', "Bad"))
    [image] = figure_details(cell).images
    assert image.encoded_size == 0
    with pytest.raises(ValueError, match="empty"):
        image.data(100)


def test_artifact_and_dashboard_cells() -> None:
    draft = PageDraft("P", "p").artifact_path("out/metrics.csv", 2048)
    draft.raw_cell(
        {"type": "artifact", "artifact": "proj/eval-set:v2", "artifact_type": "dataset"},
        "**📦 Artifact** `proj/eval-set:v2` · dataset · 3 files · 4.2 MB\n\n"
        "https://huggingface.co/buckets/me/x-artifacts#proj/eval-set:v2",
    )
    draft.raw_cell(
        {"type": "dashboard", "dashboard_project": "sweeps"}, "Dashboard sweeps\n\ntrackio-local-dashboard://sweeps"
    )
    local, published, board = cells_of(draft)
    a = artifact_details(local)
    assert (a.path, a.size_bytes, a.scheme, a.uri) == (
        "out/metrics.csv",
        2048,
        "trackio-local-path",
        "trackio-local-path://out/metrics.csv",
    )
    b = artifact_details(published)
    assert (b.name, b.artifact_type, b.size_bytes, b.scheme) == ("proj/eval-set:v2", "dataset", 4_200_000, "https")
    d = dashboard_details(board)
    assert (d.project, d.uri) == ("sweeps", "trackio-local-dashboard://sweeps")


def test_fence_edges_are_found_by_line_not_by_substring() -> None:
    body = "\n".join(
        [
            "see ```inline``` and a~~~b",  # not at a line start: no fence
            "```js `x`",  # a backtick in the info: not an opening
            "~~~~ title=a.py",
            "```",  # inside the tilde block: text
            "~~~  \t",  # shorter than its opening: text too
            "~~~~ \t",  # the closing line may carry blanks
            "exit 3",
            "```output",
            "no closing fence, so the block runs to the end",
        ]
    )
    found = fences(body)
    assert [(f.lang, f.title, f.line) for f in found] == [("", "a.py", 3), ("output", None, 8)]
    assert found[0].text == "```\n~~~  \t"
    assert found[1].text == "no closing fence, so the block runs to the end"
    text = prose(body)
    assert text.startswith("see ```inline``` and a~~~b\n```js `x`\n") and "exit 3" in text
    assert "a.py" not in text and "closing" not in text and "~~~~" not in text
