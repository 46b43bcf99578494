"""How alike a Logbook Judge claim and a logbook claim read: the claim statement, its anchor, the page's own text.

Standard library only (difflib plus content-word overlap): claim statements are short and reworded rather than
misspelt, so word overlap carries most of the signal and difflib's ratio catches near-verbatim copies.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher

_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")
_STOP_WORDS = (
    "a an and are as at be by can does for from has have in into is it its of on or that the their this to under "
    "was were which with without than then over our we they these those via vs also more less not no all any each "
    "claim claims paper shows show proves prove establishes"
)
_STOP = frozenset(_STOP_WORDS.split(" "))


def normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    return " ".join(_WORD.findall(text))


def content_words(text: str) -> set[str]:
    words = set()
    for word in _WORD.findall(unicodedata.normalize("NFKC", text).lower()):
        if word in _STOP or len(word) < 2:
            continue
        words.add(_stem(word))
    return words


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def containment(needle: set[str], haystack: set[str]) -> float:
    """Share of `needle`'s words found in `haystack` (a claim restated inside a longer page)."""
    return len(needle & haystack) / len(needle) if needle else 0.0


def anchor_found(anchor: str, text: str) -> bool:
    """ "Table 1" on the page as a whole phrase ("Table 10" does not count), case and spacing ignored."""
    wanted = normalize(anchor)
    return bool(wanted) and re.search(rf"(?<![a-z0-9]){re.escape(wanted)}(?![a-z0-9.])", normalize(text)) is not None


@dataclass(frozen=True, slots=True)
class Similarity:
    statement: float  # judge claim vs the logbook claim's title/statement, 0..1
    page: float  # share of the judge claim's words on the claim's page, 0..1
    anchor: bool | None  # None: the judge claim names no anchor

    @property
    def score(self) -> float:
        if self.anchor is None:
            return 0.55 * self.statement + 0.45 * self.page
        return 0.45 * self.statement + 0.35 * self.page + (0.2 if self.anchor else 0.0)

    def why(self, anchor: str | None) -> str:
        parts = [f"statement {self.statement:.2f}", f"page text {self.page:.2f}"]
        if anchor is not None:
            parts.append(f"anchor “{anchor}” {'on the page' if self.anchor else 'not on the page'}")
        return ", ".join(parts)


def similarity(judge_text: str, anchor: str | None, title: str, page_text: str) -> Similarity:
    judge_words = content_words(judge_text)
    title_words = content_words(title)
    ratio = SequenceMatcher(None, normalize(judge_text), normalize(title), autojunk=False).ratio()
    # A title that is a prefix of the statement ("… establishes KL converge…") or a restatement in other words.
    overlap = len(judge_words & title_words) / max(1, min(len(judge_words), len(title_words))) if title_words else 0.0
    overlap *= min(1.0, len(title_words) / 6)  # "Claim 3" alone says nothing
    statement = max(ratio, overlap)
    page = containment(judge_words, content_words(page_text) | title_words)
    found = anchor_found(anchor, title + "\n" + page_text) if anchor else None
    return Similarity(round(statement, 3), round(page, 3), found)
