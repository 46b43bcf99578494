"""The commit dialog driven like a user would: real git with a local remote, and the loopback Hub."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from huggingface_hub import snapshot_download
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewapp.core.commit.service import CommitOutcome, CommitService
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.records import SCHEMA_VERSION
from reviewapp.qt.commit.dialog import GIT_COMMIT, GIT_PUSH, HUB_COMMIT, HUB_PR, CommitDialog
from tests.core.annotation_helpers import open_review
from tests.core.commit_helpers import clone, git, isolate_git, make_remote, published_files
from tests.qt.conftest import Screenshots
from tests.support.hub_server import HubServer

pytest_plugins = ["tests.support.hub_fixtures"]

REVIEWS = ".trackio/logbook/reviews"
SPACE = "alice/repro-small-widgets"
WAIT_MS = 30_000


@pytest.fixture(autouse=True)
def no_global_git_identity(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    isolate_git(tmp_path_factory.mktemp("git-home"), monkeypatch)


class ThreadNotingService(CommitService):
    """The real service, noting which thread each commit ran on."""

    threads: list[threading.Thread]

    def commit_git(self, *args, **kwargs) -> CommitOutcome:  # type: ignore[no-untyped-def]
        self.threads.append(threading.current_thread())
        return super().commit_git(*args, **kwargs)


def _open(qtbot: QtBot, dialog: CommitDialog) -> CommitDialog:
    qtbot.addWidget(dialog)
    dialog.show()
    _wait_planned(qtbot, dialog)
    return dialog


def _wait_planned(qtbot: QtBot, dialog: CommitDialog) -> None:
    qtbot.waitUntil(lambda: not dialog.is_busy() and (dialog.plan is not None or bool(dialog.error)), timeout=WAIT_MS)


def _file_rows(dialog: CommitDialog) -> list[tuple[str, str]]:
    return [(dialog.files.topLevelItem(i).text(0), dialog.files.topLevelItem(i).text(1))
            for i in range(dialog.files.topLevelItemCount())]  # fmt: skip


def test_commit_and_push_to_a_git_remote(qtbot: QtBot, tmp_path: Path, screenshots: Screenshots) -> None:
    remote = make_remote(tmp_path)
    work = clone(remote, tmp_path / "ada", "Ada Lovelace", "ada@example.invalid")
    review = open_review(work)
    review.set_verdict(3, "partial", "Only the small model was run.", confidence=2, tags=["scale below paper"])
    review.add_note(review.claim_target(1), "accuracy table checked against the paper")
    service = ThreadNotingService(review.logbook, annotator="Ada Lovelace")
    service.threads = []
    dialog = _open(qtbot, CommitDialog(review.logbook, logbook_review=review, service=service))

    assert dialog.target == GIT_COMMIT
    assert not dialog.repo_edit.isEnabled()  # the Hub's repository does not matter for git
    assert all(dialog.radios[key].isEnabled() for key in (GIT_COMMIT, GIT_PUSH, HUB_COMMIT, HUB_PR))
    assert _file_rows(dialog) == [
        ("ada-lovelace.jsonl", "2 new records (new file)"),
        (".gitattributes", "new file"),
        ("SCHEMA.json", "new file"),
    ]
    assert f"{REVIEWS}/ada-lovelace.jsonl in git checkout" in dialog.files.topLevelItem(0).toolTip(0)
    shown = dialog.diff.toPlainText()
    assert "Claim 3: verdict partial (was toy) — Only the small model was run. [scale below paper]" in shown
    assert "Claim 1: note “accuracy table checked against the paper”" in shown
    assert dialog.message.toPlainText().startswith("Review of claims 1 and 3 by Ada Lovelace: 1 verdict, 1 note")
    dialog.raw_toggle.setChecked(True)
    assert f'+{{"schema":{SCHEMA_VERSION}' in dialog.diff.toPlainText()
    dialog.raw_toggle.setChecked(False)
    dialog.select_target(GIT_PUSH)
    _wait_planned(qtbot, dialog)
    screenshots.take(dialog, "commit-dialog-git")

    with qtbot.waitSignal(dialog.committed, timeout=WAIT_MS) as done:
        qtbot.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
    outcome = done.args[0]

    assert outcome.status == "pushed"
    assert outcome.commit == git(work, "rev-parse", "HEAD") == git(remote, "rev-parse", "main")
    assert service.threads and threading.main_thread() not in service.threads
    assert outcome.commit in dialog.outcome_label.text() and "origin/main" in dialog.outcome_label.text()
    _wait_planned(qtbot, dialog)
    assert dialog.plan is not None and dialog.plan.empty
    assert not dialog.commit_button.isEnabled()
    assert "Nothing to commit" in dialog.status.text()
    screenshots.take(dialog, "commit-dialog-git-done")


def test_a_failure_is_shown_plainly_and_nothing_is_lost(qtbot: QtBot, tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    work = tmp_path / "anonymous"
    git(tmp_path, "clone", "-q", str(remote), str(work))  # no user.name / user.email anywhere
    review = open_review(work)
    review.set_verdict(1, "verified", "ok")
    dialog = _open(qtbot, CommitDialog(review.logbook, logbook_review=review))
    head = git(work, "rev-parse", "HEAD")

    qtbot.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(dialog.error), timeout=WAIT_MS)

    assert "git config --global user.name" in dialog.error_label.text()
    assert dialog.error_label.isVisible() and dialog.outcome is None
    assert git(work, "rev-parse", "HEAD") == head
    assert dialog.commit_button.isEnabled() and dialog.target_box.isEnabled()  # fix git's config and try again


def test_pull_request_on_the_hub_without_write_access(
    qtbot: QtBot, hub_server: HubServer, tmp_path: Path, screenshots: Screenshots
) -> None:
    hub_server.add_user("alice")
    token = hub_server.add_user("bob")
    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE))
    local = tmp_path / "downloaded"
    snapshot_download(SPACE, repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "hf-cache", token=token)  # fmt: skip
    review = open_review(local, "Bob")
    review.set_verdict(2, "falsified", "Measured 1.02x, not 2x.")
    logbook = read_logbook(local)
    service = CommitService(logbook, endpoint=hub_server.endpoint, token=token)
    dialog = _open(qtbot, CommitDialog(logbook, logbook_review=review, service=service))

    assert not dialog.radios[GIT_COMMIT].isEnabled() and not dialog.radios[GIT_PUSH].isEnabled()
    assert dialog.target == HUB_PR  # bob is not the Space's owner
    assert dialog.repo_edit.text() == SPACE and "space_id" in dialog.repo_hint.text()
    assert _file_rows(dialog)[0] == ("bob.jsonl", "1 new record (new file)")
    assert "Claim 2: verdict falsified (agrees with the agent) — Measured 1.02x, not 2x." in dialog.diff.toPlainText()
    dialog.message.setPlainText("Bob's review of claim 2")
    screenshots.take(dialog, "commit-dialog-hub-pr")

    with qtbot.waitSignal(dialog.committed, timeout=WAIT_MS) as done:
        qtbot.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
    outcome = done.args[0]

    pr_url = hub_server.pull_request_url(SPACE, 1, repo_type="space")
    assert outcome.status == "pull_request" and outcome.pr_url == pr_url
    assert f'href="{pr_url}"' in dialog.outcome_label.text()
    _wait_planned(qtbot, dialog)
    assert not dialog.commit_button.isEnabled()  # a second click would open a second pull request
    assert "pull request holds these changes" in dialog.status.text()
    (pr,) = hub_server.pull_requests(SPACE, repo_type="space")
    assert pr.title == "Bob's review of claim 2" and pr.author == "bob"
    assert hub_server.requests_exposing(token) == []
    screenshots.take(dialog, "commit-dialog-hub-pr-done")


def test_a_wrong_repository_is_reported_and_can_be_corrected(
    qtbot: QtBot, hub_server: HubServer, tmp_path: Path
) -> None:
    token = hub_server.add_user("alice")
    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE), writers=["alice"])
    local = tmp_path / "downloaded"
    snapshot_download(SPACE, repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "hf-cache", token=token)  # fmt: skip
    open_review(local).set_verdict(1, "verified", "ok")
    logbook = read_logbook(local)
    dialog = _open(qtbot, CommitDialog(logbook, service=CommitService(logbook, endpoint=hub_server.endpoint,
                                                                     token=token)))  # fmt: skip
    assert dialog.target == HUB_COMMIT  # alice owns it

    dialog.repo_edit.setText("alice/repro-small-widge")  # cut short
    dialog.repo_edit.editingFinished.emit()
    _wait_planned(qtbot, dialog)
    assert "was not found" in dialog.error and not dialog.commit_button.isEnabled()

    dialog.repo_edit.setText(SPACE)
    dialog.repo_edit.editingFinished.emit()
    qtbot.waitUntil(lambda: dialog.plan is not None and not dialog.is_busy(), timeout=WAIT_MS)
    assert dialog.error == "" and not dialog.error_label.isVisible()
    with qtbot.waitSignal(dialog.committed, timeout=WAIT_MS) as done:
        qtbot.mouseClick(dialog.commit_button, Qt.MouseButton.LeftButton)
    assert done.args[0].status == "committed"
    assert done.args[0].url in dialog.outcome_label.text()
    assert hub_server.read_file(SPACE, "reviews/ada-lovelace.jsonl", repo_type="space")


def _visible_text(dialog: CommitDialog) -> str:
    texts = [dialog.repo_hint.text(), dialog.status.text(), dialog.error_label.text(), dialog.notes.text(),
             dialog.target_box.git_where.text()]  # fmt: skip
    return "\n".join(texts)


def test_the_demo_names_no_made_up_repository(qtbot: QtBot, tmp_path: Path, screenshots: Screenshots) -> None:
    from reviewapp.core.logbook.demo import write_demo

    write_demo(tmp_path / "demo")
    open_review(tmp_path / "demo").set_verdict(1, "partial", "only one seed")
    logbook = read_logbook(tmp_path / "demo")
    dialog = CommitDialog(logbook, service=CommitService(logbook, endpoint="http://127.0.0.1:9"))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.target is not None and not dialog.is_busy(), timeout=WAIT_MS)
    assert dialog.repo_edit.text() == ""  # not demo-user/repro-sparse-widgets
    assert "built-in demo" in dialog.repo_hint.text() and "under Hub repository" in dialog.repo_hint.text()
    assert "Enter the Space or dataset" in dialog.status.text()
    assert dialog.error == "" and not dialog.commit_button.isEnabled()
    assert "--" not in _visible_text(dialog)  # dialog terms, never command-line flags
    screenshots.take(dialog, "commit-dialog-demo")


def test_offline_the_dialog_previews_against_the_download(
    qtbot: QtBot, hub_server: HubServer, tmp_path: Path, screenshots: Screenshots
) -> None:
    token = hub_server.add_user("alice")
    hub_server.create_repo(SPACE, repo_type="space", files=published_files(tmp_path, SPACE), writers=["alice"])
    local = tmp_path / "downloaded"
    snapshot_download(SPACE, repo_type="space", local_dir=local, endpoint=hub_server.endpoint,
                      cache_dir=tmp_path / "hf-cache", token=token)  # fmt: skip
    open_review(local).set_verdict(1, "verified", "ok")
    logbook = read_logbook(local)
    offline = CommitService(logbook, endpoint="http://127.0.0.1:9", token=token)  # nothing answers there
    dialog = _open(qtbot, CommitDialog(logbook, service=offline))
    assert dialog.plan is not None and dialog.plan.offline, dialog.error
    assert _file_rows(dialog)[0] == ("ada-lovelace.jsonl", "1 new record (new file)")
    assert "Offline" in dialog.status.text() and "as downloaded at" in dialog.notes.text()
    assert dialog.error == "" and not dialog.commit_button.isEnabled()
    screenshots.take(dialog, "commit-dialog-offline")
    dialog.repo_edit.setText("alice/bad name")
    dialog.repo_edit.editingFinished.emit()
    _wait_planned(qtbot, dialog)
    assert dialog.error.startswith("Hub repository: ") and "--repo" not in dialog.error
