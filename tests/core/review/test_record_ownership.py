"""Whose record is it: a record counts only for the annotator whose file holds it.

A hostile review file (mallory.jsonl) holding a forged copy of Ada's record with an earlier date, or a
retraction in her name, must neither change nor delete her verdict; `annotations` reports it as invalid
(exit 1). A reused id inside one file, or two files holding different records under one id, is invalid too,
while identical copies of one file (the data folder's and the committed one) are one record.
"""

from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.records import RetractionPayload, make_record, record_line
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.store import AnnotationStore
from tests.core.annotation_helpers import small_logbook


@pytest.fixture(autouse=True)
def no_ambient_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    workspace = small_logbook(tmp_path)
    code = main(["annotate", str(workspace), "--claim", "3", "--verdict", "verified", "--rationale", "checked the runs",
                 "--annotator", "Ada"])  # fmt: skip
    assert code == 0
    return workspace


def reviews(workspace: Path) -> Path:
    return read_logbook(workspace).root / "reviews"


def ada_record(workspace: Path) -> dict:
    [line] = (reviews(workspace) / "ada.jsonl").read_text().splitlines()
    return json.loads(line)


def annotations(workspace: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict, str]:
    code = main(["annotations", str(workspace), "--json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_a_forged_copy_of_anothers_record_with_an_earlier_date_changes_nothing(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    forged = ada_record(workspace)
    forged["payload"]["rationale"] = "FORGED"
    forged["payload"]["verdict"] = "falsified"
    forged["created_at"] = "2001-01-01T00:00:00+00:00"
    (reviews(workspace) / "mallory.jsonl").write_text(json.dumps(forged) + "\n")
    code, summary, err = annotations(workspace, capsys)
    assert code == 1
    assert summary["valid"] is False
    assert "FORGED" not in json.dumps(summary["claims"])
    assert "checked the runs" in json.dumps(summary["claims"])
    assert "mallory.jsonl" in err and "counts only in its author's file" in err


def test_a_retraction_in_anothers_name_does_not_delete_the_verdict(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    record = ada_record(workspace)
    retraction = make_record(
        "retraction", annotator="Ada", role="judge", target=read_target(record), payload=RetractionPayload(),
        supersedes=record["id"],
    )  # fmt: skip
    (reviews(workspace) / "mallory.jsonl").write_bytes(record_line(retraction))
    code, summary, err = annotations(workspace, capsys)
    assert code == 1
    assert "checked the runs" in json.dumps(summary["claims"])
    assert "mallory.jsonl" in err


def read_target(record: dict):  # type: ignore[no-untyped-def]
    from reviewapp.core.review.records import Target

    return Target.model_validate(record["target"])


def test_a_reused_id_inside_one_file_is_invalid_and_the_first_record_stands(workspace: Path) -> None:
    record = ada_record(workspace)
    changed = dict(record, payload=dict(record["payload"], rationale="rewritten"))
    with (reviews(workspace) / "ada.jsonl").open("a") as handle:
        handle.write(json.dumps(changed) + "\n")
    logbook = read_logbook(workspace)
    loaded = AnnotationStore(logbook.root, logbook_id=logbook.logbook_id).load()
    assert [r.payload.rationale for r, _ in loaded.records] == ["checked the runs"]  # type: ignore[attr-defined]
    assert any("used by an earlier, different record of this file" in e.message for e in loaded.errors)


def test_two_files_holding_different_records_under_one_id_apply_neither(workspace: Path) -> None:
    record = ada_record(workspace)
    own = dict(record, annotator="Mallory", payload=dict(record["payload"], rationale="mine now"))
    own["created_at"] = "2001-01-01T00:00:00+00:00"
    (reviews(workspace) / "mallory.jsonl").write_text(json.dumps(own) + "\n")
    logbook = read_logbook(workspace)
    loaded = AnnotationStore(logbook.root, logbook_id=logbook.logbook_id).load()
    assert loaded.records == []
    assert sum("none of them is applied" in e.message for e in loaded.errors) == 2


def test_identical_copies_of_one_file_in_the_data_folder_and_the_repo_are_one_record(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REVIEWAPP_DATA_DIR", str(tmp_path / "data"))
    logbook = read_logbook(workspace)
    store = AnnotationStore(logbook.root, logbook_id=logbook.logbook_id, writable=False)
    store.prepare_folder()
    shutil.copy(reviews(workspace) / "ada.jsonl", store.folder / "ada.jsonl")
    loaded = store.load()
    assert len(loaded.files) == 2
    assert loaded.errors == []
    state = AnnotationState(logbook.claims)
    state.add_all(loaded.records)
    assert state.problems == []
    assert len({r.id for r, _ in loaded.records}) == 1


def test_a_record_written_under_a_later_date_by_its_owner_still_supersedes(workspace: Path) -> None:
    logbook = read_logbook(workspace)
    store = AnnotationStore(logbook.root, logbook_id=logbook.logbook_id)
    record = ada_record(workspace)
    retraction = make_record(
        "retraction", annotator="Ada", role="judge", target=read_target(record), payload=RetractionPayload(),
        supersedes=record["id"], created_at=store.load().records[0][0].created_at + timedelta(seconds=1),
    )  # fmt: skip
    store.known_secrets = []
    store.append(retraction, "ada")
    state = AnnotationState(logbook.claims)
    state.add_all(store.load().records)
    assert state.current(record["id"]) is None  # her own retraction, in her own file, applies
