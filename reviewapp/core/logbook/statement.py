"""A verdict statement as a person reads it: a markdown table row becomes its cells, not pipes."""

from __future__ import annotations

import re

_SEPARATOR = re.compile(r"^:?-{2,}:?$")


def readable_statement(text: str) -> str:
    """`| 3 | Sharpness predicts the gap | PARTIAL |` -> `3 · Sharpness predicts the gap · PARTIAL`; other text as
    it is, its whitespace folded onto one line."""
    folded = " ".join(text.split())
    if not (folded.startswith("|") or folded.count("|") >= 2):
        return folded
    cells = [c.strip() for c in folded.strip("|").split("|")]
    kept = [c for c in cells if c and not _SEPARATOR.match(c)]
    return " · ".join(kept) if kept else folded
