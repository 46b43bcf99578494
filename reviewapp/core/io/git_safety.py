"""Keep a repository's own git config from running programs when the app runs git in it.

A logbook's repository is untrusted, and so is its `.git/config`: `core.fsmonitor` runs on `ls-files`, hooks
(`core.hooksPath`, `.git/hooks/`) on commit and push, filter drivers on checkout, `core.sshCommand` on fetch.
Every git call the app makes therefore carries overrides (as `GIT_CONFIG_COUNT` entries, which take precedence
over every config file and, unlike `-c`, need no quoting of `=` in names):

- always: `core.fsmonitor=false`, `core.hooksPath=<an empty folder>`, `protocol.ext.allow=never`;
- for each key of the repository's own config (`.git/config`, `config.worktree`) that runs a program: the
  user's own value of that key from the global or system config when there is one (push needs the user's
  credential helper and ssh command), else a value that runs nothing harmful (filters become `cat`, so content
  passes through unchanged; pagers and editors `cat`/`true`; signing off).

Includes (`include.path`, `includeIf.*.path`) in the repository's own config are refused outright: git reads an
included file before anything can override it, and it could be a FIFO or set keys under any name.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from reviewapp.core.io.safepath import CannotOpen, FileTooLarge, UnsafeReference, read_capped, read_head

_CONFIG_LIMIT = 4 * 1024 * 1024
_POINTER_LIMIT = 4096

# key (lowercase, "section.name" or "section.*.name") -> value when the user has none of their own
_NEUTRAL = {
    "core.sshcommand": "ssh",
    "core.pager": "cat",
    "core.editor": "true",
    "sequence.editor": "true",
    "core.askpass": "",
    "core.gitproxy": "",
    "diff.external": "",
    "gpg.program": "gpg",
    "gpg.openpgp.program": "gpg",
    "gpg.x509.program": "gpgsm",
    "gpg.ssh.program": "ssh-keygen",
    "gpg.ssh.defaultkeycommand": "",
    "commit.gpgsign": "false",
    "tag.gpgsign": "false",
    "push.gpgsign": "false",
    "core.alternaterefscommand": "",
    "filter.*.smudge": "cat",
    "filter.*.clean": "cat",
    "filter.*.process": "false",  # cannot start, so git passes content through (required is forced off)
    "filter.*.required": "false",
    "diff.*.textconv": "cat",
    "diff.*.command": "false",
    "merge.*.driver": "false",
    "remote.*.uploadpack": "git-upload-pack",  # git keeps the first value: gitcmd also names it as an option
    "remote.*.receivepack": "git-receive-pack",
    "remote.*.vcs": "",
    "pager.*": "false",
}
_MULTI = {"credential.helper", "credential.*.helper"}  # an empty value resets the list; the user's are re-added
_INCLUDES = re.compile(r"^(?:include\.path|includeif\..*\.path)$", re.IGNORECASE | re.DOTALL)
_HEADER = re.compile(r'\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]')
_UNESCAPE = re.compile(r"\\(.)")
_KEY = re.compile(r"([A-Za-z][A-Za-z0-9-]*)\s*(?:=|$|[#;])")


class UnsafeGitConfig(Exception):
    """The repository's own config cannot be made safe (it includes other files, or a file git reads is not a
    regular file or is too large); the message says which and what to do."""


def config_overrides(cwd: Path | str, env: dict[str, str]) -> dict[str, str]:
    """The GIT_CONFIG_COUNT/KEY/VALUE entries that neutralize the repository at `cwd` for one git call."""
    pairs: list[tuple[str, str]] = [
        ("core.fsmonitor", "false"),
        ("core.hooksPath", _empty_hooks_folder()),
        ("protocol.ext.allow", "never"),
    ]
    for key in _local_keys(cwd, env):
        pattern = _pattern_of(key)
        if pattern in _MULTI:
            pairs.append((key, ""))
            pairs.extend((key, value) for value in _user_values(key))
        elif pattern in _NEUTRAL:
            mine = _user_values(key)
            pairs.append((key, mine[-1] if mine else _NEUTRAL[pattern]))
            if pattern.startswith("filter.*."):
                pairs.append((key.rsplit(".", 1)[0] + ".required", "false"))
    start = int(env.get("GIT_CONFIG_COUNT", "0") or 0)  # keep entries the caller's environment already has
    entries = {"GIT_CONFIG_COUNT": str(start + len(pairs))}
    for offset, (key, value) in enumerate(pairs):
        entries[f"GIT_CONFIG_KEY_{start + offset}"] = key
        entries[f"GIT_CONFIG_VALUE_{start + offset}"] = value
    return entries


def _pattern_of(key: str) -> str:
    """'filter.Evil.smudge' -> 'filter.*.smudge'; 'core.pager' -> 'core.pager' (all lowercase)."""
    section, _, rest = key.partition(".")
    sub, dot, name = rest.rpartition(".")
    if not dot:
        return key.lower()
    if section.lower() == "pager":
        return "pager.*"
    if section.lower() == "gpg" and sub.lower() in ("openpgp", "x509", "ssh"):
        return key.lower()
    return f"{section.lower()}.*.{name.lower()}"


def _local_keys(cwd: Path | str, env: dict[str, str]) -> list[str]:
    keys: list[str] = []
    for config in _repository_configs(Path(cwd), env):
        for key in _keys_of(config):
            if _INCLUDES.match(key):
                raise UnsafeGitConfig(
                    f"{config} includes other config files ({key}); git is not run in this repository because an "
                    "included file could run programs. Remove the include to continue"
                )
            if key not in keys:
                keys.append(key)
    return keys


def _repository_configs(cwd: Path, env: dict[str, str]) -> list[Path]:
    """The config files of the repository git would find from `cwd` (its own, not the user's)."""
    git_dir = Path(env["GIT_DIR"]) if env.get("GIT_DIR") else _find_git_dir(cwd)
    if git_dir is None:
        return []
    common = git_dir
    commondir = git_dir / "commondir"
    try:
        pointer = _pointer_text(commondir)
    except CannotOpen:  # not a linked worktree
        pointer = ""
    except UnsafeReference:  # git would read it, and wait on a FIFO
        raise UnsafeGitConfig(f"{commondir} is not a regular file; git is not run in this repository") from None
    if pointer:
        common = (git_dir / pointer).resolve()
    found = [common / "config", common / "config.worktree", git_dir / "config.worktree"]
    return list(dict.fromkeys(path for path in found if os.path.lexists(path)))


def _find_git_dir(start: Path) -> Path | None:
    folder = start.resolve()
    for candidate in (folder, *folder.parents):
        dot_git = candidate / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():
            try:
                text = _pointer_text(dot_git)
            except UnsafeReference:
                return None
            if text.startswith("gitdir:"):
                return (candidate / text[len("gitdir:") :].strip()).resolve()
            return None
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir() and (candidate / "config").exists():
            return candidate  # a bare repository
    return None


def _pointer_text(path: Path) -> str:
    """The start of a file that names a folder (`.git` as a file, `commondir`): a path, never more than 4 KB."""
    return read_head(path, _POINTER_LIMIT).decode("utf-8", "replace").strip()


def _keys_of(config: Path) -> list[str]:
    """Every key a git config file sets, as "section[.subsection].name"; leniently, erring towards more keys."""
    try:
        # the type and size are checked on the open file, so a config swapped for a FIFO after a check is refused too
        data = read_capped(config, _CONFIG_LIMIT, follow=False)
    except CannotOpen:
        return []
    except FileTooLarge as exc:
        raise UnsafeGitConfig(f"{config}: {exc}; git is not run in this repository") from None
    except UnsafeReference:  # a FIFO, a device or a link as config: git might block on it
        raise UnsafeGitConfig(f"{config} is not a regular file; git is not run in this repository") from None
    text = data.decode("utf-8", "surrogateescape")
    keys: list[str] = []
    section = ""
    for raw in _logical_lines(text):
        line = raw.lstrip()
        header = _HEADER.match(line)
        if line.startswith("["):
            if header is None:
                continue  # git itself refuses such a file, so nothing runs
            name, sub = header.group(1), header.group(2)
            if sub is not None:
                section = name + "." + _UNESCAPE.sub(r"\1", sub)
            else:  # [section.subsection]: the deprecated form, subsection lowercased
                section = name.lower() if "." in name else name
            line = line[header.end() :].lstrip()
        found = _KEY.match(line)
        if found and section:
            keys.append(f"{section}.{found.group(1)}")
    return keys


def _logical_lines(text: str) -> list[str]:
    lines: list[str] = []
    pending = ""
    for line in text.splitlines():
        stripped = line.rstrip()
        escapes = len(stripped) - len(stripped.rstrip("\\"))
        if escapes % 2 == 1:  # a value continued on the next line
            pending += stripped[:-1]
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def _user_config() -> dict[str, list[str]]:
    """The user's global and system config (never a repository's): key -> values; read again when it changes."""
    return _read_user_config(_user_config_stamp())


def _user_config_stamp() -> tuple[object, ...]:
    names = [os.environ.get("GIT_CONFIG_GLOBAL"), os.environ.get("GIT_CONFIG_SYSTEM")]
    home, xdg = os.path.expanduser("~"), os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    files = [*(n for n in names if n), os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config")]
    stamps: list[object] = [os.environ.get("GIT_CONFIG_NOSYSTEM"), *names]
    for name in files:
        try:
            info = os.stat(name)
            stamps.append((name, info.st_mtime_ns, info.st_size))
        except OSError:
            stamps.append((name, None))
    return tuple(stamps)


@functools.lru_cache(maxsize=4)
def _read_user_config(_stamp: tuple[object, ...]) -> dict[str, list[str]]:
    values: dict[str, list[str]] = {}
    for scope in ("--system", "--global"):
        try:
            done = subprocess.run(
                ["git", "config", scope, "--list", "-z"],
                cwd=tempfile.gettempdir(),
                capture_output=True,
                timeout=10,
                env={**os.environ, "GIT_DIR": os.devnull},
                check=False,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        for entry in done.stdout.decode("utf-8", "surrogateescape").split("\0"):
            key, _, value = entry.partition("\n")
            if key:
                values.setdefault(_lower_outside_subsection(key), []).append(value)
    return values


def _lower_outside_subsection(key: str) -> str:
    section, _, rest = key.partition(".")
    sub, dot, name = rest.rpartition(".")
    return f"{section.lower()}.{sub}.{name.lower()}" if dot else key.lower()


def _user_values(key: str) -> list[str]:
    return _user_config().get(_lower_outside_subsection(key), [])


@functools.lru_cache(maxsize=1)
def _empty_hooks_folder() -> str:
    """An empty folder of our own as core.hooksPath: git finds no hook there, whatever the repository holds."""
    folder = tempfile.mkdtemp(prefix="reviewapp-no-hooks-")
    atexit.register(shutil.rmtree, folder, True)
    return folder
