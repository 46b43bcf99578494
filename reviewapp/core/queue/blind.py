"""Blind review: hide who made a logbook everywhere it could leak, with a stable pseudonym standing in.

Identity leaks through the Space owner and name, user names and handles in page text, paths and URLs that contain
them (``/home/<user>/…`` in run output and traces), git authors, the logbook id and source path, and the logbook's
own title. A `Blinder` is built once per logbook from every name known to identify its participant and then
scrubs any text shown to the judge. Home-folder paths are scrubbed whoever they name: a user folder identifies
someone even when the name is not known.

One-letter names are not scrubbed as words (they would blank out ordinary text); they still go in paths and URLs.
Blinding guards against bias, not against a determined reader: a participant who writes their name in an image,
or in words we were never told, is not hidden.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.logbook.locate import NotALogbookError, locate
from reviewapp.core.logbook.logbook_id import logbook_id_for
from reviewapp.core.review.blind_rule import BlindRule

if TYPE_CHECKING:
    from reviewapp.core.logbook.model import Logbook

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
MIN_NAME = 2
MIN_NAME_PART = 3
_HOME = re.compile(r"(?P<lead>/home/|/Users/|[A-Za-z]:\\Users\\|[A-Za-z]:/Users/)(?P<user>[^/\\\s\"'<>]+)")
_HANDLE_URL = re.compile(
    r"(?P<lead>(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co|github\.com|gitlab\.com)/(?:spaces/|datasets/)?)"
    r"(?P<owner>[A-Za-z0-9][\w.-]*)(?:/(?P<name>[A-Za-z0-9][\w.-]*))?",
    re.IGNORECASE,
)
_HF_SPACE_HOST = re.compile(r"(?P<owner>[a-z0-9][a-z0-9-]*)-(?P<name>[a-z0-9][a-z0-9-]*)\.hf\.space", re.IGNORECASE)


def pseudonym(logbook_id: str) -> str:
    """A stable, short stand-in for a participant: the same logbook id always gives the same name."""
    value = int.from_bytes(hashlib.sha256(logbook_id.encode("utf-8")).digest()[:3], "big")
    letters = "".join(_CROCKFORD[(value >> shift) & 31] for shift in (15, 10, 5, 0))
    return f"Participant {letters}"


def names_from_repo_id(repo_id: str) -> set[str]:
    """`owner/name` (a Space id, or the path of a git remote) gives the owner and the pair; the name alone only
    when it looks like an identifier (a dash, underscore or digit), since a Space named `nape` is also a word."""
    parts = [p for p in repo_id.strip("/").split("/") if p]
    if len(parts) < 2:
        return {repo_id} if repo_id else set()
    owner, name = parts[-2], parts[-1].removesuffix(".git")
    names = {owner, f"{owner}/{name}"}
    if re.search(r"[-_\d]", name):
        names.add(name)
    return names


def names_from_author(author: str) -> set[str]:
    """A git author `Name <mail@host>`: the name as written and each of its words, the address and its local
    part."""
    match = re.match(r"^\s*(?P<name>[^<]*?)\s*(?:<(?P<mail>[^>]*)>)?\s*$", author)
    if match is None:
        return {author.strip()} if author.strip() else set()
    names = {match.group("name")} if match.group("name") else set()
    # a first name or surname alone identifies someone too ("Hopper's notes"); very short parts would blank words
    names |= {part for part in re.split(r"[\s.]+", match.group("name") or "") if len(part) >= MIN_NAME_PART}
    mail = match.group("mail") or (author.strip() if "@" in author and " " not in author.strip() else "")
    if mail:
        names |= {mail, mail.split("@", 1)[0]}
    return {n for n in names if n}


def identity_names(
    logbook_id: str,
    space_ids: Iterable[str | None] = (),
    authors: Iterable[str] = (),
) -> set[str]:
    """Every name known to identify the participant: from the logbook id, the Space ids the logbook names, and
    git authors (names and e-mail addresses with their local parts)."""
    names: set[str] = set()
    kind, _, rest = logbook_id.partition(":")
    if kind == "hf":
        names |= names_from_repo_id(rest.split("/", 1)[1] if "/" in rest else rest)
    elif kind == "git":
        path = re.sub(r"^[a-z+]+://[^/]+/|^[^@/]+@[^:]+:|^[^/]+/", "", rest)
        names |= names_from_repo_id("/".join(path.split("/")[:2]))
    for space in space_ids:
        if space:
            names |= names_from_repo_id(space)
    for author in authors:
        names |= names_from_author(author)
    return {n for n in names if n.strip()}


@dataclass(frozen=True, slots=True)
class Blinder:
    alias: str
    names: tuple[str, ...]
    _words: re.Pattern[str] | None

    @classmethod
    def for_logbook(cls, logbook_id: str, names: Iterable[str]) -> Blinder:
        spellings: set[str] = set()
        for name in names:
            if len(name) < MIN_NAME:
                continue
            spellings.add(name)
            # people write handles with -, _, . or a space interchangeably
            spellings.update(re.sub(r"[-_. ]", sep, name) for sep in ("-", "_", " ", "."))
        ordered = tuple(sorted(spellings, key=lambda s: (-len(s), s)))
        words = (
            re.compile(r"(?<![\w])(?:" + "|".join(re.escape(s) for s in ordered) + r")(?![\w])", re.IGNORECASE)
            if ordered
            else None
        )
        return cls(pseudonym(logbook_id), ordered, words)

    @property
    def slug(self) -> str:
        return self.alias.lower().replace(" ", "-")

    def scrub(self, text: str) -> str:
        if not text:
            return text
        text = _HOME.sub(lambda m: f"{m.group('lead')}{self.slug}", text)
        text = _HANDLE_URL.sub(self._url, text)
        text = _HF_SPACE_HOST.sub(f"{self.slug}.hf.space", text)
        if self._words is not None:
            text = self._words.sub(self.alias, text)
        return text

    def rule(self, me: str, base: Path | None) -> BlindRule:
        """The blind rule every view of this logbook applies for reviewer `me` (`base`: the logbook's folder)."""
        return BlindRule(me=me, alias=self.alias, scrub=self.scrub, base=base)

    def _url(self, match: re.Match[str]) -> str:
        known = {n.lower() for n in self.names}
        owner = match.group("owner")
        name = match.group("name")
        if owner.lower() not in known and (name is None or name.lower() not in known):
            return match.group(0)
        return f"{match.group('lead')}{self.slug}" + ("/logbook" if name else "")


def folder_pseudonym(folder: Path) -> str:
    """The pseudonym a logbook opened from `folder` is shown under (File > Open Recent while blind)."""
    try:
        root = locate(folder).root
    except (OSError, NotALogbookError):
        root = folder
    return pseudonym(logbook_id_for(root))


def blinder_for(logbook_id: str, logbook: Logbook | None, authors: Iterable[str] = ()) -> Blinder:
    """The blinder of one logbook: every name its id, its metadata and manifest Space ids and `authors` give."""
    spaces: list[str | None] = []
    if logbook is not None:
        spaces = [
            logbook.space_id,
            _text(logbook.metadata.get("space_id")),
            _text((logbook.manifest or {}).get("space_id")),
        ]
    return Blinder.for_logbook(logbook_id, identity_names(logbook_id, spaces, authors))


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
