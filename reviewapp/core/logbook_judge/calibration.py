"""The calibration picture: how people, the agent and the Logbook Judge line up, as confusion heat maps.

Three maps from the same ratings (claim -> rater -> verdict): people against the Logbook Judge, the agent against
the Logbook Judge, and people against the agent. Rows are the first side's verdicts, columns the second's; each
cell is shaded by its share of its row, so a pattern such as "the Logbook Judge turns the agent's verified into toy
or inconclusive" shows as the verified row's colour sitting under toy and inconclusive, whatever the row's size.
Unstated verdicts are left out; a claim rated by several people counts once per person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from reviewapp.core.logbook_judge.agreement import confusion
from reviewapp.core.logbook_judge.agreement_report import AGENT, LOGBOOK_JUDGE
from reviewapp.core.plots.figures import Table, Theme, heat_maps
from reviewapp.core.verdicts import HUMAN_VERDICTS, JUDGE_VERDICTS, Verdict

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PEOPLE = "people"
_HUMAN = [v.value for v in HUMAN_VERDICTS]
_JUDGE = [v.value for v in JUDGE_VERDICTS]


def calibration_tables(ratings: Mapping[str, Mapping[str, Verdict | None]]) -> list[Table]:
    """The maps that have at least one pair: people vs Logbook Judge, agent vs Logbook Judge, people vs agent."""
    sides: list[tuple[str, str, list[str], list[str]]] = [
        (PEOPLE, LOGBOOK_JUDGE, _HUMAN, _JUDGE),
        (AGENT, LOGBOOK_JUDGE, _HUMAN, _JUDGE),
        (PEOPLE, AGENT, _HUMAN, _HUMAN),
    ]
    tables = []
    for first, second, rows, columns in sides:
        pairs = list(_pairs(ratings, first, second))
        if not pairs:
            continue
        counts = confusion(pairs, rows, columns).counts
        tables.append(
            Table(
                title=f"{_name(first)} vs {_name(second)} ({len(pairs)})",
                row_name=f"{_name(first)}'s verdict",
                column_name=f"{_name(second)}'s verdict",
                rows=rows,
                columns=columns,
                counts=[[counts[r][c] for c in columns] for r in rows],
            )
        )
    return tables


def _pairs(ratings: Mapping[str, Mapping[str, Verdict | None]], first: str, second: str) -> list[tuple[str, str]]:
    """(first's verdict, second's verdict) per claim both stated; `first` may be PEOPLE (one pair per person)."""
    found = []
    for unit in ratings.values():
        other = unit.get(second)
        if other is None or other is Verdict.UNSTATED:
            continue
        for verdict in _people(unit) if first == PEOPLE else [unit.get(first)]:
            if verdict is not None and verdict is not Verdict.UNSTATED:
                found.append((verdict.value, other.value))
    return found


def _people(unit: Mapping[str, Verdict | None]) -> list[Verdict | None]:
    return [v for rater, v in unit.items() if rater not in (AGENT, LOGBOOK_JUDGE)]


def _name(side: str) -> str:
    return {PEOPLE: "People", AGENT: "Agent"}.get(side, side)


def calibration_figure(tables: Sequence[Table], theme: Theme = "light") -> Figure:
    return heat_maps(tables, theme=theme)


def tables_json(tables: Sequence[Table]) -> list[dict[str, Any]]:
    return [
        {"title": t.title, "rows": list(t.rows), "columns": list(t.columns), "counts": [list(r) for r in t.counts]}
        for t in tables
    ]
