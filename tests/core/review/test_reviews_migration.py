"""Reviews of a logbook that cannot be written in place live under its logbook id; folders keyed by a hash of the
logbook's path (earlier versions) are moved there without losing a line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from reviewapp.core.commit.plan import collect_sources
from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.logbook.logbook_id import safe_folder_name
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.records import RecordBase, Target, make_record, record_line
from reviewapp.core.review.store import AnnotationStore, fallback_folder, legacy_fallback_folder
from tests.core.annotation_helpers import small_logbook
from tests.core.commit_helpers import clone, isolate_git, make_remote


def note(text: str, who: str = "Ada Lovelace") -> RecordBase:
    return make_record("note", annotator=who, role="judge", target=Target(claim="c#1"), payload={"text": text})


def texts(store: AnnotationStore) -> list[str]:
    return sorted(record.payload.text for record, _ in store.load().records)  # type: ignore[attr-defined]


def old_folder(root: Path, *records: RecordBase, name: str = "ada-lovelace.jsonl") -> Path:
    """A fallback folder as earlier versions wrote it: sha256 of the resolved root, 16 hex digits."""
    digest = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    folder = user_data_dir() / "reviews" / digest
    folder.mkdir(parents=True)
    (folder / name).write_bytes(b"".join(record_line(r) for r in records))
    (folder / "source.json").write_text(json.dumps({"logbook_root": str(root)}), encoding="utf-8")
    (folder / "SCHEMA.json").write_text("{}\n", encoding="utf-8")
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return read_logbook(small_logbook(tmp_path)).root


def test_the_fallback_folder_is_named_by_the_logbook_id(root: Path) -> None:
    logbook = read_logbook(root)
    store = AnnotationStore(root, writable=False, logbook_id=logbook.logbook_id)
    store.append(note("outside"), "ada-lovelace")
    folder = user_data_dir() / "reviews" / safe_folder_name(f"path:{root.as_posix()}")
    assert store.folder == folder == fallback_folder(root)
    source = json.loads((folder / "source.json").read_text(encoding="utf-8"))
    assert source["logbook_id"] == logbook.logbook_id and source["logbook_root"] == str(root)


def test_an_old_path_hash_folder_is_moved_under_the_id_and_still_read(root: Path) -> None:
    legacy = old_folder(root, note("saved long ago"))
    assert legacy == legacy_fallback_folder(root)

    store = AnnotationStore(root, writable=False)
    assert texts(store) == ["saved long ago"]
    assert not legacy.exists()
    folder = fallback_folder(root)
    assert (folder / "ada-lovelace.jsonl").is_file()
    assert json.loads((folder / "source.json").read_text(encoding="utf-8"))["logbook_id"] == store.logbook_id

    store.append(note("saved today"), "ada-lovelace")
    assert texts(AnnotationStore(root, writable=False)) == ["saved long ago", "saved today"]


def test_an_old_folder_merges_into_an_existing_id_folder_line_by_line(root: Path) -> None:
    shared = note("in both")
    store = AnnotationStore(root, writable=False)
    store.append(shared, "ada-lovelace")
    store.append(note("only new"), "ada-lovelace")
    legacy = old_folder(root, shared, note("only old"))
    (legacy / "bob.jsonl").write_bytes(record_line(note("bob's", "Bob")))

    merged = AnnotationStore(root, writable=False)
    assert texts(merged) == ["bob's", "in both", "only new", "only old"]
    assert not legacy.exists()
    lines = (fallback_folder(root) / "ada-lovelace.jsonl").read_bytes().splitlines()
    assert len(lines) == 3 and lines.count(record_line(shared).rstrip(b"\n")) == 1
    assert json.loads((fallback_folder(root) / "source.json").read_text(encoding="utf-8"))["logbook_id"]


def test_the_commit_plan_finds_migrated_reviews(root: Path) -> None:
    old_folder(root, note("to be committed"))
    sources = collect_sources(root)
    assert [s.path.parent for s in sources["ada-lovelace.jsonl"]] == [fallback_folder(root)]


def test_two_read_only_clones_of_one_remote_share_their_reviews(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate_git(tmp_path / "git-home", monkeypatch)
    remote = make_remote(tmp_path)
    first = read_logbook(clone(remote, tmp_path / "first", "Ada", "ada@example.invalid"))
    second = read_logbook(clone(remote, tmp_path / "second", "Ada", "ada@example.invalid"))

    AnnotationStore(first.root, writable=False, logbook_id=first.logbook_id).append(note("from one"), "ada-lovelace")
    other = AnnotationStore(second.root, writable=False, logbook_id=second.logbook_id)
    assert texts(other) == ["from one"]
    assert other.folder == fallback_folder(first.root) != legacy_fallback_folder(first.root)
