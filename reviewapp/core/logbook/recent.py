"""The recently opened logbooks (File > Open Recent), kept as a small JSON list in the config folder."""

from __future__ import annotations

import json
from pathlib import Path

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.paths import user_config_dir

MAX_RECENT = 10
RECENT_FILE = "recent-logbooks.json"


def recent_file() -> Path:
    return user_config_dir() / RECENT_FILE


def recent_logbooks() -> list[Path]:
    """Most recent first; entries that are not folders any more are left out. A damaged file reads as empty."""
    try:
        data = json.loads(recent_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    items = data.get("logbooks") if isinstance(data, dict) else None
    paths = [Path(item) for item in items or [] if isinstance(item, str)]
    return [p for p in paths if p.is_dir()][:MAX_RECENT]


def remember_logbook(source: Path) -> list[Path]:
    """Put `source` first in the list and save it; returns the new list."""
    source = source.resolve()
    updated = [source, *(p for p in recent_logbooks() if p != source)][:MAX_RECENT]
    target = recent_file()
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps({"logbooks": [str(p) for p in updated]}, indent=2)
    atomic_write(target, payload.encode("utf-8"))  # a crash mid-write leaves the old list, never half a file
    return updated
