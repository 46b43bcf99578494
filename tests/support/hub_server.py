"""Loopback server speaking enough of the Hugging Face Hub HTTP protocol for the real `huggingface_hub` client.

Tests point `HfApi(endpoint=server.endpoint, token=...)` (or `snapshot_download(..., endpoint=...)`) at it and
drive the real client end to end: create a repo, `create_commit` (direct, `create_pr=True`, `parent_commit`),
`snapshot_download` / `hf_hub_download`, `repo_info`, `whoami`, `list_repo_refs`, `list_repo_tree`,
`get_paths_info`, `list_repo_commits`, `get_repo_discussions`, `list_spaces` / `list_datasets` (paginated with
`Link: rel="next"`, `listing_page_size` per page).

Routes and the shapes of their answers live in `hub_routes`, repository rules in `hub_model`.

Rules, as on the Hub: a `parentCommit` that is not the head of the target gives 412; users without write
access get 403 on direct commits but may open pull requests (`create_pr=1`, which commits to a new
`refs/pr/N` based on `parentCommit` or the branch head); an unknown bearer token gets 401 on every route;
private repos are invisible (401 anonymous, 404 otherwise); a gated repo's files answer 401 anonymous and 403
`GatedRepo` to users not granted access.

Every request is recorded (`server.requests`) with its Authorization value redacted, so tests can check where
the token travelled (`server.requests_exposing(token)`).
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import threading
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import quote

from tests.support.hub_model import DEFAULT_BRANCH, Commit, Hub, HubError, PullRequest, Repo, make_commit
from tests.support.hub_routes import HubRoutes, Request, Response

REDACTED = "<redacted>"


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str  # request target as sent, query string included
    headers: Mapping[str, str]  # lower-case names; the Authorization value is replaced by REDACTED
    body: bytes
    user: str | None  # whom the bearer token identified
    status: int

    def exposes(self, secret: str) -> bool:
        """Whether `secret` appears anywhere except the (redacted) Authorization header."""
        needles = {secret, quote(secret, safe="")}
        places = [self.path, *self.headers.values()]
        return any(n in place for n in needles for place in places) or any(n.encode() in self.body for n in needles)


@dataclass
class _InjectedFailure:
    status: int
    after_effect: bool
    headers: Mapping[str, str]


class HubServer:
    """The server plus helpers for tests: users, repos, simulated concurrent commits, request log."""

    def __init__(self) -> None:
        self.hub = Hub()
        self.routes = HubRoutes(self.hub)
        self.lock = threading.RLock()
        self.tokens: dict[str, str] = {}
        self.internal_errors: list[str] = []
        self._requests: list[RecordedRequest] = []
        self._failures: dict[str, list[_InjectedFailure]] = {}
        self._http: _HTTPServer | None = None
        self._endpoint: str | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------------------

    def start(self) -> str:
        self._http = self._make_http()
        host, port = self._http.server_address[:2]
        self._endpoint = f"http://{host!s}:{port}"
        # a short poll interval keeps stop() fast
        self._thread = threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.02}, name="hub-server", daemon=True
        )
        self._thread.start()
        return self.endpoint

    def _make_http(self) -> _HTTPServer:
        return _HTTPServer(self)

    def stop(self) -> None:
        if self._http is None:
            return
        self._http.shutdown()
        self._http.close_connections()
        self._http.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._http = None

    def __enter__(self) -> HubServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def endpoint(self) -> str:
        if self._endpoint is None:
            raise RuntimeError("hub server was never started")
        return self._endpoint

    # -- test set-up and inspection ----------------------------------------------------------------------------

    def add_user(self, name: str, token: str | None = None) -> str:
        """Register a user; returns the bearer token that identifies them."""
        token = token or f"hf_{secrets.token_hex(16)}"
        with self.lock:
            self.tokens[token] = name
        return token

    def create_repo(
        self,
        repo_id: str,
        *,
        repo_type: str = "model",
        writers: Iterable[str] = (),
        readers: Iterable[str] = (),
        private: bool = False,
        files: Mapping[str, bytes | str] | None = None,
        sdk: str | None = None,
        tags: Iterable[str] = (),
        gated: bool = False,
    ) -> str:
        """Create a repo directly (no HTTP); returns the head commit of `main`.

        `tags` are what the Hub lists and filters on (for a Space, the README's front matter); a `gated` repo
        shows its metadata to everyone but serves its files only to `writers` and `readers`.
        """
        owner = repo_id.split("/")[0]
        with self.lock:
            repo = self.hub.create_repo(
                repo_type,
                repo_id,
                creator=owner,
                private=private,
                sdk=sdk or ("static" if repo_type == "space" else None),
                files=_as_bytes(files or {}),
                tags=tags,
                gated=gated,
            )
            repo.writers.update(writers)
            repo.readers.update(readers)
            return repo.branches[DEFAULT_BRANCH]

    def grant_write(self, repo_id: str, user: str, *, repo_type: str = "model") -> None:
        with self.lock:
            self._repo(repo_id, repo_type).writers.add(user)

    def head(self, repo_id: str, *, repo_type: str = "model", revision: str = DEFAULT_BRANCH) -> str:
        with self.lock:
            return self._repo(repo_id, repo_type).resolve(revision).oid

    def files_at(self, repo_id: str, *, repo_type: str = "model", revision: str = DEFAULT_BRANCH) -> dict[str, bytes]:
        """All files of a revision (branch, `refs/pr/N` or commit id)."""
        with self.lock:
            return dict(self._repo(repo_id, repo_type).resolve(revision).files)

    def read_file(self, repo_id: str, path: str, *, repo_type: str = "model", revision: str = DEFAULT_BRANCH) -> bytes:
        return self.files_at(repo_id, repo_type=repo_type, revision=revision)[path]

    def history(self, repo_id: str, *, repo_type: str = "model", revision: str = DEFAULT_BRANCH) -> list[Commit]:
        """Commits reachable from `revision`, newest first."""
        with self.lock:
            return self._repo(repo_id, repo_type).history(revision)

    def pull_request_url(self, repo_id: str, num: int, *, repo_type: str = "model") -> str:
        """The URL the Hub gives for a pull request (what `CommitInfo.pr_url` should equal)."""
        with self.lock:
            return f"{self.endpoint}/{self._repo(repo_id, repo_type).discussion_path(num)}"

    def pull_requests(self, repo_id: str, *, repo_type: str = "model") -> list[PullRequest]:
        with self.lock:
            return list(self._repo(repo_id, repo_type).pull_requests.values())

    def simulate_commit(
        self,
        repo_id: str,
        files: Mapping[str, bytes | str],
        *,
        repo_type: str = "model",
        branch: str = DEFAULT_BRANCH,
        delete: Iterable[str] = (),
        author: str = "someone-else",
        message: str = "Concurrent change",
    ) -> str:
        """Someone else commits to `branch` (moving it under the client's feet); returns the new head."""
        with self.lock:
            repo = self._repo(repo_id, repo_type)
            head = repo.resolve(branch)
            new_files = {**head.files, **_as_bytes(files)}
            for path in delete:
                del new_files[path]
            commit = repo.add_commit(
                make_commit(parent=head.oid, files=new_files, title=message, description="", author=author)
            )
            repo.branches[branch] = commit.oid
            return commit.oid

    def move_branch(self, repo_id: str, oid: str, *, repo_type: str = "model", branch: str = DEFAULT_BRANCH) -> None:
        """Point `branch` at an existing commit (e.g. reset it, as a force-push would)."""
        with self.lock:
            repo = self._repo(repo_id, repo_type)
            if oid not in repo.commits:
                raise KeyError(f"unknown commit {oid} in {repo_type} {repo_id}")
            repo.branches[branch] = oid

    def fail_next(
        self,
        route: str,
        status: int = 500,
        *,
        after_effect: bool = False,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """Answer the next request to `route` (e.g. "commit", "resolve", "revision", "list") with `status`.

        With `after_effect`, the request is carried out first and only its answer is lost: the client cannot
        tell whether a commit landed. `headers` go on the error answer (e.g. `Retry-After` with a 429). Note the
        client retries preupload, listings and downloads on 429 and 5xx (with sleeps).
        """
        with self.lock:
            self._failures.setdefault(route, []).append(_InjectedFailure(status, after_effect, dict(headers or {})))

    @property
    def listing_page_size(self) -> int:
        """How many repos one page of `GET /api/spaces` (or datasets, models) holds before `Link: rel="next"`."""
        return self.routes.listing_page_size

    @listing_page_size.setter
    def listing_page_size(self, size: int) -> None:
        with self.lock:
            self.routes.listing_page_size = size

    def close_pull_request(self, repo_id: str, num: int, *, repo_type: str = "model", merged: bool = False) -> None:
        """Close (or mark merged) a pull request; its `refs/pr/N` stays resolvable, as on the Hub."""
        with self.lock:
            self._repo(repo_id, repo_type).pull_requests[num].status = "merged" if merged else "closed"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self.lock:
            return list(self._requests)

    def clear_requests(self) -> None:
        with self.lock:
            self._requests.clear()

    def requests_exposing(self, secret: str) -> list[RecordedRequest]:
        """Requests that carried `secret` outside the Authorization header (path, query, other headers, body)."""
        return [r for r in self.requests if r.exposes(secret)]

    def _repo(self, repo_id: str, repo_type: str) -> Repo:
        try:
            return self.hub.repos[(repo_type, repo_id)]
        except KeyError:
            raise KeyError(f"no {repo_type} repo {repo_id!r} on the test hub") from None

    # -- HTTP dispatch (called from handler threads) ------------------------------------------------------------

    def handle(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Response:
        user: str | None = None
        response: Response
        try:
            user = self._authenticate(headers.get("authorization"))
            request = Request.parse(method, target, self.endpoint, headers, body, user)
            with self.lock:
                response = self._dispatch(request)
        except HubError as err:
            response = Response.error(err)
        except Exception:
            trace = traceback.format_exc()
            self.internal_errors.append(trace)
            response = Response.json({"error": trace}, 500)
        recorded_headers = {k: (REDACTED if k == "authorization" else v) for k, v in headers.items()}
        with self.lock:
            self._requests.append(RecordedRequest(method, target, recorded_headers, body, user, response.status))
        return response

    def _authenticate(self, authorization: str | None) -> str | None:
        if authorization is None:
            return None
        scheme, _, token = authorization.partition(" ")
        with self.lock:
            user = self.tokens.get(token) if scheme.lower() == "bearer" else None
        if user is None:
            raise HubError(401, "Invalid credentials in Authorization header")
        return user

    def _dispatch(self, request: Request) -> Response:
        matched = self.routes.match(request)
        if matched is None:
            raise HubError(404, f"Sorry, we can't find the page you are looking for: {request.method} {request.target}")
        route, action = matched
        pending = self._failures.get(route)
        failure = pending.pop(0) if pending else None
        if failure is None:
            return action()
        if failure.after_effect:
            action()
        raise HubError(failure.status, f"Injected failure on {route}", headers=failure.headers)


class _HTTPServer(ThreadingHTTPServer):
    """ThreadingHTTPServer that can sever idle keep-alive connections so stopping never hangs."""

    daemon_threads = False
    block_on_close = True

    def __init__(self, app: HubServer, handler: type[BaseHTTPRequestHandler] | None = None) -> None:
        self.app = app
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), handler or _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._connections_lock:
            self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._connections_lock:
            self._connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):  # already closed by the client
                connection.shutdown(socket.SHUT_RDWR)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, like the Hub
    disable_nagle_algorithm = True  # small request/response pairs would otherwise wait on delayed ACKs
    server: _HTTPServer

    def do_GET(self) -> None:
        self._serve()

    def do_HEAD(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_PUT(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the request log on HubServer replaces stderr noise

    def _serve(self) -> None:
        headers = {name.lower(): value for name, value in self.headers.items()}
        write_response(self, self.command, self.server.app.handle(self.command, self.path, headers, self._read_body()))

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""


# -- helpers -----------------------------------------------------------------------------------------------------


def write_response(handler: BaseHTTPRequestHandler, method: str, response: Response) -> None:
    handler.send_response(response.status)
    for name, value in response.headers.items():
        handler.send_header(name, value)
    if "Content-Length" not in response.headers:
        handler.send_header("Content-Length", str(len(response.body)))
    handler.end_headers()
    if method != "HEAD":
        handler.wfile.write(response.body)


def _as_bytes(files: Mapping[str, bytes | str]) -> dict[str, bytes]:
    return {path: content.encode() if isinstance(content, str) else content for path, content in files.items()}
