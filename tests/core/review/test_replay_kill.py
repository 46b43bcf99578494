"""SIGKILL at every step of a push replay: the next run recovers by itself and every record reaches the remote.

A `git` wrapper first on PATH runs the real git, then kills the process that called it (the reviewapp commit
command) right after a named subcommand, counted from the moment a push was rejected (the replay has begun).
A second `reviewapp commit --push` must finish what the first left and push every record.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.annotation_helpers import open_review, subprocess_env
from tests.core.commit_helpers import clone, git, isolate_git, make_remote, remote_file

pytestmark = pytest.mark.skipif(os.name == "nt", reason="a POSIX shell wrapper and SIGKILL")

REVIEWS = ".trackio/logbook/reviews"
WRAPPER = """#!/bin/sh
state="{state}"
"{git}" "$@"
rc=$?
sub=""
skip=0
for arg in "$@"; do
    if [ $skip = 1 ]; then skip=0; continue; fi
    case "$arg" in
        -c|-C) skip=1 ;;
        -*) ;;
        *) sub="$arg"; break ;;
    esac
done
if [ "$sub" = push ] && [ $rc != 0 ] && [ ! -e "$state/armed" ]; then
    : > "$state/armed"
elif [ -e "$state/armed" ] && [ ! -e "$state/killed" ] && [ "$sub" = "{name}" ]; then
    echo x >> "$state/seen"
    if [ "$(wc -l < "$state/seen")" -ge {nth} ]; then
        : > "$state/killed"
        kill -9 $PPID
    fi
fi
exit $rc
"""
# every git subcommand the replay runs after the rejected push, in order; read-tree 2 moves the work tree
STEPS = [("fetch", 1), ("rev-list", 1), ("diff-tree", 1), ("cat-file", 1), ("read-tree", 1), ("hash-object", 1),
         ("write-tree", 1), ("commit-tree", 1), ("update-index", 2), ("read-tree", 2), ("update-ref", 1),
         ("push", 1)]  # fmt: skip


def record_ids(data: bytes | None) -> list[str]:
    return [json.loads(line)["id"] for line in (data or b"").splitlines()]


def commit_push(work: Path, home: Path, path: str) -> subprocess.CompletedProcess[str]:
    env = subprocess_env(home, PATH=path)
    env["GIT_CONFIG_GLOBAL"] = os.environ["GIT_CONFIG_GLOBAL"]
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    return subprocess.run([sys.executable, "-m", "reviewapp", "commit", str(work), "--push"], env=env,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


@pytest.mark.parametrize(("name", "nth"), STEPS, ids=[f"{n}-{k}" for n, k in STEPS])
def test_a_kill_at_any_step_of_the_replay_is_recovered_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, nth: int
) -> None:
    isolate_git(tmp_path / "git-home", monkeypatch)
    remote = make_remote(tmp_path)
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    other = clone(remote, tmp_path / "bob", "Bob Babbage", "bob@example.invalid")
    bob = open_review(other, "Bob Babbage").set_verdict(2, "toy", "small runs only").id
    (other / "README.md").write_text("# Reproduction\n\nupdated upstream\n", encoding="utf-8")
    git(other, "add", "-A")
    git(other, "commit", "-q", "-m", "upstream work")
    git(other, "push", "-q", "origin", "main")
    ada = [open_review(work, "Ada Lovelace").set_verdict(n, "verified", f"checked {n}").id for n in (1, 3)]

    state = tmp_path / "wrapper-state"
    state.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    real_git = shutil.which("git")
    assert real_git is not None
    wrapper = bin_dir / "git"
    wrapper.write_text(WRAPPER.format(state=state, git=real_git, name=name, nth=nth), encoding="utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"

    first = commit_push(work, tmp_path / "home", path)
    assert (state / "killed").exists(), f"the wrapper never saw {name} #{nth}: {first.stderr}"
    assert first.returncode == -9

    second = commit_push(work, tmp_path / "home", os.environ["PATH"])
    assert second.returncode == 0, second.stderr
    assert record_ids(remote_file(remote, f"{REVIEWS}/ada-lovelace.jsonl")) == ada
    assert record_ids(remote_file(remote, f"{REVIEWS}/bob-babbage.jsonl")) == [bob]
    assert git(work, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")
    assert (work / "README.md").read_text(encoding="utf-8").endswith("updated upstream\n")
    assert git(work, "status", "--porcelain=v1", "--untracked-files=no") == ""
    assert not list(Path(git(work, "rev-parse", "--absolute-git-dir")).glob("reviewapp-replay*"))
