"""Tags from a Space card: the YAML front matter of the README.md beside a Space's pages.

Only the `tags:` list is read, by a small line parser (block list `- tag` or flow list `[a, b]`); nothing is
evaluated and no YAML library is involved. The read is bounded: the card's first CARD_LIMIT bytes, at most
TAG_LIMIT tags of at most TAG_LENGTH characters. A card that is missing, unreadable, unsafe (a link out of
the folder) or malformed gives no tags: the card is only a last-resort hint.
"""

from __future__ import annotations

import os
from pathlib import Path

from reviewapp.core.io.safepath import UnsafeReference, is_contained, read_head, resolve_inside

CARD_FILE = "README.md"
CARD_LIMIT = 64 * 1024
TAG_LIMIT = 200
TAG_LENGTH = 200
_FENCE = "---"


def space_card_tags(root: Path) -> list[str]:
    """The `tags:` of the Space card in `root`, or [] when there is no readable, well-formed front matter."""
    try:
        path = resolve_inside(root, CARD_FILE)
        if not os.path.lexists(path):
            return []
        real = os.path.realpath(path)
        if not is_contained(root, Path(real)):
            return []
        data = read_head(real, CARD_LIMIT, follow=False)
    except (UnsafeReference, OSError):
        return []
    return front_matter_tags(data.decode("utf-8-sig", errors="replace"))


def front_matter_tags(text: str) -> list[str]:
    """The `tags:` list of the front matter opening `text`; [] when it is absent, unclosed or has no tags."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != _FENCE:
        return []
    try:
        end = next(i for i, line in enumerate(lines[1:], start=1) if line.strip() == _FENCE)
    except StopIteration:  # unclosed (or closed past the bytes read): not trusted
        return []
    return _tags_in(lines[1:end])


def _tags_in(lines: list[str]) -> list[str]:
    for i, line in enumerate(lines):
        if line[:1].isspace() or not line.startswith("tags:"):
            continue  # only the top-level key counts, not a nested `tags:`
        inline = line[len("tags:") :].strip()
        if inline:
            return _flow_list(inline)
        return _block_list(lines[i + 1 :])
    return []


def _flow_list(value: str) -> list[str]:
    if not (value.startswith("[") and value.endswith("]")):
        return [] if not value or value.startswith(("{", "|", ">", "&", "*", "!")) else _capped([value])
    return _capped(value[1:-1].split(","))


def _block_list(lines: list[str]) -> list[str]:
    items: list[str] = []
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not stripped.startswith("-"):
            break  # the next key ends the list
        items.append(stripped[1:])
        if len(items) >= TAG_LIMIT:
            break
    return _capped(items)


def _capped(raw: list[str]) -> list[str]:
    tags: list[str] = []
    for item in raw[:TAG_LIMIT]:
        tag = _unquoted(item.split(" #", 1)[0].strip())
        if tag and len(tag) <= TAG_LENGTH and tag not in tags:
            tags.append(tag)
    return tags


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1].strip()
    return value
