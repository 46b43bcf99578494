"""Annotator names that impersonate: bidi and invisible characters are removed, fullwidth forms folded (NFKC),
a Cyrillic or Greek look-alike of someone who already reviewed the logbook is refused, and two names that would
share a review file are refused; a collision already in old files is shown as a warning, both kept apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.identity import annotator_slug, check_name, lookalike_of, name_skeleton
from reviewapp.core.review.logbook_review import AnnotationError
from reviewapp.core.review.store import AnnotationStore
from tests.core.annotation_helpers import open_review, small_logbook


@pytest.fixture(autouse=True)
def no_ambient_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("HF_TOKEN", raising=False)


def test_bidi_invisible_and_fullwidth_characters_are_normalized() -> None:
    assert check_name("Ada\u202e ecalevoL") == "Ada ecalevoL"
    assert check_name("A\u200bda\u2066") == "Ada"
    assert check_name("\uff21\uff44\uff41 Lovelace") == "Ada Lovelace"  # fullwidth letters
    with pytest.raises(ValueError):
        check_name("\u202e\u200b")


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("\u0410da", "Ada"),  # Cyrillic capital A
        ("Ad\u0430", "Ada"),  # Cyrillic small a
        ("\u0391da", "Ada"),  # Greek capital alpha
        ("B\u03bfb", "Bob"),  # Greek omicron
        ("ada_tester", "ada-tester"),  # one file name
        ("Ada Tester", "ada-tester"),
        ("R\u0435nee", "Renée"),  # Cyrillic e, and an accent
    ],
)
def test_a_lookalike_of_an_existing_annotator_is_found(new: str, existing: str) -> None:
    assert lookalike_of(new, ["Someone Else", existing]) == existing


def test_different_people_and_the_same_name_are_not_lookalikes() -> None:
    assert lookalike_of("Ada", ["Ada", "Adam", "Bob"]) is None
    assert name_skeleton("Ada Lovelace") != name_skeleton("Ada Byron")


def test_annotate_refuses_a_cyrillic_lookalike_and_saves_nothing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    workspace = small_logbook(tmp_path)
    args = ["annotate", str(workspace), "--claim", "3", "--verdict", "verified", "--rationale", "ok", "--annotator"]
    assert main([*args, "Ada"]) == 0
    capsys.readouterr()
    assert main([*args, "\u0410da"]) == 2
    err = capsys.readouterr().err
    assert "looks like 'Ada'" in err and "nothing saved" in err
    reviews = read_logbook(workspace).root / "reviews"
    assert sorted(p.name for p in reviews.glob("*.jsonl")) == ["ada.jsonl"]


def test_two_names_sharing_one_file_are_refused_in_the_window_path(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    open_review(workspace, "ada-tester").set_verdict(1, "verified", "ok")
    review = open_review(workspace, "ada_tester")
    assert review.identity.slug == annotator_slug("ada-tester")
    with pytest.raises(AnnotationError, match="share their review file"):
        review.set_verdict(1, "toy", "mine")


def test_a_collision_already_in_old_files_is_shown_and_both_kept(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    first = open_review(workspace, "ada-tester")
    first.set_verdict(1, "verified", "from the first")
    path = first.store.file_for("ada-tester")
    line = json.loads(path.read_text().splitlines()[0])
    line.update(id="01J0000000000000000000OLD2", annotator="ada_tester")
    line["payload"]["rationale"] = "from the second"
    with path.open("a") as handle:  # what an older version let two people write
        handle.write(json.dumps(line) + "\n")
    logbook = read_logbook(workspace)
    loaded = AnnotationStore(logbook.root, logbook_id=logbook.logbook_id).load()
    assert sorted(r.annotator for r, _ in loaded.records) == ["ada-tester", "ada_tester"]
    [warning] = [i for i in loaded.issues if "share this file name" in i.message]
    assert warning.severity == "warning" and "'ada-tester', 'ada_tester'" in warning.message
