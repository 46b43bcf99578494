"""The Space card's front matter is a last-resort hint for the paper id; reading it is bounded and inert."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.space_card import CARD_LIMIT, TAG_LIMIT, front_matter_tags, space_card_tags
from reviewapp.core.logbook.writer import LogbookDraft


def space_without_paper(tmp_path: Path, card: str | bytes | None, *, paper: object = None) -> Path:
    """A Space snapshot whose metadata and manifest name no paper id, with `card` as its README.md."""
    draft = LogbookDraft("Reproduction: Widgets", metadata={"space_id": "me/repro-widgets", "tags": []})
    draft.page("Claim 1: First").markdown("**Verdict: VERIFIED.**")
    space = tmp_path / "space"
    draft.write(tmp_path / "ws").rename(space)
    manifest = json.loads((space / "logbook.json").read_text())
    manifest.update(paper=paper, tags=["icml2026-repro"])
    (space / "logbook.json").write_text(json.dumps(manifest))
    if isinstance(card, str):
        (space / "README.md").write_text(card, encoding="utf-8")
    elif isinstance(card, bytes):
        (space / "README.md").write_bytes(card)
    return space


CARD = "---\ntitle: Widgets\nsdk: static\ntags:\n  - icml2026-repro\n  - paper-Xy12_ab-CD\n  - widgets\n---\n\n# Body\n"


def test_a_paper_tag_in_the_space_card_gives_the_paper_id(tmp_path: Path) -> None:
    assert read_logbook(space_without_paper(tmp_path, CARD)).paper_id == "Xy12_ab-CD"


def test_the_card_is_only_a_last_resort(tmp_path: Path) -> None:
    space = space_without_paper(tmp_path, CARD, paper={"openreview_id": "FromManif1"})
    assert read_logbook(space).paper_id == "FromManif1"


@pytest.mark.parametrize(
    "card",
    [
        None,  # no card
        "# Widgets\n\ntags:\n  - paper-Xy12_ab-CD\n",  # no front matter: tags in the body are not the card's
        "---\ntitle: Widgets\ntags:\n  - paper-Xy12_ab-CD\n",  # front matter never closed
        "---\ntitle: Widgets\nsdk: static\n---\n",  # no tags
        "---\nextra:\n  tags:\n    - paper-Xy12_ab-CD\n---\n",  # a nested `tags:` is not the card's
        b"---\ntags: [paper-\xff\xfe]\n---\n",  # bytes that are not UTF-8 give no usable id
    ],
    ids=["missing", "no-front-matter", "unclosed", "no-tags", "nested-tags", "bad-utf8"],
)
def test_no_paper_id_from_a_card_without_a_well_formed_paper_tag(tmp_path: Path, card: str | bytes | None) -> None:
    logbook = read_logbook(space_without_paper(tmp_path, card))
    assert logbook.paper_id is None or "\ufffd" in logbook.paper_id
    assert len(logbook.claims) == 1


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("tags:\n  - a\n  - 'b'\n  - \"c\" # note\ntitle: x", ["a", "b", "c"]),
        ("tags: [a, 'paper:Xy12_ab-CD', c]", ["a", "paper:Xy12_ab-CD", "c"]),
        ("tags:\n- a\n- b\nsdk: static", ["a", "b"]),
        ("tags: !!python/object:os.system echo", []),  # a tag directive is never interpreted
        ("tags: {a: b}", []),
        ("title: x", []),
    ],
)
def test_front_matter_tags(front: str, expected: list[str]) -> None:
    assert front_matter_tags(f"---\n{front}\n---\nbody\n") == expected


def test_a_paper_colon_tag_is_read_like_a_paper_dash_tag(tmp_path: Path) -> None:
    card = "---\ntags: [icml2026-repro, 'paper:Xy12_ab-CD']\n---\n"
    assert read_logbook(space_without_paper(tmp_path, card)).paper_id == "Xy12_ab-CD"


def test_a_huge_card_is_read_only_up_to_its_cap(tmp_path: Path) -> None:
    endless = "".join(f"  - tag-{i}\n" for i in range(CARD_LIMIT // 4))
    huge = f"---\ntags:\n{endless}  - paper-Xy12_ab-CD\n---\n" + "x" * (CARD_LIMIT * 4)
    space = space_without_paper(tmp_path, huge)
    assert len(space_card_tags(space)) == 0  # the front matter does not close inside the bytes read
    tags = "".join(f"  - tag-{i}\n" for i in range(TAG_LIMIT * 10))
    short = f"---\ntags:\n{tags}---\n"
    assert len(short.encode()) < CARD_LIMIT
    (space / "README.md").write_text(short)
    assert len(space_card_tags(space)) == TAG_LIMIT
    assert read_logbook(space).paper_id is None


def test_a_card_linked_from_outside_the_space_is_not_read(tmp_path: Path) -> None:
    space = space_without_paper(tmp_path, None)
    outside = tmp_path / "elsewhere.md"
    outside.write_text(CARD)
    os.symlink(outside, space / "README.md")
    assert space_card_tags(space) == []
    assert read_logbook(space).paper_id is None


def test_a_workspace_logbook_does_not_read_a_card(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Widgets", metadata={"tags": []})
    draft.page("Claim 1: First").markdown("**Verdict: VERIFIED.**")
    root = draft.write(tmp_path / "ws")
    manifest = json.loads((root / "logbook.json").read_text())
    manifest.update(paper=None, tags=[])
    (root / "logbook.json").write_text(json.dumps(manifest))
    (root / "README.md").write_text(CARD)
    assert read_logbook(tmp_path / "ws").paper_id is None
