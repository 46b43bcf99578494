"""A repository's own git config must never run a program when the app runs git in it (annotate, commit, push).

The clone's `.git/config` sets every key that runs a program to a script that leaves a marker file; the review
is annotated, committed and pushed while the remote has moved (so fetch, replay, `update-index --refresh`,
`read-tree -m -u` and push all run); afterwards no marker may exist and every record must be on the remote.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from reviewapp.core.io import gitcmd
from tests.core.annotation_helpers import open_review
from tests.core.commit_helpers import clone, git, isolate_git, make_remote, remote_file, service_for

pytestmark = pytest.mark.skipif(os.name == "nt", reason="shell scripts as git config programs")

REVIEWS = ".trackio/logbook/reviews"
HOOKS = ("pre-commit", "post-commit", "pre-push", "reference-transaction", "post-checkout", "post-merge",
         "post-rewrite", "pre-auto-gc", "post-index-change", "fsmonitor-watchman")  # fmt: skip


@pytest.fixture(autouse=True)
def isolated_git(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(tmp_path_factory.mktemp("git-home"), monkeypatch)


def script(folder: Path, name: str, marks: Path, then: str) -> str:
    path = folder / name
    path.write_text(f'#!/bin/sh\ntouch "{marks}/{name}"\n{then}\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def make_hostile(repo: Path, marks: Path) -> None:
    """Every program-running key of the repository's own config, and hooks in both hook folders."""
    marks.mkdir()
    tools = marks.parent / "tools"
    hooks = marks.parent / "hooks"
    tools.mkdir()
    hooks.mkdir()
    for hook in HOOKS:
        script(hooks, hook, marks, "exit 0")
        script(repo / ".git" / "hooks", hook, marks, "exit 0")
    settings = {
        "core.fsmonitor": script(tools, "fsmonitor", marks, "exit 1"),
        "core.hooksPath": str(hooks),
        "core.sshCommand": script(tools, "ssh", marks, "exit 1"),
        "core.pager": script(tools, "pager", marks, "cat"),
        "core.editor": script(tools, "editor", marks, "exit 0"),
        "core.askPass": script(tools, "askpass", marks, "exit 1"),
        "credential.helper": script(tools, "credential", marks, "exit 0"),
        "diff.external": script(tools, "external-diff", marks, "exit 0"),
        "diff.evil.textconv": script(tools, "textconv", marks, 'cat "$1"'),
        "filter.evil.smudge": script(tools, "smudge", marks, "cat"),
        "filter.evil.clean": script(tools, "clean", marks, "cat"),
        "filter.evilproc.process": script(tools, "process", marks, "exit 1"),
        "merge.evil.driver": script(tools, "merge-driver", marks, "exit 0"),
        "gpg.program": script(tools, "gpg", marks, "exit 1"),
        "commit.gpgsign": "true",
        "remote.origin.uploadpack": script(tools, "uploadpack", marks, 'exec git-upload-pack "$@"'),
        "remote.origin.receivepack": script(tools, "receivepack", marks, 'exec git-receive-pack "$@"'),
        "protocol.ext.allow": "always",
        "pager.log": script(tools, "pager-log", marks, "cat"),
    }
    for key, value in settings.items():
        git(repo, "config", key, value)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text(
        "* filter=evil diff=evil merge=evil\n*.json filter=evilproc\n", encoding="utf-8"
    )
    # the filters must see stat-dirty files: touch everything so update-index --refresh re-reads it
    for path in repo.rglob("*"):
        if ".git" not in path.parts and path.is_file():
            os.utime(path, (1, 1))


def test_no_program_from_the_repositorys_config_runs_on_annotate_commit_and_push(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    ada = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    bob = clone(remote, tmp_path / "bob", "Bob Babbage", "bob@example.invalid")
    marks = tmp_path / "marks"
    make_hostile(ada, marks)

    bob_review = open_review(bob, "Bob Babbage")
    bob_review.set_verdict(1, "verified", "Bob checked it")
    assert service_for(bob).commit_git(service_for(bob).plan_git(), push_after=True).status == "pushed"

    review = open_review(ada, "Ada Lovelace")  # reads the revision: rev-parse and ls-files in the clone
    ids = [review.set_verdict(n, "verified", f"Ada checked claim {n}").id for n in (1, 2)]
    outcome = service_for(ada).commit_git(service_for(ada).plan_git(), push_after=True)

    assert sorted(p.name for p in marks.iterdir()) == []  # nothing the repository named was run
    assert outcome.status == "pushed" and outcome.notes  # replayed onto Bob's commit, then pushed
    records = remote_file(remote, f"{REVIEWS}/ada-lovelace.jsonl") or b""
    assert [json.loads(line)["id"] for line in records.splitlines()] == ids
    assert remote_file(remote, f"{REVIEWS}/bob-babbage.jsonl")
    assert git(ada, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")


def test_an_ext_remote_url_is_never_run(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    ada = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    marks = tmp_path / "marks"
    marks.mkdir()
    git(ada, "config", "protocol.ext.allow", "always")
    git(ada, "config", "remote.origin.pushurl", f"ext::sh -c touch% {marks}/ext")
    review = open_review(ada, "Ada Lovelace")
    review.set_verdict(1, "verified", "checked")
    with pytest.raises(Exception, match="push"):
        service_for(ada).commit_git(service_for(ada).plan_git(), push_after=True)
    assert not (marks / "ext").exists()


@pytest.mark.parametrize("include", ["[include]\n\tpath = {target}\n", '[includeIf "gitdir:/"]\n\tpath = {target}\n'])
def test_a_repository_config_that_includes_other_files_is_refused(tmp_path: Path, include: str) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    fifo = tmp_path / "included"
    os.mkfifo(fifo)  # git would wait on it forever
    with (repo / ".git" / "config").open("a", encoding="utf-8") as handle:
        handle.write(include.format(target=fifo))
    with pytest.raises(gitcmd.GitError, match="includes other config files"):
        gitcmd.run(["rev-parse", "HEAD"], repo)


def test_the_users_own_credential_helper_and_signing_are_kept(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    global_config = Path(os.environ["GIT_CONFIG_GLOBAL"])
    global_config.write_text("[credential]\n\thelper = store\n[core]\n\tsshCommand = ssh -i mykey\n", encoding="utf-8")
    git(repo, "config", "credential.helper", "!evil")
    git(repo, "config", "core.sshCommand", "evil-ssh")
    helpers = gitcmd.run(["config", "--get-all", "credential.helper"], repo).stdout.splitlines()
    # git resets its helper list at an empty value: what it would run is what follows the last one
    effective = helpers[len(helpers) - helpers[::-1].index("") :]
    assert effective == ["store"]
    assert git(repo, "config", "--get", "core.sshCommand") == "ssh -i mykey"


def refused_quickly(repo: Path, fifo: Path) -> str:
    """The GitError running git in `repo` gives, within seconds; a read left waiting on `fifo` fails the test."""
    said: list[str] = []

    def run() -> None:
        try:
            gitcmd.run(["rev-parse", "--git-dir"], repo)
        except gitcmd.GitError as exc:
            said.append(str(exc))
        else:
            said.append("git was run")

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # let the waiting read end before failing
        pytest.fail(f"reading {fifo.name} waited for a writer")
    return said[0]


@pytest.mark.parametrize("name", ["config.worktree", "commondir"])
def test_a_fifo_where_git_reads_its_config_is_refused_without_waiting(tmp_path: Path, name: str) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    fifo = repo / ".git" / name
    os.mkfifo(fifo)  # git, and a plain read of it, would wait for a writer forever
    said = refused_quickly(repo, fifo)
    assert f"{fifo} is not a regular file; git is not run in this repository" in said


def test_an_oversized_repository_config_is_refused_with_its_size(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    git(tmp_path, "init", "-q", str(repo))
    config = repo / ".git" / "config"
    with config.open("a", encoding="utf-8") as handle:
        handle.write("#" * (4 * 1024 * 1024))
    with pytest.raises(gitcmd.GitError, match=r"config: file is [\d,]+ bytes, over the 4,194,304-byte limit; git is"):
        gitcmd.run(["rev-parse", "--git-dir"], repo)
