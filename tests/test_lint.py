"""The code base stays ruff-clean (lint and format), checked with the same tests as everything else."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
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


def _layered_core_modules() -> set[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (layers,) = [c for c in config["contracts"] if c["type"] == "layers" and c["containers"] == ["reviewapp.core"]]
    return {name.strip().strip("()") for layer in layers["layers"] for name in layer.split("|")}


def test_every_core_package_has_a_layer() -> None:
    """lint-imports checks only the layers it is told about: a core package missing from them is unchecked."""
    core = REPO / "reviewapp" / "core"
    present = {p.name for p in core.iterdir() if (p / "__init__.py").is_file()}
    present |= {p.stem for p in core.glob("*.py") if p.stem != "__init__"}
    missing = sorted(present - _layered_core_modules())
    assert missing == [], (
        f"reviewapp/core/{{{', '.join(missing)}}} has no place in the core layers: add it to the layers contract "
        "in pyproject.toml ([[tool.importlinter.contracts]], 'Core layers'), above everything it imports"
    )
