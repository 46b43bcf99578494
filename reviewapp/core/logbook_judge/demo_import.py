"""The demo's Logbook Judge verdicts: imported on first open, like a user would with `reviewapp verdicts import`."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.demo import DEMO_VERDICTS_FILE
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook_judge.import_paths import import_path, logbook_id_of
from reviewapp.core.logbook_judge.importer import import_verdicts


def ensure_demo_import(logbook: Logbook, demo_workspace: Path, data_dir: Path | None = None) -> bool:
    """Import the demo's verdicts file for the demo logbook once; True when an import is (now) stored."""
    if logbook.workspace is None or logbook.workspace.resolve() != demo_workspace.resolve():
        return False
    if import_path(logbook_id_of(logbook), data_dir).exists():
        return True
    source = demo_workspace / DEMO_VERDICTS_FILE
    if not source.is_file():
        return False
    return import_verdicts(source, [logbook], data_dir=data_dir).all_stored
