"""Annotator identity: preferences first, then the Hugging Face user (real client against the loopback Hub),
then git's user.name (a real repository with its own config), then asking; whatever is found is kept."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from reviewapp.core.io import gitcmd
from reviewapp.core.review.identity import annotator_slug, check_name, git_user_name, hf_user_name, resolve_identity
from reviewapp.core.review.preferences import Preferences, load_preferences, preferences_path, save_preferences
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]


@pytest.fixture(autouse=True)
def no_ambient_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No git identity or HF token from the machine running the tests."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        monkeypatch.delenv(name, raising=False)


def git_repo(folder: Path, user_name: str | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    assert gitcmd.run(["init", "-q"], folder).ok
    if user_name is not None:
        assert gitcmd.run(["config", "user.name", user_name], folder).ok
    return folder


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Ada Lovelace", "ada-lovelace"),
        ("  José  Núñez ", "jose-nunez"),
        ("o'Brien, M.", "o-brien-m"),
        ("../../etc/passwd", "etc-passwd"),
        ("CON", None),
        ("李雷", None),
        ("x" * 300, "x" * 64),
    ],
)
def test_slug_is_safe_for_file_names(name: str, slug: str | None) -> None:
    made = annotator_slug(name)
    if slug is None:
        assert made.startswith("annotator-") and made == annotator_slug(name)
    else:
        assert made == slug
    assert "/" not in made and not made.startswith((".", "-")) and len(made) <= 64


def test_name_checks() -> None:
    assert check_name("  Ada   Lovelace ") == "Ada Lovelace"
    for bad, message in [("  ", "empty"), ("x" * 201, "more than"), ("hf_" + "a1B2" * 9, "access token")]:
        with pytest.raises(ValueError, match=message):
            check_name(bad)


def test_git_user_name_from_a_real_repository(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo", "Grace Hopper")
    assert git_user_name(repo) == "Grace Hopper"
    assert git_user_name(tmp_path) is None  # no repository, empty global config
    (tmp_path / "home" / ".gitconfig").write_text("[user]\n\tname = Global Name\n", encoding="utf-8")
    assert git_user_name(tmp_path) == "Global Name"
    assert git_user_name(repo) == "Grace Hopper"  # the repository's own setting wins


def test_git_e_mail_as_name_is_not_used(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo", "grace@example.org")
    assert git_user_name(repo) is None


def test_git_name_is_resolved_and_kept_so_it_survives_leaving_the_repository(tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo", "Grace Hopper")
    identity = resolve_identity(cwd=repo)
    assert identity is not None and (identity.name, identity.source) == ("Grace Hopper", "git")
    assert identity.slug == "grace-hopper"
    saved = load_preferences()
    assert (saved.annotator, saved.annotator_source) == ("Grace Hopper", "git")
    gitcmd.run(["config", "user.name", "Someone Else"], repo)
    again = resolve_identity(cwd=repo)
    assert again is not None and (again.name, again.source) == ("Grace Hopper", "preferences")


def test_preferences_come_first(tmp_path: Path) -> None:
    save_preferences(Preferences(annotator="Saved Name", annotator_source="asked"))
    repo = git_repo(tmp_path / "repo", "Grace Hopper")
    identity = resolve_identity(cwd=repo, ask=lambda: pytest.fail("must not ask"))
    assert identity is not None and identity.name == "Saved Name"


def test_explicit_name_is_saved_only_when_remembered(tmp_path: Path) -> None:
    save_preferences(Preferences(annotator="Old Name"))
    once = resolve_identity(explicit="Other Name")
    assert once is not None and (once.name, once.source) == ("Other Name", "command line")
    assert load_preferences().annotator == "Old Name"
    identity = resolve_identity(explicit=" New  Name ", remember=True)
    assert identity is not None and (identity.name, identity.source) == ("New Name", "command line")
    assert load_preferences().annotator == "New Name"
    assert resolve_identity().name == "New Name"  # type: ignore[union-attr]


def test_asked_when_nothing_else_and_none_without_asking(tmp_path: Path) -> None:
    assert resolve_identity(cwd=tmp_path) is None
    assert not preferences_path().exists()
    identity = resolve_identity(cwd=tmp_path, ask=lambda: "Asked Person")
    assert identity is not None and (identity.name, identity.source) == ("Asked Person", "asked")
    assert load_preferences().annotator == "Asked Person"


def test_hugging_face_user_name_comes_before_git(hub_server: HubServer, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    token = hub_server.add_user("hub-alice")
    monkeypatch.setenv("HF_TOKEN", token)
    repo = git_repo(tmp_path / "repo", "Grace Hopper")
    assert hf_user_name(hub_server.endpoint) == "hub-alice"
    identity = resolve_identity(cwd=repo, hf_endpoint=hub_server.endpoint)
    assert identity is not None and (identity.name, identity.source) == ("hub-alice", "huggingface")
    assert load_preferences().annotator_source == "huggingface"
    whoami = [r for r in hub_server.requests if "whoami" in r.path]
    assert len(whoami) == 2 and all(r.user == "hub-alice" and not r.exposes(token) for r in whoami)
    assert resolve_identity(cwd=repo, hf_endpoint=hub_server.endpoint).source == "preferences"  # type: ignore[union-attr]
    assert len([r for r in hub_server.requests if "whoami" in r.path]) == 2  # resolved once, then kept


def test_no_token_means_no_hub_request(hub_server: HubServer, tmp_path: Path) -> None:
    repo = git_repo(tmp_path / "repo", "Grace Hopper")
    identity = resolve_identity(cwd=repo, hf_endpoint=hub_server.endpoint)
    assert identity is not None and identity.source == "git"
    assert hub_server.requests == []


def test_rejected_token_falls_through_to_git(hub_server: HubServer, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HF_TOKEN", "hf_" + "unknownToken0" * 3)
    repo = git_repo(tmp_path / "repo", "Grace Hopper")
    identity = resolve_identity(cwd=repo, hf_endpoint=hub_server.endpoint)
    assert identity is not None and identity.source == "git"
    assert any("whoami" in r.path and r.status == 401 for r in hub_server.requests)


def test_unreachable_hub_gives_up_within_the_timeout(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A listener that accepts but never answers: whoami would hang; the lookup must not."""
    import socket

    monkeypatch.setenv("HF_TOKEN", "hf_" + "someToken0000" * 3)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}"
        started = time.monotonic()
        assert hf_user_name(endpoint, timeout=0.5) is None
        assert time.monotonic() - started < 3


class _WatchedModule:
    """Stands in for huggingface_hub: records every name asked of it (nothing may be, without a token)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __getattr__(self, name: str) -> object:
        self.asked.append(name)
        raise AttributeError(name)


def test_without_a_token_huggingface_hub_is_not_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import sys

    watched = _WatchedModule()
    monkeypatch.setitem(sys.modules, "huggingface_hub", watched)
    assert hf_user_name("http://127.0.0.1:9") is None
    assert watched.asked == []
    token_file = Path(os.environ["HF_HOME"]) / "token"  # a token logged in with `hf auth login`: asked
    token_file.parent.mkdir(parents=True, exist_ok=True)
    token_file.write_text("hf_" + "storedToken00" * 3, encoding="utf-8")
    assert hf_user_name("http://127.0.0.1:9") is None
    assert watched.asked != []
