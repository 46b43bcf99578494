"""The workspace file inventory (`workspace.json`) and files captured by `logbook run` (metadata)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewapp.core.io.coerce import as_int, as_name
from reviewapp.core.io.safepath import UnsafeReference, resolve_inside
from reviewapp.core.logbook.metadata import read_json_object
from reviewapp.core.logbook.model import Problem, WorkspaceFile


def load_workspace_files(
    root: Path, workspace: Path | None, metadata: dict[str, Any], problems: list[Problem]
) -> list[WorkspaceFile]:
    files: list[WorkspaceFile] = []
    seen: set[str] = set()
    inventory = read_json_object(root / "workspace.json", "workspace.json", problems, root=root)
    entries = inventory.get("files") if inventory else None
    for entry in entries if isinstance(entries, list) else []:
        path = as_name(entry.get("path")) if isinstance(entry, dict) else None
        if path is None or path in seen:
            continue
        seen.add(path)
        files.append(
            WorkspaceFile(
                path=path,
                name=as_name(entry.get("name")) or Path(path).name,
                type=as_name(entry.get("type")),
                size=as_int(entry.get("size")),
                modified_at=as_name(entry.get("modified_at")),
                bucket_url=as_name(entry.get("bucket_url")),
                local_path=_local(workspace, path, "workspace.json", problems),
            )
        )
    captured = metadata.get("local_path_artifacts")
    for entry in captured if isinstance(captured, list) else []:
        path = as_name(entry.get("path")) if isinstance(entry, dict) else None
        if path is None or path in seen:
            continue
        seen.add(path)
        files.append(
            WorkspaceFile(
                path=path,
                name=Path(path).name,
                type=as_name(entry.get("artifact_type")),
                size=as_int(entry.get("size")),
                modified_at=None,
                bucket_url=None,
                local_path=_local(workspace, path, "../metadata.json", problems),
            )
        )
    return files


def _local(workspace: Path | None, path: str, listed_in: str, problems: list[Problem]) -> Path | None:
    """The file inside the workspace folder when it is there; paths that leave it are reported, never followed."""
    if workspace is None:
        return None
    try:
        target = resolve_inside(workspace, path)
    except UnsafeReference as exc:
        problems.append(Problem(listed_in, None, f"workspace file refused: {exc}"))
        return None
    return target if target.is_file() else None
