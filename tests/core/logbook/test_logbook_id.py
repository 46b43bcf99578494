"""The logbook id says where a logbook was opened from: the Hub cache, a git remote, or a folder; never metadata."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reviewapp.core.io.paths import hub_cache_dir, user_data_dir
from reviewapp.core.logbook.logbook_id import (
    LogbookIdError,
    check_logbook_id,
    hub_logbook_id,
    logbook_id_for,
    normalize_remote,
    safe_folder_name,
)
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.store import fallback_folder
from tests.core.annotation_helpers import write_small_logbook
from tests.core.commit_helpers import clone, git, isolate_git, make_remote


@pytest.fixture(autouse=True)
def _git_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(tmp_path / "git-home", monkeypatch)


@pytest.mark.parametrize(
    "url",
    [
        "git@github.com:someone/repro.git",
        "ssh://git@github.com/someone/repro.git",
        "ssh://git@GitHub.com:22/someone/repro",
        "https://github.com/someone/repro.git",
        "https://someone:ghp_secret@github.com/someone/repro/",
        "https://token@github.com:443/someone/repro.git/",
        "git+ssh://git@github.com/someone/repro",
    ],
)
def test_every_form_of_one_remote_is_spelled_the_same_without_user_info(url: str) -> None:
    assert normalize_remote(url) == "github.com/someone/repro"


def test_local_remotes_are_resolved_paths(tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    bare.mkdir()
    expected = (tmp_path / "remote").as_posix()
    assert normalize_remote(str(bare)) == expected
    assert normalize_remote(f"file://{bare}") == expected
    assert normalize_remote("../remote.git", tmp_path / "clone") == expected


def test_two_clones_of_one_remote_get_the_same_id(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    first = clone(remote, tmp_path / "first", "Ada", "ada@example.invalid")
    second = tmp_path / "elsewhere" / "second"
    second.parent.mkdir()
    git(second.parent, "clone", "-q", f"file://{remote}", str(second))  # another spelling of the same remote

    a = read_logbook(first)
    b = read_logbook(second)

    assert a.root != b.root
    assert a.logbook_id == b.logbook_id == f"git:{(tmp_path / 'remote').as_posix()}/.trackio/logbook"
    assert "someone/small-widgets" not in a.logbook_id  # the metadata's space_id is a hint, never the id


def test_pages_git_does_not_track_are_named_by_their_folder(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    work = clone(remote, tmp_path / "work", "Ada", "ada@example.invalid")
    root = write_small_logbook(work / "untracked")  # inside the checkout, never added

    assert logbook_id_for(root) == f"path:{root.resolve().as_posix()}"


def test_a_folder_outside_git_is_named_by_its_resolved_path(tmp_path: Path) -> None:
    root = write_small_logbook(tmp_path / "plain")
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "plain")
    assert read_logbook(link).logbook_id == read_logbook(tmp_path / "plain").logbook_id
    assert read_logbook(link).logbook_id == f"path:{root.resolve().as_posix()}"


def _cached(made: Path, repo_folder: str, revision: str, inside: str = "") -> Path:
    snapshot = hub_cache_dir() / repo_folder / "snapshots" / revision
    shutil.copytree(made, snapshot / inside if inside else snapshot)
    return snapshot / inside if inside else snapshot


def test_a_snapshot_in_the_hub_cache_is_its_space_at_any_revision_the_cache_names(tmp_path: Path) -> None:
    made = write_small_logbook(tmp_path / "made")
    by_ref = _cached(made, "spaces--someone--tiny-repro", "a" * 40)
    (by_ref.parents[1] / "refs").mkdir()
    (by_ref.parents[1] / "refs" / "main").write_text("a" * 40)
    by_record = _cached(made, "spaces--someone--tiny-repro", "b" * 40)  # a download pinned to a commit: no ref
    records = user_data_dir() / "downloads"
    records.mkdir(parents=True)
    (records / "spaces--someone--tiny-repro.json").write_text(json.dumps({"snapshots": {"b" * 40: {"files": []}}}))
    assert {read_logbook(by_ref).logbook_id, read_logbook(by_record).logbook_id} == {"hf:space/someone/tiny-repro"}
    unnamed = _cached(made, "spaces--someone--tiny-repro", "c" * 40)  # neither a ref nor a download of ours
    assert logbook_id_for(unnamed) == f"path:{unnamed.resolve().as_posix()}"

    dataset = _cached(made, "datasets--org--logs", "d" * 40, "nested")
    (hub_cache_dir() / "datasets--org--logs" / "refs" / "pr").mkdir(parents=True)
    (hub_cache_dir() / "datasets--org--logs" / "refs" / "pr" / "1").write_text("d" * 40 + "\n")
    assert logbook_id_for(dataset) == "hf:dataset/org/logs/nested"


def test_a_folder_shaped_like_a_cache_snapshot_elsewhere_borrows_no_identity(tmp_path: Path) -> None:
    """A team's repository holding `spaces--OWNER--NAME/snapshots/x/` (with its refs/) is that repository, not the
    Space: reviews of the real Space never show on it, and verdicts given on it are never filed with the Space."""
    remote = make_remote(tmp_path)
    work = clone(remote, tmp_path / "work", "Team", "team@example.invalid")
    fake = work / "hub" / "spaces--judged--real-space"
    root = fake / "snapshots" / "x"
    shutil.copytree(write_small_logbook(tmp_path / "made"), root)  # laid out as a downloaded Space
    (fake / "refs").mkdir()
    (fake / "refs" / "main").write_text("x")
    git(work, "add", "-A")
    git(work, "commit", "-qm", "a logbook in a cache-shaped folder")
    assert logbook_id_for(root) == f"git:{normalize_remote(str(remote))}/hub/spaces--judged--real-space/snapshots/x"
    plain = tmp_path / "plain" / "spaces--judged--real-space" / "snapshots" / "x"
    shutil.copytree(root, plain)
    (plain.parents[1] / "refs").mkdir()
    (plain.parents[1] / "refs" / "main").write_text("x")
    assert logbook_id_for(plain) == f"path:{plain.resolve().as_posix()}"
    real = _cached(root, "spaces--judged--real-space", "x")
    (real.parents[1] / "refs").mkdir()
    (real.parents[1] / "refs" / "main").write_text("x")
    assert logbook_id_for(real) == "hf:space/judged/real-space"  # the same files where the app put them
    assert fallback_folder(plain) != fallback_folder(real)


def test_an_explicit_id_wins_over_the_folder(tmp_path: Path) -> None:
    root = write_small_logbook(tmp_path / "download")
    metadata = json.loads((root.parent / "metadata.json").read_text(encoding="utf-8"))
    assert metadata["space_id"] == "someone/small-widgets"

    given = hub_logbook_id("space", "real-owner/real-space")
    assert read_logbook(root, logbook_id=given).logbook_id == "hf:space/real-owner/real-space"
    with pytest.raises(LogbookIdError, match="OWNER/NAME"):
        read_logbook(root, logbook_id="hf:space/only-owner")
    with pytest.raises(LogbookIdError, match="not a logbook id"):
        check_logbook_id("someone/small-widgets")
    with pytest.raises(LogbookIdError, match="space or a dataset"):
        hub_logbook_id("model", "a/b")


def test_safe_folder_names_are_portable_and_distinct() -> None:
    ids = ["hf:space/a/b_c", "hf:space/a_b/c", "git:github.com/o/r/.trackio/logbook", "path:/home/x/é y/CON"]
    names = [safe_folder_name(i) for i in ids]
    assert len(set(names)) == len(names)
    for name in names:
        assert all(ch.isascii() and (ch.isalnum() or ch in "._-") for ch in name), name
        assert not name.startswith((".", "-"))
    assert names[0].startswith("hf-space-a-b_c-")
    assert len(safe_folder_name("path:/" + "x" * 500)) < 100
