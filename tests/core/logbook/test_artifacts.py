"""Artifact cells and workspace files in one list; local files found only inside the workspace."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.artifacts import list_artifacts
from reviewapp.core.logbook.demo import write_demo
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft


def test_demo_lists_its_artifact_cell_and_workspace_files(tmp_path: Path) -> None:
    logbook = read_logbook(write_demo(tmp_path))
    entries = list_artifacts(logbook)
    [cell] = [e for e in entries if e.source == "cell"]
    assert (cell.name, cell.type, cell.size) == ("out/metrics.csv", "dataset", 2048)
    assert cell.page == logbook.claim(1).page and cell.local_path == (tmp_path / "out" / "metrics.csv").resolve()
    images = [e for e in entries if e.source == "workspace" and e.is_image]
    assert len(images) == 16 and all(e.local_path and e.local_path.is_file() for e in images)


def test_paths_outside_the_workspace_are_listed_but_not_resolved(tmp_path: Path) -> None:
    (tmp_path / "secret.csv").write_text("s")
    draft = LogbookDraft("L")
    page = draft.page("Claim 1: A")
    page.artifact_path("../secret.csv", 1)
    page.artifact_path("/etc/passwd", 1)
    page.raw_cell({"type": "artifact", "artifact": "proj/model:v2", "artifact_type": "model"},
                  "**Artifact** `proj/model:v2` · model · 4.2 MB\n\ntrackio-artifact://proj/model:v2")  # fmt: skip
    logbook = read_logbook(draft.write(tmp_path / "ws"))
    outside, absolute, remote = list_artifacts(logbook)
    assert outside.local_path is None and absolute.local_path is None
    assert (remote.name, remote.uri, remote.size, remote.local_path) == (
        "proj/model:v2",
        "trackio-artifact://proj/model:v2",
        4_200_000,
        None,
    )
