"""Mangled pages and JSON files thrown at the reader: no exception ever escapes."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewapp.core.logbook.cell_details import artifact_details, code_details, dashboard_details, figure_details
from reviewapp.core.logbook.model import CellKind
from reviewapp.core.logbook.reader import read_logbook

FRAGMENTS = st.sampled_from(
    [
        "---\n<!-- trackio-cell\n",
        '{"type": "code", "command": ["python", "x.py"], "exit_code": 1}\n-->\n',
        '{"type": "figure"}\n-->\n',
        '{"type": "artifact", "size": "big"}\n-->\n',
        '{"type": "dashboard"}\\n-->\n',
        '{"type": ' + "[" * 50,
        "-->\n",
        "\n",
        "# Claim 3: Title\n",
        "## Verdict: FALSIFIED\n",
        "**Verdict: not verified** only if\n",
        "````output\n",
        "````\n",
        "~~~raw\nx,y\n~~~\n",
        '````html\n<img src="data:image/png;base64,iVBORw0KGgo=">\n````\n',
        "| Claim | Verdict |\n|---|---|\n| 2 | TOY |\n",
        "[link](#/missing)\n",
        "[up](../../../etc/passwd)\n",
        "\r\n",
        "\ufeff",
        "\x00",
        "claim-1-x",
        "exit 1 · 3.0s\n",
        "All claims verified.\n",
    ]
)
PAGE = st.lists(st.one_of(FRAGMENTS, st.text(max_size=40)), max_size=30).map("".join)
JSON_ISH = st.one_of(
    st.binary(max_size=200),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
        max_leaves=20,
    ).map(lambda value: json.dumps(value).encode()),
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_all_details(logbook) -> None:
    """What the window does with each cell must not raise either."""
    for page in logbook.pages:
        for cell in page.cells:
            if cell.kind is CellKind.CODE:
                code_details(cell)
            elif cell.kind is CellKind.FIGURE:
                for image in figure_details(cell).images:
                    with contextlib.suppress(ValueError):
                        image.data(10_000)
            elif cell.kind is CellKind.ARTIFACT:
                artifact_details(cell)
            elif cell.kind is CellKind.DASHBOARD:
                dashboard_details(cell)


@SETTINGS
@given(pages=st.lists(st.tuples(PAGE, st.binary(max_size=30)), min_size=1, max_size=4), index=PAGE)
def test_mangled_pages_never_raise(pages, index) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / ".trackio" / "logbook"
        (root / "pages").mkdir(parents=True)
        (root / "pages" / "index.md").write_text(index, encoding="utf-8", errors="surrogatepass")
        for number, (text, noise) in enumerate(pages):
            folder = root / "pages" / f"claim-{number}-x"
            folder.mkdir()
            (folder / "page.md").write_bytes(text.encode("utf-8", "surrogatepass") + noise)
        logbook = read_logbook(Path(tmp))
        assert logbook.pages[0].slug == "index"
        read_all_details(logbook)


@SETTINGS
@given(manifest=JSON_ISH, metadata=JSON_ISH, traces=JSON_ISH, session=JSON_ISH, workspace=JSON_ISH, chunk=JSON_ISH)
def test_mangled_json_files_never_raise(manifest, metadata, traces, session, workspace, chunk) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / ".trackio" / "logbook"
        (root / "pages" / "claim-1-a").mkdir(parents=True)
        (root / "traces" / "s").mkdir(parents=True)
        (root / "pages" / "index.md").write_text("# T\n")
        (root / "pages" / "claim-1-a" / "page.md").write_text("# Claim 1: A\nVerdict: TOY\n")
        (root / "logbook.json").write_bytes(manifest)
        (Path(tmp) / ".trackio" / "metadata.json").write_bytes(metadata)
        (root / "traces" / "index.json").write_bytes(traces)
        (root / "traces" / "s" / "index.json").write_bytes(session)
        (root / "traces" / "s" / "events-0000.json").write_bytes(chunk)
        (root / "workspace.json").write_bytes(workspace)
        logbook = read_logbook(Path(tmp))
        assert [c.key for c in logbook.claims] == ["claim-1-a#1"]
