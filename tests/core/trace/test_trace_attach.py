"""Attaching transcripts, pinning excerpts to claims, and links between cells and events."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.export import export_rows, write_csv
from reviewapp.core.review.records import TraceExcerptRecord
from reviewapp.core.review.secret_scan import scan_text
from reviewapp.core.review.trace_links import (
    excerpt_label,
    locate_excerpt,
    pin_excerpt,
    pinned_excerpts,
    transcript_links,
)
from reviewapp.core.trace import links as trace_links
from reviewapp.core.trace.index import TrackioTrace, open_transcript
from reviewapp.core.trace.sessions import list_sessions
from reviewapp.core.trace.transcripts import stored_path, transcripts_folder
from tests.conftest import CORPUS, corpus_available
from tests.core.annotation_helpers import open_review, small_logbook
from tests.core.trace_fixtures import SECRET, claude_records, write_jsonl

needs_corpus = pytest.mark.skipif(not corpus_available(), reason="shared corpus not present")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """The small logbook, whose manifest lists `session-1` with its files removed (as committed logbooks do)."""
    workspace = small_logbook(tmp_path)
    root = read_logbook(workspace).root
    shutil.rmtree(root / "traces" / "session-1")
    return workspace


def attach(workspace: Path, file: Path, *extra: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:
    code = main(["trace", "attach", str(workspace), str(file), "--annotator", "Ada Lovelace", "--json", *extra])
    out = capsys.readouterr().out
    return code, json.loads(out) if code == 0 else {}


def test_attach_fills_the_listed_session_and_copies_by_sha256(workspace: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    file = write_jsonl(tmp_path / "claude.jsonl", claude_records())
    code, result = attach(workspace, file, "--session", "session-1", capsys=capsys)
    assert code == 0 and result["fills_listed_session"] and result["session"] == "session-1"
    assert result["format"] == "Claude Code" and result["events"] > 10
    stored = Path(result["stored_at"])
    assert stored == stored_path(result["sha256"]) and stored.parent == transcripts_folder()
    assert stored.read_bytes() == file.read_bytes()
    logbook = read_logbook(workspace)
    assert not any(p.name == "claude.jsonl" for p in logbook.root.rglob("*.jsonl"))  # never in the logbook
    session = open_review(workspace)
    sessions = list_sessions(logbook, transcript_links(session.state))
    assert [s.id for s in sessions] == ["session-1"]
    assert sessions[0].trace is not None and sessions[0].readable and "fills" in sessions[0].state
    assert sessions[0].open_index().format == "Claude Code"
    # the same file again: no second record
    code, again = attach(workspace, file, "--session", "session-1", capsys=capsys)
    assert code == 0 and again["already_attached"] and again["record_id"] == result["record_id"]


def test_a_transcript_whose_own_id_is_a_listed_session_fills_it(workspace: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    file = write_jsonl(tmp_path / "renamed.jsonl", claude_records("session-1"))  # sessionId in every record
    code, result = attach(workspace, file, capsys=capsys)
    assert code == 0 and result["fills_listed_session"] and result["session"] == "session-1"
    [session] = list_sessions(read_logbook(workspace), transcript_links(open_review(workspace).state))
    assert session.readable and session.trace is not None and session.transcript is not None


def test_attach_with_its_own_session_id_adds_a_session(workspace: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    file = write_jsonl(tmp_path / "claude.jsonl", claude_records("another-session"))
    code, result = attach(workspace, file, capsys=capsys)
    assert code == 0 and not result["fills_listed_session"] and result["session"] == "another-session"
    session = open_review(workspace)
    sessions = list_sessions(read_logbook(workspace), transcript_links(session.state))
    assert [s.id for s in sessions] == ["session-1", "another-session"]
    assert not sessions[0].readable and sessions[1].readable


def test_attach_reports_corrupt_lines_and_bad_usage(workspace: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    lines = [json.dumps(r) for r in claude_records()[:3]] + ["{not json"]
    file = write_jsonl(tmp_path / "broken.jsonl", lines)
    code, result = attach(workspace, file, capsys=capsys)
    assert code == 0 and result["unreadable_lines"] == [
        {"file": "broken.jsonl", "line": 4, "problem": result["unreadable_lines"][0]["problem"]}
    ]
    assert main(["trace", "attach", str(workspace), str(tmp_path / "absent.jsonl"), "--annotator", "A"]) == 2
    assert "absent.jsonl" in capsys.readouterr().err
    assert main(["trace", "attach", str(tmp_path / "nowhere"), str(file), "--annotator", "A"]) == 2


def test_pinned_excerpt_masks_secrets_is_found_again_and_exported(workspace: Path, tmp_path: Path) -> None:
    file = write_jsonl(tmp_path / "claude.jsonl", claude_records())
    session = open_review(workspace)
    from reviewapp.core.review.trace_links import attach_transcript

    attached = attach_transcript(session, file, "session-1")
    index = attached.index
    secret_at = next(p for p in range(index.count) if SECRET in index.event(p).text)
    record = pin_excerpt(session, 1, "session-1", index, secret_at - 1, secret_at, note="the check stops early")
    line = record.model_dump_json()
    assert SECRET not in line and not scan_text(line)
    assert "[masked hf_" in record.payload.events[-1].text
    p = record.payload
    assert p.trace_sha256 == attached.stored.sha256 and p.source == "transcript"
    assert (p.first_record, p.last_record) == (index.record_of(secret_at - 1), index.record_of(secret_at))
    # a fresh index over the stored copy finds the same events from the record's address alone
    fresh = open_transcript(attached.stored.path)
    fresh.build()
    reopened = open_review(workspace)
    [saved] = pinned_excerpts(reopened.state, reopened.claim(1).key)
    assert isinstance(saved, TraceExcerptRecord)
    assert locate_excerpt(fresh, saved) == (secret_at - 1, secret_at)
    rows = export_rows(reopened.state)
    [row] = [r for r in rows if r["key"] == reopened.claim(1).key]
    assert row["trace_excerpts"] == [excerpt_label(saved)] and "the check stops early" in excerpt_label(saved)
    out = io.StringIO()
    write_csv(rows, out)
    assert "session-1 lines" in out.getvalue() and SECRET not in out.getvalue()
    session.history.undo()
    assert not pinned_excerpts(open_review(workspace).state)  # pinning is undoable


def test_pin_in_trackio_trace_is_addressed_by_trackio_sequence(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    session = open_review(workspace)
    logbook = session.logbook
    index = TrackioTrace(logbook.root, logbook.traces[0])
    index.build()
    record = pin_excerpt(session, 2, "session-1", index, 1, 3)
    assert record.payload.source == "trackio" and (record.payload.first_record, record.payload.last_record) == (2, 4)
    assert record.target.trace is not None and record.target.trace.sequence == 2
    assert locate_excerpt(index, record) == (1, 3)


@needs_corpus
def test_links_both_ways_on_the_synthetic_trackio_logbook() -> None:
    logbook = read_logbook(CORPUS / "_generated__trackio-0.43-synthetic-trace")
    index = TrackioTrace(logbook.root, logbook.traces[0])
    index.build()
    found = trace_links.link_trace(logbook, index)
    page = "claim-3-property-3-holds-at-scale"
    cell = next(c for c in logbook.page(page).cells if c.header.get("command") == ["python", "exp_3.py", "--seed", "0"])
    tied = found.events_for(page, cell.ordinal)
    assert tied, "the run cell is linked to the call that ran it"
    reasons = {reason for _, reason in tied}
    assert trace_links.RUNS_COMMAND in reasons and trace_links.PAGE_RUN in reasons and trace_links.RESULT_OF in reasons
    calls = [p for p, r in tied if r == trace_links.RUNS_COMMAND]
    for position in calls:
        assert "exp_3.py --seed 0" in (index.event(position).input or "")
        back = found.cells_for(position)
        assert any(ref.page == page and ref.ordinal == cell.ordinal for ref, _ in back)  # and back again
    # a call of another claim's experiment does not link here
    other = next(p for p in range(index.count) if "exp_1.py" in (index.event(p).input or ""))
    assert all(ref.page != page for ref, _ in found.cells_for(other))
    assert "Claim 3" in trace_links.describe(trace_links.CellRef(page, cell.ordinal), logbook)


def test_links_by_file_name_and_run_time(tmp_path: Path) -> None:
    from reviewapp.core.logbook.writer import LogbookDraft

    draft = LogbookDraft("Files")
    draft.page("Claim 1: Files").run(["python", "train_model.py", "--fast"], "done")
    draft.write(tmp_path / "ws")
    logbook = read_logbook(tmp_path / "ws")
    cell = logbook.page("claim-1-files").cells[0]
    page_file = logbook.root / "pages" / "claim-1-files" / "page.md"
    text = page_file.read_text()
    header = json.dumps(cell.header)
    changed = {
        **cell.header,
        "created_at": "2026-07-20T10:00:30+00:00",
        "duration_s": 20.0,
        "path": "out/metrics_final.csv",
    }
    page_file.write_text(text.replace(header, json.dumps(changed)))
    logbook = read_logbook(tmp_path / "ws")
    records = [
        {"sessionId": "s", "type": "assistant", "timestamp": "2026-07-20T10:00:15Z", "message": {"id": "m1",
         "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                                           "input": {"command": "trackio logbook run -- python other.py"}}]}},
        {"sessionId": "s", "type": "assistant", "timestamp": "2026-07-20T11:00:00Z", "message": {"id": "m2",
         "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Bash",
                                           "input": {"command": "head out/metrics_final.csv"}}]}},
    ]  # fmt: skip
    index = open_transcript(write_jsonl(tmp_path / "t.jsonl", records))
    index.build()
    found = trace_links.link_trace(logbook, index)
    assert found.events_for("claim-1-files", 0) == [
        (0, trace_links.AT_RUN_TIME),
        (1, trace_links.NAMES_FILE.format("metrics_final.csv")),
    ]


@needs_corpus
def test_the_corpus_raw_opencode_session_is_attached_and_read(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The one corpus logbook that commits a raw session keeps it outside its logbook root: attached, it is read."""
    source = tmp_path / "repro-mm-deepresearch"
    shutil.copytree(CORPUS / "erobinson-mlis__repro-mm-deepresearch", source)
    session_file = source / "evidence" / "session_trace.jsonl"
    [listed] = read_logbook(source).traces
    assert listed.id == "session_trace" and not listed.available  # listed by the manifest, its files left out
    code, result = attach(source, session_file, capsys=capsys)  # no --session: its file name names the session
    assert code == 0 and result["format"] == "opencode" and result["events"] == 27
    assert result["fills_listed_session"] and result["session"] == "session_trace" and not result["unreadable_lines"]
    [session] = list_sessions(read_logbook(source), transcript_links(open_review(source).state))
    assert session.readable and session.trace is not None and session.transcript is not None
    assert session.transcript.file_name == "session_trace.jsonl"
    index = session.open_index()
    index.build()
    assert index.count == 27 and index.facts.model == "big-pickle" and not index.problems
    assert [e.record for e in index.events() if e.error] == [7]  # the aborted message, with its error
    assert [index.event(p).record for p in index.search("MessageAbortedError")] == [7]
