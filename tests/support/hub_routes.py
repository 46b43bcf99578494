"""Routes of the loopback Hub server: what each Hub endpoint answers, in the shapes huggingface_hub parses.

Routes (matching what huggingface_hub 2.4 sends; revisions arrive URL-quoted, so `refs%2Fpr%2F1`):
  GET  /api/whoami-v2                            GET  /api/{type}s?filter=&author=&limit=&expand=  (Link: next)
  POST /api/repos/create                          POST /api/validate-yaml
  GET  /api/{type}s/{repo}                        GET  /api/{type}s/{repo}/revision/{rev}
  GET  /api/{type}s/{repo}/tree/{rev}[/{path}]    POST /api/{type}s/{repo}/paths-info/{rev}
  POST /api/{type}s/{repo}/preupload/{rev}        POST /api/{type}s/{repo}/commit/{rev}[?create_pr=1]
  GET  /api/{type}s/{repo}/refs                   GET  /api/{type}s/{repo}/commits/{rev}
  GET  /api/{type}s/{repo}/discussions[/{num}]    POST /api/{type}s/{repo}/branch/{name}
  HEAD|GET /{prefix}{repo}/resolve/{rev}/{path}   (prefix "", "datasets/" or "spaces/")
Anything else is not matched (the server answers 404 with a JSON error).

Preupload always answers `uploadMode: "regular"` (no LFS/Xet) with the blob id of the file already at that
revision, so the client skips unchanged files as it does against the Hub.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

from tests.support.hub_model import (
    DEFAULT_BRANCH,
    REPO_TYPES,
    URL_PREFIXES,
    Commit,
    CommitRequest,
    Hub,
    HubError,
    PullRequest,
    Repo,
    folders_of,
    git_blob_oid,
    git_tree_oids,
    hub_timestamp,
)

_TRUE = ("1", "true", "True")
LISTING_PAGE_SIZE = 1000  # what the Hub serves per page of /api/spaces; tests lower it to get several pages
Route = tuple[str, Callable[[], "Response"]]  # (route name, action); names are what `fail_next` takes


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
        return cls(status, json.dumps(data).encode(), {"Content-Type": "application/json", **(headers or {})})

    @classmethod
    def error(cls, err: HubError) -> Response:
        headers = {"X-Error-Message": err.message, **err.headers}
        if err.code is not None:
            headers["X-Error-Code"] = err.code
        return cls.json({"error": err.message}, err.status, headers)


@dataclass(frozen=True)
class Request:
    method: str
    target: str
    endpoint: str  # base URL the client used, for URLs in answers
    segments: list[str]
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    user: str | None

    @classmethod
    def parse(
        cls, method: str, target: str, endpoint: str, headers: dict[str, str], body: bytes, user: str | None
    ) -> Request:
        """Split the target into URL-decoded path segments (a quoted `refs%2Fpr%2F1` stays one) and query."""
        parts = urlsplit(target)
        segments = [unquote(s) for s in parts.path.split("/") if s]
        query = parse_qs(parts.query, keep_blank_values=True)
        return cls(method, target, endpoint, segments, query, headers, body, user)

    def param(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[0] if values else None

    def flag(self, name: str) -> bool:
        return self.param(name) in _TRUE

    def json(self) -> Any:
        try:
            return json.loads(self.body or b"null")
        except ValueError as err:
            raise HubError(400, f"Invalid JSON body: {err}") from err


class HubRoutes:
    """Matches a request to a named route and runs it against the repos of a `Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.listing_page_size = LISTING_PAGE_SIZE

    def match(self, r: Request) -> Route | None:
        segs, method = r.segments, r.method
        if segs[:1] != ["api"]:
            return self._match_resolve(r)
        rest = segs[1:]
        if rest == ["whoami-v2"] and method == "GET":
            return "whoami", lambda: self._whoami(r)
        if rest == ["repos", "create"] and method == "POST":
            return "create-repo", lambda: self._create_repo(r)
        if rest == ["validate-yaml"] and method == "POST":
            return "validate-yaml", lambda: Response.json({"errors": [], "warnings": []})
        if len(rest) == 1 and rest[0] in {f"{t}s" for t in REPO_TYPES} and method == "GET":
            return "list", lambda: self._list(r, rest[0][:-1])
        if len(rest) < 3 or rest[0] not in {f"{t}s" for t in REPO_TYPES}:
            return None
        repo_type, repo_id = rest[0][:-1], f"{rest[1]}/{rest[2]}"
        action, tail = (rest[3], rest[4:]) if len(rest) > 3 else (None, [])
        joined = "/".join(tail)

        def repo() -> Repo:
            return self.hub.readable_repo(repo_type, repo_id, r.user)

        routes: dict[tuple[str | None, str, bool], Route] = {
            (None, "GET", False): ("info", lambda: self._info(r, repo(), DEFAULT_BRANCH)),
            ("revision", "GET", True): ("revision", lambda: self._info(r, repo(), joined)),
            ("tree", "GET", True): ("tree", lambda: self._tree(r, repo(), *_split_revision(tail))),
            ("paths-info", "POST", True): ("paths-info", lambda: self._paths_info(r, repo(), joined)),
            ("preupload", "POST", True): ("preupload", lambda: self._preupload(r, repo(), joined)),
            ("commit", "POST", True): ("commit", lambda: self._commit(r, repo(), joined)),
            ("refs", "GET", False): ("refs", lambda: self._refs(r, repo())),
            ("commits", "GET", True): ("commits", lambda: self._commits(repo(), joined)),
            ("discussions", "GET", False): ("discussions", lambda: self._discussions(r, repo())),
            ("discussions", "GET", True): ("discussion", lambda: self._discussion(repo(), joined)),
            ("branch", "POST", True): ("branch", lambda: self._create_branch(r, repo(), joined)),
        }
        return routes.get((action, method, bool(tail)))

    def _match_resolve(self, r: Request) -> Route | None:
        segs = r.segments
        repo_type = {"datasets": "dataset", "spaces": "space"}.get(segs[0] if segs else "", "model")
        if repo_type != "model":
            segs = segs[1:]
        if len(segs) < 5 or segs[2] != "resolve" or r.method not in ("GET", "HEAD"):
            return None
        revision, path = _split_revision(segs[3:])
        repo_id = f"{segs[0]}/{segs[1]}"
        return "resolve", lambda: self._resolve(
            r, self.hub.downloadable_repo(repo_type, repo_id, r.user), revision, path
        )

    # -- route handlers ------------------------------------------------------------------------------------------

    def _whoami(self, r: Request) -> Response:
        if r.user is None:
            raise HubError(401, "Invalid username or password.")
        return Response.json(
            {
                "type": "user",
                "id": git_blob_oid(r.user.encode())[:24],
                "name": r.user,
                "fullname": r.user,
                "orgs": [],
                "auth": {"type": "access_token", "accessToken": {"displayName": "tests", "role": "write"}},
            }
        )

    def _create_repo(self, r: Request) -> Response:
        if r.user is None:
            raise HubError(401, "You must be authenticated to create a repo")
        payload = r.json()
        namespace = payload.get("organization") or r.user
        if namespace != r.user:
            raise HubError(403, f"You don't have the rights to create a repo under the namespace {namespace!r}")
        repo_type = payload.get("type") or "model"
        repo_id = f"{namespace}/{_field(payload, 'name')}"
        private = payload.get("visibility") == "private" or bool(payload.get("private"))
        url = f"{r.endpoint}/{URL_PREFIXES.get(repo_type, '')}{repo_id}"
        try:
            self.hub.create_repo(repo_type, repo_id, creator=r.user, private=private, sdk=payload.get("sdk"))
        except HubError as err:
            if err.status == 409:
                return Response.json({"error": err.message, "url": url}, 409, {"X-Error-Message": err.message})
            raise
        return Response.json({"url": url, "name": repo_id, "id": git_blob_oid(repo_id.encode())[:24]})

    def _list(self, r: Request, repo_type: str) -> Response:
        """`GET /api/{type}s?filter=&author=&search=&limit=&expand=&cursor=`, one page plus a `Link: rel="next"`.

        As on the Hub: `filter` values are tags matched exactly (every one must be present), `author` is the
        owner, `search` a case-insensitive substring of the id; private repos only for their members; `limit`
        caps the page size; `expand` selects the fields (id always included). The cursor is opaque to clients,
        who follow the `Link` header as given.
        """
        wanted_tags = r.query.get("filter", [])
        author, search = r.param("author"), (r.param("search") or "").lower()
        repos = [
            repo
            for (kind, repo_id), repo in sorted(self.hub.repos.items())
            if kind == repo_type
            and repo.can_read(r.user)
            and all(tag in repo.tags for tag in wanted_tags)
            and (author is None or repo_id.split("/")[0] == author)
            and search in repo_id.lower()
        ]
        start = _decode_cursor(r.param("cursor"))
        size = self.listing_page_size
        limit = r.param("limit")
        if limit is not None and limit.isdigit():
            size = min(size, int(limit))
        page = repos[start : start + size]
        expand = r.query.get("expand", [])
        items = [_listing_entry(repo, expand) for repo in page]
        headers: dict[str, str] = {}
        if start + size < len(repos):
            query = [(k, v) for k, values in r.query.items() if k != "cursor" for v in values]
            query.append(("cursor", _encode_cursor(start + size)))
            headers["Link"] = f'<{r.endpoint}/api/{repo_type}s?{urlencode(query)}>; rel="next"'
        return Response.json(items, headers=headers)

    def _info(self, r: Request, repo: Repo, revision: str) -> Response:
        commit = repo.resolve(revision)
        siblings: list[dict[str, Any]] = []
        for path, content in sorted(commit.files.items()):
            sibling: dict[str, Any] = {"rfilename": path}
            if r.flag("blobs"):
                sibling.update(size=len(content), blobId=git_blob_oid(content))
            siblings.append(sibling)
        info: dict[str, Any] = {
            "_id": git_blob_oid(repo.repo_id.encode())[:24],
            "id": repo.repo_id,
            "author": repo.repo_id.split("/")[0],
            "sha": commit.oid,
            "lastModified": commit.date,
            "createdAt": hub_timestamp(repo.created),
            "private": repo.private,
            "gated": "auto" if repo.gated else False,
            "disabled": False,
            "likes": 0,
            "tags": list(repo.tags),
            "siblings": siblings,
        }
        if repo.repo_type == "space":
            info["sdk"] = repo.sdk
        else:
            info["downloads"] = 0
        return Response.json(info)

    def _tree(self, r: Request, repo: Repo, revision: str, path_parts: list[str]) -> Response:
        commit = repo.resolve(revision)
        folder = "/".join(path_parts)
        folders = folders_of(commit.files)
        if folder and folder not in folders:
            raise HubError(404, f"Folder not found: {folder}", code="EntryNotFound")
        prefix = f"{folder}/" if folder else ""

        def wanted(path: str) -> bool:
            return path.startswith(prefix) and (r.flag("recursive") or "/" not in path[len(prefix) :])

        tree_oids = git_tree_oids(commit.files)
        entries = [_folder_entry(repo, commit, d, tree_oids, r.flag("expand")) for d in sorted(folders) if wanted(d)]
        entries += [_file_entry(repo, commit, p, r.flag("expand")) for p in sorted(commit.files) if wanted(p)]
        return Response.json(entries)

    def _paths_info(self, r: Request, repo: Repo, revision: str) -> Response:
        commit = repo.resolve(revision)
        if r.headers.get("content-type", "").startswith("application/json"):
            payload = r.json()
            paths, expand = list(payload.get("paths", [])), bool(payload.get("expand"))
        else:
            form = parse_qs(r.body.decode(), keep_blank_values=True)
            paths, expand = form.get("paths", []), form.get("expand", ["false"])[0] in _TRUE
        folders = folders_of(commit.files)
        tree_oids = git_tree_oids(commit.files)
        entries = []
        for path in paths:
            path = path.strip("/")
            if path in commit.files:
                entries.append(_file_entry(repo, commit, path, expand))
            elif path in folders:
                entries.append(_folder_entry(repo, commit, path, tree_oids, expand))
        return Response.json(entries)

    def _preupload(self, r: Request, repo: Repo, revision: str) -> Response:
        commit = repo.resolve(revision)
        files = r.json().get("files")
        if not isinstance(files, list):
            raise HubError(400, "Expected a 'files' list")
        answers = []
        for item in files:
            path = _field(item, "path")
            existing = commit.files.get(path)
            answers.append(
                {
                    "path": path,
                    "uploadMode": "regular",
                    "shouldIgnore": False,
                    "oid": None if existing is None else git_blob_oid(existing),
                }
            )
        return Response.json({"files": answers, "commitOid": commit.oid})

    def _commit(self, r: Request, repo: Repo, revision: str) -> Response:
        commit, pr = self.hub.commit(repo, r.user, revision, _parse_commit_body(r.body), create_pr=r.flag("create_pr"))
        return Response.json(
            {
                "success": True,
                "commitOid": commit.oid,
                "commitUrl": f"{r.endpoint}/{repo.url_path}/commit/{commit.oid}",
                "pullRequestUrl": None if pr is None else f"{r.endpoint}/{repo.discussion_path(pr.num)}",
                "hookOutput": "",
            }
        )

    def _refs(self, r: Request, repo: Repo) -> Response:
        def ref(name: str, full: str, oid: str) -> dict[str, str]:
            return {"name": name, "ref": full, "targetCommit": oid}

        data: dict[str, Any] = {
            "branches": [ref(b, f"refs/heads/{b}", oid) for b, oid in sorted(repo.branches.items())],
            "converts": [],
            "tags": [],
        }
        if r.flag("include_prs"):
            data["pullRequests"] = [ref(f"refs/pr/{n}", f"refs/pr/{n}", oid) for n, oid in repo.pr_heads.items()]
        return Response.json(data)

    def _commits(self, repo: Repo, revision: str) -> Response:
        return Response.json(
            [
                {
                    "id": c.oid,
                    "title": c.title,
                    "message": c.message,
                    "date": c.date,
                    "authors": [{"user": c.author}],
                }
                for c in repo.history(revision)
            ]
        )

    def _discussions(self, r: Request, repo: Repo) -> Response:
        listed = [
            _discussion_json(repo, pr)
            for pr in repo.pull_requests.values()
            if r.param("type") in (None, "all", "pull_request")
            and r.param("status") in (None, "all", pr.status)
            and r.param("author") in (None, pr.author)
        ]
        # one page holds everything: the client stops once start + len(page) reaches count
        return Response.json({"discussions": listed, "count": len(listed), "start": 0, "numClosedDiscussions": 0})

    def _discussion(self, repo: Repo, num: str) -> Response:
        pr = repo.pull_requests.get(int(num)) if num.isdigit() else None
        if pr is None:
            raise HubError(404, f"Discussion {num} not found")
        events: list[dict[str, Any]] = [
            {
                "id": f"{pr.num}-0",
                "type": "comment",
                "createdAt": hub_timestamp(pr.created),
                "author": {"name": pr.author},
                "data": {"edited": False, "hidden": False, "latest": {"raw": pr.description}},
            }
        ]
        for index, oid in enumerate(pr.commit_oids, start=1):
            c = repo.commits[oid]
            events.append(
                {
                    "id": f"{pr.num}-{index}",
                    "type": "commit",
                    "createdAt": c.date,
                    "author": {"name": c.author},
                    "data": {"subject": c.title, "oid": oid},
                }
            )
        details = {
            **_discussion_json(repo, pr),
            "events": events,
            "changes": {"base": f"refs/heads/{pr.base_branch}"},
            "filesWithConflicts": [],
            "diff": None,
        }
        return Response.json(details)

    def _create_branch(self, r: Request, repo: Repo, branch: str) -> Response:
        if not repo.can_write(r.user):
            raise HubError(403, "You don't have the rights to create a branch in this repo")
        if branch in repo.branches:
            raise HubError(409, f"Branch {branch} already exists")
        starting_point = (r.json() or {}).get("startingPoint") or DEFAULT_BRANCH
        repo.branches[branch] = repo.resolve(starting_point).oid
        return Response.json({})

    def _resolve(self, r: Request, repo: Repo, revision: str, path_parts: list[str]) -> Response:
        commit = repo.resolve(revision)
        path = "/".join(path_parts)
        content = commit.files.get(path)
        if content is None:
            raise HubError(404, f"Entry not found: {path}", code="EntryNotFound", headers={"X-Repo-Commit": commit.oid})
        headers = {
            "X-Repo-Commit": commit.oid,
            "ETag": f'"{git_blob_oid(content)}"',
            "Content-Type": "application/octet-stream",
            "Accept-Ranges": "bytes",
        }
        status, body = _apply_range(r.headers.get("range"), content, headers)
        return Response(status, body, headers)


def _listing_entry(repo: Repo, expand: list[str]) -> dict[str, Any]:
    head = repo.commits[repo.branches[DEFAULT_BRANCH]]
    full: dict[str, Any] = {
        "_id": git_blob_oid(repo.repo_id.encode())[:24],
        "id": repo.repo_id,
        "author": repo.repo_id.split("/")[0],
        "sha": head.oid,
        "lastModified": head.date,
        "createdAt": hub_timestamp(repo.created),
        "private": repo.private,
        "gated": "auto" if repo.gated else False,
        "likes": 0,
        "tags": list(repo.tags),
    }
    if repo.repo_type == "space":
        full["sdk"] = repo.sdk
    if not expand:  # the Hub's default listing leaves out sha and lastModified
        return {k: v for k, v in full.items() if k not in ("sha", "lastModified", "author")}
    return {k: v for k, v in full.items() if k in ("_id", "id") or k in expand}


def _encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"offset": offset}).encode()).decode()


def _decode_cursor(cursor: str | None) -> int:
    if not cursor:
        return 0
    try:
        offset = json.loads(base64.urlsafe_b64decode(cursor.encode()))["offset"]
    except (ValueError, KeyError, TypeError, binascii.Error) as err:
        raise HubError(400, f"Invalid cursor: {cursor!r}") from err
    if not isinstance(offset, int) or offset < 0:
        raise HubError(400, f"Invalid cursor: {cursor!r}")
    return offset


def _split_revision(tail: list[str]) -> tuple[str, list[str]]:
    """Split `{rev}/{path...}`; accepts an unquoted `refs/pr/N` or `refs/heads/x` as the revision too."""
    if len(tail) >= 3 and tail[0] == "refs" and tail[1] in ("pr", "heads"):
        return "/".join(tail[:3]), tail[3:]
    return (tail[0], tail[1:]) if tail else (DEFAULT_BRANCH, [])


def _parse_commit_body(body: bytes) -> CommitRequest:
    try:
        lines = [json.loads(line) for line in body.splitlines() if line.strip()]
    except ValueError as err:
        raise HubError(400, f"Invalid NDJSON commit payload: {err}") from err
    if not lines or lines[0].get("key") != "header":
        raise HubError(400, "The first line of a commit payload must be its header")
    header = lines[0]["value"]
    if not header.get("summary"):
        raise HubError(400, "A commit needs a summary")
    operations: list[tuple[str, str, bytes]] = []
    for line in lines[1:]:
        key, value = line.get("key"), line.get("value", {})
        if key == "file":
            path, content = _field(value, "path"), value.get("content", "")
            if value.get("encoding") != "base64":
                operations.append(("file", path, content.encode()))
                continue
            try:
                operations.append(("file", path, base64.b64decode(content, validate=True)))
            except binascii.Error as err:
                raise HubError(400, f"Invalid base64 content for {path!r}") from err
        elif key in ("deletedFile", "deletedFolder"):
            operations.append((key, _field(value, "path"), b""))
        else:
            raise HubError(400, f"Unsupported commit line {key!r} (this server only accepts regular uploads)")
    return CommitRequest(header["summary"], header.get("description") or "", header.get("parentCommit"), operations)


def _field(data: Any, key: str) -> Any:
    """`data[key]` from a client payload; a malformed payload is the client's error (400), not the server's."""
    if not isinstance(data, dict) or key not in data:
        raise HubError(400, f"Missing {key!r} in request payload")
    return data[key]


def _file_entry(repo: Repo, commit: Commit, path: str, expand: bool) -> dict[str, Any]:
    content = commit.files[path]
    entry: dict[str, Any] = {"type": "file", "oid": git_blob_oid(content), "size": len(content), "path": path}
    if expand:
        entry["lastCommit"] = _last_commit_json(repo.last_commit_touching(commit, path, folder=False))
    return entry


def _folder_entry(repo: Repo, commit: Commit, path: str, tree_oids: Mapping[str, str], expand: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "directory", "oid": tree_oids[path], "size": 0, "path": path}
    if expand:
        entry["lastCommit"] = _last_commit_json(repo.last_commit_touching(commit, path, folder=True))
    return entry


def _last_commit_json(commit: Commit) -> dict[str, str]:
    return {"id": commit.oid, "title": commit.title, "date": commit.date}


def _discussion_json(repo: Repo, pr: PullRequest) -> dict[str, Any]:
    return {
        "num": pr.num,
        "title": pr.title,
        "author": {"name": pr.author},
        "createdAt": hub_timestamp(pr.created),
        "status": pr.status,
        "repo": {"name": repo.repo_id, "type": repo.repo_type},
        "isPullRequest": True,
        "numComments": 1,
        "pinned": False,
    }


def _apply_range(header: str | None, content: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """Honour a single `bytes=start-[end]` range (the client resumes interrupted downloads with one)."""
    headers["Content-Length"] = str(len(content))
    if not header or not header.startswith("bytes=") or "," in header:
        return 200, content
    start_text, _, end_text = header[len("bytes=") :].partition("-")
    try:
        if start_text:
            start, end = int(start_text), int(end_text) if end_text else len(content) - 1
        else:  # suffix range: the last N bytes
            start, end = max(len(content) - int(end_text), 0), len(content) - 1
    except ValueError:
        return 200, content
    if start >= len(content) or start > end:
        headers["Content-Range"] = f"bytes */{len(content)}"
        headers["Content-Length"] = "0"
        return 416, b""
    end = min(end, len(content) - 1)
    headers["Content-Range"] = f"bytes {start}-{end}/{len(content)}"
    headers["Content-Length"] = str(end - start + 1)
    return 206, content[start : end + 1]
