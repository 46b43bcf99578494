"""Trace events tied to a claim, each with the reason it was tied, read chunk by chunk."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewapp.core.logbook.demo import write_demo
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft, write_trace
from reviewapp.core.progress import Cancelled, CancelToken
from reviewapp.core.trace.excerpts import (
    AFTER,
    BEFORE,
    RESULT,
    RUNS_ON_PAGE,
    claim_excerpts,
    index_excerpts,
    index_excerpts_elsewhere,
)


def bash(seq: int, command: str) -> dict[str, Any]:
    return {"sequence": seq, "kind": "tool_call", "title": "Bash", "tool_name": "Bash", "call_id": f"c{seq}",
            "input": json.dumps({"command": command})}  # fmt: skip


def result(seq: int, call: int, output: str = "ok") -> dict[str, Any]:
    return {"sequence": seq, "kind": "tool_result", "title": "Output", "call_id": f"c{call}", "output": output}


def message(seq: int, text: str, kind: str = "assistant") -> dict[str, Any]:
    return {"sequence": seq, "kind": kind, "title": kind.title(), "text": text}


def logbook_with(tmp_path: Path, events: list[dict[str, Any]], chunk_size: int = 200):
    draft = LogbookDraft("Trace test")
    draft.page("Claim 1: Sparse training works").run(["python", "train.py", "--sparse"], "acc 0.9")
    draft.page("Claim 12: Scaling holds").markdown("Scaling.")
    draft.page("Claim 2: Speed").run(["python", "bench.py"], "1.1x")
    root = draft.write(tmp_path)
    info = write_trace(root, "s1", events, chunk_size=chunk_size)
    manifest = json.loads((root / "logbook.json").read_text())
    manifest["traces"] = [info]
    (root / "logbook.json").write_text(json.dumps(manifest))
    return read_logbook(tmp_path)


def sequences(excerpts) -> list[int]:
    return [e.sequence for e in excerpts]


def test_demo_claims_get_their_runs_and_the_messages_around_them(tmp_path: Path) -> None:
    logbook = read_logbook(write_demo(tmp_path))
    index = index_excerpts(logbook)
    claim2 = logbook.claim(2)
    excerpts = index.for_claim(claim2.key)
    calls = [e for e in excerpts if e.event.kind == "tool_call"]
    assert [e.event.input.count("bench.py") for e in calls] == [1, 1]
    assert all(RUNS_ON_PAGE in e.reasons and "command names Claim 2" in e.reasons for e in calls)
    assert {e.event.kind for e in excerpts if e.reasons == (RESULT,)} == {"tool_result"}
    assert any(BEFORE in e.reasons and e.event.kind == "reasoning" for e in excerpts)
    # No event of another claim's run is tied to claim 2.
    assert not any("prune.py" in (e.event.input or "") for e in excerpts)
    assert sequences(excerpts) == sorted(sequences(excerpts))


def test_claim_numbers_do_not_match_longer_numbers(tmp_path: Path) -> None:
    events = [bash(1, 'trackio logbook run --page "Claim 12" -- python scale.py'), result(2, 1)]
    logbook = tmp_logbook = logbook_with(tmp_path, events)
    index = index_excerpts(tmp_logbook)
    assert index.for_claim(logbook.claim(1).key) == []
    assert sequences(index.for_claim(logbook.claim(12).key)) == [1, 2]


def test_runs_match_the_recorded_command_whatever_the_quoting(tmp_path: Path) -> None:
    events = [bash(1, "cd /work && 'python' train.py   --sparse"), result(2, 1), bash(3, "python train.py")]
    logbook = logbook_with(tmp_path, events)
    excerpts = claim_excerpts(logbook, logbook.claim(1))
    assert sequences(excerpts) == [1, 2]
    assert excerpts[0].reasons == (RUNS_ON_PAGE,)


def test_page_slug_and_quoted_title_name_the_claim(tmp_path: Path) -> None:
    events = [
        bash(1, "cat pages/claim-2-speed/page.md"),
        bash(2, 'trackio logbook cell markdown --page "Claim 1: Sparse training works" -m done'),
        bash(3, 'trackio logbook cell markdown --page "Claim 1: Sparse training" -m partial title'),
    ]
    logbook = logbook_with(tmp_path, events)
    index = index_excerpts(logbook)
    [slug] = index.for_claim(logbook.claim(2).key)
    assert slug.sequence == 1 and "command names the claim's page" in slug.reasons
    by_title = index.for_claim(logbook.claim(1).key)
    assert sequences(by_title) == [2, 3]
    assert "command names the claim's page" in by_title[0].reasons  # the whole quoted title
    assert by_title[1].reasons == ("command names Claim 1",)  # only the number: a partial title is not the page


def test_context_messages_before_and_after(tmp_path: Path) -> None:
    events = [
        message(1, "Let me look at the speed claim.", "user"),
        message(2, "Timing it.", "reasoning"),
        bash(3, "python bench.py"),
        result(4, 3, "1.1x"),
        message(5, "Claim 2 is falsified: 1.1x."),
        message(6, "Now claim 1.", "assistant"),
        bash(7, "python train.py --sparse"),
        result(8, 7),
        message(9, "Next I look at claim 12."),  # names another claim: not context for claim 1
    ]
    logbook = logbook_with(tmp_path, events)
    index = index_excerpts(logbook)
    claim2 = {e.sequence: e.reasons for e in index.for_claim(logbook.claim(2).key)}
    assert claim2 == {1: (BEFORE,), 2: (BEFORE,), 3: claim2[3], 4: (RESULT,), 5: (AFTER,)}
    claim1 = sequences(index.for_claim(logbook.claim(1).key))
    assert claim1 == [6, 7, 8]


def test_events_are_read_chunk_by_chunk_and_capped(tmp_path: Path) -> None:
    events = []
    for i in range(0, 600, 2):
        events += [bash(i + 1, "python bench.py"), result(i + 2, i + 1)]
    logbook = logbook_with(tmp_path, events, chunk_size=50)
    assert len(logbook.traces[0].chunks) == 12
    seen: list[tuple[int, int]] = []
    index = index_excerpts(logbook, progress=lambda done, total, _t: seen.append((done, total)), limit=100)
    key = logbook.claim(2).key
    assert len(index.for_claim(key)) == 100 and key in index.truncated
    assert seen[-1] == (12, 12)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        index_excerpts(logbook, cancel=token)


def test_missing_trace_files_give_no_excerpts(corpus: Path) -> None:
    logbook = read_logbook(corpus / "belumume__icml-2026-repro-comparative-signals")
    assert logbook.traces and not logbook.traces[0].available
    assert index_excerpts(logbook).by_claim == {}


def test_corpus_trace_ties_each_claims_runs(corpus: Path) -> None:
    logbook = read_logbook(corpus / "_generated__trackio-0.43-synthetic-trace")
    index = index_excerpts(logbook)
    for claim in logbook.claims:
        calls = [e for e in index.for_claim(claim.key) if e.event.kind == "tool_call"]
        assert calls, claim.key
        assert all(f"Claim {claim.n}" in (e.event.input or "") for e in calls), claim.key


def test_excerpts_read_in_a_child_process_are_the_ones_read_here(tmp_path: Path) -> None:
    events = []
    for n in range(0, 6_000, 3):  # thousands of excerpts: several parts cross from the child
        command = "python train.py --sparse" if n % 2 else "python bench.py"
        events += [message(n + 1, f"run {n}"), bash(n + 2, command), result(n + 3, n + 2, f"out {n}")]
    logbook = logbook_with(tmp_path, events)
    here = index_excerpts(logbook)
    seen: list[tuple[int, int]] = []
    there = index_excerpts_elsewhere(logbook, progress=lambda done, total, _trace: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == len(logbook.traces[0].chunks)
    assert there.traces_read == here.traces_read == ["s1"] and there.truncated == here.truncated
    for claim in logbook.claims:
        assert there.for_claim(claim.key) == here.for_claim(claim.key), claim.label
    assert len(there.for_claim(logbook.claim(1).key)) > 2_000 // 2
    assert there.for_claim("no-such-claim") == []


def test_excerpts_in_a_child_are_cancelled(tmp_path: Path) -> None:
    events = [bash(n, "python bench.py") for n in range(1, 20_001)]
    logbook = logbook_with(tmp_path, events, chunk_size=100)
    token = CancelToken()
    with pytest.raises(Cancelled):
        index_excerpts_elsewhere(logbook, cancel=token, progress=lambda *_: token.cancel())
