"""Find the logbook root (the folder holding pages/) from whatever folder the user pointed at."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


class NotALogbookError(Exception):
    """SOURCE is not a logbook; the message says what was looked for and what was found instead."""


@dataclass(frozen=True)
class Location:
    root: Path  # holds pages/ (and logbook.json)
    layout: str  # "workspace" or "space"
    workspace: Path | None  # folder holding .trackio/
    metadata_file: Path | None  # .trackio/metadata.json, when the layout has one


def _is_root(folder: Path) -> bool:
    pages = folder / "pages"
    return (pages / "index.md").is_file() or ((folder / "logbook.json").is_file() and pages.is_dir())


def locate(source: Path) -> Location:
    """Accept a workspace folder containing .trackio/, the .trackio folder, the logbook folder or a Space snapshot."""
    if not source.exists():
        raise NotALogbookError(f"{source}: no such folder")
    if not source.is_dir():
        raise NotALogbookError(f"{source}: not a folder (give the folder that holds .trackio/ or pages/)")
    source = source.resolve()
    candidates = [source / ".trackio" / "logbook", source / "logbook", source]
    for root in candidates:
        if _is_root(root):
            return _location_for(root)
    nearby = find_logbooks(source, max_depth=3, limit=5)
    hint = ""
    if nearby:
        listed = ", ".join(str(p.relative_to(source)) or "." for p in nearby)
        hint = f"; logbooks found below it: {listed}"
    raise NotALogbookError(f"{source}: not a logbook (no .trackio/logbook/pages/index.md or pages/index.md){hint}")


def _location_for(root: Path) -> Location:
    if root.name == "logbook" and root.parent.name == ".trackio":
        trackio = root.parent
        return Location(root, "workspace", trackio.parent, trackio / "metadata.json")
    return Location(root, "space", None, None)


def find_logbooks(folder: Path, max_depth: int = 4, limit: int = 50) -> list[Path]:
    """Folders below `folder` that open as logbooks (workspace folders or Space roots), nearest first."""
    found: list[Path] = []
    skip = {".git", "node_modules", ".venv", "venv", "__pycache__", ".cache"}
    frontier = [folder]
    for _ in range(max_depth):
        next_frontier: list[Path] = []
        for current in frontier:
            try:
                entries = sorted(os.scandir(current), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False) or entry.name in skip:
                    continue
                path = Path(entry.path)
                if entry.name == ".trackio":
                    if _is_root(path / "logbook"):
                        found.append(current)
                    continue
                if _is_root(path):
                    found.append(path)
                    continue
                next_frontier.append(path)
                if len(found) >= limit:
                    return found
        frontier = next_frontier
    return found
