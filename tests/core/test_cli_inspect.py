"""`reviewapp inspect` output and exit codes; headless commands never import Qt."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.logbook.demo import write_demo


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workspace = tmp_path_factory.mktemp("demo")
    write_demo(workspace)
    return workspace


def test_inspect_json(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(demo), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"title", "paper_id", "space_id", "tags", "pages", "cells", "claims", "traces", "problems"} <= set(data)
    assert data["paper_id"] == "DemoWidg01"
    assert data["pages"][0] == {
        "slug": "index",
        "title": data["title"],
        "cells": 0,
        "in_manifest": True,
        "status": "current",
    }
    assert data["cells"] == {"markdown": 10, "code": 3, "figure": 1, "artifact": 1}
    assert [(c["n"], c["verdict"]) for c in data["claims"]] == [
        (1, "verified"),
        (2, "falsified"),
        (3, "toy"),
        (4, "inconclusive"),
    ]
    assert data["claims"][2]["contradicted_by"] == ["partial"]
    assert {"key", "n", "title", "page", "verdict", "verdict_raw"} <= set(data["claims"][0])
    assert data["traces"] == [{"id": "demo-session", "events": 23, "available": True}]
    assert data["problems"] == []


def test_inspect_text(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(demo)]) == 0
    out = capsys.readouterr().out
    assert "Claims (4):" in out and "falsified" in out and "(logbook contradicts itself)" in out
    assert "demo-session  23 events, available" in out


def test_inspect_text_says_how_sure_what_is_undecided_and_what_earlier_attempts_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reviewapp.core.logbook.writer import LogbookDraft

    draft = LogbookDraft("Reproduction: Undecided")
    draft.page("Claim 1: Widgets").markdown("**Verdict: VERIFIED.**")
    draft.page("Claim 2: Gadgets").markdown("Verdict: likely falsified.")
    draft.page("Old claims", slug="old-claims").markdown("| Claim | Verdict |\n|---|---|\n| 1 | TOY |")
    draft.write(tmp_path)
    assert main(["inspect", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    first = out.split("claim-1-widgets#1", 1)[1].split("\n")
    assert first[0].split() == ["verified", "[VERIFIED]", "90%", "sure"]
    assert first[1].strip() == "earlier attempts said: toy (old-claims)"
    second = out.split("claim-2-gadgets#2", 1)[1].split("\n")
    assert second[0].split() == ["unstated"]
    assert second[1].strip() == "not decided (only hedged statements); candidates: falsified (claim-2-gadgets line 8)"


def test_inspect_reports_problems_but_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_demo(tmp_path)
    (tmp_path / ".trackio" / "logbook" / "logbook.json").write_text("{broken")
    assert main(["inspect", str(tmp_path), "--json"]) == 0
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert problems[0]["file"] == "logbook.json" and problems[0]["line"] == 1


def test_not_a_logbook_is_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "not a logbook" in captured.err


def test_headless_commands_do_not_import_qt(demo: Path) -> None:
    code = (
        "import sys; from reviewapp.cli import main; rc = main(['inspect', sys.argv[1], '--json']);"
        "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt imported'; raise SystemExit(rc)"
    )
    result = subprocess.run([sys.executable, "-c", code, str(demo)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_python_dash_m_entry_point(demo: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "reviewapp", "inspect", str(demo)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and result.stdout.startswith("Reproduction: Sparse Widgets")
