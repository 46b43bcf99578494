"""Raw transcripts of every format read into one event index: pairing, usage, unknown records, corrupt lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.trace import formats
from reviewapp.core.trace.index import EventFilter, TrackioTrace, open_transcript, parse_time
from tests.conftest import CORPUS, corpus_available
from tests.core.trace_fixtures import (
    SECRET,
    big_claude,
    claude_records,
    codex_legacy_records,
    codex_records,
    pi_records,
    sts_records,
    write_jsonl,
)

needs_corpus = pytest.mark.skipif(not corpus_available(), reason="shared corpus not present")


def built(path: Path):
    index = open_transcript(path)
    index.build()
    return index


def test_claude_code_pairs_results_counts_usage_once_and_keeps_other_records(tmp_path: Path) -> None:
    index = built(write_jsonl(tmp_path / "s.jsonl", claude_records()))
    assert index.format == formats.CLAUDE
    assert index.facts.session_id == "sess-claude" and index.facts.model == "claude-x"
    events = list(index.events())
    kinds = [e.kind for e in events]
    assert kinds[:4] == ["user", "reasoning", "assistant", "tool_call"]
    call = next(e for e in events if e.call_id == "toolu_1" and e.kind == "tool_call")
    result = events[index.paired(call.position)]
    assert result.kind == "tool_result" and result.call_id == "toolu_1" and "metrics.csv" in (result.output or "")
    assert result.tool_name == "Bash"  # the result takes its call's tool name
    assert "interrupted" in (result.extra or "")  # toolUseResult kept, which Trackio drops
    # three lines share message.id msg_1: its usage is counted on one event only
    usages = [e.usage for e in events if e.usage]
    assert usages == [{"input_tokens": 100, "output_tokens": 20}, {"input_tokens": 7, "output_tokens": 3}]
    snapshot = next(e for e in events if e.record_type == "file-history-snapshot")
    assert snapshot.kind == "other" and '"files": 2' in (snapshot.extra or "")
    side = [e for e in events if e.sidechain]
    assert [e.kind for e in side] == ["tool_call", "tool_result"] and side[1].error
    assert side[0].uuid == "a4" and side[0].parent == "u2"
    image_message = next(e for e in events if e.images)
    assert SECRET in image_message.text and image_message.images[0].media_type == "image/png"
    assert any(e.title == "Summary" for e in events)
    assert any(e.title.startswith("System · compact_boundary") for e in events)
    assert [e.turn for e in events if e.kind == "user"] == [1, 2]


def test_claude_content_as_string_and_events_reread_identically(tmp_path: Path) -> None:
    index = built(write_jsonl(tmp_path / "s.jsonl", claude_records()))
    first = index.event(0)
    assert first.text == "Reproduce claim 1 and log it." and first.record == 1
    again = [index.event(p) for p in range(index.count)]  # read again from the file, not from memory
    assert again == list(index.events())


def test_codex_envelope_pairs_by_call_id_and_keeps_shell_calls_and_token_counts(tmp_path: Path) -> None:
    index = built(write_jsonl(tmp_path / "rollout.jsonl", codex_records()))
    assert index.format == formats.CODEX and index.facts.session_id == "0199-codex-thread"
    assert index.facts.model == "gpt-x"
    events = list(index.events())
    call = next(e for e in events if e.call_id == "call_1")
    assert json.loads(call.input or "")["command"][-1] == "python exp2.py"  # arguments were a JSON string
    result = events[index.paired(call.position)]
    assert result.output == "Traceback: boom" and result.error  # exit code 1
    shell = next(e for e in events if e.record_type == "response_item/local_shell_call")
    assert shell.kind == "tool_call" and "ls out" in (shell.input or "")
    assert index.paired(shell.position) == -1  # resumed rollouts may hold calls without output
    tokens = next(e for e in events if e.title == "Token count")
    assert tokens.usage == {"total_token_usage": {"input_tokens": 50}}
    assert any(e.kind == "other" and e.record_type == "world_state" for e in events)
    aborted = next(e for e in events if e.title == "Turn aborted")
    assert aborted.error and aborted.turn == 1
    assert next(e for e in events if e.kind == "reasoning").text == "Use the runner."


def test_codex_legacy_bare_form(tmp_path: Path) -> None:
    index = built(write_jsonl(tmp_path / "rollout-2025-08-01.jsonl", codex_legacy_records()))
    assert index.format == formats.CODEX_LEGACY and index.facts.session_id == "legacy-1"
    events = list(index.events())
    call = next(e for e in events if e.kind == "tool_call")
    assert events[index.paired(call.position)].output == "a.txt"
    assert [e.kind for e in events] == ["status", "other", "user", "tool_call", "tool_result", "assistant"]


def test_pi_v3_and_sts(tmp_path: Path) -> None:
    pi = built(write_jsonl(tmp_path / "pi.jsonl", pi_records()))
    assert pi.format == formats.PI and pi.facts.session_id == "pi-1" and pi.facts.model == "pi-model"
    events = list(pi.events())
    call = next(e for e in events if e.kind == "tool_call")
    assert json.loads(call.input or "") == {"command": "python check.py"}
    assert events[pi.paired(call.position)].output == "ok"
    assert events[-1].kind == "other" and events[-1].record_type == "thinking_level_change"
    sts = built(write_jsonl(tmp_path / "sts.jsonl", sts_records()))
    assert sts.format == formats.STS
    events = list(sts.events())
    assert [e.kind for e in events] == ["status", "user", "reasoning", "tool_call", "tool_result"]
    assert events[1].timestamp and events[1].timestamp.startswith("2026-07-01")  # milliseconds since epoch
    assert sts.paired(3) == 4


def test_corrupt_and_truncated_lines_are_reported_and_the_rest_loads(tmp_path: Path) -> None:
    records = claude_records()
    lines = [json.dumps(r) for r in records[:3]] + ['{"type": "user", "message": {'] + [json.dumps(records[3])]
    path = write_jsonl(tmp_path / "broken.jsonl", lines, tail='{"type": "assistant", "mess')
    index = built(path)
    assert [(p.file, p.line) for p in index.problems] == [("broken.jsonl", 4), ("broken.jsonl", 6)]
    assert "truncated" in index.problems[1].message
    events = list(index.events())
    bad = [e for e in events if e.title.startswith("Unreadable line")]
    assert [e.record for e in bad] == [4, 6] and all(e.error for e in bad)
    assert any(e.kind == "tool_call" for e in events)  # line 5 still read


def test_filters_search_and_jumps(tmp_path: Path) -> None:
    index = built(write_jsonl(tmp_path / "s.jsonl", claude_records()))
    calls = index.filter(EventFilter(kinds=frozenset({"tool_call"})))
    assert [index.event(p).call_id for p in calls] == ["toolu_1", "toolu_2"]
    assert list(index.filter(EventFilter(tools=frozenset({"Read"})))) == [
        p for p in range(index.count) if index.event(p).tool_name == "Read"
    ]
    errors = index.filter(EventFilter(errors_only=True))
    assert [index.event(p).kind for p in errors] == ["tool_result"]
    turn2 = index.filter(EventFilter(turns=(2, 2)))
    assert turn2 and all(index.event(p).turn == 2 for p in turn2)
    late = index.filter(EventFilter(since=parse_time("2026-07-20T10:00:30Z")))
    assert [index.event(p).timestamp for p in late] == ["2026-07-20T10:01:00Z", "2026-07-20T10:02:00Z"]
    hits = index.search("METRICS.csv")
    assert [index.event(p).kind for p in hits] == ["tool_result"]
    assert list(index.search('"Claim 1"')) == [3]  # quotes are escaped in the raw line
    assert not index.search("nowhere-to-be-found")
    by_id = index.search("toolu_2")  # a call id seen elsewhere finds the call and its result
    assert sorted(index.event(p).kind for p in by_id) == ["tool_call", "tool_result"]
    assert index.first_of_turn(2) == next(p for p in range(index.count) if index.event(p).turn == 2)
    assert index.first_at_time(parse_time("2026-07-20T10:00:09Z")) == result_position(index)
    assert index.position_of_sequence(index.count) == index.count - 1
    assert index.position_of_sequence(index.count + 1) == -1


def result_position(index) -> int:
    return next(p for p in range(index.count) if index.event(p).kind == "tool_result")


def test_big_transcript_keeps_arrays_not_events(tmp_path: Path) -> None:
    index = built(big_claude(tmp_path / "big.jsonl", 20_000))
    assert index.count == 60_000
    last = index.event(index.count - 1)
    assert last.kind == "tool_result" and last.output == "out 19999"
    assert index.paired(index.count - 1) == index.count - 2
    assert [index.event(p).text for p in index.search("step 12345")] == ["step 12345"]
    assert len(index._cache) <= 256


def test_progress_is_published_while_building(tmp_path: Path) -> None:
    index = open_transcript(big_claude(tmp_path / "big.jsonl", 2_000))
    seen: list[int] = []
    index.build(progress=seen.append, every=1_000)
    assert len(seen) >= 5 and seen == sorted(seen) and seen[-1] == 6_000 and index.complete


@needs_corpus
def test_corpus_trackio_trace_and_its_raw_transcript_agree() -> None:
    root = CORPUS / "_generated__trackio-0.43-synthetic-trace"
    logbook = read_logbook(root)
    normalized = TrackioTrace(logbook.root, logbook.traces[0])
    normalized.build()
    raw = built(root / "raw-transcript" / "claude-code-session.jsonl")
    assert normalized.count == raw.count == 610
    assert normalized.turn_count() == raw.turn_count() == 44
    assert [normalized.kind(p) for p in range(610)] == [raw.kind(p) for p in range(610)]
    call = normalized.event(2)
    assert call.tool_name == "Bash" and normalized.paired(2) == 3 and raw.paired(2) == 3
    assert normalized.event(609).sequence == 610 and normalized.position_of_sequence(610) == 609
    assert list(normalized.search("exp_3")) == list(raw.search("exp_3"))
    assert normalized.sha256 and len(normalized.sha256) == 64


@needs_corpus
def test_corpus_opencode_session_beside_the_logbook() -> None:
    index = built(CORPUS / "erobinson-mlis__repro-mm-deepresearch" / "evidence" / "session_trace.jsonl")
    assert index.format == formats.OPENCODE and not index.problems
    assert index.facts.model == "big-pickle"
    events = list(index.events())
    assert index.count == 27  # 26 messages; the aborted one (line 7) also shows its error
    aborted = [e for e in events if e.error]
    assert [(e.record, e.title) for e in aborted] == [(7, "Error")] and "MessageAbortedError" in aborted[0].text
    assert events[0].kind == "user" and events[1].kind == "assistant"
    assert events[1].usage and events[1].usage["total"] == 16992
    assert events[1].parent == events[0].uuid


def test_events_read_while_the_index_is_built_are_the_final_ones(tmp_path: Path) -> None:
    """The timeline paints rows as soon as they are published, before the last line or chunk is read."""
    from reviewapp.core.logbook.writer import LogbookDraft, write_trace

    transcript = open_transcript(big_claude(tmp_path / "big.jsonl", 700))
    draft = LogbookDraft("Chunks")
    draft.page("Claim 1: Chunks").run(["python", "a.py"], "ok")
    root = draft.write(tmp_path / "chunks")
    events = [{"sequence": s, "kind": "assistant", "title": "Message", "text": f"said {s}"} for s in range(1, 1001)]
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["traces"] = [write_trace(root, "long", events, chunk_size=100)]
    (root / "logbook.json").write_text(json.dumps(manifest))
    logbook = read_logbook(tmp_path / "chunks")
    chunked = TrackioTrace(logbook.root, logbook.traces[0])
    for index in (transcript, chunked):
        early: dict[int, str] = {}

        def shown(count: int, index=index, early=early) -> None:  # what a row painted now would show
            if not index.complete:
                for position in (0, count // 2, count - 1):
                    early[position] = repr(index.event(position))

        index.build(progress=shown, every=250)
        assert len(early) > 6 and index.complete
        assert {p: repr(index.event(p)) for p in early} == early
        assert not any("no longer in the file" in text for text in early.values())
