"""The code base stays ruff-clean (lint and format) and keeps its layering, and a script that starts the window
runs only as __main__, checked with the same tests as everything else."""

from __future__ import annotations

import ast
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


def _scripts_that_start_qt() -> list[Path]:
    scripts = [*(REPO / "benchmarks").glob("*.py"), *(REPO / "packaging").glob("*.py")]
    scripts.append(REPO / "tests" / "support" / "make_screenshots.py")
    return [path for path in sorted(scripts) if "PySide6" in path.read_text(encoding="utf-8")]


def _runs_only_as_main(tree: ast.Module) -> bool:
    """The module has an `if __name__ == "__main__":` block, and nothing else at its top level calls a function of
    its own (its main, say): a worker process of the window (spawned) imports the script again as __mp_main__."""
    own = {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}
    guarded = False
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            guarded = True
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            if called & own - {"sibling", "_sibling"}:  # loading another script of the folder is allowed
                return False
    return guarded


def test_every_script_that_starts_the_window_runs_only_as_main() -> None:
    scripts = _scripts_that_start_qt()
    assert REPO / "benchmarks" / "window_load.py" in scripts
    unguarded = [
        str(path.relative_to(REPO)) for path in scripts if not _runs_only_as_main(ast.parse(path.read_text("utf-8")))
    ]
    assert unguarded == [], "start these only under if __name__ == '__main__': (a spawned worker imports them again)"


def test_a_script_calling_its_main_at_top_level_is_caught() -> None:
    assert not _runs_only_as_main(ast.parse("def main() -> None: ...\nmain()\n"))
    assert not _runs_only_as_main(ast.parse("def main() -> None: ...\n"))
    assert _runs_only_as_main(ast.parse("def main() -> None: ...\nif __name__ == '__main__':\n    main()\n"))
