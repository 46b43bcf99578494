"""A queue row: one logbook's line in a judges' queue, and the words its status column uses.

Its own module so that computing rows (status.py) and keeping them (row_keeping.py) both use it without importing
each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.parse_cache import read_logbook_cached
from reviewapp.core.queue.queue_file import QueueEntry
from reviewapp.core.review.records import RubricScoreRecord
from reviewapp.core.review.trust import Trust

NOT_STARTED, IN_PROGRESS, DONE, FLAGGED = "not started", "in progress", "done", "flagged"
BROKEN = "broken"  # read, but with problems and no claims: never "not started"
MERGED = "merged"  # another form of a logbook earlier in the queue: counted once, there


@dataclass(slots=True)
class QueueRow:
    entry: QueueEntry
    title: str = ""
    paper: str = ""
    claims: int = 0
    reviewed_by_me: int = 0
    my_score: float | None = None
    my_score_text: str = ""  # as the rubric's scale writes it ("4" on a 1-5 scale); empty without a score
    status: str = NOT_STARTED
    flag_reason: str | None = None
    disagreements: int = 0
    points: tuple[int, int] | None = None  # over the Logbook Judge's verdicts matched to this logbook's claims
    unmatched_judged: int = 0  # Logbook Judge verdicts on claims no claim here matched: not in the points
    judges: list[str] = field(default_factory=list)  # who scored it (hidden in blind mode until I have)
    scores: dict[str, RubricScoreRecord] = field(default_factory=dict)  # every judge's current rubric score
    people_verdicts: str = ""  # the people's verdict counts, as rank and decide count them ("1 falsified, ...")
    problem: str | None = None  # why the logbook could not be read, or why it is broken (read, but no claims)
    root: Path | None = None  # the logbook's folder; None when it could not be read
    logbook_id: str = ""
    claim_keys: list[str] = field(default_factory=list)  # in claim order
    unreviewed: list[str] = field(default_factory=list)  # claim keys without my verdict, in claim order
    trust: Trust | None = None  # which records counted (the queue's roster); None: the reviewer's settings
    unverified: list[str] = field(default_factory=list)  # records set apart, never counted: "claims to be X (where)"
    page_hashes: list[str] = field(default_factory=list)  # each page's slug and sha256: copies share most of them
    space_ids: list[str] = field(default_factory=list)  # the Space ids its metadata and manifest name (blind mode)
    _logbook: Logbook | None = field(default=None, repr=False, compare=False)

    @property
    def logbook(self) -> Logbook | None:
        """The row's logbook; a row served from the row cache holds only its figures and reads it through the
        parse cache when first asked, so ask off the GUI thread (`root` tells whether there is one)."""
        if self._logbook is None and self.root is not None:
            try:
                logbook = read_logbook_cached(self.root)
            except (NotALogbookError, OSError):
                return None  # gone since the row was read: the row says what it said then
            logbook.explicit_id = self.logbook_id or logbook.logbook_id
            self._logbook = logbook
        return self._logbook

    @logbook.setter
    def logbook(self, logbook: Logbook | None) -> None:
        self._logbook = logbook
        self.root = logbook.root if logbook is not None else None
