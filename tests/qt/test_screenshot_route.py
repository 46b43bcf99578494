"""`--screenshot OUT` (with --size and --theme) before or after the command, for every window the CLI opens."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from reviewapp.qt.window_registry import window_names
from tests.core.annotation_helpers import subprocess_env
from tests.qt.conftest import distinct_colors
from tests.support.look_fixtures import Lab, write_lab

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Lab:
    return write_lab(tmp_path_factory.mktemp("lab"))


def reviewapp(home: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = subprocess_env(home, QT_QPA_PLATFORM="offscreen")
    command = [sys.executable, "-m", "reviewapp", *map(str, args)]
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=240)


def shot(path: Path) -> QImage:
    image = QImage(str(path))
    assert not image.isNull(), path
    assert distinct_colors(image) > 20, f"{path.name} is nearly blank"
    return image


def command_for(window: str, lab: Lab) -> list[str | Path]:
    """How a user reaches each registered window from the command line (a new window adds its line here)."""
    return {
        "review": ["open", lab.teams[0]],
        "queue": ["queue", lab.queue, "--window"],
        "ranking": ["queue", lab.queue, "--window", "--dialog", "ranking"],
        "score": ["queue", lab.queue, "--window", "--dialog", "score"],
        "disagreements": ["queue", lab.queue, "--window", "--dialog", "disagreements"],
        "paper": ["paper", *lab.teams, "--window"],
        "respond": ["paper", *lab.teams, "--window", "--dialog", "respond", "--annotator", "Ann Author"],
        "pairs": ["pairs", "rate", lab.pairs, "--annotator", "Rita Rater"],
        "study": ["pairs", "study", *lab.results, "--window"],
    }[window]


@pytest.mark.parametrize("window", window_names())
def test_every_window_has_a_screenshot_from_the_command_line(window: str, lab: Lab, tmp_path: Path) -> None:
    out = tmp_path / f"{window}.png"
    result = reviewapp(tmp_path, *command_for(window, lab), "--screenshot", out, "--size", "1100x700")
    assert result.returncode == 0, result.stderr
    assert f"wrote {out}" in result.stdout
    image = shot(out)
    assert image.width() <= 1100 and image.height() <= 700


def test_the_look_options_work_before_the_command_too(lab: Lab, tmp_path: Path) -> None:
    out = tmp_path / "before.png"
    result = reviewapp(tmp_path, "--screenshot", out, "--size", "1100x700", "--theme", "dark", "open", lab.teams[1])
    assert result.returncode == 0, result.stderr
    image = shot(out)
    assert (image.width(), image.height()) == (1100, 700)
    assert image.pixelColor(4, 300).lightness() < 90  # dark, as asked, whatever the system says


def test_the_theme_after_the_command_wins_over_the_one_before(lab: Lab, tmp_path: Path) -> None:
    out = tmp_path / "light.png"
    result = reviewapp(tmp_path, "--theme", "dark", "open", lab.teams[1], "--theme", "light", "--screenshot", out)
    assert result.returncode == 0, result.stderr
    assert shot(out).pixelColor(4, 500).lightness() > 160


def test_a_command_without_a_window_refuses_a_screenshot(lab: Lab, tmp_path: Path) -> None:
    out = tmp_path / "none.png"
    result = reviewapp(tmp_path, "--screenshot", out, "inspect", lab.teams[0])
    assert result.returncode == 2
    assert "`inspect` has no window" in result.stderr
    assert not out.exists()


def files_under(*folders: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for folder in folders for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_screenshot_of_the_pair_rating_window_starts_no_pair_protocol(lab: Lab, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    before = files_under(lab.pairs, home)
    out = tmp_path / "pairs.png"
    result = reviewapp(home, "pairs", "rate", lab.pairs, "--annotator", "Sam Screenshot", "--screenshot", out)
    assert result.returncode == 0, result.stderr
    shot(out)
    written = {p for p in files_under(lab.pairs, home) if p.suffix == ".jsonl"} - set(before)
    assert not written, f"a screenshot wrote {sorted(written)}"
    assert all(p.read_bytes() == data for p, data in before.items() if p.suffix == ".jsonl")
