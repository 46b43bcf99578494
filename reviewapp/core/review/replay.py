"""The one place that turns a logbook's review files into review state.

    replayed = read_review(logbook)                  # read-only: nothing is repaired, nothing is created
    replayed.state.verdicts(claim_key)               # every reviewer's current verdict on the claim
    replayed.loaded.issues                           # invalid lines, torn tails, by file and line

The queue, the paper view, the command line and the window all used to open the store and replay it themselves,
each a little differently; now they ask here (or the ReviewWorkspace, which asks here).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.logbook.model import Claim, Logbook
from reviewapp.core.logbook_judge.import_paths import import_path
from reviewapp.core.review.records import RecordBase
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.store import AnnotationStore
from reviewapp.core.review.store import LoadResult as LoadResult  # what callers get back, named here for them
from reviewapp.core.review.trust import Trust


@dataclass
class ReplayedReview:
    store: AnnotationStore
    loaded: LoadResult
    state: AnnotationState


def review_store(logbook: Logbook, *, writable: bool | None = False, trust: Trust | None = None) -> AnnotationStore:
    """The store of the logbook's review files, found by logbook id (a Hub or URL logbook's reviews are in the
    data folder, not in its download). `writable=None`: writable when the folder can be written."""
    store = AnnotationStore(logbook.root, writable=writable, logbook_id=logbook.logbook_id)
    store.trust = trust
    return store


def review_files_stamp(root: Path, logbook_id: str) -> str:
    """Path, size and modification time of every review file `read_review` would read for the logbook at `root`
    with this id, and of its stored Logbook Judge import: what a row computed from them depends on beyond the
    logbook itself (a queue's row cache keeps rows by it). Read-only: nothing is moved or created."""
    store = AnnotationStore(root, writable=False, logbook_id=logbook_id)
    store._migrated = True  # a stamp only looks; the replay that computes the row moves legacy folders
    digest = hashlib.sha256()
    for path in [*store.files(), import_path(logbook_id or f"path:{root.resolve().as_posix()}")]:
        try:
            info = os.stat(path)
        except OSError:
            digest.update(f"{path}\0missing\n".encode("utf-8", "surrogatepass"))
            continue
        digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def read_review(
    logbook: Logbook,
    *,
    writable: bool | None = False,
    repair: bool | None = None,
    store: AnnotationStore | None = None,
    trust: Trust | None = None,
) -> ReplayedReview:
    """Read and replay every review file of `logbook`. A torn last line is set aside only when `repair` (by
    default: when the store is writable); read-only readers leave the files exactly as they are. `trust`: which
    records count (a queue's roster); None: the reviewer's settings."""
    store = store or review_store(logbook, writable=writable, trust=trust)
    loaded = store.load(repair=writable is not False if repair is None else repair)
    return ReplayedReview(store, loaded, replay(logbook.claims, loaded.records))


def replay(claims: Sequence[Claim], records: Iterable[tuple[RecordBase, str]]) -> AnnotationState:
    """The state `records` (in replay order, each with where it was read) give over the reader's `claims`."""
    state = AnnotationState(claims)
    state.add_all(records)
    return state
