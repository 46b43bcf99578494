"""Where a logbook's stored Logbook Judge import lives, told with the standard library alone: asking whether a
logbook has an import (every `inspect` does) must not import the models that read one."""

from __future__ import annotations

import hashlib
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.paths import user_data_dir

if TYPE_CHECKING:
    from reviewapp.core.logbook.model import Logbook


def imports_dir(data_dir: Path | None = None) -> Path:
    return (data_dir or user_data_dir()) / "imports"


def safe_folder(logbook_id: str) -> str:
    """A folder name for a logbook id: percent-encoded (reversible), cut with a hash when very long."""
    quoted = urllib.parse.quote(logbook_id, safe="")
    if len(quoted) <= 180:
        return quoted
    return quoted[:160] + "-" + hashlib.sha256(logbook_id.encode()).hexdigest()[:16]


def logbook_id_of(logbook: Logbook) -> str:
    """The id a logbook's import is stored under: where it was opened from; the folder when the reader does not
    name one."""
    found = getattr(logbook, "logbook_id", None)
    return str(found) if found else f"path:{logbook.root.resolve().as_posix()}"


def import_path(logbook_id: str, data_dir: Path | None = None) -> Path:
    return imports_dir(data_dir) / safe_folder(logbook_id) / "verdicts.json"
