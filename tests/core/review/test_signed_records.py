"""A reviewer's records can't be forged: with a roster of reviewers' keys, a record counts only when a key the
roster lists for its name signed it; a forged copy in her file (later date, another verdict) is set apart as
unverified and never counted, never supersedes hers; a record dated in the future is refused; her own records in
her data folder are hers; without a roster everything counts as before and records are unsigned."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from reviewapp.core.io.paths import user_config_dir, user_data_dir
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.queue.rubric import DEFAULT_RUBRIC
from reviewapp.core.queue.scoring import record_rubric_score, rubric_scores, score_payload
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.preferences import Preferences, save_preferences
from reviewapp.core.review.records import record_line
from reviewapp.core.review.signing import (
    RosterError,
    create_signing_key,
    key_path,
    public_key_text,
    read_roster,
    signature_valid,
)
from reviewapp.core.review.store import AnnotationStore
from tests.core.annotation_helpers import open_review, small_logbook, subprocess_env, write_small_logbook

BEA, ADA = "Bea Judge", "Ada Lovelace"
CRITERIA = ("rigor", "scale", "honesty", "clarity")


def be(person: str, home: Path, monkeypatch: pytest.MonkeyPatch, roster: Path | None = None) -> str:
    """Act as `person`: her own config and data folders, her key, her saved name and (optionally) a roster."""
    folder = home / person.split()[0].lower()
    monkeypatch.setenv("REVIEWAPP_CONFIG_DIR", str(folder / "config"))
    monkeypatch.setenv("REVIEWAPP_DATA_DIR", str(folder / "data"))
    save_preferences(Preferences(annotator=person, annotator_source="asked", roster=str(roster) if roster else None))
    return public_key_text(create_signing_key())


def forge(review_file: Path, original: dict, **payload: object) -> dict:
    """What a team can do: append a copy of her record with a later date and its own verdict."""
    forged = dict(original)
    forged.update(id=original["id"][:-4] + "ZZZZ", supersedes=original["id"])
    forged["created_at"] = (datetime.now(UTC) + timedelta(seconds=30)).isoformat().replace("+00:00", "Z")
    forged["payload"] = {**original["payload"], **payload}
    with review_file.open("a", encoding="utf-8") as out:
        out.write(json.dumps(forged) + "\n")
    return forged


@pytest.fixture
def judged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """A logbook Bea judged (claim 1 falsified, signed); the roster lists Bea's key and Ada's. Returns the
    workspace, Bea's review file and the roster."""
    home = tmp_path / "people"
    ada_key = be(ADA, home, monkeypatch)
    bea_key = be(BEA, home, monkeypatch)
    roster = tmp_path / "roster.txt"
    roster.write_text(f"# the judges\n{bea_key} {BEA}\n{ada_key} {ADA}\n", encoding="utf-8")
    workspace = small_logbook(tmp_path)
    bea = open_review(workspace, BEA)
    record = bea.set_verdict(1, "falsified", "The gap is the other way round.", confidence=3)
    assert record.signature is not None and signature_valid(record)
    score = record_rubric_score(bea, score_payload(DEFAULT_RUBRIC, dict.fromkeys(CRITERIA, 2)))
    lines = bea.store.file_for("bea-judge").read_text(encoding="utf-8").splitlines()
    planted = json.loads(lines[-1])
    assert planted["id"] == score.id
    forge(bea.store.file_for("bea-judge"), planted, overall=5.0)
    return workspace, bea.store.file_for("bea-judge"), roster


def test_a_forged_copy_in_her_file_is_unverified_and_never_counted(
    judged: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, bea_file, roster = judged
    original = json.loads(bea_file.read_text(encoding="utf-8").splitlines()[0])
    forge(bea_file, original, verdict="verified", rationale="Reproduced exactly.", confidence=3)
    unsigned = dict(original, id=original["id"][:-4] + "YYYY", supersedes=original["id"])
    unsigned.pop("signature")
    unsigned["payload"] = {**original["payload"], "verdict": "toy"}
    with bea_file.open("a", encoding="utf-8") as out:
        out.write(json.dumps(unsigned) + "\n")

    be(ADA, tmp_path / "people", monkeypatch, roster)
    ada = open_review(workspace, ADA)
    claim = ada.claims()[0].key
    assert ada.state.verdict(claim, BEA).payload.verdict.value == "falsified"  # hers, not the team's
    apart = [m for m in ada.loaded.issues if m.message.startswith(f"unverified: claims to be {BEA}")]
    assert len(apart) == 3 and {m.file for m in apart} == {bea_file}  # two verdicts and the score of 5
    assert len(ada.loaded.unverified) == 3
    scores = rubric_scores(ada.state)  # what the queue and rank count: her score, not the planted 5
    assert scores[BEA].payload.overall == 2.0

    # without a roster (a participant alone) everything counts as before: the later record wins
    be(ADA, tmp_path / "people", monkeypatch)
    loaded = AnnotationStore(read_logbook(workspace).root).load(repair=False)
    assert loaded.unverified == [] and loaded.trust is not None and "unsigned" in loaded.trust.label


def test_her_own_records_count_for_her_and_her_next_verdict_wins(
    judged: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, bea_file, roster = judged
    original = json.loads(bea_file.read_text(encoding="utf-8").splitlines()[0])
    forge(bea_file, original, verdict="verified")
    be(BEA, tmp_path / "people", monkeypatch, roster)
    bea = open_review(workspace, BEA)
    claim = bea.claims()[0].key
    assert bea.state.verdict(claim, BEA).payload.verdict.value == "falsified"
    bea.set_verdict(1, "partial", "Half of it after all.")
    again = open_review(workspace, BEA)
    assert again.state.verdict(claim, BEA).payload.verdict.value == "partial"
    assert len(again.loaded.unverified) == 2  # the planted verdict and score stay apart


def test_a_record_dated_in_the_future_is_refused_with_or_without_a_roster(
    judged: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, bea_file, _roster = judged
    original = json.loads(bea_file.read_text(encoding="utf-8").splitlines()[0])
    future = forge(bea_file, original, verdict="verified")
    lines = bea_file.read_text(encoding="utf-8").splitlines()
    future["created_at"] = "2099-01-01T00:00:00Z"
    bea_file.write_text("\n".join([*lines[:-1], json.dumps(future)]) + "\n", encoding="utf-8")
    be(ADA, tmp_path / "people", monkeypatch)  # no roster
    ada = open_review(workspace, ADA)
    assert ada.state.verdict(ada.claims()[0].key, BEA).payload.verdict.value == "falsified"
    assert any("dated in the future" in m.message and m.severity == "error" for m in ada.loaded.issues)


def test_unsigned_records_in_her_data_folder_are_hers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only logbook: her records live in her data folder. Written before she had a key, they still count
    for her once a roster is set; an unsigned copy in the logbook's folder does not."""
    home = tmp_path / "people"
    bea_key = be(BEA, home, monkeypatch)
    key_path().unlink()  # she had no key yet
    workspace = small_logbook(tmp_path)
    logbook = read_logbook(workspace)
    review = LogbookReview.open(logbook, open_review(workspace, BEA).identity, "judge", writable=False)
    record = review.set_verdict(1, "toy", "A laptop run.")
    assert record.signature is None and review.store.location.fallback
    roster = tmp_path / "roster.txt"
    roster.write_text(f"{bea_key} {BEA}\n", encoding="utf-8")
    save_preferences(Preferences(annotator=BEA, annotator_source="asked", roster=str(roster)))
    again = LogbookReview.open(logbook, review.identity, "judge", writable=False)
    assert again.state.verdict(again.claims()[0].key, BEA) is not None and again.loaded.unverified == []
    planted = logbook.root / "reviews" / "bea-judge.jsonl"
    planted.parent.mkdir(exist_ok=True)
    planted.write_bytes(record_line(record))  # her file as committed: the same record, counted once, not apart
    committed = LogbookReview.open(logbook, review.identity, "judge", writable=False)
    assert committed.loaded.unverified == [] and not any("unverified" in m.message for m in committed.loaded.issues)
    copy = json.loads(record_line(record))
    copy["id"] = copy["id"][:-4] + "XXXX"
    planted.write_text(json.dumps(copy) + "\n", encoding="utf-8")
    third = LogbookReview.open(logbook, review.identity, "judge", writable=False)
    assert [r.id for r, _ in third.loaded.unverified] == [copy["id"]]


def test_roster_errors_name_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "roster.txt"
    bad.write_text("# ok\ned25519:notbase64 Bea\n", encoding="utf-8")
    with pytest.raises(RosterError, match=rf"{bad}:2: expected"):
        read_roster(bad)
    with pytest.raises(RosterError, match="cannot read"):
        read_roster(tmp_path / "absent.txt")


def test_the_key_command_prints_a_roster_line_and_keeps_the_key_out_of_the_repository(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = subprocess_env(home)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "reviewapp", *args], env=env, capture_output=True, text=True, check=False
        )

    made = cli("key", "init", "--annotator", BEA)
    assert made.returncode == 0, made.stderr
    line = made.stdout.strip()
    assert line.startswith("ed25519:") and line.endswith(f" {BEA}")
    assert cli("key", "show", "--annotator", BEA).stdout.strip() == line  # the same key, kept
    key_file = Path(env["REVIEWAPP_CONFIG_DIR"]) / "signing-key.pem"
    assert key_file.stat().st_mode & 0o077 == 0  # readable by its owner only
    roster = tmp_path / "roster.txt"
    roster.write_text(line + "\n", encoding="utf-8")
    assert cli("key", "roster", str(roster)).returncode == 0
    assert cli("key", "roster").stdout.strip() == str(roster.resolve())
    roster.write_text("garbage\n", encoding="utf-8")
    refused = cli("key", "roster", str(roster))
    assert refused.returncode == 2 and f"{roster.resolve()}:1" in refused.stderr
    assert user_config_dir() != key_file.parent  # the test's own config folder was never touched


def test_a_downloaded_copy_in_the_data_folder_is_not_her_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A published logbook's copy sits in the data folder too (downloads/); a file in its reviews/ named after her
    is the team's, not hers."""
    home = tmp_path / "people"
    bea_key = be(BEA, home, monkeypatch)
    roster = tmp_path / "roster.txt"
    roster.write_text(f"{bea_key} {BEA}\n", encoding="utf-8")
    download = user_data_dir() / "downloads" / "web" / "team-site"
    write_small_logbook(download)
    key_path().unlink()  # the team signs nothing, or with a key of its own
    team = open_review(download, BEA)
    planted = team.set_verdict(1, "verified", "Reproduced exactly.")
    assert planted.signature is None and team.store.location.fallback  # the app keeps hers outside the copy
    in_copy = read_logbook(download).root / "reviews" / "bea-judge.jsonl"
    in_copy.parent.mkdir(exist_ok=True)
    team.store.file_for("bea-judge").replace(in_copy)  # the team published it inside the copy
    save_preferences(Preferences(annotator=BEA, annotator_source="asked", roster=str(roster)))
    loaded = AnnotationStore(read_logbook(download).root, writable=False).load(repair=False)
    assert [r.id for r, _ in loaded.unverified] == [planted.id] and loaded.records == []
