"""How a queue row is kept in the row cache and served from it: what it is keyed by, and its figures as JSON.

The lead names what can be told before the logbook is read: its files (the parse cache's content key), the git
state its logbook id is derived under, the id a download gave, the judge, whether the Logbook Judge counts, the
trust in force and the code that computes rows. The stamp names the review files and the Logbook Judge import,
found by the logbook id the kept row carries.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reviewapp.core.logbook.logbook_id import git_state
from reviewapp.core.logbook.parse_cache import content_key
from reviewapp.core.queue.row_cache import RowCache, rows_version
from reviewapp.core.review.records import RecordError, RubricScoreRecord, parse_line, record_line
from reviewapp.core.review.replay import review_files_stamp
from reviewapp.core.review.trust import trust_stamp

if TYPE_CHECKING:
    from reviewapp.core.queue.queue_row import QueueRow

# Plain fields copied as they are; the scores are record lines, the root a path.
_PLAIN = (
    "title",
    "claims",
    "reviewed_by_me",
    "my_score",
    "my_score_text",
    "status",
    "flag_reason",
    "disagreements",
    "unmatched_judged",
    "judges",
    "people_verdicts",
    "problem",
    "logbook_id",
    "claim_keys",
    "unreviewed",
    "unverified",
    "page_hashes",
    "space_ids",
)


class RowKeeping:
    """One queue reading's use of the row cache: the judge, the Logbook Judge switch and the trust are fixed."""

    def __init__(self, cache: RowCache, me: str, logbook_judge: bool, roster: Path | None) -> None:
        self.cache = cache
        self.who = json.dumps([me, logbook_judge])
        self._base = json.dumps([rows_version(), me, logbook_judge, trust_stamp(roster)])
        # the row served or kept last: the review files' stamp, and its figures (what a child process sends)
        self.stamp: str | None = None
        self.figures: dict[str, Any] | None = None

    def lead(self, folder: Path, known_id: str | None) -> str:
        """The row's key as far as it can be told without reading the logbook; NotALogbookError as the reader's."""
        parts = [self._base, content_key(folder), git_state(folder), known_id or ""]
        return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()

    def serve(self, row: QueueRow, folder: Path, lead: str) -> bool:
        """Fill `row` from the kept row when its lead and stamp still hold; False: compute it."""
        kept = self.cache.row(str(folder), self.who, lead)
        if kept is None:
            return False
        stamp, figures = kept
        if not fill_row(row, figures, stamp):
            return False
        self.stamp, self.figures = stamp, figures
        return True

    def keep(self, folder: Path, lead: str, stamp: str, row: QueueRow, paper_id: str | None) -> None:
        self.stamp, self.figures = stamp, row_figures(row, paper_id)
        self.cache.store(str(folder), self.who, lead, stamp, self.figures)


def row_figures(row: QueueRow, paper_id: str | None) -> dict[str, Any]:
    """A computed row's figures as kept (plain values: JSON, or a message from a child process)."""
    figures: dict[str, Any] = {name: getattr(row, name) for name in _PLAIN}
    figures["root"] = str(row.root)
    figures["scores"] = {judge: record_line(r).decode("utf-8") for judge, r in row.scores.items()}
    figures["points"] = list(row.points) if row.points else None
    figures["paper_id"] = paper_id
    return figures


def fill_row(row: QueueRow, figures: dict[str, Any], stamp: str) -> bool:
    """Fill `row` from `figures` (row_figures') while the review files are as `stamp` says they were when the
    figures were computed; False: they changed, or the figures are not a row's (another version's, damaged)."""
    try:
        root = Path(figures["root"])
        if review_files_stamp(root, str(figures["logbook_id"])) != stamp:
            return False
        values = {name: figures[name] for name in _PLAIN}
        scores = {judge: _score(line) for judge, line in figures["scores"].items()}
        points = figures["points"]
        paper_id = figures["paper_id"]
    except (KeyError, TypeError, ValueError, AttributeError, RecordError):
        return False
    for name, value in values.items():
        setattr(row, name, value)
    row.root, row.scores = root, scores
    row.points = (int(points[0]), int(points[1])) if points else None
    row.paper = row.entry.paper or paper_id or ""
    return True


def _score(line: str) -> RubricScoreRecord:
    record = parse_line(line)
    if not isinstance(record, RubricScoreRecord):
        raise RecordError("not a rubric score")
    return record
