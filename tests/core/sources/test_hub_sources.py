"""Opening Spaces and datasets from the Hub: the real huggingface_hub client against the loopback Hub server."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from huggingface_hub import CommitOperationAdd, HfApi

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.safepath import UnsafeReference, hub_repo_folder, resolve_inside
from reviewapp.core.io.source_errors import (
    NotALogbookSource,
    SourceAccessDenied,
    SourceNotFound,
    SourceOffline,
    SourceRateLimited,
    SourceTimedOut,
    SourceTooLarge,
)
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.progress import Cancelled, CancelToken
from reviewapp.core.sources.opener import open_source
from tests.core.commit_helpers import published_files
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-small-widgets"
BIG = 2 * 1024 * 1024


def _publish(server: HubServer, tmp_path: Path, repo_id: str = SPACE, **kwargs) -> str:  # type: ignore[no-untyped-def]
    files: dict[str, bytes | str] = dict(published_files(tmp_path / repo_id.replace("/", "-"), repo_id))
    files["index.html"] = "<html>viewer</html>"  # a viewer asset: never downloaded
    files["evidence/results.json"] = '{"acc": 0.7}'  # small evidence beside the pages: downloaded
    files["checkpoints/model.bin"] = b"\0" * BIG  # a large binary outside the logbook: left out
    files.update(kwargs.pop("extra", {}))
    return server.create_repo(repo_id, repo_type="space", files=files, **kwargs)


@pytest.fixture
def limits() -> DownloadLimits:
    return DownloadLimits(max_extra_file_bytes=BIG // 2)


def _downloads(server: HubServer) -> list[str]:
    return [r.path for r in server.requests if "/resolve/" in r.path and r.method == "GET"]


def test_a_space_downloads_only_its_logbook_into_the_hub_cache(
    hub_server: HubServer, hf_home: Path, tmp_path: Path, limits: DownloadLimits
) -> None:
    head = _publish(hub_server, tmp_path)
    seen: list[tuple[int, int, str]] = []

    opened = open_source(SPACE, limits=limits, progress=lambda d, t, label: seen.append((d, t, label)))

    assert opened.revision == head and not opened.cached
    assert opened.logbook_id == "hf:space/alice/repro-small-widgets"
    assert opened.folder == hf_home / "hub" / "spaces--alice--repro-small-widgets" / "snapshots" / head
    assert opened.containment_root == hub_repo_folder(opened.folder)
    fetched = {p.split(f"/resolve/{head}/")[1] for p in _downloads(hub_server)}
    assert "index.html" not in fetched and "checkpoints/model.bin" not in fetched
    assert {"logbook.json", "pages/index.md", "evidence/results.json"} <= fetched
    assert any("checkpoints/model.bin" in note for note in opened.notes)
    assert (opened.folder / "pages" / "index.md").is_symlink()  # the cache's own layout, shared with other tools
    logbook = read_logbook(opened.folder)
    assert [c.verdict.value for c in logbook.claims] == ["verified", "falsified", "toy"]
    assert not [p for p in logbook.problems if "outside" in p.message]
    done, total, label = seen[-1]
    assert done == total > 0 and f"{len(fetched)} of {len(fetched)} files" in label


def test_a_pinned_revision_opens_that_revision_and_then_needs_no_network(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits
) -> None:
    old = _publish(hub_server, tmp_path)
    hub_server.simulate_commit(SPACE, {"pages/index.md": "# Rewritten\n"}, repo_type="space")

    first = open_source(f"{SPACE}@{old}", limits=limits)
    assert first.revision == old
    assert "Rewritten" not in (first.folder / "pages" / "index.md").read_text()
    hub_server.clear_requests()

    again = open_source(f"https://huggingface.co/spaces/{SPACE}/tree/{old}", limits=limits)
    assert again.revision == old and again.folder == first.folder
    assert hub_server.requests == []  # a commit never changes: the complete cached copy is enough


def test_a_dataset_holding_a_workspace_logbook(hub_server: HubServer, tmp_path: Path, limits: DownloadLimits) -> None:
    files = {f".trackio/logbook/{k}": v for k, v in published_files(tmp_path, "bob/data").items()}
    files[".trackio/metadata.json"] = json.dumps({"space_id": "bob/repro-x"})
    files["unrelated/huge.bin"] = b"\0" * BIG
    head = hub_server.create_repo("bob/logbook-data", repo_type="dataset", files=files)

    opened = open_source("datasets/bob/logbook-data", limits=limits)

    assert opened.logbook_id == "hf:dataset/bob/logbook-data" and opened.revision == head
    assert opened.folder.name == "logbook" and opened.folder.parent.name == ".trackio"
    assert len(read_logbook(opened.folder).claims) == 3
    assert not any("unrelated/" in p for p in _downloads(hub_server))


def test_a_repository_without_a_logbook_is_refused_before_downloading(hub_server: HubServer) -> None:
    hub_server.create_repo("carol/gradio-app", repo_type="space", files={"app.py": "print('hi')\n"})
    with pytest.raises(NotALogbookSource) as caught:
        open_source("carol/gradio-app")
    assert "Space carol/gradio-app" in str(caught.value) and "not a logbook" in str(caught.value)
    assert caught.value.exit_code == 2
    assert _downloads(hub_server) == []


def test_missing_private_gated_and_rate_limited_sources_say_so(
    hub_server: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _publish(hub_server, tmp_path, "alice/secret", private=True)
    _publish(hub_server, tmp_path, "alice/gated", gated=True)
    for anonymous in ("alice/secret", "nobody/nothing"):  # the Hub answers both with 401: it cannot tell them apart
        with pytest.raises(SourceAccessDenied) as private:
            open_source(anonymous)
        assert private.value.exit_code == 4
        assert f"Space {anonymous}: not found, or private" in str(private.value) and "hf auth login" in str(
            private.value
        )

    monkeypatch.setenv("HF_TOKEN", hub_server.add_user("mallory"))
    for invisible in ("nobody/nothing", "alice/secret"):
        with pytest.raises(SourceNotFound) as missing:
            open_source(invisible)
        assert missing.value.exit_code == 2 and f"Space {invisible}: not found" in str(missing.value)
    with pytest.raises(SourceAccessDenied) as gated:
        open_source("alice/gated", limits=DownloadLimits(max_extra_file_bytes=BIG // 2))
    assert "gated" in str(gated.value) and "request access" in str(gated.value) and gated.value.exit_code == 4
    with pytest.raises(SourceNotFound, match="no such revision"):
        open_source("alice/gated@no-such-branch")

    hub_server.fail_next("info", 429, headers={"Retry-After": "42"})
    with pytest.raises(SourceRateLimited) as limited:
        open_source(SPACE)
    assert limited.value.retry_after == 42 and "retry in 42 s" in str(limited.value)
    assert limited.value.exit_code == 4


def test_reopens_from_the_cache_with_the_server_stopped(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits
) -> None:
    head = _publish(hub_server, tmp_path)
    online = open_source(SPACE, limits=limits)
    hub_server.stop()

    offline = open_source(SPACE, limits=limits)

    assert offline.cached and offline.folder == online.folder and offline.revision == head
    banner = offline.banner() or ""
    assert "cached copy" in banner and head[:12] in banner and "cannot be reached" in banner
    assert len(read_logbook(offline.folder).claims) == 3
    with pytest.raises(SourceOffline) as never:
        open_source("alice/never-downloaded")
    assert never.value.exit_code == 5


def test_hf_hub_offline_uses_the_cache_without_any_request(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits, monkeypatch: pytest.MonkeyPatch
) -> None:
    head = _publish(hub_server, tmp_path)
    open_source(SPACE, limits=limits)
    hub_server.clear_requests()
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    opened = open_source(SPACE, limits=limits)

    assert opened.cached and opened.revision == head and "HF_HUB_OFFLINE" in (opened.banner() or "")
    assert hub_server.requests == []
    with pytest.raises(SourceOffline, match="HF_HUB_OFFLINE"):
        open_source("alice/elsewhere")


def test_limits_cancel_and_deadline_stop_the_download(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits
) -> None:
    _publish(hub_server, tmp_path)
    with pytest.raises(SourceTooLarge) as large:
        open_source(SPACE, limits=DownloadLimits(max_bytes=1000, max_extra_file_bytes=BIG // 2))
    assert "limit" in str(large.value) and _downloads(hub_server) == []

    token = CancelToken()

    def cancel_after_first_file(done: int, total: int, label: str) -> None:
        if label.startswith("1 of"):
            token.cancel()

    with pytest.raises(Cancelled):
        open_source(SPACE, limits=limits, progress=cancel_after_first_file, cancel=token)
    assert len(_downloads(hub_server)) == 1

    with pytest.raises(SourceTimedOut) as late:
        open_source(SPACE, limits=DownloadLimits(max_seconds=0, max_extra_file_bytes=BIG // 2))
    assert "longer than 0 s" in str(late.value) and late.value.exit_code == 5


def test_reviews_proposed_in_open_pull_requests_are_downloaded(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits
) -> None:
    _publish(hub_server, tmp_path)
    bob = HfApi(endpoint=hub_server.endpoint, token=hub_server.add_user("bob"))
    line = b'{"schema": 1, "kind": "note"}\n'
    for name in ("bob", "bob-closed"):
        bob.create_commit(SPACE, [CommitOperationAdd(f"reviews/{name}.jsonl", line)], commit_message=f"Review {name}",
                          repo_type="space", create_pr=True)  # fmt: skip
    hub_server.close_pull_request(SPACE, 2, repo_type="space")

    opened = open_source(SPACE, limits=limits)

    assert [(p.num, p.author) for p in opened.proposed_reviews] == [(1, "bob")]
    proposal = opened.proposed_reviews[0]
    assert (proposal.folder / "bob.jsonl").read_bytes() == line
    assert not (opened.folder / "reviews" / "bob.jsonl").exists()  # not merged: not in the logbook itself
    assert "not merged" in proposal.label()
    assert opened.proposals_line() == "Reviews proposed in open pull requests, not merged: #1 by bob (1 review file)."
    hub_server.stop()
    assert open_source(SPACE, limits=limits).proposed_reviews == opened.proposed_reviews  # offline too


def test_files_a_pair_set_names_are_downloaded_even_when_large(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits
) -> None:
    pairs = {"question": "Which is sharper?", "pairs": "usability-pairs.csv"}
    extra = {
        "samples/usability-pairs.json": json.dumps(pairs),
        "samples/usability-pairs.csv": "pair_id,left,right\np1,a/1.png,b/1.png\n",
        "samples/a/1.png": b"\x89PNG" + b"\0" * BIG,
        "samples/b/1.png": b"\x89PNG" + b"\1" * BIG,
        "samples/b/unnamed.png": b"\x89PNG" + b"\2" * BIG,
    }
    _publish(hub_server, tmp_path, extra=extra)

    opened = open_source(SPACE, limits=limits)

    assert (opened.folder / "samples" / "a" / "1.png").is_file()
    assert (opened.folder / "samples" / "b" / "1.png").is_file()
    assert not (opened.folder / "samples" / "b" / "unnamed.png").exists()


def test_containment_allows_the_repositorys_blobs_and_nothing_else(
    hub_server: HubServer, tmp_path: Path, limits: DownloadLimits
) -> None:
    _publish(hub_server, tmp_path)
    _publish(hub_server, tmp_path, "mallory/other")
    opened = open_source(SPACE, limits=limits)
    other = open_source("mallory/other", limits=limits)
    root = opened.folder

    inside = resolve_inside(root, "pages/index.md")
    assert inside == root / "pages" / "index.md" and inside.read_text().startswith("# ")
    other_blob = os.path.realpath(other.folder / "logbook.json")
    outside = tmp_path / "outside.txt"
    outside.write_text("secret")
    (root / "pages" / "to-other-repo.md").symlink_to(other_blob)
    (root / "pages" / "to-outside.md").symlink_to(outside)
    for name in ("pages/to-other-repo.md", "pages/to-outside.md", "../../blobs"):
        with pytest.raises(UnsafeReference):
            resolve_inside(root, name)
    with pytest.raises(UnsafeReference):  # a sibling snapshot is outside the root even though its links are blobs
        resolve_inside(root / "pages", "../../" + (root.name[:-1] + "0") + "/logbook.json")


def test_a_refusal_names_the_source_and_offers_the_login_only_when_logged_out(
    hub_server: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _publish(hub_server, tmp_path)
    hub_server.fail_next("info", 403)
    with pytest.raises(SourceAccessDenied) as anonymous:
        open_source(SPACE)
    assert str(anonymous.value).startswith(f"Space {SPACE}: access refused (403)")
    assert "hf auth login" in str(anonymous.value) and anonymous.value.exit_code == 4

    monkeypatch.setenv("HF_TOKEN", hub_server.add_user("mallory"))
    hub_server.fail_next("info", 401)
    with pytest.raises(SourceAccessDenied) as logged_in:
        open_source(SPACE)
    assert str(logged_in.value).startswith(f"Space {SPACE}: access refused (401)")
    assert "your account has no access" in str(logged_in.value) and "hf auth login" not in str(logged_in.value)


def test_a_rate_limit_without_retry_after_still_says_when(hub_server: HubServer, tmp_path: Path) -> None:
    _publish(hub_server, tmp_path)
    hub_server.fail_next("info", 429, headers={"RateLimit": '"api";r=0;t=95', "RateLimit-Policy": '"api";q=500;w=300'})
    with pytest.raises(SourceRateLimited) as limited:
        open_source(SPACE)
    assert limited.value.retry_after == 95 and f"Space {SPACE}: " in str(limited.value)
    assert "retry in 95 s" in str(limited.value)
