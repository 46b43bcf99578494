"""The built wheel, not the checkout: installed into a fresh virtual environment in another folder, the command
prints its version and, offscreen, opens the demo and saves a screenshot of it.

Slow (it builds the wheel and installs PySide6 and the other dependencies into a new environment; pip's cache
makes the second run much quicker).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from reviewapp import __version__
from reviewapp.qt.resources import ICON_SIZES

REPO = Path(__file__).resolve().parents[1]
INSTALL_TIMEOUT_S = 900

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)], cwd=out)
    (built,) = out.glob("reviewapp-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with only the wheel and what it depends on; returns its bin folder."""
    venv = tmp_path_factory.mktemp("venv")
    run([sys.executable, "-m", "venv", str(venv)], cwd=venv)
    scripts = venv / ("Scripts" if sys.platform == "win32" else "bin")
    run([str(scripts / "python"), "-m", "pip", "install", "-q", str(wheel)], cwd=venv)
    return scripts


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False
    )
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def outside_env(home: Path) -> dict[str, str]:
    """The environment a user's shell would give: nothing pointing into the checkout or its venv."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "REVIEWAPP_"))}
    return env | {
        "QT_QPA_PLATFORM": "offscreen",
        "REVIEWAPP_DATA_DIR": str(home / "data"),
        "REVIEWAPP_CONFIG_DIR": str(home / "config"),
        "REVIEWAPP_CACHE_DIR": str(home / "cache"),
        "HF_HOME": str(home / "hf"),
        "HF_HUB_OFFLINE": "1",
    }


def test_the_wheel_carries_resources_and_the_entry_point(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "reviewapp/resources/styles/app.qss" in names
    assert "reviewapp/resources/icons/reviewapp.svg" in names
    assert {f"reviewapp/resources/icons/reviewapp-{size}.png" for size in ICON_SIZES} <= names
    assert not any(name.startswith(("tests/", "packaging/", "benchmarks/")) for name in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "reviewapp = reviewapp.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_command_prints_its_version(installed: Path, tmp_path: Path) -> None:
    done = run([str(installed / "reviewapp"), "--version"], cwd=tmp_path, env=outside_env(tmp_path))
    assert done.stdout.strip() == f"reviewapp {__version__}"
    where = run(
        [str(installed / "python"), "-c", "import reviewapp; print(reviewapp.__file__)"],
        cwd=tmp_path,
        env=outside_env(tmp_path),
    )
    assert REPO not in Path(where.stdout.strip()).resolve().parents  # the wheel's copy, not the checkout's


def test_installed_command_screenshots_the_demo_offscreen(installed: Path, tmp_path: Path) -> None:
    shot = tmp_path / "OUT.png"
    done = run([str(installed / "reviewapp"), "--screenshot", str(shot)], cwd=tmp_path, env=outside_env(tmp_path))
    assert f"wrote {shot}" in done.stdout
    assert "Traceback" not in done.stderr
    with Image.open(shot) as image:
        assert image.size == (1600, 1000)
        assert len(image.convert("RGB").getcolors(maxcolors=1_000_000) or []) > 40  # a drawn window, not a blank
    assert (tmp_path / "data").is_dir()  # the demo went to the data folder it was given, not into the venv
