"""Everything a logbook produced, in one list: artifact cells on any page and the workspace file inventory.

Local files are located only inside the workspace folder (or the logbook root for published snapshots); a path
that leaves it is listed but never opened.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from reviewapp.core.io.safepath import UnsafeReference, resolve_inside
from reviewapp.core.logbook.cell_details import artifact_details
from reviewapp.core.logbook.model import Cell, CellKind, Logbook

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp"})
_LOCAL_SCHEME = "trackio-local-path://"


@dataclass(frozen=True, slots=True)
class ArtifactEntry:
    name: str
    source: str  # "cell" (an artifact cell on a page) or "workspace" (workspace.json / captured by a run)
    type: str | None
    size: int | None
    uri: str | None  # trackio-artifact://, a bucket URL, ...
    page: str | None  # slug of the page holding the cell
    cell: int | None  # ordinal of the cell on its page
    local_path: Path | None  # the file, when it exists inside the workspace (or the logbook root)

    @property
    def is_image(self) -> bool:
        return PurePosixPath(self.name).suffix.lower() in IMAGE_SUFFIXES or self.type == "image"


def list_artifacts(logbook: Logbook) -> list[ArtifactEntry]:
    entries: list[ArtifactEntry] = []
    for page in logbook.pages:
        for cell in page.cells:
            if cell.kind is CellKind.ARTIFACT:
                entries.append(artifact_entry(logbook, cell))
    for file in logbook.workspace_files:
        entries.append(
            ArtifactEntry(
                name=file.path,
                source="workspace",
                type=file.type,
                size=file.size,
                uri=file.bucket_url,
                page=None,
                cell=None,
                local_path=file.local_path,
            )
        )
    return entries


def artifact_entry(logbook: Logbook, cell: Cell) -> ArtifactEntry:
    details = artifact_details(cell)
    path = details.path
    if path is None and details.uri and details.uri.startswith(_LOCAL_SCHEME):
        path = details.uri[len(_LOCAL_SCHEME) :]
    return ArtifactEntry(
        name=details.name or path or details.uri or cell.title,
        source="cell",
        type=details.artifact_type,
        size=details.size_bytes,
        uri=details.uri,
        page=cell.page,
        cell=cell.ordinal,
        local_path=local_file(logbook, path) if path else None,
    )


def local_file(logbook: Logbook, path: str) -> Path | None:
    """The file `path` names, inside the workspace folder or else the logbook root; None when absent or outside."""
    for base in (logbook.workspace, logbook.root):
        if base is None:
            continue
        try:
            target = resolve_inside(base, path)
        except UnsafeReference:
            continue
        if target.is_file():
            return target
    return None
