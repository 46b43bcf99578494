"""Annotation records: every kind round-trips, newer lines keep their fields, bad lines say what is wrong, and the
JSON Schema is deterministic and validates the records the app writes."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import jsonschema
import pytest

from reviewapp.core.review.records import (
    RECORD_KINDS,
    SCHEMA_VERSION,
    CellAnchor,
    FigureAnchor,
    LineRange,
    RecordError,
    Revision,
    Target,
    TraceAnchor,
    UnknownRecord,
    json_schema,
    json_schema_text,
    make_record,
    new_record_id,
    parse_line,
    record_line,
)
from reviewapp.core.verdicts import Verdict

REPO = Path(__file__).resolve().parents[3]
CLAIM = "claim-3-robust-to-shift#3"
CELL = Target(claim=CLAIM, page="claim-3-robust-to-shift", cell=CellAnchor(ordinal=1, id="cell_a", content_hash="ab12"))


def example_records() -> dict[str, object]:
    """One record of every kind, with the optional parts filled in."""
    base = {"annotator": "Ada Lovelace", "role": "judge", "revision": Revision(git_head="a" * 40, page_sha256="b" * 64)}
    verdict = make_record(
        "verdict",
        target=Target(claim=CLAIM, page="claim-3-robust-to-shift"),
        payload={
            "verdict": "partial",
            "rationale": "Only a 10% proxy.",
            "confidence": 2,
            "tags": ["scale below paper"],
        },
        **base,
    )
    return {
        "verdict": verdict,
        "note": make_record(
            "note",
            target=CELL.model_copy(update={"lines": LineRange(first=3, last=7)}),
            payload={"text": "Padding counted in the accuracy.", "tags": ["padding in evaluation"]},
            **base,
        ),
        "agent_verdict": make_record(
            "agent_verdict",
            target=Target(claim=CLAIM),
            payload={"verdict": "inconclusive", "rationale": "The page says NOT VERIFIED, read as verified."},
            **base,
        ),
        "claim_add": make_record(
            "claim_add",
            target=Target(page="claim-3-robust-to-shift"),
            payload={
                "key": "claim-3-robust-to-shift#4",
                "title": "A missed claim",
                "n": 4,
                "cells": [0],
                "agent_verdict": "toy",
                "rationale": "The page makes a second claim.",
            },
            **base,
        ),
        "claim_split": make_record(
            "claim_split",
            target=Target(claim=CLAIM),
            payload={
                "parts": [{"key": f"{CLAIM}.1", "title": "noise"}, {"key": f"{CLAIM}.2", "title": "blur"}],
                "rationale": "Two separate claims.",
            },
            **base,
        ),
        "claim_merge": make_record(
            "claim_merge",
            target=Target(claim="a#1"),
            payload={"claims": ["a#1", "a#2"], "key": "a#1+a#2", "title": "One claim", "rationale": "Same claim."},
            **base,
        ),
        "logbook_judge_match": make_record(
            "logbook_judge_match",
            target=Target(claim=CLAIM),
            payload={"space_id": "ada/repro-widgets", "registry_index": 3, "claim": CLAIM},
            **base,
        ),
        "retraction": make_record(
            "retraction", target=verdict.target, payload={"reason": "typo"}, supersedes=verdict.id, **base
        ),
        "pair_session": make_record(
            "pair_session",
            target=Target(claim=CLAIM),
            payload={
                "set": "usability",
                "source": "samples/usability-pairs.json",
                "fingerprint": "c" * 64,
                "question": "Which image is more usable?",
                "conditions": ["baseline", "quantized"],
                "pairs": ["p1", "p2"],
                "seed": 7,
                "algorithm": "reviewapp-pairs-v1",
                "controls": {"rate": 0.5, "identical": False, "repeats": True, "min_gap": 0},
                "trial_order": ["p2", "p1", "p2"],
                "sides": ["a", "b", "b"],
                "control_kinds": ["", "", "repeat"],
                "app_version": "0.1.0",
            },
            **base,
        ),
        "pair_rating": make_record(
            "pair_rating",
            target=Target(claim=CLAIM),
            payload={
                "session": verdict.id,
                "set": "usability",
                "trial": 0,
                "pair": "p2",
                "left": "a",
                "right": "b",
                "response": "left",
                "right_unusable": True,
                "confidence": 3,
                "comment": "banding in the sky",
                "response_ms": 1830,
            },
            **base,
        ),
        "rubric_score": make_record(
            "rubric_score",
            target=Target(),
            payload={
                "rubric": "reviewapp default",
                "rubric_sha256": "d" * 64,
                "scale": [1, 5],
                "criteria": [{"name": "rigor", "value": 4, "comment": "runs match"}, {"name": "clarity", "value": 3}],
                "overall": 3.5,
                "blind": True,
            },
            **base,
        ),
        "flag": make_record("flag", target=Target(), payload={"raised": True, "reason": "figure 2 mismatch"}, **base),
        "transcript_link": make_record(
            "transcript_link",
            target=Target(),
            payload={
                "sha256": "d" * 64,
                "file_name": "session.jsonl",
                "format": "Claude Code",
                "session": "sess-1",
                "fills_listed": True,
                "size": 1234,
                "events": 42,
            },
            **base,
        ),
        "trace_excerpt": make_record(
            "trace_excerpt",
            target=Target(claim=CLAIM, trace={"session": "sess-1", "sequence": 5}),
            payload={
                "session": "sess-1",
                "trace_sha256": "d" * 64,
                "source": "transcript",
                "first_record": 3,
                "first_part": 1,
                "last_record": 7,
                "events": [{"record": 3, "kind": "tool_call", "title": "Bash", "text": "python exp.py"}],
                "note": "the check stops after 10 steps",
            },
            **base,
        ),
        "author_response": make_record(
            "author_response",
            target=Target(claim="registry:3"),
            payload={
                "paper": "GW3umRqsZZ",
                "response": "disagree",
                "comment": "The units differ.",
                "evidence": [{"logbook": "hf:space/a/b", "page": "claim-3", "cell": 2}, {"url": "https://x.org/a"}],
            },
            **base,
        ),
        "claim_alignment": make_record(
            "claim_alignment",
            target=Target(claim=CLAIM),
            payload={"paper": "GW3umRqsZZ", "logbook": "hf:space/a/b", "row": "aligned:2"},
            **base,
        ),
        "adjudicated_verdict": make_record(
            "adjudicated_verdict",
            target=Target(claim=CLAIM),
            payload={
                "verdict": "partial",
                "rationale": "Both read the same table; 10% scale.",
                "settles": [verdict.id],
            },
            **{**base, "role": "adjudicator"},
        ),
        "decision": make_record(
            "decision",
            target=Target(),
            payload={
                "queue": "queue.txt",
                "method": "z",
                "normalization": "z-scores per judge",
                "ranking": [
                    {"rank": 1, "logbook": "a/b", "score": 0.5, "judges": {"Ada": 4.0}, "verdicts": {"verified": 2}}
                ],
            },
            **{**base, "role": "adjudicator"},
        ),
    }


def test_every_kind_has_an_example() -> None:
    assert set(example_records()) == set(RECORD_KINDS)


@pytest.mark.parametrize("kind", sorted(RECORD_KINDS))
def test_every_kind_round_trips_through_a_line(kind: str) -> None:
    record = example_records()[kind]
    line = record_line(record)  # type: ignore[arg-type]
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    again = parse_line(line)
    assert type(again) is type(record)
    assert again == record
    assert record_line(again) == line
    data = json.loads(line)
    assert data["schema"] == SCHEMA_VERSION and data["kind"] == kind


def test_line_starts_with_schema_id_and_kind_for_readers_of_raw_files() -> None:
    line = record_line(example_records()["verdict"])  # type: ignore[arg-type]
    assert list(json.loads(line))[:3] == ["schema", "id", "kind"]


def test_fields_from_a_newer_version_are_kept() -> None:
    data = json.loads(record_line(example_records()["note"]))  # type: ignore[arg-type]
    data["schema"] = SCHEMA_VERSION + 1
    data["session"] = {"trial": 7}
    data["payload"]["color"] = "red"
    data["target"]["region"] = [1, 2, 3, 4]
    record = parse_line(json.dumps(data))
    again = json.loads(record_line(record))
    assert again["session"] == {"trial": 7}
    assert again["payload"]["color"] == "red"
    assert again["target"]["region"] == [1, 2, 3, 4]


def test_unknown_kind_from_a_newer_version_loads_as_unknown() -> None:
    data = json.loads(record_line(example_records()["note"]))  # type: ignore[arg-type]
    data.update(schema=SCHEMA_VERSION + 1, kind="gaze_map", payload={"trial": 3, "choice": "left"})
    record = parse_line(json.dumps(data))
    assert isinstance(record, UnknownRecord)
    assert record.kind == "gaze_map" and record.payload == {"trial": 3, "choice": "left"}


def test_unknown_kind_of_the_current_version_is_invalid() -> None:
    data = json.loads(record_line(example_records()["note"]))  # type: ignore[arg-type]
    data["kind"] = "gaze_map"
    with pytest.raises(RecordError, match="gaze_map"):
        parse_line(json.dumps(data))


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"payload": {"verdict": "unstated", "rationale": "x"}}, "payload.verdict"),
        ({"payload": {"verdict": "partial", "rationale": "   "}}, "payload.rationale: Value error, must not be empty"),
        ({"payload": {"verdict": "partial", "rationale": "x", "confidence": 4}}, "payload.confidence"),
        ({"payload": {"verdict": "partial", "rationale": "x", "tags": [""]}}, "payload.tags.0"),
        ({"target": {"page": "p"}}, "needs target.claim"),
        ({"target": {"claim": "c", "lines": {"first": 1, "last": 2}}}, "line range needs the cell"),
        ({"role": "boss"}, "role"),
        ({"created_at": "2026-01-01T00:00:00"}, "created_at"),
        ({"id": "bad id!"}, "id"),
        ({"schema": "1"}, "schema"),
        ({"schema": 0}, "schema"),
    ],
)
def test_invalid_records_name_the_field(change: dict, expected: str) -> None:
    data = json.loads(record_line(example_records()["verdict"]))  # type: ignore[arg-type]
    data.update(change)
    with pytest.raises(RecordError) as caught:
        parse_line(json.dumps(data))
    assert expected in str(caught.value)


@pytest.mark.parametrize(
    ("line", "expected"),
    [(b"{not json", "not valid JSON"), (b"[1, 2]", "expected a JSON object"), (b"[" * 100_000, "not valid JSON")],
)
def test_lines_that_are_not_records(line: bytes, expected: str) -> None:
    with pytest.raises(RecordError, match=expected):
        parse_line(line)


def test_retraction_needs_what_it_retracts() -> None:
    with pytest.raises(RecordError, match="supersedes"):
        make_record("retraction", annotator="A", role="judge", target=Target(claim="c"), payload={})


def test_target_anchor_is_the_finest_part() -> None:
    assert Target().anchor == "logbook"
    assert Target(claim="c").anchor == "claim"
    assert Target(claim="c", page="p").anchor == "claim"
    assert Target(page="p").anchor == "page"
    assert CELL.anchor == "cell"
    assert CELL.model_copy(update={"lines": LineRange(first=1, last=1)}).anchor == "lines"
    assert CELL.model_copy(update={"figure": FigureAnchor(index=1)}).anchor == "figure"
    assert Target(trace=TraceAnchor(session="s", sequence=4)).anchor == "trace"


def test_record_ids_are_unique_and_sort_by_time() -> None:
    ids = [new_record_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    first = new_record_id()
    import time

    time.sleep(0.002)
    assert new_record_id()[:10] > first[:10]


def test_timestamps_are_written_in_utc() -> None:
    record = make_record(
        "note", annotator="A", role="judge", target=Target(), payload={"text": "x"}, created_at=datetime.now(UTC)
    )
    assert json.loads(record_line(record))["created_at"].endswith("Z")


# -- JSON Schema ----------------------------------------------------------------------------------------------


def test_json_schema_validates_every_record_the_app_writes() -> None:
    validator = jsonschema.Draft202012Validator(json_schema())
    jsonschema.Draft202012Validator.check_schema(json_schema())
    for kind, record in example_records().items():
        errors = list(validator.iter_errors(json.loads(record_line(record))))  # type: ignore[arg-type]
        assert errors == [], (kind, errors)


@pytest.mark.parametrize(
    "change",
    [
        {"kind": "pair_rating"},
        {"role": "boss"},
        {"payload": {"verdict": "unstated", "rationale": "x"}},
        {"payload": {"verdict": "partial", "rationale": "x", "confidence": 0}},
        {"schema": 0},
    ],
)
def test_json_schema_rejects_what_the_models_reject(change: dict) -> None:
    data = json.loads(record_line(example_records()["verdict"]))  # type: ignore[arg-type]
    data.update(change)
    assert list(jsonschema.Draft202012Validator(json_schema()).iter_errors(data))
    with pytest.raises(RecordError):
        parse_line(json.dumps(data))


def test_json_schema_text_is_identical_across_processes() -> None:
    """Two writers of the same version produce byte-identical SCHEMA.json, whatever the hash seed."""
    script = (
        "import sys\nfrom reviewapp.core.review.records import json_schema_text\nsys.stdout.write(json_schema_text())\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
        ).stdout
        for seed in ("1", "2")
    }
    assert outputs == {json_schema_text()}
    assert json.loads(json_schema_text())["x-schema-version"] == SCHEMA_VERSION


def test_verdict_values_in_schema_are_the_app_vocabulary() -> None:
    text = json_schema_text()
    for value in ("verified", "partial", "falsified", "toy", "inconclusive"):
        assert f'"{value}"' in text
    assert Verdict.UNSTATED.value in text  # allowed for agent verdict corrections, not for human verdicts
