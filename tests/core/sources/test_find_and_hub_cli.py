"""`reviewapp find` over a paginated listing, and Hub sources on the command line with their exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.cli.common import download_limits_given
from tests.core.commit_helpers import published_files
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

ORID = "AbCdEf1234"


def _challenge(server: HubServer, tmp_path: Path) -> set[str]:
    """25 challenge Spaces: 9 on the paper (tags in three spellings), the rest on others; two off-challenge."""
    on_paper: set[str] = set()
    for i in range(25):
        repo = f"team{i % 4}/repro-{i:02d}"
        tag = (f"paper-{ORID}", f"paper-{ORID.lower()}", f"PAPER-{ORID.upper()}")[i % 3] if i % 3 == 0 or i < 9 else ""
        tags = ["icml2026-repro", tag or f"paper-Other{i:04d}xx"]
        if i == 4:
            tags.append("toy-scale")
        files = published_files(tmp_path / repo.replace("/", "-"), repo) if i == 0 else None
        server.create_repo(repo, repo_type="space", tags=tags, files=files)
        if tag:
            on_paper.add(repo)
    server.create_repo("lurker/not-challenge", repo_type="space", tags=[f"paper-{ORID}"])
    server.create_repo("team0/private-one", repo_type="space", tags=["icml2026-repro", f"paper-{ORID}"], private=True)
    server.listing_page_size = 4
    return on_paper


def test_find_lists_every_page_and_matches_the_paper_tag_in_any_case(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _challenge(hub_server, tmp_path)

    assert main(["find", "--orid", ORID.lower(), "--format", "json"]) == 0

    rows = json.loads(capsys.readouterr().out)
    assert {r["space"] for r in rows} == expected and len(expected) > 4
    listing = [r for r in hub_server.requests if r.path.startswith("/api/spaces") and "limit=1" not in r.path]
    assert len(listing) == 7  # 25 Spaces, 4 a page: followed to the end
    by_id = {r["space"]: r for r in rows}
    assert by_id["team1/repro-01"]["owner"] == "team1" and by_id["team1/repro-01"]["last_modified"]


def test_find_filters_by_author_and_tag_and_counts_claims_of_cached_spaces(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    on_paper = _challenge(hub_server, tmp_path)
    assert main(["inspect", "team0/repro-00", "--json"]) == 0
    capsys.readouterr()

    assert main(["find", "--orid", ORID, "--author", "team0", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "space,owner,name,last_modified,claims"
    assert {line.split(",")[0] for line in lines[1:]} == {r for r in on_paper if r.startswith("team0/")}
    assert "team0/private-one" not in on_paper
    assert [line.split(",")[-1] for line in lines[1:] if line.startswith("team0/repro-00,")] == ["3"]

    assert main(["find", "--orid", ORID, "--tag", "TOY-SCALE"]) == 0
    assert "team0/repro-04" in capsys.readouterr().out


def test_hub_sources_on_the_command_line_and_their_exit_codes(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hub_server.create_repo("alice/repro-x", repo_type="space", files=published_files(tmp_path, "alice/repro-x"))
    hub_server.create_repo("alice/app", repo_type="space", files={"app.py": "x"})

    assert main(["inspect", "alice/repro-x", "--json"]) == 0
    captured = capsys.readouterr()
    assert len(json.loads(captured.out)["claims"]) == 3
    assert "Showing Space alice/repro-x at revision" in captured.err

    assert main(["inspect", "alice/app"]) == 2
    assert "not a logbook" in capsys.readouterr().err
    assert main(["inspect", "nobody/missing"]) == 4  # anonymous: missing and private look alike
    assert "hf auth login" in capsys.readouterr().err
    assert main(["inspect", "alice/repro-x", "--max-download-mb", "0.001"]) == 2
    assert "limit" in capsys.readouterr().err

    hub_server.stop()
    assert main(["inspect", "alice/repro-x"]) == 0
    assert "cached copy" in capsys.readouterr().err
    assert main(["inspect", "alice/elsewhere"]) == 5
    assert main(["find", "--orid", ORID]) == 5


def test_find_says_when_to_retry_a_rate_limited_listing(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _challenge(hub_server, tmp_path)
    hub_server.fail_next("list", 429, headers={"Retry-After": "120"})

    assert main(["find", "--orid", ORID]) == 4

    err = capsys.readouterr().err
    assert "the Hub's list of icml2026-repro Spaces" in err and "retry in 120 s" in err


def test_download_limits_come_from_the_preferences_and_an_option_overrides_them(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reviewapp.core.review.preferences import Preferences, save_preferences

    hub_server.create_repo("alice/repro-x", repo_type="space", files=published_files(tmp_path, "alice/repro-x"))
    save_preferences(Preferences(download_max_mb=0.001))

    assert main(["inspect", "alice/repro-x"]) == 2
    assert "over the 1 KB limit" in capsys.readouterr().err
    assert main(["inspect", "alice/repro-x", "--max-download-mb", "5"]) == 0
    given = download_limits_given()  # what `reviewapp open` hands the window
    assert given is not None and given.max_bytes == 5 * 1024 * 1024 and given.max_seconds == 600
    assert main(["inspect", "alice/repro-x"]) == 2 and download_limits_given() is None  # the preferences again
