"""One ranking from several judges' rubric scores, so that a harsh judge and a lenient one count the same.

Normalization is per judge, over the logbooks that judge scored:

* ``z`` (default): ``(score - judge's mean) / judge's standard deviation`` (population). A judge who gave every
  logbook the same score (standard deviation 0, which includes a judge who scored one logbook) expresses no
  preference between logbooks: all their normalized scores are 0.
* ``rank``: the judge's mid-ranks mapped linearly onto -1 (lowest) .. +1 (highest); ties share a mid-rank; one
  logbook scored gives 0.

A judge who scored fewer than three logbooks is still counted, with a warning: two points make a scale, but a
shaky one. Judges may score different subsets: a logbook's final score is the mean of the normalized scores of
the judges who scored it, and the number of judges is shown beside it. Logbooks with equal final scores at two
decimals are tied: they share a rank (1, 2, 2, 4) and are flagged.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Method = Literal["z", "rank"]
FEW_SCORES = 3


@dataclass(frozen=True, slots=True)
class JudgeScore:
    judge: str
    logbook: str  # logbook id, or its pseudonym in blind output
    overall: float


@dataclass(slots=True)
class RankedLogbook:
    logbook: str
    rank: int
    score: float  # mean normalized score, rounded to 2 decimals
    raw_mean: float  # mean of the judges' own overall scores
    judges: dict[str, float]  # judge -> their raw overall score
    normalized: dict[str, float]  # judge -> their normalized score
    spread: float  # max - min of the normalized scores (0 with one judge)
    tied: bool = False


@dataclass(slots=True)
class Ranking:
    method: Method
    rows: list[RankedLogbook]
    judges: list[str]
    warnings: list[str] = field(default_factory=list)


def normalize(scores: Sequence[float], method: Method) -> list[float]:
    """Normalized scores in the order given (one judge's scores over the logbooks they scored)."""
    if not scores:
        return []
    if method == "z":
        mean = statistics.fmean(scores)
        sd = statistics.pstdev(scores)
        return [0.0 if sd == 0 else (s - mean) / sd for s in scores]
    ranks = _mid_ranks(scores)
    n = len(scores)
    return [0.0 if n == 1 else (2 * r - n - 1) / (n - 1) for r in ranks]


def _mid_ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def rank_logbooks(scores: Iterable[JudgeScore], method: Method = "z") -> Ranking:
    by_judge: dict[str, dict[str, float]] = defaultdict(dict)
    for score in scores:
        by_judge[score.judge][score.logbook] = score.overall  # the caller passes each judge's current score
    warnings: list[str] = []
    normalized: dict[str, dict[str, float]] = defaultdict(dict)
    for judge in sorted(by_judge):
        logbooks = sorted(by_judge[judge])
        values = [by_judge[judge][lb] for lb in logbooks]
        if len(values) < FEW_SCORES:
            warnings.append(
                f"{judge} scored {len(values)} logbook{'s' if len(values) != 1 else ''}: "
                f"normalized over fewer than {FEW_SCORES}"
            )
        if len(values) > 1 and len(set(values)) == 1:
            warnings.append(f"{judge} gave every logbook the same score: counted as no preference (0)")
        for logbook, value in zip(logbooks, normalize(values, method), strict=True):
            normalized[logbook][judge] = value
    subsets = {frozenset(v) for v in by_judge.values()}
    if len(subsets) > 1:
        warnings.append("judges scored different subsets: each logbook's score averages the judges who scored it")
    rows = [
        RankedLogbook(
            logbook=logbook,
            rank=0,
            score=round(statistics.fmean(per_judge.values()), 2),
            raw_mean=statistics.fmean(by_judge[j][logbook] for j in per_judge),
            judges={j: by_judge[j][logbook] for j in sorted(per_judge)},
            normalized=dict(sorted(per_judge.items())),
            spread=max(per_judge.values()) - min(per_judge.values()),
        )
        for logbook, per_judge in normalized.items()
    ]
    rows.sort(key=lambda r: (-r.score, r.logbook))
    for index, row in enumerate(rows):
        previous = rows[index - 1] if index else None
        row.rank = previous.rank if previous is not None and previous.score == row.score else index + 1
        if previous is not None and previous.score == row.score:
            row.tied = previous.tied = True
    return Ranking(method=method, rows=rows, judges=sorted(by_judge), warnings=warnings)
