"""The crash report: versions, the error and the last log lines, without tokens or the user's home folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reviewapp import __version__
from reviewapp.about import places, versions
from reviewapp.crash_report import crash_report, last_log_lines, scrub

TOKEN = "hf_" + "Zq" * 4 + "abcdefghijklmnopqrstuvw789"


def test_scrub_takes_out_tokens_and_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home" / "ada"
    monkeypatch.delenv("HF_TOKEN", raising=False)
    text = f'File "{home}/work/run.py", line 3\nHF_TOKEN={TOKEN}\nsee {home}\n{home}ling/other stays\n'
    cleaned = scrub(text, home)
    assert TOKEN not in cleaned and "[masked HF_TOKEN=hf_" in cleaned  # a redacted preview says what was there
    assert 'File "~/work/run.py"' in cleaned and "see ~\n" in cleaned
    assert f"{home}ling/other stays" in cleaned  # only the folder itself, not names that begin with it


def test_scrub_finds_the_users_own_token_whatever_its_form(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_TOKEN", "my-own-odd-token-42")
    assert "my-own-odd-token-42" not in scrub("request failed with my-own-odd-token-42", tmp_path)


def test_report_has_versions_error_and_the_last_log_lines(tmp_path: Path) -> None:
    home = tmp_path / "home" / "ada"
    log = tmp_path / "reviewapp.log"
    log.write_text("".join(f"line {n} in {home}/logbook\n" for n in range(100)), encoding="utf-8")
    report = crash_report(
        "KeyError: 'claim'", f'Traceback\n  File "{home}/x.py"\n', qt_version="6.9.9", log=log, home=home
    )
    assert f"reviewapp: {__version__}" in report and "Qt: 6.9.9" in report
    assert f"Python: {sys.version.split()[0]}" in report and "Platform: " in report
    assert "KeyError: 'claim'" in report and 'File "~/x.py"' in report
    assert "line 99 in ~/logbook" in report and "line 59 in" not in report and "line 60 in" in report
    assert str(home) not in report


def test_missing_log_gives_no_lines(tmp_path: Path) -> None:
    assert last_log_lines(tmp_path / "absent.log") == []
    assert "(no log lines)" in crash_report("E", "tb", log=tmp_path / "absent.log")


def test_places_follow_the_configured_folders(isolated_user_dirs: Path) -> None:
    found = {p.name: p.path for p in places()}
    data = isolated_user_dirs / "data"
    assert found["Log"] == data / "logs" / "reviewapp.log"
    assert found["Preferences"] == isolated_user_dirs / "config"
    assert found["Reviews of downloaded logbooks"] == data / "reviews"
    assert found["Logbook Judge imports"] == data / "imports"
    assert found["Hub downloads"] == isolated_user_dirs / "hf" / "hub"
    assert versions()["reviewapp"] == __version__ and "Qt" not in versions()
