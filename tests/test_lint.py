"""The code base stays ruff-clean (lint and format), checked with the same tests as everything else."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def ruff() -> list[str]:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.fail("ruff is not installed; it is part of the [test] extra")
    return [found]


def test_ruff_check() -> None:
    result = subprocess.run([*ruff(), "check", "."], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = subprocess.run([*ruff(), "format", "--check", "."], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_never_imports_qt() -> None:
    offenders = [
        str(path.relative_to(REPO))
        for path in (REPO / "reviewapp" / "core").rglob("*.py")
        if "PySide6" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []
