"""Generated logbooks for each layout and edge case the reader must survive (logbook-format.md §15)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.traces import iter_events
from reviewapp.core.logbook.writer import LogbookDraft, write_trace


def basic(workspace: Path, **kwargs) -> Path:
    draft = LogbookDraft(
        "Reproduction: Widgets", metadata={"space_id": "me/repro-widgets", "tags": ["paper-AbCdEf1234"]}
    )
    draft.page("Executive summary").markdown("Summary.", title="Executive summary")
    draft.page("Claim 1: First").markdown("**Verdict: VERIFIED.**")
    draft.page("Claim 2: Second").markdown("## Verdict: FALSIFIED")
    draft.page("Conclusion").markdown("Done.")
    return draft.write(workspace, **kwargs)


def problems_about(logbook, needle: str) -> list:
    return [p for p in logbook.problems if needle in p.message]


def test_workspace_trackio_and_logbook_folders_open_alike(tmp_path: Path) -> None:
    root = basic(tmp_path / "ws")
    for source in (tmp_path / "ws", tmp_path / "ws" / ".trackio", root):
        logbook = read_logbook(source)
        assert logbook.root == root.resolve()
        assert logbook.layout == "workspace" and logbook.workspace == (tmp_path / "ws").resolve()
        assert [c.key for c in logbook.claims] == ["claim-1-first#1", "claim-2-second#2"]
        assert logbook.paper_id == "AbCdEf1234" and logbook.space_id == "me/repro-widgets"


def test_space_snapshot_layout(tmp_path: Path) -> None:
    root = basic(tmp_path / "ws")
    space = tmp_path / "space"
    root.rename(space)
    logbook = read_logbook(space)
    assert logbook.layout == "space" and logbook.workspace is None and logbook.metadata == {}
    assert logbook.space_id == "me/repro-widgets"  # from the manifest when there is no metadata.json
    assert len(logbook.claims) == 2


def test_not_a_logbook(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotALogbookError, match="not a logbook"):
        read_logbook(tmp_path / "empty")
    with pytest.raises(NotALogbookError, match="no such folder"):
        read_logbook(tmp_path / "missing")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(NotALogbookError, match="not a folder"):
        read_logbook(tmp_path / "file.txt")


def test_not_a_logbook_names_logbooks_found_below(tmp_path: Path) -> None:
    basic(tmp_path / "repo" / "submissions" / "one")
    with pytest.raises(NotALogbookError, match=r"found below it: submissions/one"):
        read_logbook(tmp_path / "repo")


def test_missing_manifest_is_rebuilt_in_toc_order(tmp_path: Path) -> None:
    root = basic(tmp_path, manifest=False)
    (root / "pages" / "zz-orphan").mkdir()
    (root / "pages" / "zz-orphan" / "page.md").write_text("# Orphan\n")
    logbook = read_logbook(tmp_path)
    assert [p.slug for p in logbook.pages] == [
        "index", "executive-summary", "claim-1-first", "claim-2-second", "conclusion", "zz-orphan",
    ]  # fmt: skip
    assert logbook.manifest is None and all(p.in_manifest for p in logbook.pages)


def test_stale_manifest_keeps_unlisted_pages_and_skips_missing_ones(tmp_path: Path) -> None:
    root = basic(tmp_path)
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["root"]["children"].append({"slug": "gone", "title": "Gone", "file": "pages/gone/page.md"})
    manifest["root"]["children"] = [c for c in manifest["root"]["children"] if c["slug"] != "conclusion"]
    manifest["root"]["children"][0]["title"] = "Summary (hand-written title)"
    (root / "logbook.json").write_text(json.dumps(manifest))
    logbook = read_logbook(tmp_path)
    assert [p.slug for p in logbook.pages][-1] == "conclusion"
    assert logbook.page("conclusion").in_manifest is False
    assert logbook.page("executive-summary").title == "Summary (hand-written title)"
    assert logbook.page("executive-summary").h1_title == "Executive summary"
    assert logbook.page("gone") is None
    assert problems_about(logbook, "'gone' is listed but pages/gone/page.md is missing")
    assert problems_about(logbook, "not in logbook.json")


def test_manifest_paths_that_leave_the_root_are_refused(tmp_path: Path) -> None:
    root = basic(tmp_path / "ws")
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\nTOP SECRET")
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["root"]["children"] += [
        {"slug": "up", "title": "Up", "file": "../../../secret.md"},
        {"slug": "abs", "title": "Abs", "file": str(secret)},
    ]
    (root / "logbook.json").write_text(json.dumps(manifest))
    logbook = read_logbook(tmp_path / "ws")
    assert logbook.page("up") is None and logbook.page("abs") is None
    assert len(problems_about(logbook, "refused")) == 2
    assert all("TOP SECRET" not in c.body for p in logbook.pages for c in p.cells)


def test_symlinked_page_folder_pointing_outside_is_refused(tmp_path: Path) -> None:
    root = basic(tmp_path / "ws")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "page.md").write_text("# Outside\nLEAKED")
    os.symlink(outside, root / "pages" / "sneaky")
    logbook = read_logbook(tmp_path / "ws")
    assert logbook.page("sneaky") is None
    assert problems_about(logbook, "leads outside")


def test_symlink_inside_the_root_is_followed(tmp_path: Path) -> None:
    root = basic(tmp_path / "ws")
    os.symlink(root / "pages" / "conclusion", root / "pages" / "alias")
    logbook = read_logbook(tmp_path / "ws")
    assert logbook.page("alias") is not None


def test_dangling_toc_links_and_duplicate_ids(tmp_path: Path) -> None:
    root = basic(tmp_path)
    index = root / "pages" / "index.md"
    index.write_text(index.read_text() + "| [Renamed](#/renamed-page) |\n")
    page = root / "pages" / "conclusion" / "page.md"
    page.write_text(page.read_text() + page.read_text().split("\n", 2)[2])
    logbook = read_logbook(tmp_path)
    [dangling] = problems_about(logbook, "renamed-page")
    assert dangling.file == "pages/index.md" and dangling.line == len(index.read_text().splitlines())
    [duplicate] = problems_about(logbook, "duplicate cell id")
    assert duplicate.file == "pages/conclusion/page.md" and duplicate.line > 3


def test_legacy_nested_pages_without_manifest(tmp_path: Path) -> None:
    root = basic(tmp_path, manifest=False)
    child = root / "pages" / "claim-1-first" / "ablation"
    child.mkdir()
    (child / "page.md").write_text("# Ablation\n")
    logbook = read_logbook(tmp_path)
    page = logbook.page("ablation")
    assert page is not None and page.depth == 2 and page.parent == "claim-1-first"


def test_nested_manifest_tree(tmp_path: Path) -> None:
    root = basic(tmp_path)
    child = root / "pages" / "claim-1-first" / "detail"
    child.mkdir()
    (child / "page.md").write_text("# Detail\n")
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["root"]["children"][1]["children"] = [
        {"slug": "detail", "title": "Detail", "file": "pages/claim-1-first/detail/page.md", "children": []}
    ]
    (root / "logbook.json").write_text(json.dumps(manifest))
    logbook = read_logbook(tmp_path)
    slugs = [p.slug for p in logbook.pages]
    assert slugs.index("detail") == slugs.index("claim-1-first") + 1
    assert logbook.page("detail").depth == 2 and logbook.page("detail").parent == "claim-1-first"


@pytest.mark.parametrize(
    ("paper", "tags", "expected"),
    [
        ({"openreview_id": "AbCdEf1234", "arxiv_id": ""}, [], "AbCdEf1234"),
        (None, ["icml2026-repro", "paper-10218", "paper-GW3umRqsZZ"], "GW3umRqsZZ"),
        ("A bare paper title", [], "A bare paper title"),
        ({"arxiv_id": "2607.01234"}, ["paper-odd"], "odd"),
        (None, [], None),
    ],
)
def test_metadata_paper_field_drift(tmp_path: Path, paper, tags, expected) -> None:
    basic(tmp_path)
    (tmp_path / ".trackio" / "metadata.json").write_text(json.dumps({"paper": paper, "tags": tags}))
    manifest_path = tmp_path / ".trackio" / "logbook" / "logbook.json"
    manifest = json.loads(manifest_path.read_text())
    manifest.update(paper=None, tags=[])
    manifest_path.write_text(json.dumps(manifest))
    assert read_logbook(tmp_path).paper_id == expected


@pytest.mark.parametrize("content", [b"{not json", b"[1, 2]", b"\xff\xfe garbage", b"[" * 100_000])
def test_broken_metadata_and_manifest_are_problems_not_failures(tmp_path: Path, content: bytes) -> None:
    root = basic(tmp_path)
    (tmp_path / ".trackio" / "metadata.json").write_bytes(content)
    (root / "logbook.json").write_bytes(content)
    logbook = read_logbook(tmp_path)
    assert len(logbook.claims) == 2
    files = {p.file for p in logbook.problems}
    assert {"../metadata.json", "logbook.json"} <= files


def test_a_folder_in_place_of_a_page_file_is_reported(tmp_path: Path) -> None:
    root = basic(tmp_path)
    page = root / "pages" / "conclusion" / "page.md"
    page.unlink()
    page.mkdir()
    logbook = read_logbook(tmp_path)
    assert logbook.page("conclusion") is None
    assert problems_about(logbook, "pages/conclusion/page.md is missing")


def test_traces_listed_but_missing(tmp_path: Path) -> None:
    root = basic(tmp_path)
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["traces"] = [{"id": "gone-session", "event_count": 372, "index_file": "traces/gone-session/index.json"}]
    (root / "logbook.json").write_text(json.dumps(manifest))
    [trace] = read_logbook(tmp_path).traces
    assert (trace.id, trace.event_count, trace.available) == ("gone-session", 372, False)


def test_trace_events_are_read_lazily_by_range(tmp_path: Path) -> None:
    root = basic(tmp_path)
    events = [
        {"id": f"event-{i}", "sequence": i, "kind": "assistant", "title": "A", "text": f"t{i}"} for i in range(1, 451)
    ]
    write_trace(root, "s1", events)
    logbook = read_logbook(tmp_path)
    [trace] = logbook.traces
    assert trace.available and trace.event_count == 450 and len(trace.chunks) == 3
    # Break a chunk we will not touch: reading an early range must not open it.
    (root / trace.chunks[2].file).write_text("{broken")
    picked = list(iter_events(logbook.root, trace, 195, 205))
    assert [e.sequence for e in picked] == list(range(195, 206))
    assert list(iter_events(logbook.root, trace, 401)) == []


def test_trace_with_a_missing_chunk_and_an_escaping_chunk(tmp_path: Path) -> None:
    root = basic(tmp_path)
    events = [{"sequence": i, "kind": "user", "text": "x"} for i in range(1, 301)]
    write_trace(root, "s1", events)
    index = root / "traces" / "s1" / "index.json"
    data = json.loads(index.read_text())
    data["chunks"][1]["file"] = "../../../../etc/passwd"
    index.write_text(json.dumps(data))
    logbook = read_logbook(tmp_path)
    assert logbook.traces[0].available is False
    assert problems_about(logbook, "trace chunk refused")


def test_workspace_files_resolve_only_inside_the_workspace(tmp_path: Path) -> None:
    root = basic(tmp_path / "ws")
    (tmp_path / "ws" / "out").mkdir()
    (tmp_path / "ws" / "out" / "metrics.csv").write_text("a,b\n")
    files = [{"path": "out/metrics.csv", "size": 4, "type": "dataset"}, {"path": "../../etc/passwd", "size": 1}]
    (root / "workspace.json").write_text(json.dumps({"files": files}))
    metadata = json.loads((tmp_path / "ws" / ".trackio" / "metadata.json").read_text())
    metadata["local_path_artifacts"] = [{"path": "C:\\Users\\me\\model.pt", "abs_path": "C:\\Users\\me\\model.pt"}]
    (tmp_path / "ws" / ".trackio" / "metadata.json").write_text(json.dumps(metadata))
    logbook = read_logbook(tmp_path / "ws")
    by_path = {f.path: f for f in logbook.workspace_files}
    assert by_path["out/metrics.csv"].local_path == (tmp_path / "ws" / "out" / "metrics.csv").resolve()
    assert by_path["../../etc/passwd"].local_path is None
    assert by_path["C:\\Users\\me\\model.pt"].local_path is None
    assert len(problems_about(logbook, "workspace file refused")) == 2


def test_huge_page_opens_truncated_without_failing_the_rest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewapp.core.logbook import reader

    basic(tmp_path)
    monkeypatch.setattr(reader, "PAGE_LIMIT", 200)
    logbook = read_logbook(tmp_path)
    assert logbook.page("claim-1-first") is not None  # small pages still load
    page = tmp_path / ".trackio" / "logbook" / "pages" / "conclusion" / "page.md"
    page.write_text("# Conclusion\n" + "x" * 500)
    logbook = read_logbook(tmp_path)
    conclusion = logbook.page("conclusion")
    assert conclusion is not None and conclusion.title == "Conclusion" and conclusion.size == 513
    assert problems_about(logbook, "over the 200 bytes a page may have; only its first 13 bytes are shown")


def test_progress_and_cancel(tmp_path: Path) -> None:
    from reviewapp.core.progress import Cancelled, CancelToken

    basic(tmp_path)
    seen: list[tuple[int, int, str]] = []
    read_logbook(tmp_path, progress=lambda done, total, label: seen.append((done, total, label)))
    assert [s[0] for s in seen] == [1, 2, 3, 4] and {s[1] for s in seen} == {4}
    token = CancelToken()
    with pytest.raises(Cancelled):
        read_logbook(tmp_path, progress=lambda *_: token.cancel(), cancel=token)
