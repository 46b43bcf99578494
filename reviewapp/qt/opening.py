"""What the load worker prepares for reviewing, off the GUI thread: the annotation logbook_review when the reviewer is
known without asking, and which pair sets the logbook has (and which claim each belongs to)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.logbook.model import Logbook, Problem
from reviewapp.core.pairs.sets import PairSetError, base_folder, find_manifests, load_manifest
from reviewapp.core.review.identity import Identity, resolve_identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.preferences import load_preferences
from reviewapp.core.review.trust import Trust

log = logging.getLogger(__name__)


@dataclass
class ReviewOpening:
    logbook_review: LogbookReview | None = None
    reason: str | None = None  # why there is no logbook_review: no reviewer name known yet, or the files failed
    ask: bool = False  # the reviewer's name is unknown: ask for it
    pair_sets: dict[str, str | None] = field(default_factory=dict)  # set name -> key of the claim it belongs to
    problems: list[Problem] = field(default_factory=list)  # pair sets that could not be read


def prepare_review(logbook: Logbook, trust: Trust | None = None) -> ReviewOpening:
    """`trust`: which records count (the roster of the queue the logbook was opened from); None: the settings'."""
    opening = ReviewOpening()
    opening.pair_sets, opening.problems = find_pair_sets(logbook)
    identity = resolve_identity(cwd=logbook.root)  # never asks: asking is the GUI thread's business
    if identity is None:
        opening.reason, opening.ask = "Nobody is reviewing yet: say who you are to record verdicts.", True
        return opening
    try:
        opening.logbook_review = open_review(logbook, identity, load_preferences().role, trust)
        _ = opening.logbook_review.store.location  # probed by writing: here, not on the GUI thread once loaded
    except Exception as exc:  # an unreadable reviews folder must not stop the logbook from opening
        log.error("cannot open the annotations", exc_info=(type(exc), exc, exc.__traceback__))
        opening.reason = f"The review files could not be read ({type(exc).__name__}: {exc})"
    return opening


def open_review(logbook: Logbook, identity: Identity, role: str, trust: Trust | None = None) -> LogbookReview:
    return LogbookReview.open(logbook, identity, role, trust=trust)


def find_pair_sets(logbook: Logbook) -> tuple[dict[str, str | None], list[Problem]]:
    """Set name -> claim key (None when attached to no claim); a set whose manifest cannot be read is a problem."""
    sets: dict[str, str | None] = {}
    problems: list[Problem] = []
    base = base_folder(logbook)
    for name, manifest in find_manifests(logbook).items():
        try:
            pair_set = load_manifest(logbook, manifest, validate=False)
        except PairSetError as exc:
            problems.append(Problem(_relative(manifest, base), None, str(exc)))
            continue
        sets[name] = pair_set.claim
        problems.extend(Problem(_relative(manifest, base), None, message) for message in pair_set.set_problems)
    return sets, problems


def _relative(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)
