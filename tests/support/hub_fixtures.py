"""Pytest fixtures for the loopback Hub server.

Use from a test module with `pytest_plugins = ["tests.support.hub_fixtures"]` (importing the fixture
functions instead makes ruff report F811 at every test that takes them as arguments).

`huggingface_hub` reads HF_ENDPOINT, HF_HOME and the token path once, when it is first imported, which is
usually before any fixture runs. The environment set here therefore only helps code that imports the client
later (e.g. a subprocess); tests should pass things explicitly:
`HfApi(endpoint=hub_server.endpoint, token=...)`, `snapshot_download(..., endpoint=hub_server.endpoint,
cache_dir=hf_home / "hub")` or `local_dir=...`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from tests.support.hostile_server import HostileHub
from tests.support.hub_server import HubServer

HubServerT = TypeVar("HubServerT", bound=HubServer)


@pytest.fixture
def hf_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty HF_HOME with no stored token; credentials from the environment are removed."""
    home = tmp_path_factory.mktemp("hf-home")
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setenv("HF_HUB_CACHE", str(home / "hub"))
    monkeypatch.setenv("HF_TOKEN_PATH", str(home / "token"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    monkeypatch.setenv("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    for name in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_OIDC_RESOURCE", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def hub_server(hf_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServer]:
    """A running loopback Hub (endpoint in `.endpoint`), stopped after the test.

    Fails the test at teardown if the server itself crashed on a request, so server bugs are never mistaken
    for client behaviour.
    """
    yield from _running(HubServer(), monkeypatch)


@pytest.fixture
def hostile_hub(hf_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HostileHub]:
    """The loopback Hub with misbehaviours a test puts on paths (tests/support/hostile_server.py)."""
    yield from _running(HostileHub(), monkeypatch)


def _running(server: HubServerT, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubServerT]:
    monkeypatch.setenv("HF_ENDPOINT", server.start())
    try:
        yield server
    finally:
        server.stop()
    assert not server.internal_errors, "hub server crashed:\n" + "\n".join(server.internal_errors)


@pytest.fixture
def hub_endpoint(hub_server: HubServer) -> str:
    """Just the endpoint URL, for `HfApi(endpoint=hub_endpoint, token=...)`."""
    return hub_server.endpoint
