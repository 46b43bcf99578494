"""Logbook metadata: a loose bag of hints whose field types drift between Trackio versions and scaffolds."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewapp.core.io.coerce import as_name
from reviewapp.core.io.safepath import UnsafeReference, read_inside
from reviewapp.core.logbook.model import Problem

JSON_LIMIT = 64 * 1024 * 1024
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{10}$")


@dataclass(frozen=True)
class PaperInfo:
    paper_id: str | None
    title: str | None
    arxiv_id: str | None


def read_json_object(
    path: Path, display: str, problems: list[Problem], *, root: Path, required: bool = False
) -> dict[str, Any] | None:
    """A JSON object from `path`, or None with a problem recorded; never raises on bad content.

    `path` lies inside `root` and is read with the same containment as pages: a symlink leading out of `root`
    is refused, as is anything but a regular file.
    """
    if not os.path.lexists(path):
        if required:
            problems.append(Problem(display, None, "file is missing"))
        return None
    try:
        data = read_inside(root, os.path.relpath(path, root), JSON_LIMIT)
    except UnsafeReference as exc:
        problems.append(Problem(display, None, str(exc)))
        return None
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        problems.append(Problem(display, _line_of(data, exc.start), "not valid UTF-8"))
        return None
    except json.JSONDecodeError as exc:
        problems.append(Problem(display, exc.lineno, f"invalid JSON: {exc.msg}"))
        return None
    except RecursionError:
        problems.append(Problem(display, None, "invalid JSON: nested too deeply"))
        return None
    if not isinstance(value, dict):
        problems.append(Problem(display, 1, f"expected a JSON object, found {type(value).__name__}"))
        return None
    return value


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def tags_of(*sources: dict[str, Any] | None) -> list[str]:
    tags: list[str] = []
    for source in sources:
        values = source.get("tags") if source else None
        if isinstance(values, list):
            tags.extend(t for t in values if isinstance(t, str) and t not in tags)
    return tags


def paper_tag_ids(tags: list[str]) -> list[str]:
    """The ids of `paper-<id>` (or `paper:<id>`) tags, in order."""
    prefix = len("paper-")
    return [t[prefix:].strip() for t in tags if t[:prefix].lower() in ("paper-", "paper:") and t[prefix:].strip()]


def paper_info(
    metadata: dict[str, Any], manifest: dict[str, Any] | None, tags: list[str], card_tags: Sequence[str] = ()
) -> PaperInfo:
    """OpenReview id from paper.openreview_id, else a `paper-<id>` tag shaped like one, else the text given.

    `card_tags` (the Space card's) are the last resort, after everything metadata and manifest say.
    """
    papers = [metadata.get("paper"), (manifest or {}).get("paper")]
    objects = [p for p in papers if isinstance(p, dict)]
    texts = [p.strip() for p in papers if isinstance(p, str) and p.strip()]
    paper_id = next((as_name(p.get("openreview_id")) for p in objects if as_name(p.get("openreview_id"))), None)
    paper_id = paper_id or as_name(metadata.get("paper_orid")) or as_name(metadata.get("openreview_id"))
    tag_ids = paper_tag_ids(tags)
    if not paper_id:
        paper_id = next((t for t in tag_ids if _OPENREVIEW_ID.match(t)), None)
    if not paper_id:
        paper_id = next((as_name(p.get("id")) for p in objects if as_name(p.get("id"))), None)
    paper_id = paper_id or (texts[0] if texts else None) or (tag_ids[0] if tag_ids else None)
    if not paper_id:
        card_ids = paper_tag_ids(list(card_tags))
        paper_id = next((t for t in card_ids if _OPENREVIEW_ID.match(t)), card_ids[0] if card_ids else None)
    title = next((as_name(p.get("title")) for p in objects if as_name(p.get("title"))), None)
    arxiv = next((as_name(p.get("arxiv_id")) for p in objects if as_name(p.get("arxiv_id"))), None)
    arxiv = arxiv or as_name(metadata.get("paper_arxiv_id")) or as_name(metadata.get("paper_arxiv"))
    return PaperInfo(paper_id, title, arxiv)
