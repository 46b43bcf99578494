"""One logbook in several forms (its workspace, the `.trackio` folder, the published snapshot, a Hub cache copy):
whether two opened logbooks are copies of one, decided on a score over what they contain and what they are named.

The logbook id says where a copy came from, so two forms of one logbook carry two ids; metadata alone never
decides (two corpus logbooks carry one `space_id`), so the pages themselves must mostly be the same files. Only
different forms are compared: two Spaces (or two repositories, two addresses, two workspaces) with the same files
stay two logbooks, since one may have copied the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from reviewapp.core.logbook.model import Logbook

#: weights of the features; copies need the score and most of their pages byte for byte
WEIGHTS = {"pages": 0.5, "claims": 0.3, "named": 0.1, "title": 0.1}
SAME_SCORE = 0.75
MIN_PAGES = 0.5


@dataclass(frozen=True)
class Sameness:
    score: float
    pages: float  # share of pages with the same slug and the same bytes
    claims: float  # share of claim titles in common
    named: bool  # one names the Space the other is, or both name one Space
    forms_differ: bool  # a workspace and a published snapshot, a Hub copy and a folder: not two of one kind
    reason: str

    @property
    def same(self) -> bool:
        return self.forms_differ and self.score >= SAME_SCORE and self.pages >= MIN_PAGES


def sameness(a: Logbook, b: Logbook) -> Sameness:
    pages = _share({(p.slug, p.sha256) for p in a.pages}, {(p.slug, p.sha256) for p in b.pages})
    claims = _share({" ".join(c.title.lower().split()) for c in a.claims}, {" ".join(c.title.lower().split())
                                                                             for c in b.claims})  # fmt: skip
    spaces_a, spaces_b = _spaces(a), _spaces(b)
    named = bool(spaces_a & spaces_b)
    title = bool(a.title) and a.title == b.title
    score = WEIGHTS["pages"] * pages + WEIGHTS["claims"] * claims + WEIGHTS["named"] * named + WEIGHTS["title"] * title
    shared = sorted(spaces_a & spaces_b)
    reason = f"{pages:.0%} of the pages identical, {claims:.0%} of the claims" + (
        f", both {shared[0]}" if shared else ""
    )
    scheme_a, scheme_b = a.logbook_id.partition(":")[0], b.logbook_id.partition(":")[0]
    forms_differ = a.layout != b.layout or scheme_a != scheme_b
    return Sameness(score, pages, claims, named, forms_differ, reason)


def _share(a: set[object], b: set[object]) -> float:
    return len(a & b) / max(len(a), len(b)) if a and b else 0.0


def _spaces(logbook: Logbook) -> set[str]:
    """The Spaces a copy is (its Hub id) or says it is (its metadata)."""
    names = {logbook.space_id.strip().lower()} if logbook.space_id else set()
    scheme, _, rest = logbook.logbook_id.partition(":")
    if scheme == "hf" and rest.startswith("space/"):
        names.add("/".join(rest.split("/")[1:3]).lower())
    return names
