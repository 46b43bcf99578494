"""The real `huggingface_hub` client against the loopback Hub server.

What `snapshot_download(..., local_dir=D)` / `hf_hub_download(..., local_dir=D)` record (huggingface_hub 2.4),
which is how an app learns the commit it downloaded (the parent for its next `create_commit`):

- `D/.cache/huggingface/download/<path in repo>.metadata`, one per downloaded file, three lines:
  the commit id the file was downloaded at, its ETag (git blob id for regular files, sha256 for LFS files),
  and a Unix timestamp. `huggingface_hub._local_folder.read_download_metadata(D, path)` parses it (and
  returns None once the local file is modified after that timestamp, i.e. the user edited it).
- `D/.cache/huggingface/trees/<commit id>.json`: the file listing of the resolved commit, one per commit
  ever downloaded into D (they accumulate).
- Re-downloading into the same D after the remote moved rewrites every remote file's metadata to the new
  commit, but files deleted upstream stay in D with their old metadata: read the commit from a file known to
  exist upstream (or resolve the head with `repo_info` first and download that exact `revision`).

`snapshot_download` also writes `refs/<revision>` under `cache_dir` even with `local_dir`, and the default
cache dir is fixed when huggingface_hub is imported, so tests always pass `cache_dir` explicitly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from huggingface_hub import (
    CommitOperationAdd,
    CommitOperationDelete,
    HfApi,
    get_hf_file_metadata,
    hf_hub_download,
    hf_hub_url,
    snapshot_download,
)
from huggingface_hub._local_folder import read_download_metadata
from huggingface_hub.errors import (
    EntryNotFoundError,
    HfHubHTTPError,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)
from huggingface_hub.utils import get_session

from tests.support.hub_model import git_blob_oid
from tests.support.hub_server import REDACTED, HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/logbook"


def _space_with_logbook(server: HubServer) -> tuple[HfApi, str]:
    """A Space owned by alice holding a small logbook; returns alice's client and main's head."""
    token = server.add_user("alice")
    head = server.create_repo(
        SPACE,
        repo_type="space",
        files={"logbook/index.md": "# Claims\n", "logbook/claims/c1.md": "claim one\n", "app.py": "print(1)\n"},
    )
    return HfApi(endpoint=server.endpoint, token=token), head


def _files_under(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".cache" not in p.relative_to(root).parts
    }


def _downloaded_commit(local_dir: Path, path: str) -> str:
    metadata = read_download_metadata(local_dir, path)
    assert metadata is not None, f"no download metadata for {path}"
    return metadata.commit_hash


def test_create_repo_through_client_starts_with_an_initial_commit(hub_server: HubServer) -> None:
    api = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("alice"))

    url = api.create_repo("annotations", repo_type="dataset")

    assert str(url) == f"{hub_server.endpoint}/datasets/alice/annotations"
    assert (url.repo_id, url.repo_type) == ("alice/annotations", "dataset")
    assert list(hub_server.files_at("alice/annotations", repo_type="dataset")) == [".gitattributes"]
    assert api.dataset_info("alice/annotations").sha == hub_server.head("alice/annotations", repo_type="dataset")
    with pytest.raises(HfHubHTTPError) as conflict:
        api.create_repo("annotations", repo_type="dataset")
    assert conflict.value.response.status_code == 409
    assert api.create_repo("annotations", repo_type="dataset", exist_ok=True) == url


@pytest.mark.parametrize(("repo_type", "url_prefix"), [("space", "spaces/"), ("dataset", "datasets/")])
def test_direct_commit_lands_files_on_main(hub_server: HubServer, repo_type: str, url_prefix: str) -> None:
    token = hub_server.add_user("alice")
    old_head = hub_server.create_repo("alice/repo", repo_type=repo_type, files={"old.txt": "bye\n"})
    api = HfApi(endpoint=hub_server.endpoint, token=token)

    info = api.create_commit(
        "alice/repo",
        [CommitOperationAdd("annotations/alice.jsonl", b'{"verdict": "ok"}\n'), CommitOperationDelete("old.txt")],
        commit_message="Judge claim 1",
        commit_description="Rationale attached.",
        repo_type=repo_type,
        parent_commit=old_head,
    )

    assert info.oid == hub_server.head("alice/repo", repo_type=repo_type)
    assert info.commit_url == f"{hub_server.endpoint}/{url_prefix}alice/repo/commit/{info.oid}"
    assert info.pr_url is None
    files = hub_server.files_at("alice/repo", repo_type=repo_type)
    assert files["annotations/alice.jsonl"] == b'{"verdict": "ok"}\n'
    assert "old.txt" not in files
    latest = hub_server.history("alice/repo", repo_type=repo_type)[0]
    assert (latest.parent, latest.author, latest.title, latest.description) == (
        old_head,
        "alice",
        "Judge claim 1",
        "Rationale attached.",
    )


def test_create_pr_commits_to_a_new_pr_ref_and_leaves_main(hub_server: HubServer) -> None:
    api, head = _space_with_logbook(hub_server)

    first = api.create_commit(
        SPACE,
        [CommitOperationAdd("annotations/a.jsonl", b"1\n")],
        commit_message="Review",
        repo_type="space",
        create_pr=True,
    )
    second = api.create_commit(
        SPACE,
        [CommitOperationAdd("annotations/b.jsonl", b"2\n")],
        commit_message="Review 2",
        repo_type="space",
        create_pr=True,
    )

    assert (first.pr_num, first.pr_revision) == (1, "refs/pr/1")
    assert first.pr_url == f"{hub_server.endpoint}/spaces/{SPACE}/discussions/1"
    assert second.pr_url == hub_server.pull_request_url(SPACE, 2, repo_type="space")
    assert second.pr_num == 2
    assert hub_server.head(SPACE, repo_type="space") == head
    assert "annotations/a.jsonl" not in hub_server.files_at(SPACE, repo_type="space")
    pr_files = hub_server.files_at(SPACE, repo_type="space", revision="refs/pr/1")
    assert pr_files["annotations/a.jsonl"] == b"1\n"
    assert pr_files["logbook/index.md"] == b"# Claims\n"
    assert hub_server.head(SPACE, repo_type="space", revision="refs/pr/1") == first.oid
    refs = api.list_repo_refs(SPACE, repo_type="space", include_pull_requests=True)
    assert {r.ref: r.target_commit for r in refs.pull_requests or []} == {
        "refs/pr/1": first.oid,
        "refs/pr/2": second.oid,
    }
    [details] = [d for d in api.get_repo_discussions(SPACE, repo_type="space") if d.num == 1]
    assert (details.is_pull_request, details.author, details.title) == (True, "alice", "Review")


def test_stale_parent_commit_gets_412_and_main_keeps_the_concurrent_change(hub_server: HubServer) -> None:
    api, seen_head = _space_with_logbook(hub_server)
    concurrent = hub_server.simulate_commit(SPACE, {"annotations/bob.jsonl": "bob\n"}, repo_type="space")

    with pytest.raises(HfHubHTTPError) as refused:
        api.create_commit(
            SPACE,
            [CommitOperationAdd("annotations/alice.jsonl", b"alice\n")],
            commit_message="Review",
            repo_type="space",
            parent_commit=seen_head,
        )

    assert refused.value.response.status_code == 412
    assert hub_server.head(SPACE, repo_type="space") == concurrent
    assert "annotations/alice.jsonl" not in hub_server.files_at(SPACE, repo_type="space")

    # The same stale parent is fine for a pull request: it is based on the commit the user saw.
    pr = api.create_commit(
        SPACE,
        [CommitOperationAdd("annotations/alice.jsonl", b"alice\n")],
        commit_message="Review",
        repo_type="space",
        parent_commit=seen_head,
        create_pr=True,
    )
    assert hub_server.history(SPACE, repo_type="space", revision="refs/pr/1")[1].oid == seen_head
    assert pr.pr_num == 1


def test_user_without_write_access_is_refused_on_main_but_may_open_and_update_a_pr(hub_server: HubServer) -> None:
    _, head = _space_with_logbook(hub_server)
    bob = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("bob"))
    carol = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("carol"))

    def add(path: str) -> list[CommitOperationAdd]:
        return [CommitOperationAdd(path, path.encode())]

    with pytest.raises(HfHubHTTPError) as forbidden:
        bob.create_commit(SPACE, add("annotations/bob.jsonl"), commit_message="Review", repo_type="space")
    assert forbidden.value.response.status_code == 403

    pr = bob.create_commit(
        SPACE, add("annotations/bob.jsonl"), commit_message="Review", repo_type="space", create_pr=True
    )
    followup = bob.create_commit(
        SPACE, add("annotations/bob-2.jsonl"), commit_message="More", repo_type="space", revision=pr.pr_revision
    )
    with pytest.raises(HfHubHTTPError) as not_author:
        carol.create_commit(SPACE, add("x.jsonl"), commit_message="Hijack", repo_type="space", revision="refs/pr/1")

    assert not_author.value.response.status_code == 403
    assert hub_server.head(SPACE, repo_type="space") == head
    assert hub_server.head(SPACE, repo_type="space", revision="refs/pr/1") == followup.oid
    assert set(hub_server.files_at(SPACE, repo_type="space", revision="refs/pr/1")) >= {
        "annotations/bob.jsonl",
        "annotations/bob-2.jsonl",
    }
    assert [p.author for p in hub_server.pull_requests(SPACE, repo_type="space")] == ["bob"]

    hub_server.grant_write(SPACE, "bob", repo_type="space")
    direct = bob.create_commit(SPACE, add("annotations/bob.jsonl"), commit_message="Now", repo_type="space")
    assert hub_server.head(SPACE, repo_type="space") == direct.oid


def test_unchanged_files_make_no_commit(hub_server: HubServer) -> None:
    api, head = _space_with_logbook(hub_server)

    info = api.create_commit(
        SPACE, [CommitOperationAdd("logbook/index.md", b"# Claims\n")], commit_message="Same", repo_type="space"
    )

    assert info.oid == head
    assert hub_server.head(SPACE, repo_type="space") == head
    assert not [r for r in hub_server.requests if r.path.startswith(f"/api/spaces/{SPACE}/commit/")]


def test_snapshot_download_to_local_dir_records_the_commit(hub_server: HubServer, hf_home: Path) -> None:
    api, head = _space_with_logbook(hub_server)
    local = hf_home / "checkout"

    returned = snapshot_download(
        SPACE,
        repo_type="space",
        local_dir=local,
        cache_dir=hf_home / "hub",
        endpoint=hub_server.endpoint,
        token=api.token,
    )

    assert Path(returned) == local.resolve()
    assert _files_under(local) == hub_server.files_at(SPACE, repo_type="space")
    metadata_file = local / ".cache/huggingface/download/logbook/claims/c1.md.metadata"
    commit_line, etag_line, _timestamp = metadata_file.read_text().splitlines()
    assert (commit_line, etag_line) == (head, git_blob_oid(b"claim one\n"))
    assert _downloaded_commit(local, "logbook/index.md") == head
    tree = json.loads((local / f".cache/huggingface/trees/{head}.json").read_text())
    assert set(tree["files"]) == set(hub_server.files_at(SPACE, repo_type="space"))

    moved = hub_server.simulate_commit(
        SPACE, {"logbook/claims/c2.md": "claim two\n"}, repo_type="space", delete=["app.py"]
    )
    snapshot_download(
        SPACE,
        repo_type="space",
        local_dir=local,
        cache_dir=hf_home / "hub",
        endpoint=hub_server.endpoint,
        token=api.token,
    )

    assert (local / "logbook/claims/c2.md").read_text() == "claim two\n"
    assert _downloaded_commit(local, "logbook/index.md") == moved
    # Deleted upstream, yet still on disk with the old commit: the trap the module docstring warns about.
    assert (local / "app.py").is_file()
    assert _downloaded_commit(local, "app.py") == head


def test_file_download_and_metadata_per_revision(hub_server: HubServer, hf_home: Path) -> None:
    api, head = _space_with_logbook(hub_server)
    pr = api.create_commit(
        SPACE,
        [CommitOperationAdd("logbook/index.md", b"# Claims v2\n")],
        commit_message="Edit",
        repo_type="space",
        create_pr=True,
    )
    url = hf_hub_url(SPACE, "logbook/index.md", repo_type="space", endpoint=hub_server.endpoint)

    meta = get_hf_file_metadata(url, token=api.token)
    pr_path = hf_hub_download(
        SPACE,
        "logbook/index.md",
        repo_type="space",
        revision="refs/pr/1",
        cache_dir=hf_home / "hub",
        endpoint=hub_server.endpoint,
        token=api.token,
    )

    assert (meta.commit_hash, meta.etag, meta.size) == (head, git_blob_oid(b"# Claims\n"), len(b"# Claims\n"))
    assert Path(pr_path).read_bytes() == b"# Claims v2\n"
    assert Path(pr_path).parent.parent.name == pr.oid  # cache layout: snapshots/<commit>/logbook/index.md
    with pytest.raises(EntryNotFoundError):
        hf_hub_download(
            SPACE,
            "missing.md",
            repo_type="space",
            cache_dir=hf_home / "hub",
            endpoint=hub_server.endpoint,
            token=api.token,
        )
    with pytest.raises(RevisionNotFoundError):
        api.space_info(SPACE, revision="no-such-branch")
    with pytest.raises(RepositoryNotFoundError):
        api.space_info("alice/no-such-space")


def test_tree_and_paths_info_listings(hub_server: HubServer) -> None:
    api, head = _space_with_logbook(hub_server)

    top = {e.path for e in api.list_repo_tree(SPACE, repo_type="space")}
    everything = {e.path for e in api.list_repo_tree(SPACE, repo_type="space", recursive=True)}
    under = {e.path for e in api.list_repo_tree(SPACE, "logbook", repo_type="space")}
    infos = api.get_paths_info(SPACE, ["logbook", "app.py", "absent.md"], repo_type="space", revision=head)

    assert top == {".gitattributes", "app.py", "logbook"}
    assert everything == top | {"logbook/index.md", "logbook/claims", "logbook/claims/c1.md"}
    assert under == {"logbook/index.md", "logbook/claims"}
    assert {type(i).__name__: i.path for i in infos} == {"RepoFolder": "logbook", "RepoFile": "app.py"}


def test_whoami_with_and_without_a_valid_token(hub_server: HubServer, monkeypatch: pytest.MonkeyPatch) -> None:
    token = hub_server.add_user("alice")

    assert HfApi(endpoint=hub_server.endpoint, token=token).whoami()["name"] == "alice"
    with pytest.raises(HfHubHTTPError) as invalid:
        HfApi(endpoint=hub_server.endpoint, token="hf_not_a_known_token").whoami()
    assert invalid.value.response.status_code == 401
    anonymous = get_session().get(f"{hub_server.endpoint}/api/whoami-v2")
    assert anonymous.status_code == 401
    # The app's path: no explicit token, the client finds HF_TOKEN itself.
    monkeypatch.setenv("HF_TOKEN", token)
    assert HfApi(endpoint=hub_server.endpoint).whoami()["name"] == "alice"


def test_token_travels_only_in_the_authorization_header(hub_server: HubServer, hf_home: Path) -> None:
    api, head = _space_with_logbook(hub_server)
    token = api.token
    assert isinstance(token, str)

    api.whoami()
    api.create_commit(SPACE, [CommitOperationAdd("a.jsonl", b"a\n")], commit_message="A", repo_type="space")
    api.create_commit(
        SPACE,
        [CommitOperationAdd("b.jsonl", b"b\n")],
        commit_message="B",
        repo_type="space",
        create_pr=True,
        parent_commit=head,
    )
    snapshot_download(
        SPACE,
        repo_type="space",
        local_dir=hf_home / "checkout",
        cache_dir=hf_home / "hub",
        endpoint=hub_server.endpoint,
        token=token,
    )

    requests = hub_server.requests
    host = hub_server.endpoint.removeprefix("http://")
    assert len(requests) > 8
    assert all(r.headers.get("authorization") == REDACTED and r.user == "alice" for r in requests)
    assert all(r.headers.get("host") == host for r in requests)
    assert hub_server.requests_exposing(token) == []

    # The check itself notices a token in the query string.
    get_session().get(f"{hub_server.endpoint}/api/whoami-v2", params={"token": token})
    assert [r.path for r in hub_server.requests_exposing(token)] == [f"/api/whoami-v2?token={token}"]


def test_private_repo_and_unknown_routes(hub_server: HubServer) -> None:
    alice = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("alice"))
    bob = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("bob"))
    hub_server.create_repo("alice/secret", repo_type="dataset", private=True)

    assert alice.dataset_info("alice/secret").private is True
    with pytest.raises(RepositoryNotFoundError):
        bob.dataset_info("alice/secret")
    unknown = get_session().get(f"{hub_server.endpoint}/api/nothing/here")
    assert unknown.status_code == 404
    assert "error" in unknown.json()


def test_commit_whose_answer_is_lost_still_lands(hub_server: HubServer) -> None:
    api, head = _space_with_logbook(hub_server)
    hub_server.fail_next("commit", 500, after_effect=True)

    with pytest.raises(HfHubHTTPError) as lost:
        api.create_commit(
            SPACE, [CommitOperationAdd("a.jsonl", b"a\n")], commit_message="A", repo_type="space", parent_commit=head
        )

    assert lost.value.response.status_code == 500
    assert hub_server.head(SPACE, repo_type="space") != head
    assert hub_server.read_file(SPACE, "a.jsonl", repo_type="space") == b"a\n"
    commit_posts = [r for r in hub_server.requests if r.path == f"/api/spaces/{SPACE}/commit/main"]
    assert len(commit_posts) == 1  # the client does not retry commits
