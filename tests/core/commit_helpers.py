"""Real git repositories for the commit tests: a bare remote holding a committed logbook, and clones of it.

Git runs with an empty global configuration (GIT_CONFIG_GLOBAL in tmp, no system file), so the tests never
depend on the machine's identity; each clone gets its own user.name and user.email.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.commit.service import CommitService
from reviewapp.core.io import gitcmd
from reviewapp.core.logbook.reader import read_logbook
from tests.core.annotation_helpers import write_small_logbook

GIT_VARIABLES = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL")


def isolate_git(home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty global git configuration and HOME; returns the global config file."""
    home.mkdir(parents=True, exist_ok=True)
    config = home / "gitconfig"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("HOME", str(home))
    for name in GIT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return config


def git(cwd: Path, *args: str) -> str:
    result = gitcmd.run(list(args), cwd)
    assert result.ok, f"git {' '.join(args)}: {result.stderr or result.stdout}"
    return result.stdout.strip()


def git_bytes(cwd: Path, *args: str) -> bytes:
    result = gitcmd.run(list(args), cwd, raw=True)
    assert result.ok, result.stderr
    return result.raw


def set_identity(repo: Path, name: str, email: str) -> None:
    git(repo, "config", "user.name", name)
    git(repo, "config", "user.email", email)


def make_remote(tmp_path: Path) -> Path:
    """A bare repository whose `main` holds the small logbook in `.trackio/logbook` plus a README."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(remote), str(seed))
    set_identity(seed, "Seeder", "seed@example.invalid")
    write_small_logbook(seed)
    (seed / "README.md").write_text("# Reproduction\n", encoding="utf-8")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "logbook")
    git(seed, "push", "-q", "origin", "main")
    return remote


def clone(remote: Path, dest: Path, name: str, email: str) -> Path:
    git(dest.parent, "clone", "-q", str(remote), str(dest))
    set_identity(dest, name, email)
    return dest


def remote_file(remote: Path, path: str, ref: str = "main") -> bytes | None:
    result = gitcmd.run(["cat-file", "blob", f"{ref}:{path}"], remote, raw=True)
    return result.raw if result.ok else None


def service_for(workspace: Path, **kwargs) -> CommitService:  # type: ignore[no-untyped-def]
    return CommitService(read_logbook(workspace), **kwargs)


def published_files(tmp_path: Path, space_id: str) -> dict[str, bytes]:
    """The small logbook as `trackio logbook publish` lays it out in a Space (the logbook root at the top)."""
    root = write_small_logbook(tmp_path / "made")
    manifest = json.loads((root / "logbook.json").read_text(encoding="utf-8"))
    manifest["space_id"] = space_id
    (root / "logbook.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def published_site(tmp_path: Path, space_id: str) -> Path:
    """`published_files` written to `tmp_path/site`, as a web host serves a published logbook."""
    folder = tmp_path / "site"
    for path, content in published_files(tmp_path / "draft", space_id).items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    return folder
