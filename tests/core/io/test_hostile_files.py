"""Files the app opens itself, planted by a hostile logbook: links out of the folder, FIFOs, devices, giants.

Every one must be refused (a link leading out, anything but a regular file) or read with a cap, without blocking
on a FIFO. The cases that used to hang or grow without end run the real CLI in a child with a deadline and a
memory limit (tests/core/hostile_helpers.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from reviewapp.core.io.safepath import UnsafeReference, read_capped, read_head, read_inside
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.pairs.sets import load_set, pairs_from_folders
from reviewapp.core.review.records import MAX_LINE_BYTES
from tests.core.annotation_helpers import small_logbook
from tests.core.hostile_helpers import run_bounded, run_python_bounded
from tests.support.pair_fixtures import write_pair_logbook

pytestmark = pytest.mark.skipif(os.name == "nt", reason="FIFOs, /dev/zero and symlinks as POSIX has them")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return small_logbook(tmp_path)


def logbook_root(workspace: Path) -> Path:
    return read_logbook(workspace).root


def annotate_args(workspace: Path) -> list[str]:
    return ["annotate", str(workspace), "--claim", "1", "--verdict", "verified", "--rationale", "ok",
            "--annotator", "Ada Lovelace"]  # fmt: skip


# -- the one place that opens files ---------------------------------------------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for read in (lambda: read_capped(fifo, 1024), lambda: read_head(fifo, 16)):
        with pytest.raises(UnsafeReference, match="not a regular file"):
            read()  # a blocking open would wait here forever: nobody ever opens the other end


def test_a_device_is_refused_and_a_regular_file_is_read_with_a_cap(tmp_path: Path) -> None:
    with pytest.raises(UnsafeReference, match="not a regular file"):
        read_capped(Path("/dev/zero"), 1024)
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2048)
    with pytest.raises(UnsafeReference, match="over the 1,024-byte limit"):
        read_capped(big, 1024)
    assert read_head(big, 10) == b"x" * 10
    assert read_capped(big, 4096) == b"x" * 2048


def test_read_inside_refuses_a_link_out_of_its_folder_and_follows_one_within(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "secret.txt"
    root.mkdir()
    outside.write_text("secret")
    (root / "real.txt").write_text("inside")
    (root / "out.txt").symlink_to(outside)
    (root / "in.txt").symlink_to(root / "real.txt")
    with pytest.raises(UnsafeReference, match="leads outside"):
        read_inside(root, "out.txt", 1024)
    assert read_inside(root, "in.txt", 1024) == b"inside"
    with pytest.raises(UnsafeReference, match="symbolic link"):
        read_capped(root / "out.txt", 1024, follow=False)


# -- JSON beside the pages (item 8) ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["logbook.json", "traces/index.json", "workspace.json"])
def test_json_beside_the_pages_is_not_read_through_a_link_out_of_the_root(
    workspace: Path, tmp_path: Path, name: str
) -> None:
    root = logbook_root(workspace)
    outside = tmp_path / "outside.json"
    marker = "OUTSIDE-THE-ROOT"
    outside.write_text(json.dumps({"title": marker, "sessions": [{"id": marker}], "files": [{"path": marker}]}))
    target = root / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    target.symlink_to(outside)
    logbook = read_logbook(workspace)
    assert marker not in logbook.title
    assert all(trace.id != marker for trace in logbook.traces)
    assert all(f.path != marker for f in logbook.workspace_files)
    assert logbook.manifest is None or name != "logbook.json"
    [problem] = [p for p in logbook.problems if p.file == name]
    assert "leads outside" in problem.message


def test_a_fifo_as_logbook_json_is_reported_and_the_pages_still_open(workspace: Path) -> None:
    root = logbook_root(workspace)
    (root / "logbook.json").unlink()
    os.mkfifo(root / "logbook.json")
    logbook = read_logbook(workspace)  # would block forever on open
    assert logbook.pages and logbook.claims
    assert any(p.file == "logbook.json" and "not a regular file" in p.message for p in logbook.problems)


# -- the Hub download cache's .metadata files ------------------------------------------------------------------


def test_hub_cache_metadata_that_is_a_device_or_fifo_is_skipped(workspace: Path) -> None:
    root = logbook_root(workspace)
    downloads = root / ".cache" / "huggingface" / "download"
    (downloads / "pages").mkdir(parents=True)
    (downloads / "pages" / "index.md.metadata").symlink_to("/dev/zero")
    os.mkfifo(downloads / "logbook.json.metadata")
    sha = "a" * 40
    (downloads / "workspace.json.metadata").write_text(f"{sha}\netag\n1700000000.0\n")
    # In a child: before the fix this read /dev/zero without end, and the FIFO's open never returned.
    done = run_python_bounded(
        root,
        "from pathlib import Path\nfrom reviewapp.core.logbook.revision import space_sha\n"
        f"print(space_sha(Path({str(root)!r})))",
    )
    assert done.stdout.strip() == sha, done.stderr  # the regular record is read; the link and the FIFO are skipped


def test_annotate_with_hostile_hub_cache_metadata_finishes(workspace: Path, tmp_path: Path) -> None:
    root = logbook_root(workspace)
    downloads = root / ".cache" / "huggingface" / "download" / "pages"
    downloads.mkdir(parents=True)
    (downloads / "index.md.metadata").symlink_to("/dev/zero")
    done = run_bounded(tmp_path, *annotate_args(workspace))
    assert done.returncode == 0, done.stderr


# -- the review folder ----------------------------------------------------------------------------------------


def test_schema_json_linked_to_dev_zero_does_not_grow_annotate(workspace: Path, tmp_path: Path) -> None:
    reviews = logbook_root(workspace) / "reviews"
    reviews.mkdir()
    (reviews / "SCHEMA.json").symlink_to("/dev/zero")
    done = run_bounded(tmp_path, *annotate_args(workspace))
    assert done.returncode == 0, done.stderr
    assert (reviews / "ada-lovelace.jsonl").read_bytes().count(b"\n") == 1


def test_a_fifo_as_schema_json_does_not_block_annotate(workspace: Path, tmp_path: Path) -> None:
    reviews = logbook_root(workspace) / "reviews"
    reviews.mkdir()
    os.mkfifo(reviews / "SCHEMA.json")
    done = run_bounded(tmp_path, *annotate_args(workspace))
    assert done.returncode == 0, done.stderr


def test_a_fifo_as_a_review_file_is_reported_and_blocks_nothing(workspace: Path, tmp_path: Path) -> None:
    reviews = logbook_root(workspace) / "reviews"
    reviews.mkdir()
    os.mkfifo(reviews / "mallory.jsonl")
    assert run_bounded(tmp_path, *annotate_args(workspace)).returncode == 0
    listed = run_bounded(tmp_path, "annotations", str(workspace), "--json")
    assert listed.returncode == 1, listed.stderr  # an unreadable review file is a problem found
    assert "mallory.jsonl" in listed.stdout and "not a regular file" in listed.stdout
    assert "Ada Lovelace" in listed.stdout  # the readable file still counts


# -- pair images in folder-mode sets (item 9) -----------------------------------------------------------------


@pytest.mark.parametrize("how", ["folders argument", "folders in the manifest"])
def test_a_folder_mode_pair_image_linked_out_of_the_logbook_is_refused(tmp_path: Path, how: str) -> None:
    extra = {"pairs": None, "folders": ["baseline", "quantized"]}
    workspace = write_pair_logbook(tmp_path / "ws", 2, extra=extra)
    outside = tmp_path / "private.png"
    Image.new("RGB", (64, 64), "red").save(outside)
    (workspace / "samples" / "quantized" / "p02.png").unlink()
    (workspace / "samples" / "quantized" / "p02.png").symlink_to(outside)
    logbook = read_logbook(workspace)
    if how == "folders argument":
        pair_set = pairs_from_folders(logbook, "samples/baseline", "samples/quantized")
    else:
        pair_set = load_set(logbook)
    assert [p.id for p in pair_set.rateable] == ["p01"]
    assert any("quantized/p02.png refused: leads outside" in problem for problem in pair_set.set_problems)
    paths = [ref.path for pair in pair_set.pairs for ref in (pair.a, pair.b) if ref.path is not None]
    assert all(Path(path).resolve() != outside.resolve() for path in paths)


def test_a_folder_mode_link_that_stays_inside_is_followed(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2, extra={"pairs": None, "folders": ["baseline", "quantized"]})
    copy = workspace / "samples" / "p02-copy.png"
    (workspace / "samples" / "quantized" / "p02.png").rename(copy)
    (workspace / "samples" / "quantized" / "p02.png").symlink_to(copy)
    pair_set = load_set(read_logbook(workspace))
    assert [p.id for p in pair_set.rateable] == ["p01", "p02"]


# -- a huge torn review file (item 5) -------------------------------------------------------------------------


def test_an_absurdly_large_review_file_is_refused_without_reading_it(workspace: Path, tmp_path: Path) -> None:
    assert run_bounded(tmp_path, *annotate_args(workspace)).returncode == 0
    evil = logbook_root(workspace) / "reviews" / "evil.jsonl"
    evil.write_bytes(b"")
    os.truncate(evil, 4 * 1024**3)  # sparse: no disk used; more than the child may allocate
    done = run_bounded(tmp_path, "annotations", str(workspace), "--json")
    assert done.returncode == 1, done.stderr  # found wrong: a file that cannot be a review file
    assert "evil.jsonl" in done.stdout and "not read" in done.stdout and "Ada Lovelace" in done.stdout
    assert evil.stat().st_size == 4 * 1024**3 and not list(evil.parent.glob("*.torn-*"))


def test_a_huge_torn_tail_is_set_aside_with_bounded_memory_and_disk(workspace: Path, tmp_path: Path) -> None:
    assert run_bounded(tmp_path, *annotate_args(workspace)).returncode == 0
    reviews = logbook_root(workspace) / "reviews"
    evil = reviews / "ada-lovelace.jsonl"  # her own file, with zeros after her record (a record counts only there)
    good_line = evil.read_bytes()
    size = 200 * 1024**2  # under the file cap: zeros after a record, as a crash can leave them
    os.truncate(evil, size)
    done = run_bounded(tmp_path, "annotations", str(workspace), "--json")
    assert done.returncode == 0, done.stderr  # a torn tail is a warning, not an invalid record
    assert evil.read_bytes() == good_line  # the lines before the tail are untouched
    [side] = [p for p in reviews.iterdir() if ".torn-" in p.name]
    assert side.stat().st_size == MAX_LINE_BYTES  # bounded disk: only the head of an impossible tail
    assert f"{size - len(good_line):,} bytes" in done.stdout and "only its first" in done.stdout


def test_a_torn_tail_of_record_size_is_still_set_aside_whole(workspace: Path, tmp_path: Path) -> None:
    reviews = logbook_root(workspace) / "reviews"
    reviews.mkdir()
    torn = b'{"schema_version": 1, "id": "half-writ'
    (reviews / "ada.jsonl").write_bytes(torn)
    done = run_bounded(tmp_path, "annotations", str(workspace), "--json")
    assert done.returncode == 0, done.stderr
    [side] = [p for p in reviews.iterdir() if ".torn-" in p.name]
    assert side.read_bytes() == torn and "only its first" not in done.stdout
