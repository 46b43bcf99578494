"""Hostile Hub endpoints and web hosts cannot hang an open, fill the disk or write outside the cache.

Each test puts one misbehaviour on the loopback servers of tests/support/hostile_server.py and opens the source
with the real huggingface_hub client. Limits are small and deadlines generous: a test asserts what was said and
what was (not) written, never how fast; a call that hangs fails once its generous bound passes.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_errors import (
    NotALogbookSource,
    SourceRefused,
    SourceTimedOut,
    SourceTooLarge,
)
from reviewapp.core.progress import Cancelled, CancelToken
from reviewapp.core.sources.opener import open_source
from tests.core.commit_helpers import published_files, published_site
from tests.support.hostile_server import HostileHub, HostileWeb, Misbehaviour, run_bounded

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-hostile"
BOUND = 60.0  # seconds a call may take before it counts as hanging (the limits below are a few seconds)
SHORT = DownloadLimits(max_seconds=2.0)


@pytest.fixture
def hub(hostile_hub: HostileHub) -> HostileHub:
    return hostile_hub


def _publish(hub: HostileHub, tmp_path: Path, **extra: bytes | str) -> str:
    files: dict[str, bytes | str] = dict(published_files(tmp_path / "published", SPACE))
    files.update(extra)
    return hub.create_repo(SPACE, repo_type="space", files=files)


def _open(limits: DownloadLimits = SHORT, cancel: CancelToken | None = None) -> BaseException | None:
    _, error, _ = run_bounded(lambda: open_source(SPACE, limits=limits, cancel=cancel), within=BOUND)
    return error


def _files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() or p.is_symlink()]


# -- one deadline ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("match", "what"),
    [
        ("/resolve/", "a file that trickles a byte at a time"),
        (f"/api/spaces/{SPACE}$", "a repo_info answer that trickles"),
        ("/tree/", "a file listing that trickles"),
    ],
)
def test_a_trickling_answer_stops_at_the_deadline(hub: HostileHub, tmp_path: Path, match: str, what: str) -> None:
    _publish(hub, tmp_path)
    hub.misbehave(match, Misbehaviour(pace=0.3, method="GET"))

    error = _open()

    assert isinstance(error, SourceTimedOut), f"{what}: {error!r}"
    assert str(error).startswith(f"Space {SPACE}") and "longer than 2 s" in str(error)


def test_a_file_that_never_ends_stops_at_the_deadline(hub: HostileHub, tmp_path: Path) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("pages/index.md", Misbehaviour(endless=True, pace=0.05, chunk=16, method="GET"))

    error = _open(DownloadLimits(max_seconds=2.0, max_bytes=400 * 1024 * 1024))

    assert isinstance(error, SourceTimedOut) and "pages/index.md" in str(error)


def test_cancel_stops_a_read_that_is_waiting_for_bytes(hub: HostileHub, tmp_path: Path) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("pages/index.md", Misbehaviour(pace=30.0, method="GET"))  # one byte, then silence for 30 s
    token = CancelToken()
    threading.Timer(0.5, token.cancel).start()

    error = _open(DownloadLimits(max_seconds=120.0), cancel=token)

    assert isinstance(error, Cancelled)


# -- byte caps on what arrives -----------------------------------------------------------------------------------


def test_a_file_sending_more_than_its_listed_size_is_stopped_and_not_kept(
    hub: HostileHub, hf_home: Path, tmp_path: Path
) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("pages/index.md", Misbehaviour(extra=8 * 1024 * 1024, method="GET"))

    error = _open(DownloadLimits(max_seconds=60.0))

    assert isinstance(error, SourceTooLarge) and "pages/index.md" in str(error)
    assert sum(p.stat().st_size for p in _files_under(hf_home) if p.is_file()) < 1024 * 1024


def test_the_total_counts_bytes_received_not_the_listing(hub: HostileHub, hf_home: Path, tmp_path: Path) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("/resolve/", Misbehaviour(extra=3 * 1024 * 1024, method="GET"))

    error = _open(DownloadLimits(max_seconds=60.0, max_bytes=1 * 1024 * 1024))

    assert isinstance(error, SourceTooLarge)
    assert sum(p.stat().st_size for p in _files_under(hf_home) if p.is_file()) < 4 * 1024 * 1024


def test_a_large_review_file_in_a_pull_request_is_left_out_and_said(hub: HostileHub, tmp_path: Path) -> None:
    from huggingface_hub import CommitOperationAdd, HfApi

    _publish(hub, tmp_path)
    token = hub.add_user("mallory")
    api = HfApi(endpoint=hub.endpoint, token=token)
    big = CommitOperationAdd("reviews/mallory.jsonl", b"{}\n" * 200_000)
    api.create_commit(SPACE, [big], commit_message="review", repo_type="space", create_pr=True)

    opened = open_source(SPACE, limits=DownloadLimits(max_proposed_file_bytes=64 * 1024))

    assert any("left out" in note and "reviews/mallory.jsonl" in note for note in opened.notes)
    assert not any((p.folder / "mallory.jsonl").exists() for p in opened.proposed_reviews)


# -- nothing outside the cache -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"ETag": '"../../../../../../escaped-by-etag"'},
        {"X-Repo-Commit": "../../../../../../escaped-by-commit"},
    ],
)
def test_ids_that_are_paths_are_refused_before_anything_is_written(
    hub: HostileHub, hf_home: Path, tmp_path: Path, headers: dict[str, str]
) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("/resolve/", Misbehaviour(headers=headers))
    outside = hf_home.parent

    error = _open(DownloadLimits(max_seconds=60.0))

    assert isinstance(error, SourceRefused) and "not one" in str(error), repr(error)
    assert not [p for p in outside.rglob("escaped-*")]


def test_a_repo_info_commit_that_is_a_path_is_refused(hub: HostileHub, hf_home: Path, tmp_path: Path) -> None:
    _publish(hub, tmp_path)
    info = {"id": SPACE, "sha": "../../../../escaped-snapshot", "siblings": [], "private": False}
    hub.misbehave(f"/api/spaces/{SPACE}$", Misbehaviour(body=json.dumps(info).encode()))

    error = _open(DownloadLimits(max_seconds=60.0))

    assert isinstance(error, SourceRefused) and "commit id that is not one" in str(error)
    assert not [p for p in hf_home.parent.rglob("escaped-*")]


# -- listings ----------------------------------------------------------------------------------------------------


def _tree(count: int) -> bytes:
    oid = "0" * 40
    return json.dumps(
        [{"type": "file", "path": f"run{i}/logbook.json", "size": 10, "oid": oid} for i in range(count)]
    ).encode()


def test_a_listing_of_32000_logbook_manifests_is_read_in_linear_time(hub: HostileHub, tmp_path: Path) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("/tree/", Misbehaviour(body=_tree(32_000)))

    error = _open(DownloadLimits(max_seconds=600.0))  # quadratic took 212 s here; linear takes well under a second

    assert isinstance(error, NotALogbookSource)


def test_a_listing_past_its_cap_is_refused(hub: HostileHub, tmp_path: Path) -> None:
    _publish(hub, tmp_path)
    hub.misbehave("/tree/", Misbehaviour(body=_tree(5_000)))

    error = _open(DownloadLimits(max_seconds=60.0, max_listing_entries=1_000))

    assert isinstance(error, SourceTooLarge) and "more than 1,000 entries" in str(error)


# -- web hosts ---------------------------------------------------------------------------------------------------


@pytest.fixture
def published(tmp_path: Path) -> Path:
    return published_site(tmp_path, SPACE)


def _open_url(url: str, limits: DownloadLimits = SHORT) -> tuple[object, BaseException | None]:
    value, error, _ = run_bounded(lambda: open_source(url, limits=limits), within=BOUND)
    return value, error


@pytest.mark.parametrize("match", ["/logbook.json", "/pages/index.md"])
def test_a_trickling_or_endless_web_file_stops_at_the_deadline(published: Path, match: str) -> None:
    with HostileWeb(published) as web:
        web.misbehave(match, Misbehaviour(pace=0.3) if match == "/logbook.json" else Misbehaviour(endless=True))
        url = web.url
        _, error = _open_url(url)

    assert isinstance(error, SourceTimedOut) and error.source == url and "longer than 2 s" in str(error)


def test_a_manifest_redirected_to_another_host_is_refused(published: Path) -> None:
    with HostileWeb(published) as other, HostileWeb(published) as web:
        web.misbehave("/logbook.json", Misbehaviour(status=302, headers={"Location": f"{other.url}logbook.json"}))
        _, error = _open_url(web.url)

    assert isinstance(error, SourceRefused) and "another host" in str(error)
    assert other.paths == []


def test_a_redirect_on_the_same_host_is_followed(published: Path) -> None:
    with HostileWeb(published) as web:
        web.misbehave("/moved/logbook.json", Misbehaviour(status=301, headers={"Location": "/logbook.json"}))
        opened, error = _open_url(web.url + "moved/", DownloadLimits(max_seconds=60.0))

    assert error is None, repr(error)
    assert "/logbook.json" in web.paths and any("missing at the URL" in n for n in opened.notes)  # type: ignore[attr-defined]


def test_a_redirect_without_a_location_is_an_error_not_a_page(published: Path) -> None:
    with HostileWeb(published) as web:
        web.misbehave("/pages/index.md", Misbehaviour(status=302, body=b"<html>moved</html>"))
        _, error = _open_url(web.url)

    assert isinstance(error, SourceRefused) and "302" in str(error) and "pages/index.md" in str(error)


def test_page_paths_that_cannot_be_saved_are_a_note(published: Path) -> None:
    manifest = json.loads((published / "logbook.json").read_text())
    long_name = "p" * 300 + ".md"
    children = manifest["root"].setdefault("children", [])
    children.append({"title": "Clash", "file": "pages/index.md/inner.md"})  # index.md is a file already
    children.append({"title": "Long", "file": f"pages/{long_name}"})
    (published / "logbook.json").write_text(json.dumps(manifest))
    (published / "pages" / long_name[:200]).write_text("# long")

    with HostileWeb(published) as web:
        web.misbehave("/pages/index.md/inner.md", Misbehaviour(status=200, body=b"# inner"))
        opened, error = _open_url(web.url, DownloadLimits(max_seconds=60.0))

    assert error is None, repr(error)
    notes = " ".join(opened.notes)  # type: ignore[attr-defined]
    assert "could not be saved" in notes and "leave the logbook" in notes


def test_a_manifest_of_100000_pages_is_refused_at_once(published: Path) -> None:
    manifest = json.loads((published / "logbook.json").read_text())
    manifest["root"]["children"] = [{"title": f"p{i}", "file": f"pages/p{i}.md"} for i in range(100_000)]
    (published / "logbook.json").write_text(json.dumps(manifest))

    with HostileWeb(published) as web:
        _, error = _open_url(web.url, DownloadLimits(max_seconds=600.0))

    assert isinstance(error, SourceTooLarge) and "more than 50,000 files" in str(error)
    assert len(web.paths) == 1  # only logbook.json was asked for


def test_a_trickling_space_listing_stops_find_at_its_deadline(hub: HostileHub) -> None:
    from reviewapp.core.sources.find import find_logbooks

    hub.misbehave("/api/spaces$", Misbehaviour(pace=0.3, body=b"[" + b" " * 100 + b"]"))  # 30 s of an empty list

    _, error, _ = run_bounded(lambda: find_logbooks("abc123", limits=SHORT, count_claims=False), within=BOUND)

    assert isinstance(error, SourceTimedOut) and "icml2026-repro" in str(error)


def test_a_pair_set_naming_thousands_of_folders_is_matched_in_linear_time() -> None:
    from reviewapp.core.io.hub_download import RemoteFile
    from reviewapp.core.sources.selection import pair_named_files

    listing = [RemoteFile(f"samples/f{i % 8000}/img{i}.png", 10) for i in range(40_000)]
    manifest = json.dumps({"folders": [f"f{i}" for i in range(8000)]}).encode()

    named, error, _ = run_bounded(lambda: pair_named_files("samples/x-pairs.json", manifest, listing), within=BOUND)

    assert error is None and len(named) == 40_000  # a scan of the listing per folder took minutes


def test_a_file_offered_through_xet_still_comes_over_the_guarded_http(
    hub: HostileHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_DISABLE_XET", False)  # as for a user with hf_xet installed
    _publish(hub, tmp_path)
    xet = {"X-Xet-Hash": "a" * 64, "X-Xet-Refresh-Route": f"{hub.endpoint}/api/spaces/{SPACE}/xet-read-token/main"}
    hub.misbehave("pages/index.md", Misbehaviour(headers=xet, method="HEAD"))
    hub.misbehave("pages/index.md", Misbehaviour(pace=0.3, method="GET"))  # and then trickles: the guard sees it

    error = _open()

    assert isinstance(error, SourceTimedOut) and "pages/index.md" in str(error)


def test_an_open_cut_off_at_its_deadline_leaves_another_threads_open_alone(hub: HostileHub, tmp_path: Path) -> None:
    other = "alice/repro-honest"
    hub.create_repo(other, repo_type="space", files=dict(published_files(tmp_path / "honest", other)))
    _publish(hub, tmp_path)
    hub.misbehave(f"/spaces/{SPACE}/resolve/", Misbehaviour(pace=0.3, method="GET"))
    results: dict[str, BaseException | None] = {}

    def honest() -> None:
        for _ in range(5):  # open again and again over the same pooled connections while the other is cut off
            _, results["honest"], _ = run_bounded(lambda: open_source(other), within=BOUND)
            if results["honest"] is not None:
                return

    worker = threading.Thread(target=honest)
    worker.start()
    hostile = _open()
    worker.join(BOUND)

    assert isinstance(hostile, SourceTimedOut)
    assert results["honest"] is None, repr(results["honest"])
