"""Tags a reviewer attaches to verdicts and notes: a default list of common findings, extended per user."""

from __future__ import annotations

import re
from collections.abc import Iterable

DEFAULT_TAGS: tuple[str, ...] = (
    "stopped too early",
    "units mismatch",
    "padding in evaluation",
    "scale below paper",
    "code differs from theory",
    "metric differs from paper",
    "missing baseline",
    "cherry-picked result",
    "evidence missing",
    "numbers not reproducible",
)

MAX_TAG_LENGTH = 60
_SPACES = re.compile(r"\s+")


def normalize_tag(text: str) -> str:
    """One spelling per tag: trimmed, inner whitespace collapsed; raise ValueError when empty or too long."""
    tag = _SPACES.sub(" ", text).strip()
    if not tag:
        raise ValueError("a tag cannot be empty")
    if len(tag) > MAX_TAG_LENGTH:
        raise ValueError(f"a tag has at most {MAX_TAG_LENGTH} characters (got {len(tag)})")
    if any(ord(c) < 32 or ord(c) == 127 for c in tag):
        raise ValueError("a tag cannot contain control characters")
    return tag


def unique_tags(tags: Iterable[str]) -> list[str]:
    """Tags in first-seen order without case-insensitive duplicates."""
    seen: set[str] = set()
    result: list[str] = []
    for tag in tags:
        folded = tag.casefold()
        if folded not in seen:
            seen.add(folded)
            result.append(tag)
    return result


def tag_choices(extra: Iterable[str] = ()) -> list[str]:
    """What the tag picker offers: the defaults, then the user's own additions."""
    return unique_tags([*DEFAULT_TAGS, *extra])
