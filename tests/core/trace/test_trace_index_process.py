"""A trace index built in a child process is the index an in-process build makes, links and problems included."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft, write_trace
from reviewapp.core.progress import Cancelled, CancelToken
from reviewapp.core.trace.index import EventFilter, TraceIndex, TrackioTrace, open_transcript
from reviewapp.core.trace.index_process import build_elsewhere
from reviewapp.core.trace.links import LinkPlan
from tests.core.trace_fixtures import big_claude, claude_records, write_jsonl


def same_index(ours: TraceIndex, theirs: TraceIndex) -> None:
    assert ours.complete and theirs.complete
    assert ours.count == theirs.count
    for name in ours.COLUMNS:
        assert getattr(ours, name).tobytes() == getattr(theirs, name).tobytes(), name  # NaN times compare too
    assert ours.tool_names == theirs.tool_names
    assert ours.problems == theirs.problems
    assert ours.facts == theirs.facts
    assert (ours.sha256, ours.size) == (theirs.sha256, theirs.size)
    assert [ours.event(p) for p in range(ours.count)] == [theirs.event(p) for p in range(theirs.count)]


def test_transcript_built_in_a_child_matches_the_in_process_build(tmp_path: Path) -> None:
    path = big_claude(tmp_path / "big.jsonl", 1_500)  # 4,500 events: several batches, pairs across them
    here = open_transcript(path)
    here.build()
    seen: list[int] = []
    there = open_transcript(path)
    assert build_elsewhere(there, progress=seen.append, every=500) is None
    same_index(there, here)
    assert seen == sorted(seen) and len(seen) >= 5 and seen[-1] == 4_500
    assert there.paired(1) == 2 and there.paired(2) == 1  # the first call, paired in the first screenful
    calls = there.filter(EventFilter(kinds=frozenset({"tool_call"}))).tolist()
    assert calls == list(range(1, 4_500, 3)) and there.tool_names == ["", "Bash"]


def test_problems_name_the_label_the_reviewer_knows(tmp_path: Path) -> None:
    records = claude_records()
    lines = [json.dumps(r) for r in records[:3]] + ['{"type": "user", "message": {'] + [json.dumps(records[3])]
    path = write_jsonl(tmp_path / "stored-copy.jsonl", lines, tail='{"type": "assistant", "mess')
    index = open_transcript(path)
    index.label = "my-session.jsonl"
    build_elsewhere(index)
    assert [(p.file, p.line) for p in index.problems] == [("my-session.jsonl", 4), ("my-session.jsonl", 6)]
    assert "truncated" in index.problems[1].message
    assert [e.record for e in index.events() if e.title.startswith("Unreadable line")] == [4, 6]


def test_trackio_trace_and_its_links_come_back_from_the_child(tmp_path: Path) -> None:
    draft = LogbookDraft("Linked")
    draft.page("Claim 1: Linked").run(["python", "train_model.py", "--fast"], "done")
    root = draft.write(tmp_path / "ws")
    events = []
    for n in range(1, 1_201, 2):  # a call of the cell's command now and then, each with its result
        command = "python train_model.py --fast" if n % 200 == 1 else f"echo {n}"
        events.append({"sequence": n, "kind": "tool_call", "title": "Bash", "tool_name": "Bash",
                       "call_id": f"c{n}", "input": json.dumps({"command": command})})  # fmt: skip
        events.append({"sequence": n + 1, "kind": "tool_result", "title": "Result", "call_id": f"c{n}",
                       "output": f"out {n}"})  # fmt: skip
    manifest_path = next(root.rglob("logbook.json"))
    manifest = json.loads(manifest_path.read_text())
    manifest["traces"] = [write_trace(manifest_path.parent, "long", events, chunk_size=100)]
    manifest_path.write_text(json.dumps(manifest))
    logbook = read_logbook(root)
    plan = LinkPlan.of(logbook)
    here = TrackioTrace(logbook.root, logbook.traces[0])
    here.build()
    expected = plan.link(here)
    there = TrackioTrace(logbook.root, logbook.traces[0])
    links = build_elsewhere(there, plan, every=300)
    same_index(there, here)
    assert links is not None
    page = "claim-1-linked"
    assert links.events_for(page, 0) == expected.events_for(page, 0)
    assert [p for p, _ in links.events_for(page, 0)] == [p for n in range(0, 1_200, 200) for p in (n, n + 1)]


def test_cancel_stops_the_child(tmp_path: Path) -> None:
    path = big_claude(tmp_path / "big.jsonl", 20_000)
    index = open_transcript(path)
    cancel = CancelToken()

    def progress(count: int) -> None:
        if count > 100:  # past the first screenful read here: the child is at work
            cancel.cancel()

    with pytest.raises(Cancelled):
        build_elsewhere(index, cancel=cancel, progress=progress, every=500)
    assert not index.complete
    assert not [p for p in multiprocessing.active_children() if p.name == "reviewapp-trace-index"]


def test_a_child_that_dies_leaves_the_build_to_this_process(tmp_path: Path) -> None:
    path = big_claude(tmp_path / "big.jsonl", 3_000)
    here = open_transcript(path)
    here.build()
    there = open_transcript(path)
    killed = threading.Event()

    def progress(count: int) -> None:
        for child in multiprocessing.active_children():
            if child.name == "reviewapp-trace-index" and not killed.is_set():
                child.kill()  # as the system's out-of-memory killer would
                killed.set()

    build_elsewhere(there, progress=progress, every=500)
    assert killed.is_set()
    same_index(there, here)


def test_an_unreadable_file_fails_as_it_would_here(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "gone.jsonl", claude_records())
    index = open_transcript(path)
    path.unlink()
    with pytest.raises(OSError):
        build_elsewhere(index)
    assert not [p for p in multiprocessing.active_children() if p.name == "reviewapp-trace-index"]


EXIT_SCRIPT = """
import atexit, logging, sys, threading, time
atexit.register(lambda: time.sleep(1.0))  # runs last: time for the worker to see its child end
logging.basicConfig(level=logging.INFO)
from reviewapp.core.io.child_process import run_in_child
from tests.core.trace.test_trace_index_process import slow_target

def work():
    try:
        run_in_child(slow_target, (sys.argv[1],), on_message=lambda m: None)
    except BaseException as exc:
        print("worker ended:", type(exc).__name__, flush=True)

if __name__ == "__main__":
    threading.Thread(target=work, daemon=True).start()
    time.sleep(1.5)  # the child is at work
    sys.exit(0)
"""


def slow_target(marker: str, *, send: object, cancel: object) -> None:
    if multiprocessing.parent_process() is None:  # run in the parent: the fallback
        Path(marker).write_text("ran in the parent")
    time.sleep(30)


def test_exiting_while_a_child_works_stops_it_without_doing_the_work_again(tmp_path: Path) -> None:
    script = tmp_path / "exits.py"
    script.write_text(EXIT_SCRIPT)
    marker = tmp_path / "fallback"
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, str(script), str(marker)], capture_output=True, text=True, env=env,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "running here instead" not in done.stderr
    assert not marker.exists()
    assert "worker ended: Cancelled" in done.stdout
