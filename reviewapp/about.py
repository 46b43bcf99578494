"""What the app is and where it keeps its files: shown by Help > About, `reviewapp doctor` and crash reports.

Qt-free (the Qt version is passed in by the window) so that headless commands can print the same facts.
"""

from __future__ import annotations

import platform
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from reviewapp import __version__
from reviewapp.core.io.paths import hub_cache_dir, log_file, user_config_dir, user_data_dir
from reviewapp.core.logbook.parse_cache import cache_folder
from reviewapp.core.logbook_judge.import_paths import imports_dir
from reviewapp.core.review.store import REVIEWS_DIR
from reviewapp.core.trace.transcripts import transcripts_folder

# The desktop entry's and AppStream's id (packaging/linux/<id>.desktop): the window names it so that Wayland
# desktops match the window to the entry and its icon.
DESKTOP_ID = "io.github.reviewapp.reviewapp"


@dataclass(frozen=True)
class Place:
    name: str
    path: Path
    holds: str


def places() -> list[Place]:
    """Every folder reviewapp writes outside a logbook, in the order a person looks for them."""
    return [
        Place("Log", log_file(), "what the window did and every unhandled error; rotated at 1 MB, 3 kept"),
        Place("Preferences", user_config_dir(), "your annotator name, recent logbooks, window layout"),
        Place(
            "Reviews of downloaded logbooks",
            user_data_dir() / REVIEWS_DIR,
            "your records for logbooks that cannot be written in place, one folder per logbook id",
        ),
        Place("Logbook Judge imports", imports_dir(), "imported verdicts, one folder per logbook id"),
        Place("Attached transcripts", transcripts_folder(), "copies of agent transcripts, by sha256"),
        Place("Parse cache", cache_folder(), "parsed logbooks; safe to delete, rebuilt when needed"),
        Place("Hub downloads", hub_cache_dir(), "the Hugging Face Hub cache, shared with other tools"),
    ]


def package_version(name: str) -> str | None:
    """An installed distribution's version, found without importing it (importing PySide6 loads Qt)."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def qt_binding_version() -> str:
    return package_version("PySide6-Essentials") or package_version("PySide6") or "not installed"


def versions(qt_version: str | None = None) -> dict[str, str]:
    """reviewapp, Python, PySide6 (and the Qt it runs, when known), the platform; how the app was installed."""
    found = {
        "reviewapp": __version__,
        "Python": f"{platform.python_version()} ({platform.python_implementation()})",
        "PySide6": qt_binding_version(),
    }
    if qt_version is not None:
        found["Qt"] = qt_version
    found["Platform"] = platform.platform()
    found["Installed as"] = installation()
    return found


def installation() -> str:
    if getattr(sys, "frozen", False):
        return f"bundle ({Path(sys.executable).parent})"
    return f"Python package ({Path(__file__).resolve().parent})"


def versions_line(qt_version: str | None = None) -> str:
    return " · ".join(f"{name} {value}" for name, value in versions(qt_version).items() if name != "Installed as")
