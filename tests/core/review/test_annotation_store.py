"""Annotation files on disk: where they go, durable appends from many writers, torn and invalid lines, and files
that merge cleanly in git."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from reviewapp.core.io import gitcmd
from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.records import (
    SCHEMA_VERSION,
    RecordBase,
    Target,
    json_schema_text,
    make_record,
    record_line,
)
from reviewapp.core.review.store import (
    GITATTRIBUTES,
    AnnotationStore,
    SecretInRecord,
    StoreError,
    fallback_folder,
    locate_reviews,
    read_file,
)
from tests.core.annotation_helpers import small_logbook, subprocess_env

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return read_logbook(small_logbook(tmp_path)).root


def note(text: str, who: str = "Ada Lovelace") -> RecordBase:
    return make_record("note", annotator=who, role="judge", target=Target(claim="c#1"), payload={"text": text})


def texts(store: AnnotationStore) -> list[str]:
    return [record.payload.text for record, _ in store.load().records]  # type: ignore[attr-defined]


# -- where annotations go ---------------------------------------------------------------------------------------


def test_writable_logbook_keeps_annotations_beside_pages(root: Path) -> None:
    location = locate_reviews(root)
    assert location.folder == root / "reviews" and not location.fallback
    assert not (root / "reviews").exists(), "probing must not create the folder"
    assert sorted(p.name for p in root.iterdir() if p.name.startswith(".reviewapp")) == []


def test_first_append_writes_schema_gitattributes_and_the_file(root: Path) -> None:
    store = AnnotationStore(root)
    record = note("first")
    store.append(record, "ada-lovelace")
    folder = root / "reviews"
    assert (folder / "SCHEMA.json").read_text(encoding="utf-8") == json_schema_text()
    assert (folder / ".gitattributes").read_text(encoding="utf-8") == GITATTRIBUTES == "*.jsonl merge=union\n"
    assert (folder / "ada-lovelace.jsonl").read_bytes() == record_line(record)


def test_reviews_file_in_the_way_sends_annotations_to_the_data_folder(root: Path) -> None:
    (root / "reviews").write_text("not a folder", encoding="utf-8")
    store = AnnotationStore(root)
    assert store.location.fallback and "not a folder" in (store.location.reason or "")
    store.append(note("kept elsewhere"), "ada-lovelace")
    folder = fallback_folder(root)
    assert folder.parent == user_data_dir() / "reviews"
    assert (folder / "ada-lovelace.jsonl").is_file()
    assert json.loads((folder / "source.json").read_text(encoding="utf-8"))["logbook_root"] == str(root)
    assert (folder / "SCHEMA.json").is_file() and (folder / ".gitattributes").is_file()
    assert (root / "reviews").read_text(encoding="utf-8") == "not a folder"
    assert texts(AnnotationStore(root)) == ["kept elsewhere"]  # a new store finds them again


def test_read_only_flag_forces_the_fallback_and_both_folders_are_read(root: Path) -> None:
    AnnotationStore(root).append(note("in the repo", "Bob"), "bob")
    outside = AnnotationStore(root, writable=False)
    assert outside.location.fallback
    outside.append(note("outside"), "ada-lovelace")
    assert sorted(texts(AnnotationStore(root))) == ["in the repo", "outside"]
    assert [p.parent for p in AnnotationStore(root).files()] == [root / "reviews", fallback_folder(root)]


def test_symlinked_reviews_folder_is_not_written_through(root: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "reviews").symlink_to(elsewhere, target_is_directory=True)
    store = AnnotationStore(root)
    assert store.location.fallback and "symbolic link" in (store.location.reason or "")
    store.append(note("safe"), "ada-lovelace")
    assert list(elsewhere.iterdir()) == []


def test_symlinked_annotation_file_is_refused(root: Path, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    store = AnnotationStore(root)
    store.prepare_folder()
    (root / "reviews" / "ada-lovelace.jsonl").symlink_to(victim)
    with pytest.raises(StoreError, match="cannot open"):
        store.append(note("x"), "ada-lovelace")
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert any("cannot read" in str(issue) for issue in store.load().errors)


def test_schema_file_of_a_newer_version_is_left_alone(root: Path) -> None:
    folder = root / "reviews"
    folder.mkdir()
    newer = json.dumps({"x-schema-version": SCHEMA_VERSION + 1})
    (folder / "SCHEMA.json").write_text(newer, encoding="utf-8")
    AnnotationStore(root).append(note("x"), "a")
    assert (folder / "SCHEMA.json").read_text(encoding="utf-8") == newer
    (folder / "SCHEMA.json").write_text(json.dumps({"x-schema-version": 0}), encoding="utf-8")
    AnnotationStore(root).append(note("y"), "a")
    assert (folder / "SCHEMA.json").read_text(encoding="utf-8") == json_schema_text()


# -- torn last lines --------------------------------------------------------------------------------------------


def _file_with(root: Path, tail: bytes, good: int = 3) -> tuple[AnnotationStore, Path]:
    store = AnnotationStore(root)
    for i in range(good):
        store.append(note(f"saved {i}"), "ada-lovelace")
    path = root / "reviews" / "ada-lovelace.jsonl"
    with path.open("ab") as handle:
        handle.write(tail)
    return store, path


@pytest.mark.parametrize(
    "tail",
    [
        pytest.param(lambda: record_line(note("cut"))[:40], id="cut-mid-line"),
        pytest.param(lambda: b"\x00" * 300, id="zeros-without-newline"),
        pytest.param(lambda: b"\x00" * 300 + b"\n", id="zeros-line"),
        pytest.param(lambda: b'{"schema": 1, "id": "01', id="json-start"),
    ],
)
def test_torn_last_line_is_set_aside_and_reported(root: Path, tail) -> None:  # type: ignore[no-untyped-def]
    torn = tail()
    store, path = _file_with(root, torn)
    loaded = store.load()
    assert [r.payload.text for r, _ in loaded.records] == ["saved 0", "saved 1", "saved 2"]  # type: ignore[attr-defined]
    assert loaded.errors == []
    [repair] = loaded.repairs
    assert repair.line == 4 and repair.set_aside is not None
    assert repair.set_aside.read_bytes() == torn
    assert not repair.set_aside.name.endswith(".jsonl")
    assert any("torn last line" in str(i) and i.line == 4 for i in loaded.issues)
    assert path.read_bytes().endswith(b"\n") and path.read_bytes().count(b"\n") == 3
    store.append(note("after"), "ada-lovelace")
    again = store.load()
    assert [r.payload.text for r, _ in again.records] == ["saved 0", "saved 1", "saved 2", "after"]  # type: ignore[attr-defined]
    assert again.issues == [] and again.repairs == []


def test_torn_line_is_set_aside_by_the_next_append_without_a_load(root: Path) -> None:
    store, path = _file_with(root, b'{"schema":1,"id":"01M8', good=1)
    repair = store.append(note("next"), "ada-lovelace")
    assert repair is not None and repair.set_aside is not None and repair.line == 2
    lines = path.read_bytes().splitlines()
    assert len(lines) == 2 and all(json.loads(line) for line in lines)


def test_complete_record_missing_only_its_line_end_is_kept(root: Path) -> None:
    store, path = _file_with(root, record_line(note("whole"))[:-1])
    loaded = store.load()
    assert [r.payload.text for r, _ in loaded.records][-1] == "whole"  # type: ignore[attr-defined]
    assert loaded.repairs[0].set_aside is None
    assert path.read_bytes().endswith(b"}\n")
    assert list(root.joinpath("reviews").glob("*.torn-*")) == []


def test_read_only_load_reports_the_torn_line_without_touching_the_file(root: Path) -> None:
    store, path = _file_with(root, b"{half")
    before = path.read_bytes()
    loaded = store.load(repair=False)
    assert len(loaded.records) == 3 and loaded.errors == []
    assert any("incomplete" in str(i) for i in loaded.issues)
    assert path.read_bytes() == before


def test_invalid_lines_are_named_and_the_rest_loads(root: Path) -> None:
    store, path = _file_with(root, b"", good=2)
    good = record_line(note("later"))
    bad_record = json.loads(record_line(note("bad")))
    bad_record["role"] = "boss"
    with path.open("ab") as handle:
        handle.write(b"{oops\n" + json.dumps(bad_record).encode() + b"\n" + good)
    loaded = store.load()
    assert [r.payload.text for r, _ in loaded.records] == ["saved 0", "saved 1", "later"]  # type: ignore[attr-defined]
    errors = {(e.file, e.line) for e in loaded.errors}
    assert errors == {(path, 3), (path, 4)}
    assert "not valid JSON" in str(loaded.errors[0]) and str(loaded.errors[0]).startswith(f"{path}:3: ")
    assert "role" in loaded.errors[1].message
    assert loaded.repairs == []  # invalid lines in the middle stay where they are


def test_over_long_line_is_invalid_but_does_not_stop_reading(root: Path) -> None:
    store, path = _file_with(root, b"", good=1)
    with path.open("ab") as handle:
        handle.write(b'{"x": "' + b"a" * (1024 * 1024 + 10) + b'"}\n' + record_line(note("after long")))
    loaded = store.load()
    assert [r.payload.text for r, _ in loaded.records] == ["saved 0", "after long"]  # type: ignore[attr-defined]
    assert "longer than" in loaded.errors[0].message and loaded.errors[0].line == 2


# -- secrets ------------------------------------------------------------------------------------------------------


def test_secret_in_a_record_is_refused_and_nothing_is_written(root: Path) -> None:
    store = AnnotationStore(root)
    store.append(note("fine"), "ada-lovelace")
    path = root / "reviews" / "ada-lovelace.jsonl"
    before = path.read_bytes()
    token = "hf_" + "Ab3" * 12
    with pytest.raises(SecretInRecord) as caught:
        store.append(note(f"use {token} to download"), "ada-lovelace")
    message = str(caught.value)
    assert "Hugging Face token" in message and "the text" in message and "Remove it" in message
    assert token not in message
    assert path.read_bytes() == before


def test_the_users_own_token_is_found_even_without_a_known_format(root: Path) -> None:
    store = AnnotationStore(root)
    store.known_secrets = ["plain-custom-credential-42"]
    with pytest.raises(SecretInRecord, match="your own access token"):
        store.append(note("see plain-custom-credential-42"), "ada-lovelace")
    assert not (root / "reviews" / "ada-lovelace.jsonl").exists()


# -- concurrent writers -------------------------------------------------------------------------------------------


def test_threads_writing_different_and_the_same_file(root: Path) -> None:
    store = AnnotationStore(root)
    per_thread = 60

    def write(name: str, slug: str) -> None:
        for i in range(per_thread):
            store.append(note(f"{name}-{i}", slug), slug)  # a file holds only its owner's records

    threads = [threading.Thread(target=write, args=(f"w{i}", f"w{i % 3}")) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    loaded = store.load()
    assert loaded.issues == []
    assert len(loaded.records) == 6 * per_thread
    by_writer = {}
    for record, _ in loaded.records:
        name, number = record.payload.text.split("-")  # type: ignore[attr-defined]
        by_writer.setdefault(name, []).append(int(number))
    assert len(by_writer) == 6
    assert all(sorted(v) == list(range(per_thread)) for v in by_writer.values())


WRITER = """
import sys
from pathlib import Path
from reviewapp.core.review.records import Target, make_record
from reviewapp.core.review.store import AnnotationStore
root, name, slug, count, size = Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
store = AnnotationStore(root)
store.known_secrets = []
for i in range(count):
    text = f"{name}-{i}-" + "x" * size
    store.append(make_record("note", annotator=slug, role="judge", target=Target(claim="c#1"),
                             payload={"text": text}), slug)
"""


def test_processes_writing_different_files_and_one_shared_file(root: Path, tmp_path: Path) -> None:
    """Large lines (above the pipe-atomic size) from four processes: the lock keeps lines whole."""
    count, size = 20, 19_000  # each line is secret-scanned in several decodings: enough lines, not too many
    jobs = [("p0", "p0"), ("p1", "p1"), ("s0", "shared"), ("s1", "shared"), ("s2", "shared")]
    env = subprocess_env(tmp_path)
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(root), name, slug, str(count), str(size)], env=env)
        for name, slug in jobs
    ]
    assert [p.wait(timeout=900) for p in procs] == [0] * len(jobs)  # a hang guard only, never a speed limit
    store = AnnotationStore(root)
    loaded = store.load()
    assert loaded.issues == []
    seen = {tuple(r.payload.text.split("-")[:2]) for r, _ in loaded.records}  # type: ignore[attr-defined]
    assert seen == {(name, str(i)) for name, _ in jobs for i in range(count)}
    shared = (root / "reviews" / "shared.jsonl").read_bytes().split(b"\n")
    assert shared[-1] == b"" and len(shared) == 3 * count + 1


# -- git ----------------------------------------------------------------------------------------------------------


def _git(args: list[str], cwd: Path) -> str:
    result = gitcmd.run(args, cwd)
    assert result.ok, result.stderr
    return result.stdout


def test_two_branches_appending_to_one_file_merge_without_conflict(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The nested .gitattributes makes git union-merge concurrent appends to the same annotator file."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    workspace = small_logbook(tmp_path, "repo")
    root = read_logbook(workspace).root
    _git(["init", "-q", "-b", "main"], workspace)
    _git(["config", "user.name", "Test"], workspace)
    _git(["config", "user.email", "test@example.invalid"], workspace)
    store = AnnotationStore(root)
    store.append(note("base"), "ada-lovelace")
    _git(["add", "-A"], workspace)
    _git(["commit", "-q", "-m", "base"], workspace)
    _git(["checkout", "-q", "-b", "laptop"], workspace)
    store.append(note("from laptop"), "ada-lovelace")
    _git(["commit", "-q", "-am", "laptop"], workspace)
    _git(["checkout", "-q", "main"], workspace)
    store.append(note("from desktop"), "ada-lovelace")
    _git(["commit", "-q", "-am", "desktop"], workspace)
    merge = gitcmd.run(["merge", "-q", "--no-edit", "laptop"], workspace)
    assert merge.ok, merge.stdout + merge.stderr
    loaded = AnnotationStore(root).load()
    assert loaded.issues == []
    assert sorted(r.payload.text for r, _ in loaded.records) == ["base", "from desktop", "from laptop"]  # type: ignore[attr-defined]


def test_read_file_streams_and_labels_lines(root: Path) -> None:
    store = AnnotationStore(root)
    for i in range(3):
        store.append(note(f"n{i}"), "ada")
    records, issues, torn = read_file(root / "reviews" / "ada.jsonl")
    assert [where for _, where in records] == ["reviews/ada.jsonl:1", "reviews/ada.jsonl:2", "reviews/ada.jsonl:3"]
    assert issues == [] and torn is False


def test_append_survives_a_vanished_folder(root: Path) -> None:
    import shutil

    store = AnnotationStore(root)
    store.append(note("one"), "ada-lovelace")
    shutil.rmtree(root / "reviews")
    store.append(note("two"), "ada-lovelace")
    assert texts(store) == ["two"]
    assert (root / "reviews" / "SCHEMA.json").is_file()


def test_file_names_must_be_plain(root: Path) -> None:
    store = AnnotationStore(root)
    for bad in ("../escape", ".hidden", "a/b", ""):
        with pytest.raises(ValueError, match="safe annotator file name"):
            store.file_for(bad)
    assert os.path.basename(store.file_for("ada")) == "ada.jsonl"


FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from reviewapp.core.review.records import Target, make_record
from reviewapp.core.review.store import AnnotationStore, StoreError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (8, 8))  # like a full disk: no file may grow past 8 bytes
store = AnnotationStore(Path(sys.argv[1]))
store.known_secrets = []
record = make_record("note", annotator="A", role="judge", target=Target(), payload={"text": "after"})
try:
    store.append(record, "ada-lovelace")
except StoreError as exc:
    print("refused:", exc)
"""


def test_append_refuses_when_a_torn_line_cannot_be_set_aside(root: Path, tmp_path: Path) -> None:
    """Writing after a torn line would glue the new record onto it; with a full disk, append must fail instead."""
    torn = b'{"schema":1,"id":"01M8PZ' + b"x" * 100
    _, path = _file_with(root, torn)
    before = path.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(root)], capture_output=True, text=True, env=subprocess_env(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: cannot set aside the unfinished last line")
    assert path.read_bytes() == before
    assert [r.payload.text for r, _ in AnnotationStore(root).load().records] == ["saved 0", "saved 1", "saved 2"]  # type: ignore[attr-defined]
