"""The Logbook Judge slot of one open logbook: its stored import, read once, matched to the claims as reviewers
left them, with the re-matches reviewers made by hand.

Matching every claim again is the expensive part (hundreds of milliseconds with a registry of thirty claims), and
most commands cannot change its answer: a verdict, a note, a rubric score leave the claims and the re-matches as
they were. So the match is keyed by what it depends on (the import and registry by their sha256, the re-matches,
the claims' keys and titles) and made again only when that key changes. `matches_made` counts the matches, so
that a test can check a save made none.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.revision import LogbookRevision, logbook_revision
from reviewapp.core.logbook_judge.import_paths import logbook_id_of
from reviewapp.core.logbook_judge.judged import JudgedLogbook, judge_logbook
from reviewapp.core.logbook_judge.registry import RegistryClaim
from reviewapp.core.logbook_judge.stored import StoredImport, StoredImportError, load_import
from reviewapp.core.review.logbook_judge_matches import manual_matches
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.verdicts import Verdict


@dataclass(frozen=True)
class _Imported:
    stored: StoredImport
    registry: tuple[RegistryClaim, ...] | None
    revision: LogbookRevision


class LogbookJudgeSlot:
    def __init__(self, logbook: Logbook, data_dir: Path | None = None, *, enabled: bool = True) -> None:
        self.logbook = logbook
        self.data_dir = data_dir
        self.enabled = enabled  # False: the slot stays empty, no import is read
        self.judged: JudgedLogbook | None = None
        self.problem: str | None = None  # why the stored import could not be read (shown, never raised)
        self.matches_made = 0
        self._imported: _Imported | None = None
        self._read = False
        self._key: tuple[object, ...] | None = None
        self._verdicts: dict[str, Verdict] = {}

    @property
    def stored(self) -> StoredImport | None:
        """The stored import (None: nothing imported for this logbook, or a damaged import)."""
        self._read_once()
        return self._imported.stored if self._imported is not None else None

    def verdicts(self) -> dict[str, Verdict]:
        """The J slot: claim key -> the Logbook Judge's verdict, for matched claims with a verdict."""
        return dict(self._verdicts)

    def verdict(self, claim_key: str) -> Verdict | None:
        return self._verdicts.get(claim_key)

    def match_confidence(self) -> dict[str, float]:
        if self.judged is None:
            return {}
        return {m.claim_key: m.confidence for m in self.judged.result.matches if m.claim_key}

    def reread(self) -> None:
        """Read the stored import again on the next update (after an import, or a reload)."""
        self._read = False  # the match key names the import: the same import read again is not matched again

    def update(self, state: AnnotationState | None) -> bool:
        """Match the import to the claims of `state` (the reader's claims without one) when anything the match
        depends on changed; True when the slot's verdicts may differ from before."""
        self._read_once()
        imported = self._imported
        if imported is None:
            changed = self.judged is not None
            self.judged, self._key, self._verdicts = None, None, {}
            return changed
        claims = state.effective_claims() if state is not None else None
        manual: Mapping[int, str | None] = manual_matches(state, imported.stored.entry.space_id) if state else {}
        shown = claims if claims is not None else self.logbook.claims
        key = (
            imported.stored.source_sha256,
            imported.stored.imported_at,
            imported.stored.entry.key,
            imported.stored.registry_sha256,
            tuple(sorted(manual.items(), key=lambda item: item[0])),
            tuple((c.key, c.n, c.title, c.page, tuple(c.cells)) for c in shown),
        )
        if key == self._key:
            return False
        self._key = key
        self.matches_made += 1
        self.judged = judge_logbook(
            self.logbook,
            imported.stored.entry,
            imported.registry,
            manual,
            claims=claims,
            link=imported.stored.link,
            revision=imported.revision,
        )
        self._verdicts = self.judged.verdicts()
        return True

    def _read_once(self) -> None:
        if self._read or not self.enabled:
            return
        self._read = True
        self._imported, self.problem = None, None
        try:
            stored = load_import(logbook_id_of(self.logbook), self.data_dir)
        except (StoredImportError, OSError, ValueError) as exc:
            self.problem = str(exc)
            return
        if stored is not None:
            # the revision costs a git run: looked up once per import read, not once per match
            revision = logbook_revision(self.logbook.root)
            self._imported = _Imported(stored, stored.registry_claims(self.data_dir), revision)
