"""A loopback static web server, as a published logbook's host: serves a folder's files and nothing else.

It cannot list folders (a GET on a folder is 404), like a static Space host or a CDN, so a client can only see
what it knows the name of. Tests can make a path answer with a status (`fail(path, 429, {"Retry-After": "7"})`)
and read the request log (`paths`), including every header sent (to check that no token travels).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit


@dataclass
class StaticServer:
    folder: Path
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    failures: dict[str, tuple[int, dict[str, str]]] = field(default_factory=dict)
    _http: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def start(self) -> str:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server._serve(self)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()
        return self.url

    def stop(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
            self._http = None

    @property
    def url(self) -> str:
        assert self._http is not None, "static server not started"
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/"

    @property
    def paths(self) -> list[str]:
        return [path for path, _ in self.requests]

    def fail(self, path: str, status: int, headers: Mapping[str, str] | None = None) -> None:
        """Answer every GET of `path` (as requested, e.g. "/book/logbook.json") with `status`."""
        self.failures[path] = (status, dict(headers or {}))

    def __enter__(self) -> StaticServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        path = urlsplit(handler.path).path
        self.requests.append((path, {k.lower(): v for k, v in handler.headers.items()}))
        status, headers, body = 404, {}, b"not found"
        if path in self.failures:
            status, headers = self.failures[path]
            body = b"refused"
        else:
            target = (self.folder / unquote(path).lstrip("/")).resolve()
            if target.is_file() and target.is_relative_to(self.folder.resolve()):
                status, body = 200, target.read_bytes()
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
