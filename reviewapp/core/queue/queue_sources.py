"""Queues that are not written by hand: every logbook on a paper, or every Space the Logbook Judge has judged.

Both give Space ids, so the queue they make can be saved (`write_queue`) and shared like any other.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.logbook_judge.import_paths import imports_dir
from reviewapp.core.logbook_judge.stored import StoredImportError, load_import
from reviewapp.core.queue.queue_file import Queue, QueueEntry, QueueProblem
from reviewapp.core.queue.status import logbook_judge_points
from reviewapp.core.verdicts import Verdict


@dataclass(frozen=True, slots=True)
class JudgedSpace:
    space_id: str
    orid: str | None
    points: tuple[int, int] | None
    verdicts: frozenset[Verdict]


def judged_spaces(data_dir: Path | None = None) -> tuple[list[JudgedSpace], list[str]]:
    """Every Space with a stored Logbook Judge import (sorted by id), and the imports that could not be read."""
    found: dict[str, JudgedSpace] = {}
    problems: list[str] = []
    root = imports_dir(data_dir)
    folders = sorted(p for p in root.iterdir() if p.is_dir() and p.name != "registry") if root.is_dir() else []
    for folder in folders:
        logbook_id = urllib.parse.unquote(folder.name)
        try:
            stored = load_import(logbook_id, data_dir)
        except StoredImportError as exc:
            problems.append(str(exc))
            continue
        if stored is None:
            continue
        entry = stored.entry
        verdicts = {str(c.index): c.verdict for c in entry.claims if c.verdict is not None}
        space = JudgedSpace(entry.key, entry.orid, logbook_judge_points(verdicts), frozenset(verdicts.values()))
        found.setdefault(entry.key.lower(), space)
    return sorted(found.values(), key=lambda s: s.space_id.lower()), problems


def queue_of_spaces(path: Path, spaces: list[str], paper: str = "") -> Queue:
    """A queue of Space ids (as `find --orid` or the stored imports give them), in the order given."""
    queue = Queue(path=path, entries=[], problems=[])
    seen: set[str] = set()
    for number, space in enumerate(spaces, start=1):
        if space.lower() in seen:
            queue.problems.append(QueueProblem(number, space, "listed twice; skipped"))
            continue
        seen.add(space.lower())
        queue.entries.append(QueueEntry(space, space, True, number, paper))
    return queue


def select_judged(
    spaces: list[JudgedSpace],
    *,
    verdict: Verdict | None = None,
    min_points: float | None = None,
    orid: str | None = None,
) -> list[JudgedSpace]:
    """Judged Spaces with at least one claim of `verdict`, at least `min_points` Logbook Judge points, on `orid`."""
    chosen = []
    for space in spaces:
        if verdict is not None and verdict not in space.verdicts:
            continue
        if orid is not None and (space.orid or "").lower() != orid.lower():
            continue
        if min_points is not None:
            if space.points is None:
                continue
            if space.points[0] < min_points:
                continue
        chosen.append(space)
    return chosen
