"""The built-in demo: generated into the user's data folder once, complete enough to review at once."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from reviewapp.core.logbook.demo import PAIR_COUNT, demo_workspace
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.traces import iter_events
from reviewapp.core.verdicts import Verdict


def test_demo_is_generated_once_in_the_data_folder() -> None:
    workspace = demo_workspace()
    assert workspace.is_relative_to(Path(os.environ["REVIEWAPP_DATA_DIR"]))
    marker = workspace / ".trackio" / "logbook" / "reviews-marker"
    marker.write_text("annotations would live here")
    assert demo_workspace() == workspace and marker.exists()  # reused, not regenerated


def test_demo_has_what_a_newcomer_needs() -> None:
    logbook = read_logbook(demo_workspace())
    assert logbook.problems == []
    assert {c.verdict for c in logbook.claims} == {
        Verdict.VERIFIED,
        Verdict.FALSIFIED,
        Verdict.TOY,
        Verdict.INCONCLUSIVE,
    }
    kinds = logbook.cell_counts()
    assert kinds["code"] >= 2 and kinds["figure"] >= 1 and kinds["artifact"] >= 1
    [trace] = logbook.traces
    assert trace.available and len(list(iter_events(logbook.root, trace))) == trace.event_count
    images = [f for f in logbook.workspace_files if f.type == "image"]
    assert len(images) == 2 * PAIR_COUNT
    for entry in images:
        assert entry.local_path is not None
        with Image.open(entry.local_path) as image:
            assert image.size == (384, 384)


def test_demo_is_deterministic(tmp_path: Path) -> None:
    from reviewapp.core.logbook.demo import write_demo

    first, second = write_demo(tmp_path / "a"), write_demo(tmp_path / "b")
    for path in sorted(first.rglob("*")):
        if path.is_file():
            assert path.read_bytes() == (second / path.relative_to(first)).read_bytes(), path
