"""Running a command against hostile files without letting it take the machine down when the defence is missing.

A freeze or a runaway read has no other symptom than time or memory, so these run the real CLI in a child process
with a generous deadline (a minute, for cases that used to take hours or grow without end) and an address-space
limit, so that a regression fails the test instead of swapping the machine.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

from tests.core.annotation_helpers import subprocess_env

DEADLINE = 60.0
MEMORY_LIMIT = 3 * 1024**3


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_bounded(home: Path, *args: str, timeout: float = DEADLINE) -> subprocess.CompletedProcess[str]:
    """`python -m reviewapp ARGS` with a deadline and a memory limit; a timeout fails the calling test."""
    return subprocess.run(
        [sys.executable, "-m", "reviewapp", *args],
        capture_output=True,
        text=True,
        env=subprocess_env(home),
        cwd=home,
        timeout=timeout,
        check=False,
        preexec_fn=_limit_memory,
    )


def run_python_bounded(home: Path, code: str, timeout: float = DEADLINE) -> subprocess.CompletedProcess[str]:
    """Python `code` in a child with the same deadline and memory limit."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=subprocess_env(home),
        cwd=home,
        timeout=timeout,
        check=False,
        preexec_fn=_limit_memory,
    )
