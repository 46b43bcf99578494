"""The tests set their own Hugging Face environment: the caller's HF_* settings and proxies cannot change a result.

A person who runs the suite from a shell with `HF_HUB_OFFLINE=1`, a token, another endpoint or a proxy exported
must see the same results as CI. This runs one Hub test in a fresh pytest with all of them set, the proxy a dead
one (nothing listens on port 9): a test whose loopback requests went through it would fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HUB_TEST = "tests/core/sources/test_hub_sources.py::test_a_space_downloads_only_its_logbook_into_the_hub_cache"


def test_a_hub_test_passes_whatever_hf_settings_and_proxies_the_caller_exported(tmp_path: Path) -> None:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        HF_TOKEN="hf_" + "x" * 34,
        HF_ENDPOINT="http://127.0.0.1:9",
        HF_HOME=str(tmp_path / "callers-hf-home"),
        HF_HUB_DISABLE_XET="0",
    )
    dead_proxy = "http://127.0.0.1:9"
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[name] = env[name.lower()] = dead_proxy
    env["NO_PROXY"] = env["no_proxy"] = "example.invalid"  # not the loopback: it would hide the proxy

    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", HUB_TEST],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )

    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "1 passed" in run.stdout
    assert not (tmp_path / "callers-hf-home").exists()  # nothing was written to the caller's HF home
