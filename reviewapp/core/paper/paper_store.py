"""Paper-level records (hand alignments of claims across logbooks, author responses), kept in the user's data
folder: `<data>/papers/<orid>/<annotator slug>.jsonl`, in the same append-only format as a logbook's reviews.

They belong to no single logbook, so they are never committed into one; the paper view exports them (Markdown,
JSON) or they are copied into a repository the user names.
"""

from __future__ import annotations

import re
from pathlib import Path

from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.review.store import AnnotationStore, ReviewsLocation

_ORID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class PaperIdError(ValueError):
    """Not a paper id this app can keep records for."""


def papers_dir() -> Path:
    return user_data_dir() / "papers"


def paper_folder(orid: str) -> Path:
    if not _ORID.match(orid):
        raise PaperIdError(f"{orid!r} is not a paper id (an OpenReview id such as GW3umRqsZZ)")
    return papers_dir() / orid


class PaperStore(AnnotationStore):
    """The record files of one paper; reads and appends exactly like a logbook's store, in its own folder."""

    def __init__(self, orid: str) -> None:
        folder = paper_folder(orid)
        super().__init__(folder, writable=True, logbook_id=f"path:{folder}")
        self.orid = orid
        self._paper_folder = folder

    @property
    def location(self) -> ReviewsLocation:
        return ReviewsLocation(self._paper_folder, self._paper_folder, False, None)

    def migrate(self) -> Path | None:
        return None

    def read_folders(self) -> list[Path]:
        folder = self._paper_folder
        return [folder] if folder.is_dir() and not folder.is_symlink() else []

    def prepare_folder(self) -> Path:
        self._paper_folder.parent.mkdir(parents=True, exist_ok=True)
        return super().prepare_folder()
