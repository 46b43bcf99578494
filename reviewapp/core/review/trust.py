"""Which records count: the one check every replay applies (`AnnotationStore.load`), so the queue, `rank`, the
paper view, agreement, decisions and the window all count the same records.

- A record dated in the future (beyond a few minutes of clock skew) is refused: a later date would let a planted
  record win over the reviewer's own.
- With a roster of reviewers' public keys (a queue's `roster: FILE`, else the reviewer's settings, `reviewapp key
  roster FILE`), a record counts
  only when it provably comes from the reviewer it names: signed by a key the roster lists for that name (or by
  this reviewer's own key, for her). Her own records in her data folder are authoritative for her, signed or not.
  Any other record is set apart as unverified ("unverified: claims to be Judge Bea", with its file): reported,
  never applied, so it is never counted and never supersedes a verified one.
- Without a roster everything counts as before and records are "unsigned" (a participant rating pairs alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from reviewapp.core.io.paths import user_data_dir
from reviewapp.core.review.identity import annotator_slug
from reviewapp.core.review.preferences import load_preferences
from reviewapp.core.review.records import RecordBase
from reviewapp.core.review.signing import (
    Roster,
    RosterError,
    key_path,
    load_signing_key,
    public_key_text,
    read_roster,
)

CLOCK_SKEW = timedelta(minutes=5)
OWN_REVIEW_FOLDERS = ("reviews", "papers")  # in the data folder: a logbook's reviews kept here, a paper's records


@dataclass(frozen=True)
class Trust:
    roster: Roster | None  # None: no roster, every record counts ("unsigned")
    me: str | None = None  # the reviewer at this machine
    own_key: str | None = None  # her public key
    own_folders: tuple[Path, ...] = ()  # where her data folder keeps review files: her records there are hers
    problem: str | None = None  # the roster is configured but cannot be used (then only her own records count)

    @classmethod
    def from_settings(cls, roster: Path | None = None) -> Trust:
        """The reviewer's trust: checked against `roster` when given (a queue's), else the settings' roster."""
        preferences = load_preferences()
        # only the folders the app writes review files into: downloads (a published URL's copy) are elsewhere
        me, folder = preferences.annotator, tuple(user_data_dir() / name for name in OWN_REVIEW_FOLDERS)
        roster_file = str(roster) if roster is not None else preferences.roster
        if not roster_file:
            return cls(None, me, None, folder)  # nothing to check: the key (and `cryptography`) is not loaded
        key = load_signing_key()
        own_key = public_key_text(key) if key is not None else None
        try:
            return cls(read_roster(Path(roster_file)), me, own_key, folder)
        except RosterError as exc:
            return cls(Roster(Path(roster_file), {}), me, own_key, folder, str(exc))

    @property
    def label(self) -> str:
        return (
            "unsigned (no roster of reviewers' keys)" if self.roster is None else f"checked against {self.roster.path}"
        )

    def future(self, record: RecordBase, now: datetime | None = None) -> bool:
        return record.created_at > (now or datetime.now(UTC)) + CLOCK_SKEW

    def counts(self, record: RecordBase, path: Path) -> bool:
        """Whether `record`, read from `path`, may be applied (the future date is checked apart)."""
        if self.roster is None:
            return True
        if self.me and annotator_slug(record.annotator) == annotator_slug(self.me) and self._in_own_folder(path):
            return True
        return self.roster.vouches(record, self.own_key, self.me)

    def _in_own_folder(self, path: Path) -> bool:
        try:
            resolved = path.resolve()
            return any(resolved.is_relative_to(folder.resolve()) for folder in self.own_folders)
        except OSError:
            return False


def trust_stamp(roster: Path | None = None) -> str:
    """What `Trust.from_settings(roster)` is made of, as a stamp: the reviewer's name, the roster file in force
    and her key file, each with its size and modification time (a queue's row cache keeps rows by it)."""
    preferences = load_preferences()
    roster_file = str(roster) if roster is not None else preferences.roster
    parts = [f"me={preferences.annotator}", f"data={user_data_dir()}"]
    for name, path in (("roster", Path(roster_file) if roster_file else None), ("key", key_path())):
        if path is None:
            parts.append(f"{name}=none")
            continue
        try:
            info = path.stat()
            parts.append(f"{name}={path}\0{info.st_size}\0{info.st_mtime_ns}")
        except OSError:
            parts.append(f"{name}={path}\0missing")
    return "\n".join(parts)
