"""What opening a source produced: the local folder to read, the logbook id, the revision and where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.io.source_ref import SourceRef


@dataclass(frozen=True)
class ProposedReviews:
    """The `reviews/` of an open pull request: other reviewers' records, shown as proposed, not merged."""

    num: int
    title: str
    author: str
    url: str
    commit: str
    folder: Path  # the pull request's `reviews/` folder in the Hub cache (may be absent: no reviews in it)

    def label(self) -> str:
        return f"proposed in pull request #{self.num} by {self.author}, not merged"


@dataclass(frozen=True)
class OpenedSource:
    ref: SourceRef
    folder: Path  # the folder to read the logbook from
    logbook_id: str | None  # None for a plain folder: the workspace derives its id from the path
    revision: str | None = None  # the commit the files are from (Hub), None for a folder or URL
    cached: bool = False  # opened from the cache without the network
    cached_because: str | None = None
    downloaded_at: str | None = None  # ISO 8601 UTC, for a download
    containment_root: Path | None = None  # the repository's cache folder (its `blobs/` hold the files)
    proposed_reviews: list[ProposedReviews] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def remote(self) -> bool:
        return self.ref.kind != "path"

    def banner(self) -> str | None:
        """One line for the window: what copy this is, of which revision. None for a local folder."""
        if not self.remote:
            return None
        revision = f" at revision {self.revision[:12]}" if self.revision else ""
        when = f", downloaded {_when(self.downloaded_at)}" if self.downloaded_at else ""
        name = self.ref.describe() if self.ref.kind == "url" else f"{self.ref.kind.capitalize()} {self.ref.repo_id}"
        if self.cached:
            why = f": {self.cached_because}" if self.cached_because else ""
            return f"Showing a cached copy of {name}{revision}{when}{why}."
        return f"Showing {name}{revision}{when}."

    def proposals_line(self) -> str | None:
        """Reviews other reviewers proposed in open pull requests, which are not part of the logbook (yet)."""
        if not self.proposed_reviews:
            return None
        listed = ", ".join(f"#{p.num} by {p.author} ({_count(p.folder)})" for p in self.proposed_reviews)
        return f"Reviews proposed in open pull requests, not merged: {listed}."


def _count(folder: Path) -> str:
    try:
        files = sum(1 for f in folder.iterdir() if f.name.endswith(".jsonl"))
    except OSError:
        files = 0
    return f"{files} review file{'s' if files != 1 else ''}"


def _when(stamp: str) -> str:
    return stamp.replace("T", " ").replace("+00:00", " UTC")
