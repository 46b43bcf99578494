"""The logbook id says where a logbook was opened from: the Hub cache, a git remote, or a folder; never metadata."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reviewapp.core.logbook.logbook_id import (
    LogbookIdError,
    check_logbook_id,
    hub_logbook_id,
    logbook_id_for,
    normalize_remote,
    safe_folder_name,
)
from reviewapp.core.logbook.reader import read_logbook
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


def test_a_snapshot_in_the_hub_cache_is_its_space_at_any_revision(tmp_path: Path) -> None:
    made = write_small_logbook(tmp_path / "made")
    cache = tmp_path / "hf" / "hub" / "spaces--someone--tiny-repro" / "snapshots"
    ids = set()
    for revision in ("a" * 40, "b" * 40):
        shutil.copytree(made, cache / revision)
        ids.add(read_logbook(cache / revision).logbook_id)
    assert ids == {"hf:space/someone/tiny-repro"}

    dataset = tmp_path / "hf" / "hub" / "datasets--org--logs" / "snapshots" / ("c" * 40) / "nested"
    shutil.copytree(made, dataset)
    assert logbook_id_for(dataset) == "hf:dataset/org/logs/nested"


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
