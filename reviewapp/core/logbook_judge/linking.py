"""Which Logbook Judge entry is about a logbook.

In order of trust: the Space the logbook was opened from; else the `space_id` its metadata or manifest names (both,
when they differ); else the paper id together with the owner. A link that is ambiguous (two entries fit) or weak
(only the paper fits, or the hints point at a Space other than the one opened) is reported and not taken; `--space`
forces one. Metadata is a hint, never proof: two corpus logbooks carry the same `space_id`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from reviewapp.core.io.coerce import as_name
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook_judge.entries import JudgeEntry

Strength = Literal["forced", "strong", "weak", "ambiguous", "none"]


class LinkError(ValueError):
    """`--space` names a Space no entry is about."""


@dataclass(frozen=True, slots=True)
class SpaceHints:
    """What a logbook says about where it was published; `opened_from` is a fact, the rest are hints."""

    opened_from: str | None = None
    metadata: str | None = None
    manifest: str | None = None
    paper_id: str | None = None
    owners: tuple[str, ...] = ()  # owners known for this logbook (from the Space ids above, a git remote, ...)

    @classmethod
    def of(cls, logbook: Logbook, opened_from: str | None = None, owners: Iterable[str] = ()) -> SpaceHints:
        metadata = as_name(logbook.metadata.get("space_id")) if isinstance(logbook.metadata, dict) else None
        manifest = as_name((logbook.manifest or {}).get("space_id"))
        known = [o for o in owners if o]
        for space in (opened_from, metadata, manifest):
            if space and "/" in space and space.split("/")[0] not in known:
                known.append(space.split("/")[0])
        return cls(opened_from, metadata, manifest, logbook.paper_id, tuple(known))

    def spaces(self) -> list[str]:
        return list(dict.fromkeys(s for s in (self.metadata, self.manifest) if s))


@dataclass
class Link:
    entry: JudgeEntry | None  # the entry taken; None when the link is weak, ambiguous or absent
    strength: Strength
    method: str  # how it was found, in words
    candidates: list[JudgeEntry] = field(default_factory=list)  # entries that fit but were not taken
    notes: list[str] = field(default_factory=list)

    @property
    def taken(self) -> bool:
        return self.entry is not None

    def to_json(self) -> dict[str, object]:
        return {
            "space_id": self.entry.space_id if self.entry else None,
            "key": self.entry.key if self.entry else None,
            "strength": self.strength,
            "method": self.method,
            "candidates": [c.key for c in self.candidates],
            "notes": self.notes,
        }


def entries_for_space(entries: Sequence[JudgeEntry], space: str) -> list[JudgeEntry]:
    """Entries keyed by `space` or whose inner `space_id` is `space` (Space ids compare case-insensitively)."""
    wanted = space.strip().lower()
    return [e for e in entries if wanted in (s.lower() for s in e.space_ids)]


def link_entry(entries: Sequence[JudgeEntry], hints: SpaceHints, forced: str | None = None) -> Link:
    if forced:
        found = entries_for_space(entries, forced)
        if not found:
            raise LinkError(f"no Logbook Judge entry for Space {forced}")
        if len(found) > 1:
            exact = [e for e in found if e.key.lower() == forced.strip().lower()]
            found = exact or found
        link = Link(found[0], "forced", f"forced with --space {forced}", found[1:])
        _check_paper(link, hints)
        return link
    if hints.opened_from:
        found = entries_for_space(entries, hints.opened_from)
        if len(found) == 1:
            link = Link(found[0], "strong", f"the Space it was opened from ({hints.opened_from})")
            for space in hints.spaces():
                if space.lower() != hints.opened_from.lower():
                    link.notes.append(f"Its metadata names another Space, {space}; the opened Space is used.")
            _check_paper(link, hints)
            return link
        if len(found) > 1:
            return _ambiguous(found, f"several entries name the opened Space {hints.opened_from}")
    by_hint: dict[str, JudgeEntry] = {}
    for space in hints.spaces():
        for entry in entries_for_space(entries, space):
            by_hint.setdefault(entry.key, entry)
    named = " and ".join(hints.spaces())
    if len(by_hint) == 1:
        entry = next(iter(by_hint.values()))
        where = _where(hints, entry)
        if hints.opened_from:
            return Link(
                None,
                "weak",
                f"{where} names {entry.space_id}, but it was opened from {hints.opened_from}",
                [entry],
                ["Not taken: the judged Space is not the one opened; use --space to take it."],
            )
        link = Link(entry, "strong", where)
        if hints.metadata and hints.manifest and hints.metadata.lower() != hints.manifest.lower():
            link.notes.append(f"Metadata and manifest name two Spaces ({named}); only {entry.key} was judged.")
        _check_paper(link, hints)
        return link
    if len(by_hint) > 1:
        return _ambiguous(list(by_hint.values()), f"the logbook names {named}, and each has an entry")
    return _by_paper(entries, hints)


def _where(hints: SpaceHints, entry: JudgeEntry) -> str:
    ids = {s.lower() for s in entry.space_ids}
    sources = [
        name
        for name, space in (("metadata", hints.metadata), ("manifest", hints.manifest))
        if space and space.lower() in ids
    ]
    return f"space_id in the logbook's {' and '.join(sources)}"


def _by_paper(entries: Sequence[JudgeEntry], hints: SpaceHints) -> Link:
    if not hints.paper_id:
        return Link(None, "none", "no Space id and no paper id to look for")
    paper = hints.paper_id.lower()
    same_paper = [e for e in entries if e.orid and e.orid.lower() == paper]
    if not same_paper:
        return Link(None, "none", f"no entry names this logbook's Space or its paper {hints.paper_id}")
    owners = {o.lower() for o in hints.owners}
    same_owner = [e for e in same_paper if any(s.split("/")[0].lower() in owners for s in e.space_ids)]
    if len(same_owner) == 1:
        link = Link(same_owner[0], "strong", f"paper {hints.paper_id} and owner {same_owner[0].key.split('/')[0]}")
        link.notes.append("The logbook names no Space; the entry was found by paper and owner.")
        return link
    if len(same_owner) > 1:
        return _ambiguous(same_owner, f"several entries of owner(s) {', '.join(sorted(owners))} for this paper")
    return Link(
        None,
        "weak",
        f"only the paper id {hints.paper_id} fits ({len(same_paper)} entr{'y' if len(same_paper) == 1 else 'ies'}, "
        "no owner in common)",
        same_paper,
        ["Not taken: a paper id alone does not say whose logbook was judged; use --space to take one."],
    )


def _ambiguous(found: list[JudgeEntry], why: str) -> Link:
    return Link(None, "ambiguous", why, found, ["Not taken: choose one with --space."])


def _check_paper(link: Link, hints: SpaceHints) -> None:
    entry = link.entry
    if entry and entry.orid and hints.paper_id and entry.orid.lower() != hints.paper_id.lower():
        link.notes.append(f"The entry judged paper {entry.orid}; the logbook names paper {hints.paper_id}.")
