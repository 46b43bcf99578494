"""Watch file access from outside the code under test: inotify (any open, C or Python, e.g. by Qt's QFile),
Python audit events (open, socket.connect), a FIFO that reports whether anyone opened it, and a loopback HTTP
server that counts requests."""

from __future__ import annotations

import ctypes
import os
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

IN_ACCESS = 0x001
IN_OPEN = 0x020
_IN_NONBLOCK = 0o4000
_IN_CLOEXEC = 0o2000000


class InotifyWatch:
    """Reports every open or read of the watched files (or of files in the watched folders), by anyone."""

    def __init__(self, paths: list[Path]) -> None:
        if not sys.platform.startswith("linux"):
            raise OSError("inotify is Linux-only")
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        self.fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self._watches: dict[int, Path] = {}
        for path in paths:
            wd = self._libc.inotify_add_watch(self.fd, os.fsencode(path), IN_OPEN | IN_ACCESS)
            if wd < 0:
                raise OSError(ctypes.get_errno(), f"cannot watch {path}")
            self._watches[wd] = path

    def events(self) -> list[Path]:
        """Paths opened or read since the last call."""
        found: list[Path] = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return found
            offset = 0
            while offset < len(data):
                wd, _mask, _cookie, length = struct.unpack_from("iIII", data, offset)
                name = data[offset + 16 : offset + 16 + length].rstrip(b"\0").decode("utf-8", "replace")
                base = self._watches.get(wd, Path("?"))
                found.append(base / name if name else base)
                offset += 16 + length

    def close(self) -> None:
        os.close(self.fd)


_TRAP = """
import os, sys, time
fifo, marker = sys.argv[1], sys.argv[2]
while True:
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # succeeds only while a reader has the FIFO open
    except OSError:
        time.sleep(0.005)
        continue
    open(marker, "w").close()
    os.close(fd)  # the reader gets end-of-file instead of hanging
"""


class FifoTrap:
    """A FIFO that notices being opened for reading, then lets the reader go (EOF) instead of hanging it.

    The watcher is a separate process: a reader blocked in open() may be holding this process's GIL.
    """

    def __init__(self, path: Path, marker_dir: Path) -> None:
        os.mkfifo(path)
        self.path = path
        marker_dir.mkdir(parents=True, exist_ok=True)
        self.marker = marker_dir / f"{path.name}.opened"
        self._process = subprocess.Popen([sys.executable, "-c", _TRAP, str(path), str(self.marker)])

    def opened(self) -> bool:
        return self.marker.exists()

    def close(self) -> None:
        self._process.kill()
        self._process.wait(timeout=10)


# sys.addaudithook cannot be removed, so one hook is installed once and records only while a recorder is active.
_recorders: list[list[tuple[str, Any]]] = []
_hook_installed = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _recorders and event in ("open", "socket.connect", "socket.getaddrinfo"):
        for recorder in _recorders:
            recorder.append((event, args[0] if event == "open" else args[1:]))


@contextmanager
def audit_events() -> Iterator[list[tuple[str, Any]]]:
    """Python-level file opens and socket connections made inside the block."""
    global _hook_installed
    if not _hook_installed:
        sys.addaudithook(_audit)
        _hook_installed = True
    recorder: list[tuple[str, Any]] = []
    _recorders.append(recorder)
    try:
        yield recorder
    finally:
        _recorders.remove(recorder)


def opened_paths(events: list[tuple[str, Any]]) -> list[Path]:
    """Files opened by path (not by descriptor), leaving out Python code being imported."""
    paths = []
    for event, target in events:
        if event != "open" or isinstance(target, int) or target is None:
            continue
        path = Path(os.fsdecode(target))
        if path.suffix in (".py", ".pyc", ".so", ".pth") or "__pycache__" in path.parts:
            continue
        paths.append(path)
    return paths


class CountingServer:
    """A loopback HTTP server that answers 200 with a tiny PNG and counts every request it receives."""

    def __init__(self, body: bytes) -> None:
        self.requests: list[str] = []
        server_self = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server_self.requests.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
