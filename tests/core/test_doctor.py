"""`reviewapp doctor`: real checks on this machine, in a child process like a person runs it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reviewapp import doctor

HAS_QT = importlib.util.find_spec("PySide6") is not None
REPO = Path(__file__).resolve().parents[2]
TOKEN = "hf_" + "doctor" * 6


def run_doctor(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ, PYTHONPATH=str(REPO), **(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "reviewapp", "doctor", *args],
        capture_output=True,
        text=True,
        timeout=180,
        env=full,
        cwd=cwd,
        check=False,
    )


def by_name(report: dict) -> dict[str, dict[str, str]]:
    return {c["name"]: c for c in report["checks"]}


def test_a_healthy_offscreen_machine_has_no_problem(tmp_path: Path) -> None:
    done = run_doctor("--json", env={"QT_QPA_PLATFORM": "offscreen"}, cwd=tmp_path)
    report = json.loads(done.stdout)
    checks = by_name(report)
    for name in ("reviewapp", "PySide6", "git", "Data folder", "Preferences folder", "Cache folder", "Hub token"):
        assert name in checks
    if not HAS_QT:  # the Qt-free test environment: the one problem is the missing window toolkit
        assert checks["PySide6"]["status"] == "problem" and "pip install" in checks["PySide6"]["fix"]
        assert done.returncode == 1
        return
    assert (
        checks["Qt platform plugin"]["status"] == "ok" and "'offscreen' loads" in checks["Qt platform plugin"]["detail"]
    )
    assert "X11 libraries" not in checks  # offscreen needs none of them
    assert checks["Hub token"]["status"] == "ok" and "not logged in" in checks["Hub token"]["detail"]
    assert report["ok"] is True and done.returncode == 0, done.stdout


@pytest.mark.skipif(not HAS_QT, reason="needs PySide6 to start Qt in the child process")
def test_a_platform_that_cannot_load_is_a_problem_with_qts_own_words(tmp_path: Path) -> None:
    done = run_doctor(env={"QT_QPA_PLATFORM": "no-such-platform"}, cwd=tmp_path)
    assert done.returncode == 1
    assert "PROBLEM  Qt platform plugin: 'no-such-platform' does not load" in done.stdout
    assert "no-such-platform" in done.stdout.split("does not load:", 1)[1]
    assert "fix: check QT_QPA_PLATFORM" in done.stdout


def test_unwritable_folders_and_missing_git_are_problems_with_fixes(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    empty_path = tmp_path / "bin"
    empty_path.mkdir()
    env = {"REVIEWAPP_DATA_DIR": str(blocker / "data"), "PATH": str(empty_path), "QT_QPA_PLATFORM": "offscreen"}
    done = run_doctor(env=env, cwd=tmp_path)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    data = next(i for i, line in enumerate(lines) if line.startswith("PROBLEM  Data folder:"))
    assert "is not writable" in lines[data] and "REVIEWAPP_DATA_DIR" in lines[data + 1]
    assert lines[data + 1].startswith("         fix: ")
    assert any(line.startswith("PROBLEM  git: not found") for line in lines)
    assert "problems found" in lines[-1]


def test_a_token_is_reported_present_and_never_printed(tmp_path: Path) -> None:
    done = run_doctor("--format", "csv", env={"HF_TOKEN": TOKEN, "QT_QPA_PLATFORM": "offscreen"}, cwd=tmp_path)
    assert TOKEN not in done.stdout + done.stderr
    [row] = [line for line in done.stdout.splitlines() if line.startswith("Hub token,")]
    assert "present (from HF_TOKEN)" in row and "not checked" in row


LDD_OUTPUT = """\tlinux-vdso.so.1 (0x00007ffd)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-cursor.so.0 => not found
\tlibQt6Gui.so.6 => /opt/PySide6/Qt/lib/libQt6Gui.so.6 (0x00007f10)
\tlibxcb-icccm.so.4 => not found
"""


@pytest.mark.skipif(not HAS_QT, reason="the xcb plugin ships with PySide6")
def test_missing_x11_libraries_are_named_with_the_packages_to_install() -> None:
    probed: list[str] = []

    def probe(platform: str) -> tuple[bool, str]:
        probed.append(platform)
        return True, "Qt 6, platform offscreen"

    checks = doctor.run_checks({"DISPLAY": ":0"}, probe=probe, ldd=lambda _plugin: LDD_OUTPUT)
    [libraries] = [c for c in checks if c.name == "X11 libraries"]
    assert libraries.status == "problem"
    assert libraries.detail == "missing libxcb-icccm.so.4, libxcb-cursor.so.0"
    assert libraries.fix == "Debian/Ubuntu: sudo apt-get install libxcb-icccm4 libxcb-cursor0"
    assert probed == ["offscreen"]  # xcb would abort without its libraries; Qt itself is still checked


def test_child_processes_are_started_for_real() -> None:
    from reviewapp.core.io import child_process

    assert child_process.probe() is None  # a spawned interpreter started, ran the target and answered


def test_child_processes_that_cannot_start_are_a_note_with_what_it_costs() -> None:
    checks = doctor.run_checks({}, probe=lambda _p: (True, "Qt 6"), child_probe=lambda: "spawn refused")
    [child] = [c for c in checks if c.name == "Child processes"]
    assert child.status == "note" and "spawn refused" in child.detail and "slower" in child.detail
    assert child not in doctor.problems(checks)  # the window still works: not a problem
