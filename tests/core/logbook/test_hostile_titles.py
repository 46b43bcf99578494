"""Titles of hundreds of kilobytes are elided where they are read, so every list, match and window row sees a
bounded string (40 such claims made matching take over ten minutes and the window freeze for seconds)."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.model import MAX_TITLE_CHARS, elided_title
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft


def test_titles_of_200_kb_are_elided_for_every_list_and_match(tmp_path: Path) -> None:
    draft = LogbookDraft("Long titles " + "t" * 200_000)
    for number in range(1, 41):
        page = draft.page(f"Claim {number}: " + "word " * 40_000, slug=f"claim-{number}")
        page.markdown("**Verdict: VERIFIED**")
    logbook = read_logbook(draft.write(tmp_path / "long"))

    assert len(logbook.claims) == 40
    titles = [logbook.title, *(p.title for p in logbook.pages), *(c.title for c in logbook.claims)]
    assert all(len(t) <= MAX_TITLE_CHARS for t in titles)
    assert all(c.title.endswith("…") and c.title.startswith(f"Claim {c.n}") for c in logbook.claims)
    assert all(p.h1_title is None or len(p.h1_title) <= MAX_TITLE_CHARS for p in logbook.pages)


def test_a_title_of_ordinary_length_is_kept_whole() -> None:
    ordinary = "Claim 3: Sparse widgets train 2x faster than dense ones on ImageNet-1k at batch size 256"
    assert elided_title(ordinary) == ordinary
    assert elided_title("x" * MAX_TITLE_CHARS) == "x" * MAX_TITLE_CHARS
    assert len(elided_title("x" * (MAX_TITLE_CHARS + 1))) == MAX_TITLE_CHARS
