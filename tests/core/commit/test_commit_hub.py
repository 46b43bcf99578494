"""Committing reviews to a Space with the real huggingface_hub client against the loopback Hub server."""

from __future__ import annotations

from pathlib import Path

import pytest
from huggingface_hub import snapshot_download

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.commit.hub_commit import NoWriteAccess
from reviewapp.core.commit.hub_repo import RepoIdError, check_repo_id, logbook_path_in_repo
from reviewapp.core.commit.plan import SecretsFound
from reviewapp.core.commit.service import CommitService, RepoNotConfirmed
from reviewapp.core.logbook.reader import read_logbook
from tests.core.annotation_helpers import open_review, small_logbook
from tests.core.commit_helpers import published_files
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

SPACE = "alice/repro-small-widgets"


class Published:
    """A Space holding the small logbook, downloaded with `snapshot_download(local_dir=...)` as `hf download` does."""

    def __init__(self, server: HubServer, tmp_path: Path, *, user: str = "alice", writer: bool = True) -> None:
        self.server = server
        self.owner_token = server.add_user("alice")
        self.token = self.owner_token if user == "alice" else server.add_user(user)
        files = published_files(tmp_path, SPACE)
        self.downloaded = server.create_repo(SPACE, repo_type="space", files=files, writers=[user] if writer else [])
        self.local = tmp_path / "downloaded"
        snapshot_download(SPACE, repo_type="space", local_dir=self.local, endpoint=server.endpoint,
                          cache_dir=tmp_path / "hf-cache", token=self.token)  # fmt: skip

    def service(self) -> CommitService:
        return CommitService(read_logbook(self.local), endpoint=self.server.endpoint, token=self.token)

    def remote(self, path: str, revision: str = "main") -> bytes | None:
        return self.server.files_at(SPACE, repo_type="space", revision=revision).get(path)


@pytest.fixture
def published(hub_server: HubServer, tmp_path: Path) -> Published:
    return Published(hub_server, tmp_path)


def _annotate(folder: Path, name: str = "Ada Lovelace") -> None:
    review = open_review(folder, name)
    review.set_verdict(3, "partial", "Only the small model was run.", confidence=2)
    review.add_note(review.claim_target(1), "accuracy table checked")


def _commit_requests(server: HubServer) -> list[str]:
    return [r.path for r in server.requests if r.method == "POST" and ("/commit/" in r.path or "/preupload/" in r.path)]


def test_direct_commit_uploads_the_review_files_on_the_downloaded_commit(
    published: Published, isolated_user_dirs: Path
) -> None:
    _annotate(published.local)
    service = published.service()
    repo = service.hub_repo()
    assert (repo.repo_id, repo.repo_type, repo.path_in_repo, repo.inferred) == (SPACE, "space", "", True)
    plan = service.plan_hub(repo)
    assert plan.base_revision == published.downloaded
    assert [f.path for f in plan.changed_files] == [
        "reviews/ada-lovelace.jsonl",
        "reviews/.gitattributes",
        "reviews/SCHEMA.json",
    ]

    outcome = service.commit_hub(plan, repo, confirmed=True)

    assert outcome.status == "committed"
    head = published.server.head(SPACE, repo_type="space")
    assert outcome.commit == head
    assert outcome.url == f"{published.server.endpoint}/spaces/{SPACE}/commit/{head}"
    local = published.local / "reviews" / "ada-lovelace.jsonl"
    assert published.remote("reviews/ada-lovelace.jsonl") == local.read_bytes()
    commit = published.server.history(SPACE, repo_type="space")[0]
    assert commit.parent == published.downloaded
    assert commit.author == "alice"
    assert commit.title == "Review of claims 1 and 3 by Ada Lovelace: 1 verdict, 1 note"
    assert "Claim 3: verdict partial (was toy)" in commit.description
    assert published.server.pull_requests(SPACE, repo_type="space") == []
    # the token only ever travelled in the Authorization header, and the client always sent it
    assert published.server.requests_exposing(published.token) == []
    assert all(r.user == "alice" for r in published.server.requests)

    # nothing written anywhere holds the token
    for path in [*published.local.parent.rglob("*"), *isolated_user_dirs.rglob("*")]:
        if path.is_file() and not path.is_symlink():
            assert published.token.encode() not in path.read_bytes(), path

    # committing again finds nothing new, even though the download's commit is now behind the head
    again = published.service()
    assert again.plan_hub(repo, head).empty
    assert again.commit_hub(again.plan_hub(repo), repo, confirmed=True).status == "nothing"
    assert published.server.head(SPACE, repo_type="space") == head


def test_pull_request_leaves_main_untouched(published: Published) -> None:
    _annotate(published.local)
    service = published.service()
    repo = service.hub_repo(SPACE, "space")
    assert not repo.inferred
    outcome = service.commit_hub(service.plan_hub(repo), repo, pr=True)

    assert outcome.status == "pull_request"
    assert outcome.pr_url == published.server.pull_request_url(SPACE, 1, repo_type="space")
    assert outcome.reference == outcome.pr_url
    assert published.server.head(SPACE, repo_type="space") == published.downloaded
    assert published.remote("reviews/ada-lovelace.jsonl", "refs/pr/1") is not None
    assert published.remote("reviews/ada-lovelace.jsonl") is None
    (pr,) = published.server.pull_requests(SPACE, repo_type="space")
    assert pr.title.startswith("Review of claims 1 and 3 by Ada Lovelace")


def test_a_concurrent_commit_is_detected_and_the_review_replanned_on_top(published: Published) -> None:
    _annotate(published.local)
    service = published.service()
    repo = service.hub_repo(SPACE)
    plan = service.plan_hub(repo)
    # meanwhile another reviewer commits their file, and Ada's other machine adds a line to hers
    other_line = published.local.joinpath("reviews", "ada-lovelace.jsonl").read_bytes().splitlines(keepends=True)[0]
    other_line = other_line.replace(b'"id":"', b'"id":"X', 1)
    moved = published.server.simulate_commit(
        SPACE,
        {"reviews/bob.jsonl": b'{"not":"checked here"}\n', "reviews/ada-lovelace.jsonl": other_line},
        repo_type="space",
    )

    outcome = service.commit_hub(plan, repo)

    assert outcome.status == "committed"
    assert [r.status for r in published.server.requests if "/commit/" in r.path] == [412, 200]
    assert any("had new commits" in note for note in outcome.notes)
    commit = published.server.history(SPACE, repo_type="space")[0]
    assert commit.parent == moved
    assert published.remote("reviews/bob.jsonl") == b'{"not":"checked here"}\n'
    merged = published.remote("reviews/ada-lovelace.jsonl")
    local = published.local.joinpath("reviews", "ada-lovelace.jsonl").read_bytes()
    assert merged is not None and merged.startswith(other_line) and merged.endswith(local)


def test_a_download_older_than_the_head_is_committed_on_the_head(published: Published) -> None:
    published.server.simulate_commit(SPACE, {"pages/index.md": "# Changed upstream\n"}, repo_type="space")
    _annotate(published.local)
    service = published.service()
    repo = service.hub_repo(SPACE)
    outcome = service.commit_hub(service.plan_hub(repo), repo)
    assert outcome.status == "committed"
    assert published.remote("pages/index.md") == b"# Changed upstream\n"  # never overwritten
    assert published.remote("reviews/ada-lovelace.jsonl") is not None


def test_a_lost_answer_after_the_commit_landed_is_not_committed_twice(published: Published) -> None:
    _annotate(published.local)
    service = published.service()
    repo = service.hub_repo(SPACE)
    published.server.fail_next("commit", 500, after_effect=True)
    outcome = service.commit_hub(service.plan_hub(repo), repo)
    history = published.server.history(SPACE, repo_type="space")
    assert len(history) == 3  # initial, logbook, one review commit
    assert outcome.status == "committed" and outcome.commit == history[0].oid
    assert any("landed" in note for note in outcome.notes)


def test_without_write_access_a_pull_request_is_opened(hub_server: HubServer, tmp_path: Path) -> None:
    published = Published(hub_server, tmp_path, user="bob", writer=False)
    _annotate(published.local, "Bob")
    service = published.service()
    repo = service.hub_repo(SPACE)
    assert service.hub(repo).can_write() is False

    with pytest.raises(NoWriteAccess, match="pull request"):
        service.commit_hub(service.plan_hub(repo), repo, confirmed=True, pr_without_write_access=False)
    outcome = service.commit_hub(service.plan_hub(repo), repo, confirmed=True)

    assert outcome.status == "pull_request"
    assert outcome.pr_url == hub_server.pull_request_url(SPACE, 1, repo_type="space")
    assert any("pull request was opened" in note for note in outcome.notes)
    assert hub_server.head(SPACE, repo_type="space") == published.downloaded
    assert published.remote("reviews/bob.jsonl", "refs/pr/1") == (published.local / "reviews/bob.jsonl").read_bytes()


def test_a_secret_in_the_files_refuses_the_commit_before_anything_is_sent(
    hub_server: HubServer, tmp_path: Path
) -> None:
    own = "plain-personal-token-7c1e2f"  # not shaped like any known token: only found because it is the user's
    hub_server.add_user("alice", token=own)
    files = published_files(tmp_path, SPACE)
    hub_server.create_repo(SPACE, repo_type="space", files=files, writers=["alice"])
    local = tmp_path / "downloaded"
    snapshot_download(SPACE, repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "hf-cache", token=own)  # fmt: skip
    _annotate(local)
    record_file = local / "reviews" / "ada-lovelace.jsonl"
    lines = record_file.read_bytes().splitlines(keepends=True)
    record_file.write_bytes(lines[0] + lines[1].replace(b"accuracy table checked", own.encode()))
    service = CommitService(read_logbook(local), endpoint=hub_server.endpoint, token=own)
    repo = service.hub_repo(SPACE)
    plan = service.plan_hub(repo)
    hub_server.clear_requests()

    with pytest.raises(SecretsFound) as refused:
        service.commit_hub(plan, repo)

    assert "reviews/ada-lovelace.jsonl line 2: your own access token" in str(refused.value)
    assert own not in str(refused.value)
    assert _commit_requests(hub_server) == []
    assert hub_server.head(SPACE, repo_type="space") != "" and len(hub_server.history(SPACE, repo_type="space")) == 2
    assert hub_server.requests_exposing(own) == []


def test_an_inferred_repository_must_be_confirmed(published: Published) -> None:
    _annotate(published.local)
    service = published.service()
    repo = service.hub_repo()
    plan = service.plan_hub(repo)
    with pytest.raises(RepoNotConfirmed, match=SPACE):
        service.commit_hub(plan, repo)
    assert _commit_requests(published.server) == []


def test_a_space_id_cut_short_is_reported_as_not_found(hub_server: HubServer, tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)  # its space_id, someone/small-widgets, is not on the Hub
    service = CommitService(read_logbook(workspace), endpoint=hub_server.endpoint, token=hub_server.add_user("x"))
    with pytest.raises(CommitError, match=r"not found.*cut short"):
        service.plan_hub(service.hub_repo())


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("2406.01234", "not OWNER/NAME"),
        ("alice/repro/extra", "not OWNER/NAME"),
        ("alice/repro widgets", "characters"),
        ("alice/-repro", "characters"),
        ("alice/re--pro", "characters"),
        ("alice/" + "x" * 97, "longer than 96"),
    ],
)
def test_bad_repository_ids_are_refused(text: str, problem: str) -> None:
    with pytest.raises(RepoIdError, match=problem):
        check_repo_id(text)


def test_good_repository_ids_pass() -> None:
    assert check_repo_id(" alice/repro-small_widgets.v2 ") == "alice/repro-small_widgets.v2"
    assert check_repo_id("alice/" + "x" * 96) == "alice/" + "x" * 96


def test_where_the_logbook_sits_in_the_repository(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    assert logbook_path_in_repo(read_logbook(workspace)) == ""  # .trackio/logbook is published as the root
    download = tmp_path / "dataset-download"
    (download / ".cache" / "huggingface" / "download").mkdir(parents=True)
    root = read_logbook(workspace).root
    (download / "logbooks").mkdir()
    root.rename(download / "logbooks" / "small")
    assert logbook_path_in_repo(read_logbook(download / "logbooks" / "small")) == "logbooks/small"


def test_pair_results_gone_locally_are_deleted_on_the_hub(hub_server: HubServer, tmp_path: Path) -> None:
    token = hub_server.add_user("alice")
    stale = {"reviews/pairs/faces-ada.csv": b"trial,pair_id\n0,p1\n", "reviews/pairs/faces-ada.protocol.json": b"{}\n"}
    files = {**published_files(tmp_path, SPACE), **stale, "reviews/pairs/notes.txt": b"not a result file\n"}
    hub_server.create_repo(SPACE, repo_type="space", files=files, writers=["alice"])
    local = tmp_path / "downloaded"
    snapshot_download(SPACE, repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "hf-cache", token=token)  # fmt: skip
    for path in stale:
        (local / path).unlink()  # a rating was undone: the results are no longer complete
    service = CommitService(read_logbook(local), endpoint=hub_server.endpoint, token=token)
    repo = service.hub_repo(SPACE)

    plan = service.plan_hub(repo)
    assert [(f.path, f.status) for f in plan.changed_files] == [(path, "deleted") for path in stale]
    assert service.commit_hub(plan, repo).status == "committed"

    remote = hub_server.files_at(SPACE, repo_type="space")
    assert not set(stale) & set(remote)
    assert remote["reviews/pairs/notes.txt"] == b"not a result file\n"
