"""The queue downloads within the user's saved limits (and the command's options), as `open` does.

One Space of the queue is large, or trickles its files (the hostile loopback Hub of tests/support); a small saved
limit stops that row's download, the row says why, and the other rows are read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.queue.queue_file import read_queue
from reviewapp.core.queue.status import download_entry, queue_status
from reviewapp.core.review.preferences import Preferences, save_preferences
from tests.core.commit_helpers import published_files
from tests.support.hostile_server import HostileHub, Misbehaviour, run_bounded

pytest_plugins = ["tests.support.hub_fixtures"]

BIG, SMALL = "alice/repro-swollen", "bob/repro-honest"
BOUND = 60.0  # seconds before a call counts as hanging (the saved deadline is 3 s)


@pytest.fixture
def queue_file(hostile_hub: HostileHub, tmp_path: Path) -> Path:
    return write_queue_of_spaces(hostile_hub, tmp_path)


def write_queue_of_spaces(hostile_hub: HostileHub, tmp_path: Path) -> Path:
    """A queue of two Spaces on the loopback Hub: BIG's files are 2 MB, SMALL's a few KB."""
    for space in (BIG, SMALL):
        files: dict[str, bytes | str] = dict(published_files(tmp_path / "published" / space.replace("/", "__"), space))
        if space == BIG:
            files["pages/appendix.md"] = "# Appendix\n" + "x" * (2 * 1024 * 1024)
        hostile_hub.create_repo(space, repo_type="space", files=files)
    path = tmp_path / "queue.txt"
    path.write_text(f"{BIG}\n{SMALL}\n", encoding="utf-8")
    return path


def test_the_queue_keeps_the_saved_download_limit(queue_file: Path) -> None:
    save_preferences(Preferences(download_max_mb=1))

    big, small = queue_status(read_queue(queue_file), "judge", open_remote=download_entry)

    assert big.logbook is None and big.problem is not None and "over the 1.0 MB limit" in big.problem
    assert small.problem is None and small.claims > 0


def test_the_queue_keeps_the_saved_deadline(hostile_hub: HostileHub, queue_file: Path) -> None:
    save_preferences(Preferences(download_max_minutes=0.05))  # 3 s
    hostile_hub.misbehave(f"{BIG}/resolve/", Misbehaviour(pace=0.3, method="GET"))

    (big, small), error, _ = run_bounded(
        lambda: queue_status(read_queue(queue_file), "judge", open_remote=download_entry), within=BOUND
    )

    assert error is None
    assert big.logbook is None and big.problem is not None and "longer than 3 s" in big.problem
    assert small.problem is None and small.claims > 0


def test_without_a_saved_limit_both_rows_download(queue_file: Path) -> None:
    big, small = queue_status(read_queue(queue_file), "judge", open_remote=download_entry)

    assert big.problem is None and big.claims > 0 and small.claims > 0


def test_queue_and_rank_commands_keep_the_saved_limit_and_their_options(
    queue_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_preferences(Preferences(download_max_mb=1))

    assert main(["queue", str(queue_file), "--format", "json"]) == 0
    big, small = json.loads(capsys.readouterr().out)
    assert "over the 1.0 MB limit" in (big["problem"] or "") and not small["problem"]

    assert main(["rank", str(queue_file), "--download"]) == 0
    assert f"{BIG}: " in capsys.readouterr().err

    assert main(["queue", str(queue_file), "--format", "json", "--max-download-mb", "50"]) == 0
    big, small = json.loads(capsys.readouterr().out)
    assert not big["problem"] and not small["problem"]
