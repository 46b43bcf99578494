"""A small runner for the git command line: argument lists only, a timeout, and output that does not depend on
the user's locale or ask for credentials on a terminal nobody is watching, and never runs a program that the
repository's own config names (core/io/git_safety.py).

The git CLI (rather than a library) brings the user's credential helpers, signing and `merge=union` support.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.io.git_safety import UnsafeGitConfig, config_overrides

DEFAULT_TIMEOUT = 30.0


class GitError(Exception):
    """git could not be run at all (not installed, timed out); a failing git command is a GitResult instead."""


@dataclass(frozen=True)
class GitResult:
    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    raw: bytes = b""  # stdout exactly as git wrote it (file contents), when run with raw=True

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def message(self) -> str:
        """The first line git printed about a failure, for one-line error messages."""
        for line in (self.stderr or self.stdout).splitlines():
            if line.strip():
                return line.strip()
        return f"git {' '.join(self.args)} exited with {self.returncode}"


def git_env(extra: Mapping[str, str] | None = None, cwd: Path | str | None = None) -> dict[str, str]:
    """The environment of a git call; with `cwd`, the overrides that keep that repository's config from running
    programs (see git_safety). Raises GitError when the repository's config cannot be made safe."""
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "LANGUAGE": "C", "GIT_TERMINAL_PROMPT": "0"})
    env.update({"GIT_PAGER": "cat", "GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true"})
    if extra:
        env.update(extra)
    if cwd is not None:
        try:
            env.update(config_overrides(cwd, env))
        except UnsafeGitConfig as exc:
            raise GitError(str(exc)) from exc
    return env


_TRANSPORT_OPTIONS = {
    "push": "--receive-pack=git-receive-pack",
    "fetch": "--upload-pack=git-upload-pack",
    "pull": "--upload-pack=git-upload-pack",
    "clone": "--upload-pack=git-upload-pack",
    "ls-remote": "--upload-pack=git-upload-pack",
}


def with_transport_programs(args: Sequence[str]) -> list[str]:
    """`args` with the remote-side program named on the command line for commands that talk to a remote.

    `remote.<name>.uploadpack` / `receivepack` cannot be overridden by later config (git keeps the first value),
    so the option, which wins over config, names git's own program.
    """
    result = list(args)
    index = 0
    while index < len(result) and result[index] == "-c":
        index += 2
    if index < len(result) and result[index] in _TRANSPORT_OPTIONS:
        result.insert(index + 1, _TRANSPORT_OPTIONS[result[index]])
    return result


def run(
    args: Sequence[str],
    cwd: Path | str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    input: str | bytes | None = None,
    env: Mapping[str, str] | None = None,
    raw: bool = False,
) -> GitResult:
    """Run `git ARGS` in `cwd` and capture its output (decoded as UTF-8, undecodable bytes replaced).

    `input` may be bytes (file contents for `hash-object --stdin`); with `raw` the undecoded stdout is kept in
    `GitResult.raw` too. `env` adds to (not replaces) the environment. Raises GitError only when git cannot be
    run or times out.
    """
    command = ["git", *with_transport_programs(args)]
    data = input.encode("utf-8") if isinstance(input, str) else input
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            input=data,
            stdin=None if data is not None else subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            env=git_env(env, cwd),
            check=False,
        )
    except FileNotFoundError as exc:
        if not Path(cwd).is_dir():
            raise GitError(f"no such folder: {cwd}") from exc
        raise GitError("git is not installed (or not on PATH)") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitError(f"git {' '.join(args)} did not finish within {timeout:g} s") from exc
    except OSError as exc:
        raise GitError(f"cannot run git: {exc}") from exc
    return GitResult(
        tuple(args),
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
        done.stdout if raw else b"",
    )
