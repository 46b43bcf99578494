"""Behind a proxy the environment names, opens still work and the deadline and byte caps still hold.

The proxy (tests/support/forward_proxy.py) forwards plain requests and tunnels CONNECTs on 127.0.0.1, in front
of the hostile loopback Hub; the real huggingface_hub client reads HTTP_PROXY / HTTPS_PROXY as a user's shell
would set them. Each test also checks that the proxy carried the transfer, so a client that ignored the
environment (and went straight to the Hub) fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_errors import SourceRefused, SourceTimedOut, SourceTooLarge
from reviewapp.core.io.transfer_guard import _guarded_backend, _guarded_client, connection_pools
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.sources.opener import open_source
from tests.core.commit_helpers import published_files, published_site
from tests.support.forward_proxy import ForwardProxy
from tests.support.hostile_server import HostileHub, HostileWeb, Misbehaviour, run_bounded
from tests.support.tls_front import TlsFront

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-proxied"
BOUND = 60.0  # seconds before a call counts as hanging; the limits below are a few seconds
SHORT = DownloadLimits(max_seconds=2.0)


def _behind(monkeypatch: pytest.MonkeyPatch, proxy: ForwardProxy) -> None:
    from huggingface_hub.utils import close_session

    for name in ("HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.setenv(name, proxy.url)
    close_session()  # the shared client reads the environment's proxies when it is built


@pytest.fixture
def proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[ForwardProxy]:
    from huggingface_hub.utils import close_session

    with ForwardProxy() as running:
        _behind(monkeypatch, running)
        yield running
    close_session()  # the next test's client is built without this proxy


@pytest.fixture
def stalling_proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[ForwardProxy]:
    from huggingface_hub.utils import close_session

    with ForwardProxy(stall_connect=True) as running:
        _behind(monkeypatch, running)
        yield running
    close_session()


def _publish(hub: HostileHub, tmp_path: Path) -> str:
    return hub.create_repo(SPACE, repo_type="space", files=dict(published_files(tmp_path / "published", SPACE)))


def _open(limits: DownloadLimits = SHORT, source: str = SPACE) -> tuple[object, BaseException | None]:
    value, error, _ = run_bounded(lambda: open_source(source, limits=limits), within=BOUND)
    return value, error


def _carried_files(proxy: ForwardProxy, hub: HostileHub) -> list[str]:
    return [target for method, target in proxy.requests if target.startswith(f"{hub.endpoint}/spaces/{SPACE}/")]


def test_an_honest_open_goes_through_the_proxy(hostile_hub: HostileHub, proxy: ForwardProxy, tmp_path: Path) -> None:
    head = _publish(hostile_hub, tmp_path)

    opened, error = _open(DownloadLimits(max_seconds=60.0))

    assert error is None, repr(error)
    assert opened.revision == head  # type: ignore[attr-defined]
    assert [c.verdict.value for c in read_logbook(opened.folder).claims] == ["verified", "falsified", "toy"]  # type: ignore[attr-defined]
    assert any(t.endswith("/pages/index.md") for t in _carried_files(proxy, hostile_hub)), proxy.requests


def test_a_trickling_file_through_the_proxy_stops_at_the_deadline(
    hostile_hub: HostileHub, proxy: ForwardProxy, tmp_path: Path
) -> None:
    _publish(hostile_hub, tmp_path)
    hostile_hub.misbehave("/resolve/", Misbehaviour(pace=0.3, method="GET"))

    _, error = _open()

    assert isinstance(error, SourceTimedOut) and "longer than 2 s" in str(error), repr(error)
    assert _carried_files(proxy, hostile_hub), proxy.requests


def test_a_file_sending_more_than_listed_through_the_proxy_hits_its_cap(
    hostile_hub: HostileHub, proxy: ForwardProxy, hf_home: Path, tmp_path: Path
) -> None:
    _publish(hostile_hub, tmp_path)
    hostile_hub.misbehave("pages/index.md", Misbehaviour(extra=8 * 1024 * 1024, method="GET"))

    _, error = _open(DownloadLimits(max_seconds=60.0))

    assert isinstance(error, SourceTooLarge) and "pages/index.md" in str(error), repr(error)
    kept = sum(p.stat().st_size for p in hf_home.rglob("*") if p.is_file() and not p.is_symlink())
    assert kept < 1024 * 1024
    assert _carried_files(proxy, hostile_hub), proxy.requests


def test_a_connect_the_proxy_never_answers_stops_at_the_deadline(stalling_proxy: ForwardProxy) -> None:
    url = "https://127.0.0.1:9/"  # a tunnel is asked for; the proxy reads the CONNECT and stays silent

    _, error = _open(source=url)

    assert isinstance(error, SourceTimedOut) and error.source == url and "longer than 2 s" in str(error), repr(error)
    assert stalling_proxy.requests == [("CONNECT", "127.0.0.1:9")]


def test_every_connection_pool_of_the_client_gets_the_guarded_backend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The guard reaches httpx's proxy transports through private attributes: this fails if a release moves them.
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("NO_PROXY", "localhost")
    client = _guarded_client()
    try:
        pools = connection_pools(client)
        guarded = type(_guarded_backend())
        assert len(pools) == 3  # direct, http:// and https:// (localhost is a mount of None: the direct pool)
        assert {type(pool).__name__ for pool in pools} == {"ConnectionPool", "HTTPProxy"}
        assert all(type(pool._network_backend).__name__ == guarded.__name__ for pool in pools)
    finally:
        client.close()


# -- through a CONNECT tunnel ------------------------------------------------------------------------------------


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return published_site(tmp_path, SPACE)


@pytest.fixture
def https_site(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[HostileWeb, str]]:
    """The published site over HTTPS (a loopback certificate the client is told to trust)."""
    with HostileWeb(site) as web, TlsFront(int(web.url.rsplit(":", 1)[1].strip("/")), tmp_path / "tls") as front:
        monkeypatch.setenv("SSL_CERT_FILE", str(front.certificate))
        yield web, front.url


def test_an_https_open_goes_through_a_connect_tunnel(https_site: tuple[HostileWeb, str], proxy: ForwardProxy) -> None:
    web, url = https_site
    from huggingface_hub.utils import close_session

    close_session()  # built again with the certificate to trust

    opened, error = _open(DownloadLimits(max_seconds=60.0), source=url)

    assert error is None, repr(error)
    assert read_logbook(opened.folder).claims  # type: ignore[attr-defined]
    assert proxy.requests and {method for method, _ in proxy.requests} == {"CONNECT"}, proxy.requests
    assert "/pages/index.md" in web.paths


def test_a_trickling_page_through_a_connect_tunnel_stops_at_the_deadline(
    https_site: tuple[HostileWeb, str], proxy: ForwardProxy
) -> None:
    web, url = https_site
    from huggingface_hub.utils import close_session

    close_session()
    web.misbehave("/pages/index.md", Misbehaviour(pace=0.3))

    _, error = _open(source=url)

    assert isinstance(error, SourceTimedOut) and error.source == url and "longer than 2 s" in str(error), repr(error)
    assert {method for method, _ in proxy.requests} == {"CONNECT"}, proxy.requests


def test_a_proxy_the_client_cannot_use_is_a_clear_error(
    hostile_hub: HostileHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from huggingface_hub.utils import close_session

    _publish(hostile_hub, tmp_path)
    monkeypatch.setenv("ALL_PROXY", "socks5://127.0.0.1:9")  # SOCKS needs a package that is not installed
    close_session()
    try:
        _, error = _open(DownloadLimits(max_seconds=60.0))
    finally:
        monkeypatch.delenv("ALL_PROXY")
        close_session()

    assert isinstance(error, SourceRefused), repr(error)
    assert str(error).startswith(f"Space {SPACE}") and "proxy the environment names cannot be used" in str(error)
