"""Reviews of a logbook opened from the Hub: kept under its logbook id, surviving a newer download, committed
back as a pull request when the reviewer cannot write to the Space."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.commit.service import CommitService
from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.logbook.logbook_id import safe_folder_name
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.sources.opener import open_source
from tests.core.commit_helpers import published_files
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-small-widgets"


def test_a_review_made_offline_on_a_cached_copy_is_committed_as_a_pull_request(
    hub_server: HubServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first_head = hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    bob = hub_server.add_user("bob")  # may read, may not write
    monkeypatch.setenv("HF_TOKEN", bob)
    open_source(SPACE)
    hub_server.stop()

    cached = open_source(SPACE)
    assert cached.cached
    logbook = read_logbook(cached.folder, logbook_id=cached.logbook_id)
    assert logbook.logbook_id == "hf:space/alice/repro-small-widgets"
    session = LogbookReview.open(logbook, Identity("Bob Reviewer", "command line"), "judge")
    session.set_verdict(2, "partial", "Only one seed was run.", confidence=2)

    kept = user_data_dir() / "reviews" / safe_folder_name(logbook.logbook_id) / "bob-reviewer.jsonl"
    assert kept.is_file()
    assert not (cached.folder / "reviews").exists()  # the Hub cache is never written
    assert json.loads(kept.read_text().splitlines()[0])["revision"]["space_sha"] == first_head

    monkeypatch.setenv("HF_ENDPOINT", hub_server.start())  # back online (on a new port), and the Space moved on
    newer = hub_server.simulate_commit(SPACE, {"README.md": "# card\n"}, repo_type="space", author="alice")
    fresh = open_source(SPACE)
    assert fresh.revision == newer and not fresh.cached
    relogbook = read_logbook(fresh.folder, logbook_id=fresh.logbook_id)
    reopened = LogbookReview.open(relogbook, Identity("Bob Reviewer", "command line"), "judge")
    verdicts = reopened.state.verdicts(relogbook.claims[1].key)
    assert [v.payload.verdict for v in verdicts.values()] == ["partial"]  # survived the newer download

    service = CommitService(relogbook, endpoint=hub_server.endpoint, token=bob)
    repo = service.hub_repo()
    assert (repo.repo_id, repo.repo_type, repo.inferred) == (SPACE, "space", False)
    plan = service.plan_hub(repo)
    assert plan.base_revision == newer
    outcome = service.commit_hub(plan, repo)

    assert outcome.status == "pull_request" and outcome.pr_url == hub_server.pull_request_url(
        SPACE, 1, repo_type="space"
    )
    assert hub_server.head(SPACE, repo_type="space") == newer  # main untouched
    committed = hub_server.read_file(SPACE, "reviews/bob-reviewer.jsonl", repo_type="space", revision="refs/pr/1")
    assert b"Only one seed was run." in committed
