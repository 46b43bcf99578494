"""`reviewapp commit`: flags that do not apply are errors, and headless commits print what they made."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from huggingface_hub import snapshot_download

from reviewapp.cli import main
from tests.core.annotation_helpers import open_review, small_logbook, subprocess_env
from tests.core.commit_helpers import clone, git, isolate_git, make_remote, published_files
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-small-widgets"
REVIEWS = ".trackio/logbook/reviews"


@pytest.fixture(autouse=True)
def no_global_git_identity(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate_git(tmp_path_factory.mktemp("git-home"), monkeypatch)


@pytest.fixture
def checkout(tmp_path: Path) -> tuple[Path, Path]:
    """(a clone with one verdict recorded, its bare remote)."""
    remote = make_remote(tmp_path)
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    open_review(work).set_verdict(3, "partial", "Only the small model was run.")
    return work, remote


def downloaded_space(hub_server: HubServer, tmp_path: Path) -> tuple[str, Path]:
    """(alice's token, the folder) of the small logbook's Space, published by alice and downloaded as a judge does."""
    token = hub_server.add_user("alice")
    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    local = tmp_path / "downloaded"
    snapshot_download(SPACE, repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "hf-cache", token=token)  # fmt: skip
    return token, local


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["commit", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--pr"], "--pr applies to --to hub, and the target is git (the default here"),
        (["--repo", "alice/x"], "--repo applies to --to hub"),
        (["--yes"], "--yes applies to --to hub"),
        (["--to", "git", "--pr", "--yes"], "--pr, --yes apply to --to hub, and the target is git:"),
        (["--to", "hub", "--push"], "--push applies to --to git, and the target is hub;"),
        (["--repo-type", "dataset"], "--repo-type goes with --repo"),
        (["--message", "  "], "--message is empty"),
    ],
)
def test_flags_that_do_not_apply_in_a_checkout_are_errors(
    checkout: tuple[Path, Path], capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    work, _ = checkout
    head = git(work, "rev-parse", "HEAD")
    code, out, err = _run(capsys, str(work), *flags)
    assert (code, out) == (2, "")
    assert says.rstrip(":") in err
    assert git(work, "rev-parse", "HEAD") == head


@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--push"], "--push applies to --to git, and the target is hub (the default here"),
        (["--to", "git"], "cannot commit with git: the logbook is not in a git checkout that tracks its pages"),
        (["--repo", "not-a-repo-id"], "'not-a-repo-id' is not OWNER/NAME"),
        (["--repo", "alice/bad name", "--repo-type", "space"], "characters a Hub repository name cannot have"),
        ([], "space_id names Space someone/small-widgets as its repository"),
    ],
)
def test_flags_that_do_not_apply_outside_a_checkout_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], says: str
) -> None:
    workspace = small_logbook(tmp_path)
    open_review(workspace).set_verdict(1, "verified", "ok")
    code, out, err = _run(capsys, str(workspace), *flags)
    assert (code, out) == (2, "")
    assert says in err


def test_git_commit_and_push_prints_the_commit_id(
    checkout: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    work, remote = checkout
    code, out, err = _run(capsys, str(work), "--dry-run")
    assert code == 0 and "Review of claim 3 by Ada Lovelace: 1 verdict" in out
    assert "Claim 3: verdict partial (was toy)" in out
    assert git(work, "status", "--porcelain", "--", REVIEWS) != ""  # nothing was committed

    code, out, err = _run(capsys, str(work), "--push")

    assert code == 0, err
    assert out.strip() == git(work, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")
    assert git(remote, "log", "-1", "--format=%s", "main") == "Review of claim 3 by Ada Lovelace: 1 verdict"
    code, out, err = _run(capsys, str(work))
    assert (code, out) == (0, "") and "nothing to commit" in err  # nothing to do is not an error


def test_the_message_can_be_given(checkout: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    work, _ = checkout
    code, _, _ = _run(capsys, str(work), "-m", "Second opinion on claim 3\n\nLonger text.")
    assert code == 0
    assert git(work, "log", "-1", "--format=%B").strip() == "Second opinion on claim 3\n\nLonger text."


def test_no_git_identity_and_secrets_have_their_own_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    remote = make_remote(tmp_path)
    work = tmp_path / "anonymous"
    git(tmp_path, "clone", "-q", str(remote), str(work))
    open_review(work).set_verdict(1, "verified", "ok")
    code, out, err = _run(capsys, str(work))
    assert (code, out) == (2, "") and "git config --global user.email" in err

    git(work, "config", "user.name", "Ada")
    git(work, "config", "user.email", "ada@example.invalid")
    path = work / REVIEWS / "ada-lovelace.jsonl"
    path.write_bytes(path.read_bytes().replace(b'"ok"', b'"ok ghp_' + b"x1" * 18 + b'"'))
    code, out, err = _run(capsys, str(work))
    assert (code, out) == (1, "") and "GitHub token" in err and "nothing was committed" in err


def test_hub_pull_request_prints_its_url(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    token, local = downloaded_space(hub_server, tmp_path)
    open_review(local).set_verdict(1, "verified", "ok")
    monkeypatch.setenv("HF_TOKEN", token)

    code, out, err = _run(capsys, str(local), "--pr")
    assert code == 2 and f"space_id names Space {SPACE}" in err and "--yes" in err
    code, out, err = _run(capsys, str(local), "--pr", "--dry-run")
    assert code == 0 and out.startswith(f"to: Space {SPACE} (taken from the logbook's space_id")
    assert "Claim 1: verdict verified (agrees with the agent) — ok" in out
    assert not [r for r in hub_server.requests if r.method == "POST" and "/paths-info/" not in r.path]

    code, out, err = _run(capsys, str(local), "--pr", "--yes")
    assert code == 0, err
    assert out.strip() == hub_server.pull_request_url(SPACE, 1, repo_type="space")
    assert token not in out + err
    assert hub_server.requests_exposing(token) == []


def test_hub_commit_in_a_separate_process_reads_the_endpoint_and_token_from_the_environment(
    hub_server: HubServer, tmp_path: Path
) -> None:
    token, local = downloaded_space(hub_server, tmp_path)
    open_review(local).add_note(open_review(local).claim_target(2), "measured 1.02x, as the page says")
    env = subprocess_env(tmp_path / "home", HF_ENDPOINT=hub_server.endpoint, HF_TOKEN=token, HF_HUB_OFFLINE="0")

    done = subprocess.run(
        [sys.executable, "-m", "reviewapp", "commit", str(local), "--repo", SPACE, "--repo-type", "space"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    head = hub_server.head(SPACE, repo_type="space")
    assert done.stdout.strip() == f"{hub_server.endpoint}/spaces/{SPACE}/commit/{head}"
    assert hub_server.history(SPACE, repo_type="space")[0].title == "Review of claim 2 by Ada Lovelace: 1 note"
    assert token not in done.stdout + done.stderr
    assert hub_server.requests_exposing(token) == []


def test_hub_dry_run_works_offline_against_the_files_as_downloaded(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    token, local = downloaded_space(hub_server, tmp_path)
    open_review(local).set_verdict(1, "verified", "ok")
    monkeypatch.setenv("HF_TOKEN", token)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # the network is gone: nothing answers there

    code, out, err = _run(capsys, str(local), "--dry-run")
    assert code == 0, err
    assert f"to: Space {SPACE}" in out and "offline: the Hub could not be reached" in out
    assert "Claim 1: verdict verified (agrees with the agent) — ok" in out
    assert "offline (could not reach" in err and "as downloaded at" in err

    code, out, err = _run(capsys, str(local), "--yes")
    assert (code, out) == (5, "") and "could not reach" in err  # a real commit needs the network: exit 5


def test_hub_dry_run_offline_with_nothing_known_shows_every_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace = small_logbook(tmp_path)
    open_review(workspace).set_verdict(2, "toy", "tiny")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    code, out, err = _run(capsys, str(workspace), "--repo", "alice/x", "--repo-type", "space", "--dry-run")
    assert code == 0, err
    assert "against: (nothing known); offline" in out and "ada-lovelace.jsonl" in out
    assert "nothing is known here about what Space alice/x holds" in err


def test_every_command_lists_its_exit_codes(tmp_path: Path) -> None:
    commands = [[], ["open"], ["inspect"], ["annotate"], ["annotations"], ["pairs", "list"], ["pairs", "rate"],
                ["pairs", "check"], ["commit"]]  # fmt: skip
    for command in commands:
        done = subprocess.run(
            [sys.executable, "-m", "reviewapp", *command, "--help"],
            env=subprocess_env(tmp_path), capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, (command, done.stderr)
        codes = done.stdout.split("exit codes:", 1)
        assert len(codes) == 2, f"reviewapp {' '.join(command)} --help lists no exit codes"
        assert "  0  " in codes[1] and "  2  " in codes[1] and "  6  cancelled" in codes[1], command


def test_the_demo_is_never_committed_to_its_made_up_space(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from reviewapp.core.logbook.demo import write_demo

    write_demo(tmp_path / "demo")
    open_review(tmp_path / "demo").set_verdict(1, "partial", "one seed")
    code, out, err = _run(capsys, str(tmp_path / "demo"), "--dry-run")
    assert (code, out) == (2, "")
    assert "built-in demo" in err and "--repo OWNER/NAME" in err and "demo-user" not in err
