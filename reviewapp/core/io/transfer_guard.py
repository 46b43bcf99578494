"""One wall-clock deadline and byte caps for a whole open or download, enforced where the bytes arrive.

A server that trickles a byte every second stays inside every per-read timeout, and huggingface_hub reads a
file in 10 MB chunks, so a check between chunks never runs. Instead, every connection huggingface_hub's HTTP
client makes (the shared `get_session()` client, which the web source uses too), directly or through a proxy
the environment names, goes through a network backend that, for the thread's active `TransferGuard`:

- gives each read and write at most the time left before the deadline (a socket timeout, not a check after);
- counts every byte received against the cap of the file being fetched and the cap of the whole transfer,
  whatever the server announced;
- and is watched by a thread that shuts the guard's sockets down the moment the deadline passes or the user
  cancels, so a blocked read returns at once instead of at its timeout.

The stop is raised as the guard's own error (SourceTimedOut, SourceTooLarge, Cancelled), which huggingface_hub
does not retry. Answers naming cache paths are checked too: an `X-Repo-Commit` that is not 40 hex digits or an
ETag that is not a blob id (40 or 64 hex digits) is refused before huggingface_hub builds a path from it, so a
lying endpoint cannot make it write outside the cache (huggingface_hub 2.4 checks only the snapshot path).

    with TransferGuard(source, max_seconds=600, max_bytes=500 * MB, cancel=token) as guard:
        with guard.file("pages/index.md", cap=64 * 1024):
            ...  # any huggingface_hub call, or get_session().stream(...)
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from types import TracebackType
from typing import TYPE_CHECKING, Any

from reviewapp.core.io.source_errors import SourceRefused, SourceTimedOut, SourceTooLarge, SourceUnavailable
from reviewapp.core.progress import Cancelled, CancelToken

if TYPE_CHECKING:
    import httpx2

WATCH_POLL_S = 0.1  # how often the watchdog looks at the cancel token
XET_HASH = "X-Xet-Hash"  # what makes huggingface_hub download a file through hf_xet instead of HTTP
_COMMIT_ID = re.compile(r"[0-9a-f]{40}")
_BLOB_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_local = threading.local()
_owners: weakref.WeakKeyDictionary[socket.socket, TransferGuard] = weakref.WeakKeyDictionary()
_owners_lock = threading.Lock()
_install_lock = threading.Lock()
_installed = False


class TransferGuard:
    """The limits of one open or download, active in the thread that entered it (nested guards: the innermost)."""

    def __init__(
        self,
        source: str,
        *,
        max_seconds: float,
        max_bytes: int,
        cancel: CancelToken | None = None,
        started: float | None = None,
    ) -> None:
        self.source = source
        self.max_seconds = max_seconds
        self.max_bytes = max_bytes
        self.cancel = cancel
        self.started = started if started is not None else time.monotonic()
        self.deadline = self.started + max_seconds
        self.received = 0
        self.stopped: Exception | None = None  # why the transfer was stopped, once it was
        self._file_stop: Exception | None = None
        self._file: str | None = None
        self._file_cap: int | None = None
        self._file_received = 0
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self._done = threading.Event()
        self._watchdog: threading.Thread | None = None

    # -- entering and leaving -------------------------------------------------------------------------------------

    def __enter__(self) -> TransferGuard:
        install_guarded_client()
        stack: list[TransferGuard] = _stack()
        stack.append(self)
        self._watchdog = threading.Thread(target=self._watch, name="reviewapp-transfer-watchdog", daemon=True)
        self._watchdog.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._done.set()
        stack = _stack()
        if self in stack:
            stack.remove(self)
        if self._watchdog is not None:
            self._watchdog.join()

    @contextlib.contextmanager
    def file(self, path: str, cap: int | None = None) -> Iterator[None]:
        """Bytes received inside count against `cap` for `path` (None: only the transfer's own cap)."""
        self._file, self._file_cap, self._file_received = path, cap, 0
        try:
            yield
        finally:
            self._file, self._file_cap = None, None
            if self.stopped is self._file_stop:  # one file's excess stops that file, not the transfer
                self.stopped = self._file_stop = None

    # -- what the network backend calls ---------------------------------------------------------------------------

    def check(self) -> None:
        """Raise the reason to stop, if there is one now."""
        if self.stopped is None:
            if self.cancel is not None and self.cancel.cancelled:
                self._stop(Cancelled())
            elif time.monotonic() >= self.deadline:
                self._stop(self._timed_out())
        if self.stopped is not None:
            raise self.stopped

    def time_left(self, timeout: float | None) -> float:
        left = max(self.deadline - time.monotonic(), 0.001)
        return left if timeout is None else min(timeout, left)

    def count(self, size: int) -> None:
        self.received += size
        self._file_received += size
        if self.received > self.max_bytes:
            self._stop(
                SourceTooLarge(
                    self.source,
                    f"over the {_megabytes(self.max_bytes)} download limit on the bytes received "
                    f"(at {self._file or 'the Hub API'}); raise the limit to open it",
                )
            )
        elif self._file_cap is not None and self._file_received > self._file_cap and self.stopped is None:
            self._file_stop = SourceTooLarge(
                self.source,
                f"{self._file} sent more than {_megabytes(self._file_cap)}, more than its listed size; its "
                "download was stopped",
            )
            self._stop(self._file_stop)
        if self.stopped is not None:
            raise self.stopped

    def watch(self, sock: socket.socket | None) -> None:
        """`sock` carries this guard's transfer now (a pooled connection may carry another thread's later)."""
        if sock is not None:
            with self._lock:
                self._sockets.add(sock)
            with _owners_lock:
                _owners[sock] = self

    def forget(self, sock: socket.socket | None) -> None:
        if sock is None:
            return
        with self._lock:
            self._sockets.discard(sock)
        with _owners_lock:
            _owners.pop(sock, None)

    # -- the watchdog ---------------------------------------------------------------------------------------------

    def _watch(self) -> None:
        while not self._done.wait(self._next_look()):
            with contextlib.suppress(Exception):
                self.check()  # a stop severs the sockets; a later request severs again (a file's stop is lifted)

    def _next_look(self) -> float:
        left = self.deadline - time.monotonic()
        return min(WATCH_POLL_S, left) if left > 0 else WATCH_POLL_S

    def _stop(self, reason: Exception) -> None:
        if self.stopped is None:
            self.stopped = reason
        self._sever()

    def _sever(self) -> None:
        """Shut the guard's sockets down: a read blocked on one returns now (closing alone would not wake it)."""
        with self._lock:
            sockets = list(self._sockets)
        with _owners_lock:
            mine = [sock for sock in sockets if _owners.get(sock) is self]  # not one another open reuses now
        for sock in mine:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _timed_out(self) -> SourceTimedOut:
        at = f" (at {self._file})" if self._file else ""
        return SourceTimedOut(
            self.source,
            f"the download took longer than {self.max_seconds:.0f} s, its time limit{at}; files already "
            "downloaded are kept in the cache, so trying again continues from there (or raise the time limit)",
        )


def active_guard() -> TransferGuard | None:
    stack = _stack()
    return stack[-1] if stack else None


def stopped_reason() -> Exception | None:
    """Why the active guard stopped the transfer (for turning a library's error into ours), or None."""
    guard = active_guard()
    return guard.stopped if guard is not None else None


def _stack() -> list[TransferGuard]:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


# -- the network backend -----------------------------------------------------------------------------------------


def _guarded_backend() -> Any:
    import httpcore2

    class GuardedStream(httpcore2.NetworkStream):
        def __init__(self, inner: httpcore2.NetworkStream) -> None:
            self._inner = inner
            self._sock: socket.socket | None = inner.get_extra_info("socket")

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            guard = active_guard()
            if guard is None:
                return self._inner.read(max_bytes, timeout)
            guard.check()
            guard.watch(self._sock)
            try:
                data = self._inner.read(max_bytes, guard.time_left(timeout))
            except Exception:
                guard.check()  # the deadline or a cancel, not the network: say that instead
                raise
            if guard.stopped is not None:  # severed mid-read: what came back is not the answer
                raise guard.stopped
            guard.count(len(data))
            return data

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            guard = active_guard()
            if guard is None:
                self._inner.write(buffer, timeout)
                return
            guard.check()
            guard.watch(self._sock)
            try:
                self._inner.write(buffer, guard.time_left(timeout))
            except Exception:
                guard.check()
                raise

        def close(self) -> None:
            guard = active_guard()
            if guard is not None:
                guard.forget(self._sock)
            self._inner.close()

        def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
            guard = active_guard()
            if guard is not None:
                guard.check()
                timeout = guard.time_left(timeout)
            return GuardedStream(self._inner.start_tls(ssl_context, server_hostname, timeout))

        def get_extra_info(self, info: str) -> Any:
            return self._inner.get_extra_info(info)

    class GuardedBackend(httpcore2.SyncBackend):
        def connect_tcp(
            self,
            host: str,
            port: int,
            timeout: float | None = None,
            local_address: str | None = None,
            socket_options: Iterable[Any] | None = None,
        ) -> httpcore2.NetworkStream:
            guard = active_guard()
            if guard is not None:
                guard.check()
                timeout = guard.time_left(timeout)
            return GuardedStream(super().connect_tcp(host, port, timeout, local_address, socket_options))

    return GuardedBackend()


def _guarded_client() -> httpx2.Client:
    """huggingface_hub's own client (its request hook, redirects, no timeout of its own), over guarded sockets.

    The client is built as httpx builds it (no transport of its own), so the proxies the environment names
    (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY) are mounted; then every connection pool, the direct one and
    each proxy's, gets the guarded backend, so the deadline and the byte caps hold through a proxy too (on the
    connection to the proxy, which carries the forwarded answer or the CONNECT tunnel)."""
    import httpx2
    from huggingface_hub.utils._http import default_client_factory

    try:
        base = default_client_factory()
        hooks = {"request": [*base.event_hooks["request"]], "response": [*base.event_hooks["response"], check_answer]}
        base.close()
        client = httpx2.Client(event_hooks=hooks, follow_redirects=True, timeout=None)
    except (ImportError, ValueError) as exc:  # a SOCKS proxy (socksio is not installed), a proxy of another scheme
        raise _proxy_unusable(exc) from exc
    backend = _guarded_backend()
    for pool in connection_pools(client):
        pool._network_backend = backend
    return client


def connection_pools(client: httpx2.Client) -> list[Any]:
    """The httpcore pools of `client`'s direct transport and of each proxy it mounted.

    httpx has no public way to give a client's proxy transports a network backend, so this reaches for
    `Client._transport`, `Client._mounts`, `HTTPTransport._pool` and the pool's `_network_backend` (httpx2 and
    httpcore2 2.16); if a release moves them this fails here, loudly, rather than leaving a connection unguarded.
    """
    transports = [client._transport, *(t for t in client._mounts.values() if t is not None)]
    pools = [getattr(transport, "_pool", None) for transport in transports]
    if not all(pool is not None and hasattr(pool, "_network_backend") for pool in pools):
        raise RuntimeError("this httpx2/httpcore2 release moved the connection pools the transfer guard wraps")
    return pools


def install_guarded_client() -> None:
    """Make huggingface_hub's shared HTTP client the guarded one (once per process)."""
    global _installed
    with _install_lock:
        if _installed:
            return
        from huggingface_hub.utils import set_client_factory

        set_client_factory(_guarded_client)
        _installed = True


# -- answers that name cache paths -------------------------------------------------------------------------------


def check_answer(response: httpx2.Response) -> None:
    """Refuse a file answer whose commit id or ETag huggingface_hub would turn into a path but is not an id.

    Inside a guarded transfer the answer's Xet hash is dropped too, so that huggingface_hub fetches the file over
    HTTP (the Hub serves every file that way) on the guarded sockets rather than through hf_xet's own threads,
    which no deadline, cancel or byte cap here could reach.
    """
    if "/resolve/" not in response.request.url.path:
        return
    if active_guard() is not None and XET_HASH in response.headers:
        del response.headers[XET_HASH]
    commit = response.headers.get("X-Repo-Commit")
    if commit is not None and not _COMMIT_ID.fullmatch(commit):
        raise _refused("a commit id", commit, response)
    etag = response.headers.get("X-Linked-Etag") or response.headers.get("ETag")
    if etag is not None and response.status_code < 400:
        bare = etag.removeprefix("W/").strip('"')
        if not _BLOB_ID.fullmatch(bare):
            raise _refused("a file id (ETag)", etag, response)


def _refused(what: str, value: str, response: httpx2.Response) -> SourceUnavailable:
    guard = active_guard()
    source = guard.source if guard is not None else str(response.request.url.host)
    shown = value if len(value) <= 80 else value[:80] + "…"
    return SourceRefused(
        source,
        f"the server answered {what} that is not one ({shown!r}) for {response.request.url.path}; nothing was "
        "written from it (is HF_ENDPOINT a real Hub?)",
    )


def _proxy_unusable(exc: Exception) -> SourceRefused:
    guard = active_guard()
    return SourceRefused(
        guard.source if guard is not None else "the network",
        f"the proxy the environment names cannot be used ({exc}); name an http:// proxy in HTTP_PROXY, "
        "HTTPS_PROXY or ALL_PROXY, or unset them",
    )


def _megabytes(count: int) -> str:
    mb = 1024 * 1024
    if count < mb:
        return f"{count / 1024:.0f} KB" if count >= 1024 else f"{count} bytes"
    return f"{count / mb:.1f} MB"
