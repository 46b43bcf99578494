"""A logbook together with its Logbook Judge entry: the J verdict, evidence and match of each claim.

Built from a stored import (or a one-off verdicts file), the claim registry when one was imported, and the
reviewer's re-matches by hand. This is what the window, `inspect --verdicts` and `agreement` all read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.revision import LogbookRevision, logbook_revision
from reviewapp.core.logbook_judge.entries import JudgeEntry
from reviewapp.core.logbook_judge.import_paths import logbook_id_of
from reviewapp.core.logbook_judge.matching import (
    ClaimLike,
    ClaimMatch,
    MatchResult,
    claim_texts,
    logbook_judge_claims_with_text,
    match_claims,
)
from reviewapp.core.logbook_judge.registry import RegistryClaim
from reviewapp.core.verdicts import Verdict


@dataclass(frozen=True)
class RevisionCheck:
    judged: str | None  # the Space commit the Logbook Judge judged (`sha`), when the entry names it
    opened: str | None  # the revision open here: Hub snapshot or download commit, else git HEAD
    same: bool | None  # None: cannot tell

    @property
    def warning(self) -> str | None:
        if self.judged is None or self.same:
            return None
        if self.opened is None:
            return f"The Logbook Judge judged revision {self.judged[:12]}; the revision open here is unknown."
        return (
            f"The Logbook Judge judged revision {self.judged[:12]}, but revision {self.opened[:12]} is open: "
            "pages may have changed since."
        )


def snapshot_sha(root: Path) -> str | None:
    """The commit of a Hub cache snapshot folder holding the logbook (`…/snapshots/<sha>/…`)."""
    parts = root.resolve().parts
    for i, part in enumerate(parts[:-1]):
        if part == "snapshots" and len(parts[i + 1]) == 40 and all(c in "0123456789abcdef" for c in parts[i + 1]):
            return parts[i + 1]
    return None


def check_revision(entry: JudgeEntry, root: Path, revision: LogbookRevision | None = None) -> RevisionCheck:
    revision = revision or logbook_revision(root)
    opened = [r for r in (snapshot_sha(root), revision.space_sha, revision.git_head) if r]
    if entry.sha is None:
        return RevisionCheck(None, opened[0] if opened else None, None)
    judged = entry.sha.lower()
    same = any(r.lower().startswith(judged) or judged.startswith(r.lower()) for r in opened) if opened else None
    return RevisionCheck(entry.sha, opened[0] if opened else None, same)


@dataclass
class JudgedLogbook:
    entry: JudgeEntry
    result: MatchResult
    revision: RevisionCheck
    link: Mapping[str, object] = field(default_factory=dict)

    def verdicts(self) -> dict[str, Verdict]:
        """The J slot: claim key -> the Logbook Judge's verdict, for matched claims with a verdict."""
        out: dict[str, Verdict] = {}
        for m in self.result.matches:
            for key in m.claim_keys:
                if m.judge.verdict is not None:
                    out.setdefault(key, m.judge.verdict)  # merged claims: the first registry claim's verdict
        return out

    def match(self, claim_key: str) -> ClaimMatch | None:
        return self.result.for_claim(claim_key)


def judge_logbook(
    logbook: Logbook,
    entry: JudgeEntry,
    registry: Sequence[RegistryClaim] | None = None,
    manual: Mapping[int, str | None] | None = None,
    claims: Iterable[ClaimLike] | None = None,
    link: Mapping[str, object] | None = None,
    revision: LogbookRevision | None = None,
) -> JudgedLogbook:
    judge, notes = logbook_judge_claims_with_text(entry, registry)
    result = match_claims(judge, claim_texts(logbook, claims), manual, notes)
    return JudgedLogbook(entry, result, check_revision(entry, logbook.root, revision), dict(link or {}))


_SPACE_PREFIXES = ("hf:space/", "git:huggingface.co/spaces/", "git:hf.co/spaces/")
_DATASET_PREFIXES = ("hf:dataset/", "git:huggingface.co/datasets/", "git:hf.co/datasets/")


def opened_from_space(logbook_id: str) -> str | None:
    """OWNER/NAME when the logbook was opened from a Space: downloaded (`hf:space/OWNER/NAME[/path]`) or a git
    clone of it (`git:huggingface.co/spaces/OWNER/NAME[/path]`)."""
    return _repo_after(logbook_id, _SPACE_PREFIXES)


def hub_owners(logbook_id: str) -> list[str]:
    """Hub accounts the logbook's source belongs to (a dataset's owner): hints for linking by paper and owner.
    A GitHub owner is not one: the same team often publishes under another name on the Hub."""
    repo = _repo_after(logbook_id, _DATASET_PREFIXES) or opened_from_space(logbook_id)
    return [repo.split("/")[0]] if repo else []


def _repo_after(logbook_id: str, prefixes: tuple[str, ...]) -> str | None:
    prefix = next((p for p in prefixes if logbook_id.startswith(p)), None)
    if prefix is None:
        return None
    parts = logbook_id[len(prefix) :].split("/")
    return f"{parts[0]}/{parts[1]}" if len(parts) >= 2 and parts[0] and parts[1] else None


def judged_from_store(
    logbook: Logbook,
    manual: Mapping[int, str | None] | None = None,
    claims: Iterable[ClaimLike] | None = None,
    data_dir: Path | None = None,
) -> JudgedLogbook | None:
    """The stored import for this logbook, matched to its claims; None when nothing was imported for it."""
    from reviewapp.core.logbook_judge.stored import load_import

    stored = load_import(logbook_id_of(logbook), data_dir)
    if stored is None:
        return None
    return judge_logbook(logbook, stored.entry, stored.registry_claims(data_dir), manual, claims, link=stored.link)
