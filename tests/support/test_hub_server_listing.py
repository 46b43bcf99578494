"""The loopback Hub's Space listing, gated repos and pull-request refs, driven by the real `huggingface_hub`."""

from __future__ import annotations

from pathlib import Path

import pytest
from huggingface_hub import HfApi, hf_hub_download
from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, RepositoryNotFoundError

from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]


def _spaces(server: HubServer, count: int, tags: list[str]) -> list[str]:
    names = [f"owner{i % 3}/repro-{i:03d}" for i in range(count)]
    for name in names:
        server.create_repo(name, repo_type="space", tags=tags)
    return names


def test_listing_follows_link_next_to_the_last_page(hub_server: HubServer) -> None:
    names = _spaces(hub_server, 11, ["icml2026-repro"])
    hub_server.create_repo("other/untagged", repo_type="space", tags=["something"])
    hub_server.listing_page_size = 4
    api = HfApi(endpoint=hub_server.endpoint, token=False)

    listed = [s.id for s in api.list_spaces(filter="icml2026-repro", expand=["lastModified", "tags", "author"])]

    assert sorted(listed) == sorted(names)
    pages = [r for r in hub_server.requests if r.path.startswith("/api/spaces")]
    assert len(pages) == 3  # 4 + 4 + 3
    assert all("filter=icml2026-repro" in r.path for r in pages)


def test_listing_filters_author_and_exact_tags_and_expands(hub_server: HubServer) -> None:
    _spaces(hub_server, 6, ["icml2026-repro", "paper-AbC"])
    api = HfApi(endpoint=hub_server.endpoint, token=False)

    by_owner = list(api.list_spaces(filter="icml2026-repro", author="owner1", expand=["lastModified", "tags"]))
    assert [s.id for s in by_owner] == ["owner1/repro-001", "owner1/repro-004"]
    assert by_owner[0].last_modified is not None
    assert by_owner[0].tags == ["icml2026-repro", "paper-AbC"]
    assert list(api.list_spaces(filter="paper-abc")) == []  # the Hub's tag filter is exact
    plain = next(iter(api.list_spaces(filter="paper-AbC")))
    assert plain.last_modified is None  # not asked for


def test_listing_limit_caps_and_private_spaces_stay_hidden(hub_server: HubServer) -> None:
    _spaces(hub_server, 5, ["t"])
    hub_server.create_repo("owner0/secret", repo_type="space", tags=["t"], private=True)
    api = HfApi(endpoint=hub_server.endpoint, token=False)
    assert len(list(api.list_spaces(filter="t", limit=2))) == 2
    assert "owner0/secret" not in {s.id for s in api.list_spaces(filter="t")}
    owner = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("owner0"))
    assert "owner0/secret" in {s.id for s in owner.list_spaces(filter="t")}


def test_gated_files_refuse_users_not_granted(hub_server: HubServer, tmp_path: Path) -> None:
    hub_server.create_repo("alice/gated", repo_type="space", files={"a.txt": "x"}, gated=True, readers=["bob"])
    carol = hub_server.add_user("carol")
    bob = hub_server.add_user("bob")
    assert HfApi(endpoint=hub_server.endpoint, token=carol).repo_info("alice/gated", repo_type="space").gated
    with pytest.raises(GatedRepoError):
        hf_hub_download(
            "alice/gated",
            "a.txt",
            repo_type="space",
            endpoint=hub_server.endpoint,
            token=carol,
            cache_dir=tmp_path / "c",
        )
    with pytest.raises(RepositoryNotFoundError):
        hf_hub_download(
            "alice/gated",
            "a.txt",
            repo_type="space",
            endpoint=hub_server.endpoint,
            token=False,
            cache_dir=tmp_path / "a",
        )
    got = hf_hub_download(
        "alice/gated", "a.txt", repo_type="space", endpoint=hub_server.endpoint, token=bob, cache_dir=tmp_path / "b"
    )
    assert Path(got).read_text() == "x"


def test_pull_request_refs_list_and_download(hub_server: HubServer, tmp_path: Path) -> None:
    hub_server.create_repo("alice/space", repo_type="space", files={"pages/index.md": "# L\n"})
    bob = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("bob"))
    from huggingface_hub import CommitOperationAdd

    info = bob.create_commit(
        "alice/space",
        [CommitOperationAdd("reviews/bob.jsonl", b"{}\n")],
        commit_message="r",
        repo_type="space",
        create_pr=True,
    )
    assert info.pr_num == 1
    refs = bob.list_repo_refs("alice/space", repo_type="space", include_pull_requests=True)
    assert [r.ref for r in refs.pull_requests] == ["refs/pr/1"]
    open_prs = list(
        bob.get_repo_discussions(
            "alice/space", repo_type="space", discussion_type="pull_request", discussion_status="open"
        )
    )
    assert [d.num for d in open_prs] == [1]
    files = [f.path for f in bob.list_repo_tree("alice/space", "reviews", repo_type="space", revision="refs/pr/1")]
    assert files == ["reviews/bob.jsonl"]
    got = hf_hub_download(
        "alice/space",
        "reviews/bob.jsonl",
        repo_type="space",
        revision="refs/pr/1",
        endpoint=hub_server.endpoint,
        token=False,
        cache_dir=tmp_path,
    )
    assert Path(got).read_bytes() == b"{}\n"
    hub_server.close_pull_request("alice/space", 1, repo_type="space")
    assert (
        list(
            bob.get_repo_discussions(
                "alice/space", repo_type="space", discussion_type="pull_request", discussion_status="open"
            )
        )
        == []
    )


def test_injected_rate_limit_carries_retry_after(hub_server: HubServer) -> None:
    hub_server.create_repo("alice/space", repo_type="space")
    hub_server.fail_next("info", 429, headers={"Retry-After": "42"})
    with pytest.raises(HfHubHTTPError) as caught:
        HfApi(endpoint=hub_server.endpoint, token=False).repo_info("alice/space", repo_type="space")
    assert caught.value.response.status_code == 429
    assert caught.value.response.headers["Retry-After"] == "42"
