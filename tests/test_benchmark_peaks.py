"""The hostile benchmarks measure each child's own peak memory, not the size of the process that started it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
PARENT_MB = 400


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_a_small_child_of_a_large_process_is_measured_small(tmp_path: Path) -> None:
    held = b"x" * (PARENT_MB << 20)  # touched, so resident: the kernel hands this high-water mark to a child
    hostile, sources = load("hostile"), load("hostile_sources")
    _seconds, peak_mb, code = hostile.measure([sys.executable, "-c", "pass"], {})
    figure = sources.run_child("print('RESULT \"done\"')", [], {})
    assert code == 0 and figure.said == "done"
    assert peak_mb < PARENT_MB / 4 and figure.peak_mb < PARENT_MB / 4, (peak_mb, figure.peak_mb, len(held))
