"""SOURCE forms: folders win, then Space / dataset ids with pins, Hub URLs, published URLs."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.io.source_ref import SourceError, parse_source


@pytest.mark.parametrize(
    ("text", "kind", "repo", "revision"),
    [
        ("alice/repro-x", "space", "alice/repro-x", None),
        ("alice/repro-x@3fa9c0d2", "space", "alice/repro-x", "3fa9c0d2"),
        ("alice/repro-x@refs/pr/3", "space", "alice/repro-x", "refs/pr/3"),
        ("spaces/alice/repro-x", "space", "alice/repro-x", None),
        ("datasets/alice/repro-x-traces@main", "dataset", "alice/repro-x-traces", "main"),
        ("https://huggingface.co/spaces/alice/repro-x", "space", "alice/repro-x", None),
        ("https://huggingface.co/spaces/alice/repro-x/tree/v2", "space", "alice/repro-x", "v2"),
        ("https://huggingface.co/spaces/alice/repro-x/tree/refs%2Fpr%2F4", "space", "alice/repro-x", "refs/pr/4"),
        ("https://huggingface.co/spaces/alice/repro-x@abc1234/", "space", "alice/repro-x", "abc1234"),
        ("https://huggingface.co/datasets/alice/t/resolve/main/x.json", "dataset", "alice/t", "main"),
    ],
)
def test_hub_forms(text: str, kind: str, repo: str, revision: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir("/")
    ref = parse_source(text)
    assert (ref.kind, ref.repo_id, ref.revision) == (kind, repo, revision)
    assert ref.logbook_id == f"hf:{kind}/{repo}"


def test_an_existing_folder_wins_over_the_space_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "alice" / "repro-x").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    ref = parse_source("alice/repro-x")
    assert ref.kind == "path" and ref.path == Path("alice/repro-x") and ref.logbook_id is None


@pytest.mark.parametrize(
    ("text", "base"),
    [
        ("https://alice-repro-x.static.hf.space", "https://alice-repro-x.static.hf.space/"),
        ("https://alice-repro-x.static.hf.space/index.html", "https://alice-repro-x.static.hf.space/"),
        ("http://example.org/books/one/logbook.json", "http://example.org/books/one/"),
        ("http://example.org/books/one", "http://example.org/books/one/"),
    ],
)
def test_published_urls_name_the_folder_holding_logbook_json(text: str, base: str) -> None:
    ref = parse_source(text)
    assert ref.kind == "url" and ref.url == base


def test_the_endpoint_host_is_a_hub_but_another_port_is_a_plain_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:4000")
    assert parse_source("http://127.0.0.1:4000/spaces/a/b").kind == "space"
    assert parse_source("http://127.0.0.1:5000/spaces/a/b/").kind == "url"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty"),
        ("just-a-name", "no such folder"),
        ("a/b/c", "no such folder"),
        ("alice/repro-x@", "not a revision"),
        ("alice/../x", "no such folder"),
        ("alice/repro-x@../../etc", "not a revision"),
        ("ftp://example.org/x", "only http and https"),
        ("https://huggingface.co/alice/model", "names a Space"),
    ],
)
def test_bad_sources_say_what_is_accepted(text: str, problem: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir("/")
    with pytest.raises(SourceError, match=problem):
        parse_source(text)
