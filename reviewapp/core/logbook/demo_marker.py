"""How the built-in demo is told apart from a real logbook (without loading the demo's image code)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from reviewapp.core.io.paths import user_data_dir

DEMO_FLAG = "reviewapp_demo"  # in the demo's metadata: it is published nowhere


def is_demo(metadata: Mapping[str, object], root: Path) -> bool:
    """The built-in demo, or a copy of it: its space_id names no real repository."""
    if metadata.get(DEMO_FLAG) is True:
        return True
    try:  # a demo generated before the flag existed: its folder in the data folder says it
        inside = root.resolve().relative_to(user_data_dir().resolve()).parts
    except (ValueError, OSError):
        return False
    return bool(inside) and inside[0].startswith("demo-v")
