"""Which revision a reviewer saw: git HEAD of a real checkout, and the Space commit of a real `snapshot_download`
from the loopback Hub; plus the git runner those use."""

from __future__ import annotations

from pathlib import Path

import pytest
from huggingface_hub import snapshot_download

from reviewapp.core.io import gitcmd
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.revision import git_head, logbook_revision, space_sha
from tests.core.annotation_helpers import open_review, write_small_logbook
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]


@pytest.fixture(autouse=True)
def git_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "gitconfig"
    config.write_text("[user]\n\tname = Test\n\temail = test@example.invalid\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def git(args: list[str], cwd: Path) -> str:
    result = gitcmd.run(args, cwd)
    assert result.ok, result.message
    return result.stdout.strip()


def test_git_head_of_the_checkout_holding_the_logbook(tmp_path: Path) -> None:
    workspace = tmp_path / "repo"
    root = write_small_logbook(workspace)
    git(["init", "-q"], workspace)
    assert git_head(root) is None  # no commit yet
    git(["add", "-A"], workspace)
    git(["commit", "-q", "-m", "logbook"], workspace)
    head = git(["rev-parse", "HEAD"], workspace)
    assert git_head(root) == head
    assert logbook_revision(root).git_head == head
    review = open_review(workspace)
    assert review.set_verdict(1, "verified", "ok").revision.git_head == head


def test_an_enclosing_repository_that_does_not_track_the_logbook_is_not_named(tmp_path: Path) -> None:
    git(["init", "-q"], tmp_path)
    (tmp_path / "dotfile").write_text("x", encoding="utf-8")
    git(["add", "dotfile"], tmp_path)
    git(["commit", "-q", "-m", "home"], tmp_path)
    root = write_small_logbook(tmp_path / "downloads" / "logbook")
    assert git_head(root) is None


def test_space_sha_from_a_real_download(hub_server: HubServer, tmp_path: Path) -> None:
    source = write_small_logbook(tmp_path / "made")
    files = {str(p.relative_to(source)): p.read_bytes() for p in source.rglob("*") if p.is_file()}
    first = hub_server.create_repo("alice/repro", repo_type="space", files=files)
    local = tmp_path / "downloaded"
    snapshot_download("alice/repro", repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "cache")  # fmt: skip
    root = read_logbook(local).root
    assert root == local.resolve()
    assert space_sha(root) == first
    assert logbook_revision(root).git_head is None

    second = hub_server.simulate_commit("alice/repro", {"pages/index.md": "# Changed\n"}, repo_type="space")
    snapshot_download("alice/repro", repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "cache")  # fmt: skip
    assert second != first and space_sha(root) == second


def test_space_sha_ignores_corrupt_metadata(tmp_path: Path) -> None:
    root = write_small_logbook(tmp_path / "w")
    downloads = root / ".cache" / "huggingface" / "download" / "pages"
    downloads.mkdir(parents=True)
    (downloads / "index.md.metadata").write_text("not-a-sha\netag\n1\n", encoding="utf-8")
    assert space_sha(root) is None
    (downloads / "other.md.metadata").write_text("a" * 40 + "\netag\n5\n", encoding="utf-8")
    assert space_sha(root) == "a" * 40  # the newest valid record when the index page's is unusable


def test_git_runner_reports_failures_without_raising(tmp_path: Path) -> None:
    result = gitcmd.run(["rev-parse", "HEAD"], tmp_path)
    assert not result.ok and result.returncode != 0
    assert "not a git repository" in result.message  # LC_ALL=C keeps messages in English
    with pytest.raises(gitcmd.GitError, match="no such folder"):
        gitcmd.run(["status"], tmp_path / "missing")
    with pytest.raises(gitcmd.GitError, match="did not finish"):
        gitcmd.run(["hash-object", "--stdin"], tmp_path, timeout=0.001, input="x" * 10_000_000)


def test_git_runner_never_prompts(tmp_path: Path) -> None:
    """A clone needing credentials fails at once instead of waiting for a terminal."""
    result = gitcmd.run(["ls-remote", "http://127.0.0.1:9/nothing.git"], tmp_path, timeout=20)
    assert not result.ok
    assert gitcmd.git_env()["GIT_TERMINAL_PROMPT"] == "0" and gitcmd.git_env()["LC_ALL"] == "C"
