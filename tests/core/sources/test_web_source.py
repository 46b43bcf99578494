"""Opening a published logbook from a static URL, against a loopback static web server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewapp.core.io.source_errors import (
    NotALogbookSource,
    SourceAccessDenied,
    SourceOffline,
    SourceRateLimited,
    SourceRefused,
)
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.sources.opener import open_source
from tests.core.commit_helpers import published_files
from tests.support.static_server import StaticServer


@pytest.fixture
def site(tmp_path: Path) -> Iterator[StaticServer]:
    folder = tmp_path / "site" / "book"
    for path, data in published_files(tmp_path, "alice/repro-small").items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_bytes(data)
    orphan = folder / "pages" / "orphan-page" / "page.md"
    orphan.parent.mkdir(parents=True)
    orphan.write_text("# Orphan\n\nNot in the manifest.\n")
    manifest = json.loads((folder / "logbook.json").read_text())
    manifest["root"]["children"].append({"slug": "escape", "title": "x", "file": "../../etc/passwd", "children": []})
    (folder / "logbook.json").write_text(json.dumps(manifest))
    with StaticServer(tmp_path / "site") as server:
        yield server


def test_a_url_reads_what_the_manifest_lists_and_nothing_else(
    site: StaticServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_TOKEN", "hf_" + "x" * 34)
    opened = open_source(site.url + "book/index.html")

    assert opened.logbook_id == f"url:{site.url}book/" and opened.revision is None
    logbook = read_logbook(opened.folder)
    assert len(logbook.claims) == 3
    assert logbook.traces and logbook.traces[0].available  # trace index and chunks followed from the manifest
    assert "/book/pages/orphan-page/page.md" not in site.paths
    assert not any("passwd" in p or ".." in p for p in site.paths)
    assert any("orphan pages" in n for n in opened.notes) and any("leave the logbook" in n for n in opened.notes)
    assert all("authorization" not in headers and "cookie" not in headers for _, headers in site.requests)


def test_a_url_reopens_offline_from_its_last_complete_download(site: StaticServer) -> None:
    base = site.url
    first = open_source(base + "book/")
    site.stop()
    again = open_source(base + "book/")
    assert again.cached and again.folder == first.folder and "cached copy" in (again.banner() or "")
    assert len(read_logbook(again.folder).claims) == 3
    with pytest.raises(SourceOffline) as never:
        open_source(base + "other/")
    assert never.value.exit_code == 5


def test_a_url_without_a_manifest_or_rate_limited_says_so(site: StaticServer) -> None:
    with pytest.raises(NotALogbookSource) as missing:
        open_source(site.url + "nothing-here/")
    assert missing.value.exit_code == 2 and "no logbook.json" in str(missing.value)
    site.fail("/book/logbook.json", 429, {"Retry-After": "7"})
    with pytest.raises(SourceRateLimited, match="retry in 7 s"):
        open_source(site.url + "book/")


@pytest.mark.parametrize("status", [401, 403])
def test_a_url_that_refuses_access_names_the_url_and_the_file(site: StaticServer, status: int) -> None:
    site.fail("/book/logbook.json", status)
    with pytest.raises(SourceAccessDenied) as refused:
        open_source(site.url + "book/")
    assert str(refused.value) == f"{site.url}book/: the server refused access to logbook.json ({status})"
    assert refused.value.exit_code == 4


def test_a_server_error_on_a_page_keeps_the_last_complete_download(site: StaticServer) -> None:
    first = open_source(site.url + "book/")
    site.fail("/book/pages/index.md", 503)
    with pytest.raises(SourceRefused, match=r"answered 503 for pages/index\.md"):
        open_source(site.url + "book/")
    assert len(read_logbook(first.folder).claims) == 3  # the earlier download is untouched


def test_every_command_opens_a_url_and_reviews_never_go_into_its_download(
    site: StaticServer, capsys: pytest.CaptureFixture[str]
) -> None:
    from reviewapp.cli import main
    from reviewapp.core.review.store import AnnotationStore

    url = site.url + "book/"
    assert main(["inspect", url, "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["claims"]) == 3
    assert f"Showing {url}" in captured.err and "orphan pages" in captured.err

    opened = open_source(url)
    location = AnnotationStore(opened.folder, logbook_id=opened.logbook_id).location
    assert location.fallback and "replaced by the next download" in (location.reason or "")
    assert not location.folder.is_relative_to(opened.folder)


def test_hf_hub_offline_reopens_a_url_without_any_request(site: StaticServer, monkeypatch: pytest.MonkeyPatch) -> None:
    first = open_source(site.url + "book/")
    asked = len(site.requests)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    again = open_source(site.url + "book/")
    assert again.cached and again.folder == first.folder and "HF_HUB_OFFLINE" in (again.banner() or "")
    assert len(site.requests) == asked
    with pytest.raises(SourceOffline, match="HF_HUB_OFFLINE"):
        open_source(site.url + "other/")
