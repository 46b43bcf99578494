"""What a note is anchored to, as the window knows it (a cell card, selected output lines, a trace event...),
turned into the core's Target by the session, which checks it against the logbook."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeVar

from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import Target

T = TypeVar("T")
AnchorKind = Literal["claim", "page", "cell", "lines", "figure", "trace"]


@dataclass(frozen=True)
class NoteAnchor:
    kind: AnchorKind
    page: str | None = None
    claim: str | None = None  # claim key
    ordinal: int | None = None  # cell on the page, 0-based
    first: int = 1  # output lines, 1-based and inclusive
    last: int = 1
    index: int = 0  # image of a figure cell
    session: str | None = None  # trace session id
    sequence: int | None = None  # trace event
    quote: str = ""  # what the reviewer pointed at (the selected lines, the event), shown in the note dialog

    def target(self, session: LogbookReview) -> Target:
        """Raises AnnotationError or TargetError when the thing is not (any more) in the logbook."""
        if self.kind == "claim":
            return session.claim_target(self._need(self.claim))
        if self.kind == "page":
            return session.page_target(self._need(self.page))
        if self.kind == "trace":
            return session.trace_target(self._need(self.session), self._need(self.sequence), self.claim)
        page, ordinal = self._need(self.page), self._need(self.ordinal)
        if self.kind == "lines":
            return session.lines_target(page, ordinal, self.first, self.last)
        if self.kind == "figure":
            return session.figure_target(page, ordinal, self.index)
        return session.cell_target(page, ordinal)

    @staticmethod
    def _need(value: T | None) -> T:
        if value is None:
            raise ValueError("incomplete note anchor")
        return value
