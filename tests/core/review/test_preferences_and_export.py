"""Preferences saved atomically and never lost to a bad file; export rows of the current review state."""

from __future__ import annotations

import csv
import io
import json
import os
import threading
from pathlib import Path

import pytest

from reviewapp.core.review.export import COLUMNS, export_rows, write_csv, write_jsonl
from reviewapp.core.review.preferences import (
    MAX_PREFERENCES_BYTES,
    Preferences,
    load_preferences,
    preferences_path,
    read_preferences,
    save_preferences,
    update_preferences,
)
from reviewapp.core.review.tags import DEFAULT_TAGS, tag_choices
from tests.core.annotation_helpers import open_review, small_logbook


def test_preferences_round_trip_and_keep_unknown_fields() -> None:
    assert load_preferences() == Preferences()
    saved = Preferences(annotator="Ada", annotator_source="git", role="author", extra_tags=["seed not fixed"])
    save_preferences(saved.model_copy(update={"future_setting": 3}))
    loaded = load_preferences()
    assert (loaded.annotator, loaded.role, loaded.extra_tags) == ("Ada", "author", ["seed not fixed"])
    assert json.loads(preferences_path().read_text(encoding="utf-8"))["future_setting"] == 3
    assert [p.name for p in preferences_path().parent.iterdir()] == ["preferences.json"]  # no temp files left


def test_unreadable_preferences_give_defaults_and_are_kept_aside() -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"annotator": "Ada", "role": "emperor"}', encoding="utf-8")
    preferences, problem = read_preferences()
    assert preferences == Preferences() and problem is not None and str(path) in problem
    update_preferences(lambda p: p.model_copy(update={"annotator": "Ada"}))
    assert load_preferences().annotator == "Ada"
    kept = [p for p in path.parent.iterdir() if p.name.startswith("preferences.json.unreadable-")]
    assert len(kept) == 1 and "emperor" in kept[0].read_text(encoding="utf-8")


def read_without_waiting(path: Path) -> tuple[Preferences, str | None]:
    """read_preferences, within seconds; a read left waiting on a FIFO at `path` fails the test."""
    read: list[tuple[Preferences, str | None]] = []
    worker = threading.Thread(target=lambda: read.append(read_preferences()), daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # let the waiting read end before failing
        pytest.fail("reading the preferences waited for a writer")
    return read[0]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_preferences_that_are_a_fifo_or_oversized_give_defaults_and_say_why() -> None:
    path = preferences_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    preferences, problem = read_without_waiting(path)
    assert preferences == Preferences() and problem == f"{path}: cannot read (not a regular file); using defaults"
    path.unlink()
    path.write_text('{"annotator": "Ada"' + " " * MAX_PREFERENCES_BYTES + "}", encoding="utf-8")
    preferences, problem = read_preferences()
    assert preferences == Preferences() and problem is not None and "-byte limit" in problem
    update_preferences(lambda p: p.model_copy(update={"annotator": "Bo"}))  # the big file is kept aside
    assert load_preferences().annotator == "Bo"
    assert len([p for p in path.parent.iterdir() if p.name.startswith("preferences.json.unreadable-")]) == 1


def test_tag_choices_extend_the_defaults() -> None:
    preferences = Preferences().with_tag("  seed   not fixed ").with_tag("Units Mismatch")
    choices = tag_choices(preferences.extra_tags)
    assert choices[: len(DEFAULT_TAGS)] == list(DEFAULT_TAGS)
    assert choices[len(DEFAULT_TAGS) :] == ["seed not fixed"]  # "Units Mismatch" is a default already
    with pytest.raises(ValueError, match="empty"):
        Preferences().with_tag("   ")


# -- export ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def reviewed(tmp_path: Path):  # type: ignore[no-untyped-def]
    workspace = small_logbook(tmp_path)
    ada = open_review(workspace)
    ada.set_verdict(1, "partial", "=1+1 only half", confidence=2, tags=["scale below paper"])
    ada.add_note(ada.claim_target(1), "see epoch 4", tags=["stopped too early"])
    bob = open_review(workspace, "Bob", role="author")
    bob.set_verdict(1, "verified", "as in the paper", confidence=3)
    bob.set_verdict(2, "toy", "tiny")
    bob.split_claim(2, [{"title": "a"}, {"title": "b"}], "two")
    return open_review(workspace)


def test_one_row_per_claim_and_reviewer_with_orphans_kept(reviewed) -> None:  # type: ignore[no-untyped-def]
    rows = export_rows(reviewed.state)
    summary = [(r["key"].rsplit("#", 1)[-1], r["origin"], r["annotator"], r["human_verdict"]) for r in rows]
    assert summary == [
        ("1", "logbook", "Ada Lovelace", "partial"),
        ("1", "logbook", "Bob", "verified"),
        ("2.1", "split", None, None),
        ("2.2", "split", None, None),
        ("3", "logbook", None, None),
        ("2", "missing", "Bob", "toy"),  # judged before the split: never hidden
    ]
    first = rows[0]
    assert first["agent_verdict"] == "verified" and first["judge_verdict"] is None
    assert first["tags"] == ["scale below paper", "stopped too early"] and first["confidence"] == 2
    assert rows[1]["role"] == "author" and rows[1]["tags"] == []
    only_bob = export_rows(reviewed.state, "Bob")
    assert [r["annotator"] for r in only_bob] == ["Bob", None, None, None, "Bob"]


def test_csv_and_jsonl_output(reviewed) -> None:  # type: ignore[no-untyped-def]
    rows = export_rows(reviewed.state)
    text = io.StringIO()
    write_csv(rows, text)
    parsed = list(csv.DictReader(io.StringIO(text.getvalue())))
    assert tuple(parsed[0]) == COLUMNS and len(parsed) == len(rows)
    assert parsed[0]["rationale"] == "'=1+1 only half"  # never a live spreadsheet formula
    assert parsed[0]["tags"] == "scale below paper; stopped too early"
    assert parsed[2]["human_verdict"] == ""
    lines = io.StringIO()
    write_jsonl(rows, lines)
    decoded = [json.loads(line) for line in lines.getvalue().splitlines()]
    assert decoded == rows and decoded[0]["rationale"] == "=1+1 only half"


def test_notes_are_exported_with_their_anchor(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    ada = open_review(workspace)
    ada.set_verdict(1, "partial", "half", confidence=2)
    ada.add_note(ada.claim_target(1), "see epoch 4")
    cleo = open_review(workspace, "Cleo", role="participant")
    cleo.add_note(cleo.claim_target(3), "the table is cut off")
    page = ada.logbook.pages[0].slug
    ada.add_note(ada.page_target(page), "the summary overstates claim 2")
    rows = export_rows(open_review(workspace).state)
    by = {(r["key"].rsplit("#", 1)[-1], r["annotator"]): r for r in rows}
    assert any("see epoch 4" in n for n in by[("1", "Ada Lovelace")]["notes"])
    cleo_row = by[("3", "Cleo")]  # only a note from Cleo: a row of her own, verdict empty
    assert cleo_row["human_verdict"] is None and cleo_row["role"] == "participant"
    assert any("the table is cut off" in n for n in cleo_row["notes"])
    [page_row] = [r for r in rows if r["origin"] == "note"]
    assert page_row["page"] == page and page_row["annotator"] == "Ada Lovelace"
    assert page_row["notes"] == [f"page {page}: the summary overstates claim 2"]
    text = io.StringIO()
    write_csv(rows, text)
    parsed = list(csv.DictReader(io.StringIO(text.getvalue())))
    assert any("the summary overstates claim 2" in r["notes"] for r in parsed)


def test_default_export_path_is_visible_and_named_after_the_logbook(tmp_path: Path) -> None:
    from reviewapp.core.logbook.reader import read_logbook
    from reviewapp.core.review.export import default_export_path

    logbook = read_logbook(small_logbook(tmp_path, "My Paper Repro"))
    home = tmp_path / "home"
    home.mkdir()
    assert default_export_path(logbook, home) == home / "my-paper-repro-reviews.csv"
    (home / "Documents").mkdir()
    path = default_export_path(logbook, home)
    assert path == home / "Documents" / "my-paper-repro-reviews.csv" and not path.name.startswith(".")
