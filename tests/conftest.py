"""Test-wide settings: Qt offscreen, isolated per-user folders, no network, and the shared corpus."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

# The caller's Hugging Face settings (HF_HUB_OFFLINE=1, HF_TOKEN, HF_ENDPOINT, ...) and proxies (HTTP_PROXY,
# https_proxy, NO_PROXY, ... which the HTTP client honours) must not reach the tests: every one is dropped, and
# the tests' own are set. Before anything imports Qt or huggingface_hub: both read these once at import.
CALLER_HF_NAMES = ("TRANSFORMERS_OFFLINE", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_HUB_CACHE", "HF_DATASETS_OFFLINE")
TEST_HF_ENVIRONMENT = {
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_XET": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "HF_HUB_OFFLINE": "0",
}


def _is_hub_setting(name: str) -> bool:
    return name.startswith("HF_") or name in CALLER_HF_NAMES or _is_proxy_setting(name)


def _is_proxy_setting(name: str) -> bool:
    return name.lower().endswith("_proxy")  # what urllib's getproxies reads, and so httpx


for _name in [n for n in os.environ if _is_hub_setting(n)]:
    del os.environ[_name]
os.environ.update(TEST_HF_ENVIRONMENT)
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402 - the environment above must be set before anything imports huggingface_hub

REPO = Path(__file__).resolve().parents[1]
CORPUS = (REPO / ".." / "shared" / "corpus").resolve()
CORPUS_MORE = (REPO / ".." / "shared" / "corpus-more").resolve()  # more real logbooks, from more owners
REQUIRE_CORPUS = os.environ.get("REVIEWAPP_REQUIRE_CORPUS") == "1"


def corpus_available() -> bool:
    return CORPUS.is_dir() and any(CORPUS.iterdir())


def corpus_entries(folder: Path = CORPUS) -> list[str]:
    if not (folder.is_dir() and any(folder.iterdir())):
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir())


def shared_corpus(folder: Path) -> Path:
    """A shared corpus folder (read-only). Skips visibly where it is absent, fails in CI."""
    if not (folder.is_dir() and any(folder.iterdir())):
        if REQUIRE_CORPUS:
            pytest.fail(f"corpus required (REVIEWAPP_REQUIRE_CORPUS=1) but missing at {folder}")
        pytest.skip(f"shared corpus not found at {folder}")
    return folder


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data, config and HF home and the tests' own HF_* settings (none of the caller's, nor
    the caller's proxies), so nothing leaks between tests or from the machine."""
    home = tmp_path_factory.mktemp("user")
    for name in [n for n in os.environ if _is_hub_setting(n) and n not in TEST_HF_ENVIRONMENT]:
        monkeypatch.delenv(name)
    for name, value in TEST_HF_ENVIRONMENT.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("REVIEWAPP_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("REVIEWAPP_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("REVIEWAPP_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("HF_HOME", str(home / "hf"))
    return home


@pytest.fixture
def corpus() -> Path:
    """The shared corpus folder (read-only). Skips visibly where it is absent, fails in CI."""
    return shared_corpus(CORPUS)


@pytest.fixture
def corpus_more() -> Path:
    """The second shared corpus, logbooks of more owners (read-only)."""
    return shared_corpus(CORPUS_MORE)


@pytest.fixture
def corpus_copy(corpus: Path, tmp_path: Path):
    """Copy one corpus logbook into tmp before anything writes into it."""

    def copy(name: str) -> Path:
        target = tmp_path / "corpus" / name
        shutil.copytree(corpus / name, target, symlinks=True)
        return target

    return copy
