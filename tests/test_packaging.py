"""Packaging files stay consistent with the code they start, and pass the desktop's own validators."""

from __future__ import annotations

import configparser
import importlib.util
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from reviewapp import __version__
from reviewapp.about import DESKTOP_ID
from reviewapp.cli import build_parser
from reviewapp.qt.resources import ICON_SIZES

REPO = Path(__file__).resolve().parents[1]
LINUX = REPO / "packaging" / "linux"
DESKTOP_FILE = LINUX / f"{DESKTOP_ID}.desktop"
METAINFO = LINUX / f"{DESKTOP_ID}.metainfo.xml"


def desktop_entry() -> configparser.SectionProxy:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive in desktop files
    entry.read(DESKTOP_FILE, encoding="utf-8")
    return entry["Desktop Entry"]


def load_script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "packaging" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def validator(program: str, package: str) -> str:
    found = shutil.which(program)
    if found is None:
        pytest.skip(f"{program} not installed (Debian/Ubuntu: apt-get install {package})")
    return found


def test_desktop_entry_starts_the_console_command() -> None:
    section = desktop_entry()
    assert section["Type"] == "Application"
    command, subcommand, *_ = section["Exec"].split()
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert command in scripts
    assert section["TryExec"] == command
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert isinstance(commands, dict) and subcommand in commands


def test_desktop_files_install_under_one_share_folder(tmp_path: Path) -> None:
    build_bundle = load_script("build_bundle")
    assert build_bundle.DESKTOP_ID == DESKTOP_ID
    placed = {p.relative_to(tmp_path).as_posix() for p in build_bundle.install_desktop_files(tmp_path)}
    icon = desktop_entry()["Icon"]
    assert icon == DESKTOP_ID
    assert f"applications/{DESKTOP_ID}.desktop" in placed
    assert f"metainfo/{DESKTOP_ID}.metainfo.xml" in placed
    assert f"icons/hicolor/scalable/apps/{icon}.svg" in placed
    for size in ICON_SIZES:  # the sizes the window uses are the ones the desktop gets
        installed = tmp_path / f"icons/hicolor/{size}x{size}/apps/{icon}.png"
        assert installed.read_bytes() == (REPO / "resources" / "icons" / f"reviewapp-{size}.png").read_bytes()


def test_metainfo_names_the_desktop_entry_and_this_version() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == DESKTOP_ID
    assert root.findtext("launchable[@type='desktop-id']") == DESKTOP_FILE.name
    assert (
        root.findtext("provides/binary") in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    )
    versions = [release.get("version") for release in root.iterfind("releases/release")]
    assert versions[0] == __version__, "add a <release> for the new version to the metainfo"


def test_metainfo_passes_appstreamcli_offline() -> None:
    appstreamcli = validator("appstreamcli", "appstream")
    done = subprocess.run(
        [appstreamcli, "validate", "--no-net", "--pedantic", str(METAINFO)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_desktop_entry_passes_desktop_file_validate() -> None:
    program = validator("desktop-file-validate", "desktop-file-utils")
    done = subprocess.run([program, str(DESKTOP_FILE)], capture_output=True, text=True, timeout=60, check=False)
    # hints are printed as well; only errors and warnings fail
    assert done.returncode == 0 and "error:" not in done.stdout and "warning:" not in done.stdout, done.stdout


def test_desktop_file_validate_catches_a_broken_entry(tmp_path: Path) -> None:
    program = validator("desktop-file-validate", "desktop-file-utils")
    broken = tmp_path / DESKTOP_FILE.name
    broken.write_text(DESKTOP_FILE.read_text().replace("Type=Application\n", ""), encoding="utf-8")
    done = subprocess.run([program, str(broken)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode != 0


def test_bundle_spec_uses_files_that_exist() -> None:
    spec = (REPO / "packaging" / "reviewapp.spec").read_text()
    for name in ("reviewapp-256.png", "reviewapp-512.png"):
        assert name in spec
        assert (REPO / "resources" / "icons" / name).is_file()
    assert (REPO / "reviewapp" / "__main__.py").is_file()
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.lower().startswith("pyinstaller") for req in extras["bundle"])
