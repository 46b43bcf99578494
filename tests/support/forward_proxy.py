"""A loopback HTTP proxy, as a corporate network puts in front of the Hub: plain forwarding and CONNECT tunnels.

    with ForwardProxy() as proxy:                  # proxy.url is http://127.0.0.1:PORT
        monkeypatch.setenv("HTTP_PROXY", proxy.url)
        ...                                        # proxy.requests lists ("GET", "http://127.0.0.1:…/…"), …

A plain request (`GET http://host:port/path`) is sent on to its host with the path alone and the answer is
piped back as it comes until the host closes (its head marked `Connection: close`: one request a connection),
so whatever a hostile server does — trickle, never end, send more than it announced — reaches the client
through the proxy unchanged. A CONNECT
opens a tunnel and pipes both ways; `stall_connect=True` reads the CONNECT and never answers it. Only 127.0.0.1
is reached; anything else gets a 403.
"""

from __future__ import annotations

import contextlib
import io
import socket
import socketserver
import threading
from types import TracebackType
from urllib.parse import urlsplit

LOOPBACK = "127.0.0.1"
HOP_BY_HOP = ("proxy-connection", "proxy-authorization", "connection", "keep-alive")


class ForwardProxy:
    def __init__(self, *, stall_connect: bool = False) -> None:
        self.stall_connect = stall_connect
        self.requests: list[tuple[str, str]] = []
        self.stopping = threading.Event()
        self._server = _Server((LOOPBACK, 0), _ProxyHandler)
        self._server.proxy = self
        self._thread = threading.Thread(target=self._server.serve_forever, name="forward-proxy", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self._server.server_address[1]}"

    def __enter__(self) -> ForwardProxy:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    proxy: ForwardProxy


class _ProxyHandler(socketserver.StreamRequestHandler):
    server: _Server

    def handle(self) -> None:
        head = self._read_head()
        if not head:
            return
        method, target = [*head[0].split(" ", 2), "", ""][:2]
        proxy = self.server.proxy
        proxy.requests.append((method, target))
        if method == "CONNECT":
            self._tunnel(target, proxy)
        else:
            self._forward(method, target, head[1:])

    def _read_head(self) -> list[str]:
        lines: list[str] = []
        while True:
            line = self.rfile.readline(65537)
            if not line or line in (b"\r\n", b"\n"):
                return lines
            lines.append(line.decode("latin-1").rstrip("\r\n"))

    def _tunnel(self, target: str, proxy: ForwardProxy) -> None:
        if proxy.stall_connect:
            proxy.stopping.wait()  # the client's deadline, not this, must end the wait
            return
        host, _, port = target.rpartition(":")
        upstream = self._open(host, int(port or 443))
        if upstream is None:
            return
        self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        self.wfile.flush()
        pipe_both_ways(self.connection, upstream, proxy.stopping)

    def _forward(self, method: str, target: str, header_lines: list[str]) -> None:
        parts = urlsplit(target)
        upstream = self._open(parts.hostname or "", parts.port or 80)
        if upstream is None:
            return
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        headers = [h for h in header_lines if h.split(":", 1)[0].strip().lower() not in HOP_BY_HOP]
        length = next((int(h.split(":", 1)[1]) for h in headers if h.lower().startswith("content-length:")), 0)
        request = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{h}\r\n" for h in headers) + "Connection: close\r\n\r\n"
        with upstream, upstream.makefile("rb") as answer:
            upstream.sendall(request.encode("latin-1") + (self.rfile.read(length) if length else b""))
            self._relay_answer(answer)

    def _relay_answer(self, answer: io.BufferedReader) -> None:
        """The answer's head with `Connection: close` (this connection carries one request), then its body as
        it comes."""
        lines = []
        while (line := answer.readline(65537)) not in (b"", b"\r\n", b"\n"):
            if line.split(b":", 1)[0].strip().lower().decode("latin-1") not in HOP_BY_HOP:
                lines.append(line)
        with contextlib.suppress(OSError):
            self.wfile.write(b"".join(lines) + b"Connection: close\r\n\r\n")
            self.wfile.flush()
            while not self.server.proxy.stopping.is_set() and (data := answer.read1(65536)):
                self.wfile.write(data)
                self.wfile.flush()

    def _open(self, host: str, port: int) -> socket.socket | None:
        if host != LOOPBACK:
            self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return None
        try:
            return socket.create_connection((host, port), timeout=30)
        except OSError:
            self.wfile.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return None


def _copy(source: socket.socket, target: socket.socket, stopping: threading.Event) -> None:
    """Bytes from `source` to `target` as they come, until either side closes."""
    with contextlib.suppress(OSError):
        while not stopping.is_set():
            data = source.recv(65536)
            if not data:
                return
            target.sendall(data)


def pipe_both_ways(client: socket.socket, upstream: socket.socket, stopping: threading.Event) -> None:
    back = threading.Thread(target=_copy, args=(upstream, client, stopping), daemon=True)
    back.start()
    _copy(client, upstream, stopping)
    with contextlib.suppress(OSError):
        upstream.shutdown(socket.SHUT_RDWR)
    back.join(30)
    upstream.close()
