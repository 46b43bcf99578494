"""Blind review as every view applies it: one rule for the claim list, the verdict editor, the export, the
agreement view, the artifact cards, the timeline and File > Open Recent, never one per view.

While a logbook is reviewed blind:
- no name of the participant is shown: text goes through the logbook's scrubber (`core/queue/blind.Blinder`), a
  path is shown relative to the logbook's folder (the folder itself, a checkout `OWNER__NAME` or the Hub cache's
  `spaces--OWNER--NAME`, names them) or, outside it, as the pseudonym and the file's name, and a file the app
  suggests is named by the pseudonym;
- no other reviewer's record on a claim is shown (nor counted) until this reviewer has saved a verdict on that
  claim: no anchoring on a colleague's verdict, no name of who else judged it. Records not on a claim (a note on
  a page or the logbook) stay hidden while blind.

`BlindRule.SEEING_ALL` (not blind) shows everything as it is, so a view can always hold a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, TypeVar

from reviewapp.core.review.records import RecordBase, VerdictRecord
from reviewapp.core.review.state import AnnotationState

R = TypeVar("R", bound=RecordBase)


def _unchanged(text: str) -> str:
    return text


@dataclass(frozen=True)
class BlindRule:
    me: str = ""  # the reviewer looking
    alias: str = ""  # the participant's pseudonym; "" when not blind
    scrub: Callable[[str], str] = field(default=_unchanged, compare=False)
    base: Path | None = None  # the logbook's folder: shown paths are relative to it

    SEEING_ALL: ClassVar[BlindRule]

    @property
    def blind(self) -> bool:
        return bool(self.alias)

    # -- names --------------------------------------------------------------------------------------------------

    def text(self, text: str) -> str:
        return self.scrub(text) if self.blind and text else text

    def path(self, path: Path | str) -> str:
        """A path as shown: whole when not blind; relative to the logbook's folder, else the pseudonym and the
        file's name, while blind."""
        path = Path(path)
        if not self.blind:
            return str(path)
        if self.base is not None:
            for inside, base in ((path, self.base), (path.resolve(), self.base.resolve())):
                if inside.is_relative_to(base):
                    return self.text(inside.relative_to(base).as_posix())
        return f"{self.alias}/…/{self.text(path.name)}"

    def file_stem(self, name: str) -> str:
        """The stem of a file the app suggests (an export): `name` when not blind, the pseudonym while blind."""
        return self.alias.lower().replace(" ", "-") if self.blind else name

    # -- other reviewers' records -------------------------------------------------------------------------------

    def reveals(self, state: AnnotationState, claim_key: str | None) -> bool:
        """Whether others' records on the claim may be shown: always when not blind; while blind only once this
        reviewer has a verdict on it (never for records on no claim)."""
        if not self.blind:
            return True
        return bool(claim_key) and state.verdict(claim_key or "", self.me) is not None

    def shows(self, state: AnnotationState, record: RecordBase) -> bool:
        """Whether `record` may be shown and counted in what this reviewer sees."""
        return record.annotator == self.me or self.reveals(state, record.target.claim)

    def shown(self, state: AnnotationState, records: list[R]) -> list[R]:
        return [r for r in records if self.shows(state, r)]

    def verdicts(self, state: AnnotationState, claim_key: str) -> dict[str, VerdictRecord]:
        """The verdicts on a claim this reviewer may see, by annotator."""
        found = state.verdicts(claim_key)
        if self.reveals(state, claim_key):
            return found
        return {name: r for name, r in found.items() if name == self.me}


BlindRule.SEEING_ALL = BlindRule()
