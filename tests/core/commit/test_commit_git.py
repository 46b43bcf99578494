"""Committing and pushing reviews with real git: clones of a local bare repository, annotated through sessions."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from reviewapp.core.commit.errors import CommitError
from reviewapp.core.commit.git_commit import IdentityMissing, redact_urls
from reviewapp.core.commit.git_sync import Conflict, merge_file
from reviewapp.core.commit.plan import SecretsFound
from reviewapp.core.commit.service import CommitOutcome
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.pairs.rating import PairRatingRound
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.review.store import fallback_folder
from tests.core.annotation_helpers import open_review
from tests.core.commit_helpers import (
    clone,
    git,
    git_bytes,
    isolate_git,
    make_remote,
    remote_file,
    service_for,
)
from tests.support.pair_fixtures import open_annotations, write_pair_logbook

REVIEWS = ".trackio/logbook/reviews"


@pytest.fixture(autouse=True)
def no_global_git_identity(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(tmp_path_factory.mktemp("git-home"), monkeypatch)


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    return make_remote(tmp_path)


def _record_ids(data: bytes | None) -> list[str]:
    import json

    return [json.loads(line)["id"] for line in (data or b"").splitlines()]


def _status(repo: Path) -> str:
    return git_bytes(repo, "status", "--porcelain=v1", "--untracked-files=all").decode().rstrip("\n")


def test_commit_holds_only_review_files_and_other_changes_stay_as_they_were(remote: Path, tmp_path: Path) -> None:
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    review = open_review(work, "Ada Lovelace")
    review.set_verdict(3, "partial", "Only the small model was run.", confidence=2)
    review.add_note(review.claim_target(1), "accuracy table checked")
    # a dirty work tree: a staged change, further unstaged edits of the same file, a staged new file, an untracked
    # file, and an unstaged edit of a page of the logbook itself
    readme = work / "README.md"
    readme.write_text("# Reproduction\n\nstaged line\n", encoding="utf-8")
    git(work, "add", "README.md")
    readme.write_text("# Reproduction\n\nstaged line\nunstaged line\n", encoding="utf-8")
    (work / "notes.txt").write_text("staged new file\n", encoding="utf-8")
    git(work, "add", "notes.txt")
    (work / "scratch.txt").write_text("untracked\n", encoding="utf-8")
    page = work / ".trackio/logbook/pages/index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nlocal edit\n", encoding="utf-8")
    staged_before = git_bytes(work, "diff", "--cached", "--binary")
    unstaged_before = git_bytes(work, "diff", "--binary")
    head_before = git(work, "rev-parse", "HEAD")

    service = service_for(work)
    assert service.default_target() == "git"
    outcome = service.commit_git(service.plan_git())

    assert outcome.status == "committed"
    assert git(work, "rev-parse", "HEAD") == outcome.commit
    assert git(work, "rev-parse", "HEAD^") == head_before
    changed = git(work, "diff-tree", "--no-commit-id", "--name-only", "-r", "HEAD").splitlines()
    assert sorted(changed) == [f"{REVIEWS}/.gitattributes", f"{REVIEWS}/SCHEMA.json", f"{REVIEWS}/ada-lovelace.jsonl"]
    assert git(work, "log", "-1", "--format=%an <%ae>") == "Ada Lovelace <ada@example.invalid>"
    assert git(work, "log", "-1", "--format=%s") == "Review of claims 1 and 3 by Ada Lovelace: 1 verdict, 1 note"
    committed = git_bytes(work, "show", f"HEAD:{REVIEWS}/ada-lovelace.jsonl")
    assert committed == (work / REVIEWS / "ada-lovelace.jsonl").read_bytes()
    assert git_bytes(work, "show", f"HEAD:{REVIEWS}/.gitattributes") == b"*.jsonl merge=union\n"
    # everything else is exactly as it was: staged stays staged, unstaged stays unstaged
    assert git_bytes(work, "diff", "--cached", "--binary") == staged_before
    assert git_bytes(work, "diff", "--binary") == unstaged_before
    assert sorted(_status(work).splitlines()) == sorted(
        [" M .trackio/logbook/pages/index.md", "?? scratch.txt", "A  notes.txt", "MM README.md"]
    )
    assert service_for(work).plan_git().empty


def test_two_clones_push_concurrently_and_both_reviews_reach_the_remote(remote: Path, tmp_path: Path) -> None:
    clones = {
        "Ada Lovelace": clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid"),
        "Bob Babbage": clone(remote, tmp_path / "bob", "Bob Babbage", "bob@example.invalid"),
    }
    written: dict[str, list[str]] = {}
    for name, work in clones.items():
        review = open_review(work, name)
        ids = [review.set_verdict(n, "verified", f"{name} checked claim {n}").id for n in (1, 2)]
        ids.append(review.add_note(review.claim_target(3), f"{name}'s note").id)
        written[name] = ids
    plans = {name: service_for(work).plan_git() for name, work in clones.items()}
    start = threading.Barrier(len(clones))
    outcomes: dict[str, CommitOutcome | BaseException] = {}

    def commit_and_push(name: str) -> None:
        service = service_for(clones[name])
        start.wait()
        try:
            outcomes[name] = service.commit_git(plans[name], push_after=True)
        except BaseException as exc:
            outcomes[name] = exc

    threads = [threading.Thread(target=commit_and_push, args=(name,)) for name in clones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert all(isinstance(o, CommitOutcome) and o.status == "pushed" for o in outcomes.values()), outcomes
    assert sum(bool(o.notes) for o in outcomes.values() if isinstance(o, CommitOutcome)) >= 1  # one was replayed
    for name, slug in (("Ada Lovelace", "ada-lovelace"), ("Bob Babbage", "bob-babbage")):
        assert _record_ids(remote_file(remote, f"{REVIEWS}/{slug}.jsonl")) == written[name]
    log = git(remote, "log", "--format=%an|%s", "main").splitlines()
    assert len(log) == 3 and {entry.split("|")[0] for entry in log[:2]} == {"Ada Lovelace", "Bob Babbage"}
    # each clone is where it pushed, with a clean work tree; the later one also has the other's file
    for name, work in clones.items():
        outcome = outcomes[name]
        assert isinstance(outcome, CommitOutcome)
        assert git(work, "rev-parse", "HEAD") == outcome.commit
        assert _status(work) == ""
    assert git(remote, "rev-parse", "main") in {o.commit for o in outcomes.values() if isinstance(o, CommitOutcome)}


def test_the_same_reviewer_on_two_machines_keeps_every_line(remote: Path, tmp_path: Path) -> None:
    laptop = clone(remote, tmp_path / "laptop", "Ada Lovelace", "ada@example.invalid")
    desktop = clone(remote, tmp_path / "desktop", "Ada Lovelace", "ada@example.invalid")
    first = open_review(laptop).set_verdict(1, "verified", "from the laptop").id
    assert service_for(laptop).commit_git(service_for(laptop).plan_git(), push_after=True).status == "pushed"
    second = open_review(desktop).set_verdict(2, "falsified", "from the desktop").id

    outcome = service_for(desktop).commit_git(service_for(desktop).plan_git(), push_after=True)

    assert outcome.status == "pushed"
    merged = remote_file(remote, f"{REVIEWS}/ada-lovelace.jsonl")
    assert _record_ids(merged) == [first, second]
    assert (desktop / REVIEWS / "ada-lovelace.jsonl").read_bytes() == merged
    state = open_review(desktop).state
    assert {r.id for r in state.live()} == {first, second}


def test_changes_upstream_outside_reviews_reach_the_work_tree(remote: Path, tmp_path: Path) -> None:
    other = clone(remote, tmp_path / "other", "Carol", "carol@example.invalid")
    (other / "README.md").write_text("# Reproduction\n\nupdated upstream\n", encoding="utf-8")
    git(other, "commit", "-q", "-am", "readme")
    git(other, "push", "-q", "origin", "main")
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    git(work, "reset", "-q", "--hard", "HEAD^")  # as if cloned before Carol pushed
    open_review(work).set_verdict(1, "verified", "ok")
    (work / "scratch.txt").write_text("mine\n", encoding="utf-8")

    outcome = service_for(work).commit_git(service_for(work).plan_git(), push_after=True)

    assert outcome.status == "pushed"
    assert (work / "README.md").read_text(encoding="utf-8").endswith("updated upstream\n")
    assert _status(work) == "?? scratch.txt"
    assert git(remote, "log", "-1", "--format=%s", "main").startswith("Review of claim 1 by Ada Lovelace")


def test_local_changes_in_the_way_keep_the_commit_local_and_untouched(remote: Path, tmp_path: Path) -> None:
    other = clone(remote, tmp_path / "other", "Carol", "carol@example.invalid")
    (other / "README.md").write_text("# Reproduction\n\nupdated upstream\n", encoding="utf-8")
    git(other, "commit", "-q", "-am", "readme")
    git(other, "push", "-q", "origin", "main")
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    git(work, "reset", "-q", "--hard", "HEAD^")
    open_review(work).set_verdict(1, "verified", "ok")
    (work / "README.md").write_text("my own unfinished edit\n", encoding="utf-8")

    with pytest.raises(CommitError, match=r"overwrite your own changes.*kept locally"):
        service_for(work).commit_git(service_for(work).plan_git(), push_after=True)

    assert (work / "README.md").read_text(encoding="utf-8") == "my own unfinished edit\n"
    assert git(work, "log", "-1", "--format=%s").startswith("Review of claim 1")  # the review commit is kept
    assert remote_file(remote, f"{REVIEWS}/ada-lovelace.jsonl") is None


def test_a_real_conflict_keeps_both_versions_on_the_remote(remote: Path, tmp_path: Path) -> None:
    laptop = clone(remote, tmp_path / "laptop", "Ada Lovelace", "ada@example.invalid")
    open_review(laptop).set_verdict(1, "verified", "original rationale")
    service_for(laptop).commit_git(service_for(laptop).plan_git(), push_after=True)
    desktop = clone(remote, tmp_path / "desktop", "Ada Lovelace", "ada@example.invalid")
    # the same line edited by hand on both machines
    for work, text in ((laptop, "laptop wording"), (desktop, "desktop wording")):
        path = work / REVIEWS / "ada-lovelace.jsonl"
        path.write_bytes(path.read_bytes().replace(b"original rationale", text.encode()))
    assert service_for(laptop).commit_git(service_for(laptop).plan_git(), push_after=True).status == "pushed"
    desktop_head = None

    outcome = service_for(desktop).commit_git(service_for(desktop).plan_git(), push_after=True)
    desktop_head = git(desktop, "rev-parse", "HEAD")

    assert outcome.status == "pushed_aside" and not outcome.complete
    assert outcome.commit == desktop_head
    assert outcome.pushed_to is not None and outcome.pushed_to.startswith("origin/reviews/ada-lovelace-")
    branch = outcome.pushed_to.removeprefix("origin/")
    assert b"laptop wording" in (remote_file(remote, f"{REVIEWS}/ada-lovelace.jsonl") or b"")
    assert b"desktop wording" in (remote_file(remote, f"{REVIEWS}/ada-lovelace.jsonl", branch) or b"")
    said = " ".join(outcome.notes)
    assert f"{REVIEWS}/ada-lovelace.jsonl was changed both on origin/main and in your review" in said
    assert branch in said and "Nothing was lost" in said


def test_commit_without_a_git_identity_says_how_to_set_one(remote: Path, tmp_path: Path) -> None:
    work = tmp_path / "anonymous"
    git(tmp_path, "clone", "-q", str(remote), str(work))
    open_review(work).set_verdict(1, "verified", "ok")
    head = git(work, "rev-parse", "HEAD")
    with pytest.raises(IdentityMissing, match=r"git config --global user\.name"):
        service_for(work).commit_git(service_for(work).plan_git())
    assert git(work, "rev-parse", "HEAD") == head


def test_a_secret_written_into_a_review_file_by_hand_refuses_the_commit(remote: Path, tmp_path: Path) -> None:
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    open_review(work).set_verdict(1, "verified", "ok")
    path = work / REVIEWS / "ada-lovelace.jsonl"
    token = "hf_" + "aB3" * 12
    path.write_bytes(path.read_bytes().replace(b'"ok"', f'"ok {token}"'.encode()))
    head = git(work, "rev-parse", "HEAD")
    with pytest.raises(SecretsFound, match=rf"{REVIEWS}/ada-lovelace.jsonl line 1: Hugging Face token") as refused:
        service_for(work).commit_git(service_for(work).plan_git())
    assert token not in str(refused.value)
    assert git(work, "rev-parse", "HEAD") == head


def test_fallback_files_are_copied_into_the_checkout_and_committed(remote: Path, tmp_path: Path) -> None:
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    kept_aside = open_review(work, writable=False)
    aside = kept_aside.set_verdict(2, "falsified", "written while the folder was read-only").id
    in_place = open_review(work).set_verdict(1, "verified", "written in place").id
    root = read_logbook(work).root
    fallback_file = fallback_folder(root) / "ada-lovelace.jsonl"
    fallback_bytes = fallback_file.read_bytes()

    plan = service_for(work).plan_git()
    assert any("kept outside the logbook" in note for note in plan.notes)
    outcome = service_for(work).commit_git(plan)

    assert outcome.status == "committed"
    committed = git_bytes(work, "show", f"HEAD:{REVIEWS}/ada-lovelace.jsonl")
    assert set(_record_ids(committed)) == {aside, in_place}
    assert (work / REVIEWS / "ada-lovelace.jsonl").read_bytes() == committed
    assert fallback_file.read_bytes() == fallback_bytes  # the copy kept aside is left alone
    assert "source.json" not in git(work, "show", "--name-only", "HEAD")
    assert _status(work) == ""
    assert service_for(work).plan_git().empty  # committing again finds nothing new


def test_a_failed_push_keeps_the_commit(remote: Path, tmp_path: Path) -> None:
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    open_review(work).set_verdict(1, "verified", "ok")
    git(work, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    with pytest.raises(CommitError, match=r"push to origin/main failed.*kept locally"):
        service_for(work).commit_git(service_for(work).plan_git(), push_after=True)
    assert git(work, "log", "-1", "--format=%s").startswith("Review of claim 1")
    git(work, "remote", "set-url", "origin", str(remote))
    outcome = service_for(work).commit_git(service_for(work).plan_git(), push_after=True)  # nothing new: push only
    assert outcome.status == "pushed" and git(remote, "rev-parse", "main") == git(work, "rev-parse", "HEAD")


def test_a_remote_url_with_credentials_never_shows_them(remote: Path, tmp_path: Path) -> None:
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    open_review(work).set_verdict(1, "verified", "ok")
    git(work, "remote", "set-url", "origin", "http://ada:url-secret-4711@127.0.0.1:9/nothing.git")
    with pytest.raises(CommitError, match="push to origin/main failed") as failed:
        service_for(work).commit_git(service_for(work).plan_git(), push_after=True)
    assert "url-secret-4711" not in str(failed.value)
    assert redact_urls("see https://ada:tok@example.invalid/x and ssh://git@host/y") == (
        "see https://***@example.invalid/x and ssh://***@host/y"
    )


def test_other_unpushed_work_is_not_replayed_behind_the_users_back(remote: Path, tmp_path: Path) -> None:
    other = clone(remote, tmp_path / "other", "Carol", "carol@example.invalid")
    open_review(other, "Carol").set_verdict(2, "toy", "small")
    service_for(other).commit_git(service_for(other).plan_git(), push_after=True)
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    git(work, "reset", "-q", "--hard", "HEAD^")
    (work / "analysis.py").write_text("print('mine')\n", encoding="utf-8")
    git(work, "add", "analysis.py")
    git(work, "commit", "-q", "-m", "my analysis")
    open_review(work).set_verdict(1, "verified", "ok")
    with pytest.raises(CommitError, match="not a review commit"):
        service_for(work).commit_git(service_for(work).plan_git(), push_after=True)
    assert git(work, "log", "-1", "--format=%s").startswith("Review of claim 1")


def test_a_plan_made_before_the_branch_moved_is_read_again(remote: Path, tmp_path: Path) -> None:
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    open_review(work).set_verdict(1, "verified", "ok")
    plan = service_for(work).plan_git()
    (work / "analysis.py").write_text("print('mine')\n", encoding="utf-8")
    git(work, "add", "analysis.py")
    git(work, "commit", "-q", "-m", "my analysis")
    moved = git(work, "rev-parse", "HEAD")

    outcome = service_for(work).commit_git(plan, push_after=True)

    assert git(work, "rev-parse", "HEAD^") == moved
    assert any("read again" in note for note in outcome.notes)
    assert any("also sent 1 earlier commit" in note for note in outcome.notes)
    assert git(remote, "rev-parse", "main") == outcome.commit


def test_merging_one_review_file() -> None:
    base = b'{"id":"1"}\n'
    ours, theirs = base + b'{"id":"2"}\n', base + b'{"id":"3"}\n'
    assert merge_file("r/reviews/a.jsonl", base, ours, theirs) == base + b'{"id":"3"}\n{"id":"2"}\n'
    assert merge_file("r/reviews/a.jsonl", None, ours, theirs) == theirs + b'{"id":"2"}\n'
    assert merge_file("r/reviews/a.jsonl", base, base, theirs) == theirs
    assert merge_file("reviews/.gitattributes", None, b"a\n", b"b\n") == b"b\na\n"
    assert merge_file("reviews/SCHEMA.json", None, b'{"x-schema-version": 2}', b'{"x-schema-version": 1}') == (
        b'{"x-schema-version": 2}'
    )
    with pytest.raises(Conflict, match="changed or removed by hand"):
        merge_file("reviews/a.jsonl", base, b'{"id":"1","edited":1}\n', theirs)
    with pytest.raises(Conflict, match="changed on both sides"):
        merge_file("reviews/pairs/s-a.csv", b"h\n", b"h\n1\n", b"h\n2\n")
    with pytest.raises(Conflict, match="deleted"):
        merge_file("reviews/a.jsonl", base, None, theirs)


def test_pair_results_are_committed_and_deleted_again_when_a_rating_is_undone(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "pairs", 3)
    git(workspace, "init", "-q", "-b", "main")
    git(workspace, "config", "user.name", "Rita Rater")
    git(workspace, "config", "user.email", "rita@example.invalid")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-q", "-m", "logbook")
    annotations = open_annotations(workspace)
    review = PairRatingRound.open(annotations, load_set(annotations.logbook), seed=5)
    while review.current is not None:
        review.rate("left", response_ms=700)
    trials = len(review.trials)

    plan = service_for(workspace).plan_git()
    assert plan.message.splitlines()[0] == f"Review by Rita Rater: {trials} ratings"
    assert "Pair set “test”: " + f"{trials} ratings" in plan.readable_diff()
    outcome = service_for(workspace).commit_git(plan)
    committed = git(workspace, "show", "--name-only", "--format=", "HEAD").splitlines()
    assert sorted(committed) == sorted(
        f"{REVIEWS}/{name}"
        for name in (".gitattributes", "SCHEMA.json", "rita-rater.jsonl", "pairs/test-rita-rater.csv",
                     "pairs/test-rita-rater.protocol.json")
    )  # fmt: skip
    assert outcome.status == "committed"

    review.undo()  # the results are incomplete again: their files go away
    plan = service_for(workspace).plan_git()
    deleted = [f.rel for f in plan.changed_files if f.status == "deleted"]
    assert deleted == ["pairs/test-rita-rater.csv", "pairs/test-rita-rater.protocol.json"]
    assert plan.message.splitlines()[0] == "Review of claim 1 by Rita Rater: 1 removal"
    service_for(workspace).commit_git(plan)
    remaining = git(workspace, "ls-tree", "-r", "--name-only", "HEAD", "--", f"{REVIEWS}/pairs")
    assert remaining == ""
    assert git(workspace, "status", "--porcelain") == ""
