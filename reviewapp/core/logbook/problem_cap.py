"""Problems capped per kind: a hostile logbook with 100k broken links reports a hundred of them and a count.

A problem's kind is its message with the parts that name one instance (quoted names, numbers) blanked out, so
"table of contents links to 'a', which has no page" and "... to 'b' ..." are one kind. Nothing is dropped
silently: past the cap, one more problem per kind says how many like it were left out.
"""

from __future__ import annotations

import re

from reviewapp.core.logbook.model import Problem

MAX_PER_KIND = 100
_INSTANCE = re.compile(r"'[^'\n]{0,200}'|\"[^\"\n]{0,200}\"|\d[\d,.]*")  # linear: quotes are bounded


def problem_kind(message: str) -> str:
    return _INSTANCE.sub("…", message[:500])


def cap_per_kind(problems: list[Problem], limit: int = MAX_PER_KIND) -> list[Problem]:
    """The first `limit` problems of each kind in their order, then one problem per capped kind with its count."""
    seen: dict[str, int] = {}
    kept: list[Problem] = []
    first: dict[str, Problem] = {}
    for problem in problems:
        kind = problem_kind(problem.message)
        count = seen.get(kind, 0) + 1
        seen[kind] = count
        if count <= limit:
            kept.append(problem)
            first.setdefault(kind, problem)
    for kind, count in seen.items():
        if count > limit:
            example = first[kind]
            left_out = count - limit
            kept.append(
                Problem(example.file, None, f"{left_out:,} more problems like “{example.message}” were not listed")
            )
    return kept
