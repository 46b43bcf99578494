"""Loopback servers that behave like a hostile Hub or web host, for the real huggingface_hub client and our own.

`HostileHub` is the loopback Hub (`hub_server.HubServer`: real repositories, real answers) plus misbehaviours a
test puts on the paths it names; `HostileWeb` serves a folder like a static host, with the same misbehaviours.

    hub.misbehave("/resolve/", Misbehaviour(pace=0.5))                   # every file trickles a byte per 0.5 s
    hub.misbehave("/revision/", Misbehaviour(endless=True))              # repo_info never ends
    hub.misbehave("/resolve/", Misbehaviour(headers={"ETag": '"../../x"'}))     # a file id that is a path
    hub.misbehave("pages/index.md", Misbehaviour(extra=4 * MB))          # sends 4 MB more than it announced
    web.misbehave("/logbook.json", Misbehaviour(status=302, headers={"Location": "http://elsewhere/"}))

A misbehaviour changes the real answer (status, headers added or removed, body replaced) and how it is sent:
`pace` seconds between chunks, `endless` (no length, never ends), `extra` bytes beyond the real body, sent
without a length (the body ends when the connection closes), whatever the listing and a HEAD said the file
holds. The first misbehaviour whose text occurs in the request path (the whole path, when the text ends with `$`)
applies, every time (or `times` times).
Endless and trickling answers stop when the client goes away or the server is stopped, so a test that fails
never leaves a thread behind.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from tests.support.hub_routes import Response
from tests.support.hub_server import HubServer, _Handler, _HTTPServer, write_response
from tests.support.static_server import StaticServer

FILLER = b"x"


@dataclass
class Misbehaviour:
    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)  # added to (or replacing) the real answer's
    without: tuple[str, ...] = ()  # header names removed from the real answer
    body: bytes | None = None  # replaces the real body
    pace: float = 0.0  # seconds between chunks of `chunk` bytes
    chunk: int = 1
    endless: bool = False
    extra: int = 0  # bytes sent beyond the real body (no Content-Length, then the connection closes)
    times: int | None = None  # None: every time
    method: str | None = None  # only this method (e.g. "GET", leaving a HEAD honest)


class _Tricks:
    """The misbehaviours of one server, and the stop signal their slow answers watch."""

    def __init__(self) -> None:
        self.rules: list[tuple[str, Misbehaviour]] = []
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def add(self, match: str, misbehaviour: Misbehaviour) -> None:
        with self.lock:
            self.rules.append((match, misbehaviour))

    def clear(self) -> None:
        with self.lock:
            self.rules.clear()

    def pick(self, method: str, path: str) -> Misbehaviour | None:
        with self.lock:
            for match, rule in self.rules:
                hit = path == match[:-1] if match.endswith("$") else match in path
                if hit and (rule.method is None or rule.method == method):
                    if rule.times is not None:
                        if rule.times <= 0:
                            continue
                        rule.times -= 1
                    return rule
        return None


def send(
    handler: BaseHTTPRequestHandler, method: str, real: Response, rule: Misbehaviour | None, tricks: _Tricks
) -> None:
    """Write `real` changed by `rule` (or as it is) to the client."""
    if rule is None:
        write_response(handler, method, real)
        return
    status = rule.status if rule.status is not None else real.status
    headers = {k: v for k, v in real.headers.items() if k.lower() not in {w.lower() for w in rule.without}}
    headers.update(rule.headers)
    body = rule.body if rule.body is not None else real.body
    lowered = {k.lower() for k in headers}
    handler.send_response(status)
    for name, value in headers.items():
        if name.lower() != "content-length":
            handler.send_header(name, value)
    if rule.endless or rule.extra:
        handler.send_header("Connection", "close")  # no length: the body ends when the connection does
    elif "content-length" in lowered:
        handler.send_header("Content-Length", next(v for k, v in headers.items() if k.lower() == "content-length"))
    else:
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if method == "HEAD":
        return
    handler.close_connection = rule.endless or bool(rule.extra)
    with contextlib.suppress(OSError):  # the client gave up: that is what the test wanted
        _trickle(handler, body, rule, tricks)
        left = rule.extra  # sent a block at a time: a test's 300 MB need not be held here
        while left > 0 and not tricks.stopping.is_set():
            handler.wfile.write(FILLER * min(left, 65536))
            left -= 65536
            if rule.pace:
                tricks.stopping.wait(rule.pace)
        while rule.endless and not tricks.stopping.is_set():
            handler.wfile.write(FILLER * rule.chunk)
            handler.wfile.flush()
            tricks.stopping.wait(rule.pace or 0.01)


def _trickle(handler: BaseHTTPRequestHandler, body: bytes, rule: Misbehaviour, tricks: _Tricks) -> None:
    if not rule.pace:
        handler.wfile.write(body)
        return
    for start in range(0, len(body), max(rule.chunk, 1)):
        if tricks.stopping.is_set():
            return
        handler.wfile.write(body[start : start + max(rule.chunk, 1)])
        handler.wfile.flush()
        tricks.stopping.wait(rule.pace)


# -- the Hub -----------------------------------------------------------------------------------------------------


class HostileHub(HubServer):
    """The loopback Hub with misbehaviours on the paths a test names."""

    def __init__(self) -> None:
        super().__init__()
        self.tricks = _Tricks()

    def misbehave(self, match: str, misbehaviour: Misbehaviour) -> None:
        self.tricks.add(match, misbehaviour)

    def behave(self) -> None:
        self.tricks.clear()

    def _make_http(self) -> _HTTPServer:
        return _HTTPServer(self, _HostileHandler)

    def stop(self) -> None:
        self.tricks.stopping.set()
        super().stop()


class _HostileHandler(_Handler):
    def _serve(self) -> None:
        app = self.server.app
        assert isinstance(app, HostileHub)
        headers = {name.lower(): value for name, value in self.headers.items()}
        real = app.handle(self.command, self.path, headers, self._read_body())
        send(self, self.command, real, app.tricks.pick(self.command, urlsplit(self.path).path), app.tricks)


# -- a static web host -------------------------------------------------------------------------------------------


class HostileWeb(StaticServer):
    """Serves `folder` like a static host (no listings), with misbehaviours; `url` is its root."""

    def __init__(self, folder: Path) -> None:
        super().__init__(folder)
        self.tricks = _Tricks()

    def misbehave(self, match: str, misbehaviour: Misbehaviour) -> None:
        self.tricks.add(match, misbehaviour)

    def stop(self) -> None:
        self.tricks.stopping.set()
        super().stop()

    def __enter__(self) -> HostileWeb:
        self.start()
        return self

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        path = urlsplit(handler.path).path
        self.requests.append((path, {k.lower(): v for k, v in handler.headers.items()}))
        target = (self.folder / unquote(path).lstrip("/")).resolve()
        if target.is_file() and target.is_relative_to(self.folder.resolve()):
            real = Response(200, target.read_bytes(), {"Content-Type": "application/octet-stream"})
        else:
            real = Response(404, b"not found", {})
        send(handler, "GET", real, self.tricks.pick("GET", path), self.tricks)


def run_bounded(call: Callable[[], Any], *, within: float) -> tuple[Any, BaseException | None, float]:
    """Run `call` in a thread; (its result, its exception, seconds taken). A call still running after `within`
    seconds fails the calling test (the thread is left to end with the server): a hang is the defect itself."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test
            outcome["error"] = exc

    started = time.monotonic()
    thread = threading.Thread(target=run, name="bounded-call", daemon=True)
    thread.start()
    thread.join(within)
    taken = time.monotonic() - started
    if thread.is_alive():
        raise AssertionError(f"still running after {within:.0f} s: it hangs")
    return outcome.get("value"), outcome.get("error"), taken
