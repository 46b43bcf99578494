"""Stored Logbook Judge imports, in the user's data folder only.

`<data>/imports/<logbook id, made safe>/verdicts.json` holds the entry linked to that logbook, normalized, with the
source file's name and sha256 and how the link was made; `<data>/imports/registry/<sha256>.json` holds an imported
claim registry, normalized, keyed by the sha256 of the file it came from. Nothing is ever read from a logbook's
repository: a repository could forge the Logbook Judge's verdicts.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.logbook_judge.entries import ImportProblem, JudgeEntry
from reviewapp.core.logbook_judge.import_paths import import_path, imports_dir
from reviewapp.core.logbook_judge.linking import Link
from reviewapp.core.logbook_judge.registry import Registry, RegistryClaim

if TYPE_CHECKING:
    pass

STORE_FORMAT = 1
_SHA = re.compile(r"^[0-9a-f]{64}$")


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class StoredImport:
    logbook_id: str
    entry: JudgeEntry
    source_file: str
    source_sha256: str
    imported_at: str
    link: dict[str, Any]
    registry_sha256: str | None
    problems: list[str]

    def registry_claims(self, data_dir: Path | None = None) -> tuple[RegistryClaim, ...] | None:
        if not self.registry_sha256:
            return None
        registry = load_registry(self.registry_sha256, data_dir)
        return registry.for_paper(self.entry.orid) if registry else None


def store_registry(registry: Registry, sha256: str, data_dir: Path | None = None) -> Path:
    folder = imports_dir(data_dir) / "registry"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{sha256}.json"
    if not path.exists():
        atomic_write(path, json.dumps(registry.to_json(), ensure_ascii=False).encode("utf-8"))
    return path


def load_registry(sha256: str, data_dir: Path | None = None) -> Registry | None:
    if not _SHA.match(sha256):
        return None
    path = imports_dir(data_dir) / "registry" / f"{sha256}.json"
    try:
        return Registry.from_json(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def store_import(
    logbook_id: str,
    entry: JudgeEntry,
    link: Link,
    source: Path,
    source_sha256: str,
    registry_sha256: str | None = None,
    problems: list[ImportProblem] | None = None,
    data_dir: Path | None = None,
) -> Path:
    """Replace the stored import of this logbook (a newer verdicts file supersedes the older one)."""
    path = import_path(logbook_id, data_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "format": STORE_FORMAT,
        "logbook_id": logbook_id,
        "source": {"file": source.name, "sha256": source_sha256},
        "imported_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "registry_sha256": registry_sha256,
        "link": link.to_json(),
        "entry": entry.to_json(),
        "problems": [str(p) for p in problems or [] if p.entry in (None, entry.key) or entry.key in (p.entry or "")],
    }
    atomic_write(path, json.dumps(record, ensure_ascii=False, indent=1).encode("utf-8"))
    return path


class StoredImportError(ValueError):
    pass


def load_import(logbook_id: str, data_dir: Path | None = None) -> StoredImport | None:
    """The stored import of a logbook, None when there is none; StoredImportError when the file is damaged."""
    path = import_path(logbook_id, data_dir)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoredImportError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        data = json.loads(text)
        return StoredImport(
            logbook_id=data["logbook_id"],
            entry=JudgeEntry.from_json(data["entry"]),
            source_file=data["source"]["file"],
            source_sha256=data["source"]["sha256"],
            imported_at=data.get("imported_at", ""),
            link=dict(data.get("link") or {}),
            registry_sha256=data.get("registry_sha256"),
            problems=list(data.get("problems") or []),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise StoredImportError(f"{path}: not a stored Logbook Judge import ({exc})") from exc
