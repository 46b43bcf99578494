"""A broken logbook: read, but with problems and no claims. It is shown as broken wherever it appears (a queue row,
the review window, a paper column), with its first problem and the file it names, never as empty or not started."""

from __future__ import annotations

from collections.abc import Sequence

from reviewapp.core.logbook.model import Problem


def broken_problem(problems: Sequence[Problem]) -> str:
    """Why a logbook read with problems and no claims is broken: its first problem (with its file), and how many
    more there are."""
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"no claims could be read: {problems[0]}{more}"
