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


DISK = ["claim-1-a", "claim-2b-b", "historical-claim-1", "current-index", "notes"]
NODE_SLUGS = st.sampled_from([*DISK, "missing-page", "group", "index"])
TITLES = st.sampled_from(["Claim 1: A", "Historical: Claim 2", "Archive", "Current verification", "", "Old claims"])


def manifest_nodes(depth: int = 0):
    children = st.lists(st.deferred(lambda: manifest_nodes(depth + 1)), max_size=3) if depth < 3 else st.just([])
    return st.fixed_dictionaries(
        {"slug": NODE_SLUGS, "title": TITLES},
        optional={
            "file": st.sampled_from([*(f"pages/{s}/page.md" for s in DISK), "pages/missing/page.md", "pages/index.md"]),
            "children": children,
        },
    )


@SETTINGS
@given(tree=manifest_nodes())
def test_any_manifest_tree_keeps_every_page_on_disk_exactly_once(tree) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / ".trackio" / "logbook"
        for slug in DISK:
            (root / "pages" / slug).mkdir(parents=True)
            (root / "pages" / slug / "page.md").write_text(f"# {slug}\n\nVerdict: verified.\n", encoding="utf-8")
        (root / "pages" / "index.md").write_text("# T\n", encoding="utf-8")
        (root / "logbook.json").write_text(json.dumps({"schema_version": 2, "root": tree}), encoding="utf-8")
        logbook = read_logbook(Path(tmp))
        files = sorted(p.file for p in logbook.pages)
        assert files == sorted(["pages/index.md", *(f"pages/{s}/page.md" for s in DISK)])  # none lost, none twice
        assert len({p.slug for p in logbook.pages}) == len(logbook.pages)
        assert all(p.status in ("current", "superseded", "orphan") for p in logbook.pages)
        assert all(p.status == "orphan" for p in logbook.pages if not p.in_manifest)
        assert len({c.key for c in logbook.claims}) == len(logbook.claims)
        assert all(logbook.claim(c.key) is c for c in logbook.claims)
        made_up = ("pages/missing-page/page.md", "pages/group/page.md")  # only ever implied, never named
        assert not [p for p in logbook.problems if any(path in p.message for path in made_up)]
