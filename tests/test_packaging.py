"""Packaging files stay consistent with the code they start."""

from __future__ import annotations

import configparser
import tomllib
from pathlib import Path

from reviewapp.cli import build_parser

REPO = Path(__file__).resolve().parents[1]


def test_desktop_entry_starts_the_console_command() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive in desktop files
    entry.read(REPO / "packaging" / "linux" / "reviewapp.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    command, subcommand, *_ = section["Exec"].split()
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert command in scripts
    assert subcommand in build_parser()._subparsers._group_actions[0].choices
    assert (REPO / "resources" / "icons" / f"{section['Icon']}.svg").is_file()
