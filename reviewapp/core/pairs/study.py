"""A study: every rater's results of one or more pair sets, combined into scores per condition.

Each results file is first checked as `pairs check` does (protocol, sha256, seed, every row against the rater's
append-only records); a file that fails is listed with its problems and left out. Then, per rater:

* consistency on the control trials and left/right bias (exact binomial test), pooled over the rater's sets;
  raters whose consistency is below the threshold are listed as such and left out of the scores (a rater with
  no control trials cannot be measured and is kept, with a note);
* the main trials (each pair once) as comparisons: the preferred condition wins, "no difference" is half a win
  to each side, skipped trials do not count.

Scores: a Bradley–Terry fit over every condition (`bradley_terry.py`), with a percentile bootstrap that resamples
raters (not trials: a rater's answers are not independent of each other), from a fixed seed so every run prints the
same interval. With exactly two conditions the preference shares with 95% Wilson intervals are given too (pooled
over raters' trials, which treats trials as independent; the bootstrap interval does not). Agreement between
raters: Krippendorff's alpha (nominal) over the main trials that two or more raters answered, a unit being one pair
of one set and its value the preferred condition (or "no difference").
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reviewapp.core.logbook_judge.agreement import BOOTSTRAP_SEED, krippendorff_alpha, quantile
from reviewapp.core.pairs import bradley_terry
from reviewapp.core.pairs.results import NO_PREFERENCE, ResultRow
from reviewapp.core.pairs.stats import Rate, binomial_two_sided, summarize, wilson

DEFAULT_MIN_CONSISTENCY = 0.7
STUDY_RESAMPLES = 1000
# One virtual tie between each pair of compared conditions: a condition never preferred still gets a finite score.
PRIOR_TIES = 1.0
FEW_RATERS = 5  # below this the rater bootstrap has little to resample


@dataclass(frozen=True)
class RaterResults:
    """One rater's valid results of one pair set."""

    annotator: str
    set_name: str
    conditions: tuple[str, str]
    rows: Sequence[ResultRow]
    label: str = ""  # the results file, for messages

    def main_rows(self) -> list[ResultRow]:
        return [r for r in self.rows if not r.control and r.response != "skipped"]

    def wins(self) -> dict[tuple[str, str], float]:
        found: dict[tuple[str, str], float] = {}
        for row in self.main_rows():
            a, b = row.left_condition, row.right_condition
            if row.preferred == NO_PREFERENCE:
                bradley_terry.add_wins(found, {(a, b): 0.5, (b, a): 0.5})
            elif row.preferred in (a, b):
                loser = b if row.preferred == a else a
                bradley_terry.add_wins(found, {(row.preferred, loser): 1.0})
        return found


@dataclass(frozen=True)
class Rater:
    annotator: str
    sets: tuple[str, ...]
    main_trials: int
    consistency: Rate
    left: int
    right: int
    bias_p: float | None
    included: bool
    note: str = ""

    @property
    def left_share(self) -> float | None:
        decisive = self.left + self.right
        return self.left / decisive if decisive else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "annotator": self.annotator,
            "sets": list(self.sets),
            "main_trials": self.main_trials,
            "consistency": self.consistency.to_dict(),
            "side_bias": {"left": self.left, "right": self.right, "left_share": self.left_share, "p": self.bias_p},
            "included": self.included,
            "note": self.note,
        }


@dataclass(frozen=True)
class ConditionScore:
    condition: str
    score: float  # centred Bradley–Terry log-strength
    low: float | None  # 95% bootstrap interval over raters (None when fewer than two raters)
    high: float | None
    wins: float
    comparisons: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "condition": self.condition,
            "score": self.score,
            "low": self.low,
            "high": self.high,
            "wins": self.wins,
            "comparisons": self.comparisons,
        }


@dataclass
class Study:
    sets: list[str]
    conditions: tuple[str, ...]
    raters: list[Rater]
    scores: list[ConditionScore]  # strongest first
    preference: dict[str, Rate] | None  # two conditions: share of main trials preferring each (and "none")
    alpha: float | None
    alpha_units: int
    min_consistency: float
    resamples: int
    seed: int
    problems: list[str] = field(default_factory=list)  # results left out, by file
    warnings: list[str] = field(default_factory=list)

    @property
    def excluded(self) -> list[Rater]:
        return [r for r in self.raters if not r.included]

    @property
    def included(self) -> list[Rater]:
        return [r for r in self.raters if r.included]

    def to_dict(self) -> dict[str, Any]:
        return {
            "sets": self.sets,
            "conditions": list(self.conditions),
            "scores": [s.to_dict() for s in self.scores],
            "preference": {k: v.to_dict() for k, v in self.preference.items()} if self.preference else None,
            "raters": [r.to_dict() for r in self.raters],
            "below_consistency": [r.annotator for r in self.excluded],
            "krippendorff_alpha": {"nominal": self.alpha, "units": self.alpha_units},
            "min_consistency": self.min_consistency,
            "bootstrap": {"resamples": self.resamples, "seed": self.seed, "over": "raters"},
            "prior_ties": PRIOR_TIES,
            "problems": self.problems,
            "warnings": self.warnings,
        }


def combine(
    results: Iterable[RaterResults],
    *,
    min_consistency: float = DEFAULT_MIN_CONSISTENCY,
    resamples: int = STUDY_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    problems: Sequence[str] = (),
) -> Study:
    by_rater: dict[str, list[RaterResults]] = {}
    problems = list(problems)
    seen: set[tuple[str, str]] = set()
    for result in results:
        key = (result.annotator, result.set_name)
        if key in seen:
            problems.append(f"{result.label}: {result.annotator} rated {result.set_name} in another file already")
            continue
        seen.add(key)
        by_rater.setdefault(result.annotator, []).append(result)
    raters = [_rater(name, own, min_consistency) for name, own in sorted(by_rater.items())]
    included = [r.annotator for r in raters if r.included]
    rater_wins = [_merged_wins(by_rater[name]) for name in included]
    conditions = tuple(sorted({c for own in by_rater.values() for r in own for c in r.conditions}))
    study = Study(
        sets=sorted({r.set_name for own in by_rater.values() for r in own}),
        conditions=conditions,
        raters=raters,
        scores=_scores(rater_wins, conditions, resamples, seed),
        preference=_preference([r for name in included for r in by_rater[name]], conditions),
        alpha=None,
        alpha_units=0,
        min_consistency=min_consistency,
        resamples=resamples,
        seed=seed,
        problems=problems,
    )
    study.alpha, study.alpha_units = _agreement([r for name in included for r in by_rater[name]])
    if len(included) < FEW_RATERS:
        study.warnings.append(
            f"{len(included)} rater(s) in the scores: the bootstrap over raters has little to resample "
            f"(intervals are rough below {FEW_RATERS})"
        )
    if len(conditions) > 2 and not _connected(rater_wins, conditions):
        study.warnings.append(
            "the pair sets do not link every condition to every other; their scores cannot be compared"
        )
    return study


def study_from_files(
    paths: Sequence[Path], *, min_consistency: float = DEFAULT_MIN_CONSISTENCY, resamples: int = STUDY_RESAMPLES
) -> Study:
    """Check every results file as `pairs check` does, then combine the valid ones."""
    from reviewapp.core.pairs.check import check_results

    results: list[RaterResults] = []
    problems: list[str] = []
    for path in paths:
        report = check_results(path)
        if not report.valid or report.protocol is None or report.summary is None:
            reasons = "; ".join(report.errors) or "could not be read"
            problems.append(f"{path}: left out, invalid ({reasons})")
            continue
        pair_set = report.protocol.get("set") or {}
        results.append(
            RaterResults(
                annotator=str(report.protocol.get("annotator")),
                set_name=str(pair_set.get("name")),
                conditions=report.summary.conditions,
                rows=report.rows,
                label=str(path),
            )
        )
    return combine(results, min_consistency=min_consistency, resamples=resamples, problems=problems)


def _rater(name: str, own: Sequence[RaterResults], threshold: float) -> Rater:
    summaries = [summarize(r.rows, r.conditions) for r in own]
    consistent = sum(s.consistency.count for s in summaries)
    controls = sum(s.consistency.total for s in summaries)
    left = sum(s.left for s in summaries)
    right = sum(s.right for s in summaries)
    consistency = wilson(consistent, controls)
    measured = consistency.value
    if measured is None:
        included, note = True, "no control trials: consistency not measurable, kept"
    elif measured < threshold:
        included, note = False, f"consistency {measured:.0%} below {threshold:.0%}: left out of the scores"
    else:
        included, note = True, ""
    return Rater(
        annotator=name,
        sets=tuple(sorted(r.set_name for r in own)),
        main_trials=sum(s.main_trials for s in summaries),
        consistency=consistency,
        left=left,
        right=right,
        bias_p=binomial_two_sided(left, left + right),
        included=included,
        note=note,
    )


def _merged_wins(own: Sequence[RaterResults]) -> dict[tuple[str, str], float]:
    total: dict[tuple[str, str], float] = {}
    for result in own:
        bradley_terry.add_wins(total, result.wins())
    return total


def _scores(
    rater_wins: Sequence[dict[tuple[str, str], float]], conditions: tuple[str, ...], resamples: int, seed: int
) -> list[ConditionScore]:
    if not conditions:
        return []
    pooled: dict[tuple[str, str], float] = {}
    for wins in rater_wins:
        bradley_terry.add_wins(pooled, wins)
    point = bradley_terry.fit(pooled, conditions, prior=PRIOR_TIES)
    intervals = bootstrap_scores(rater_wins, conditions, resamples, seed)
    scores = []
    for condition in conditions:
        low, high = intervals.get(condition, (None, None))
        won = sum(v for (i, _), v in pooled.items() if i == condition)
        games = sum(v for (i, j), v in pooled.items() if condition in (i, j))
        scores.append(ConditionScore(condition, point.scores[condition], low, high, won, games))
    return sorted(scores, key=lambda s: -s.score)


def bootstrap_scores(
    rater_wins: Sequence[dict[tuple[str, str], float]],
    conditions: tuple[str, ...],
    resamples: int = STUDY_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> dict[str, tuple[float, float]]:
    """Percentile intervals of each condition's score over resamples of the raters, with replacement."""
    if len(rater_wins) < 2 or resamples <= 0:
        return {}
    rng = random.Random(seed)
    found: dict[str, list[float]] = {c: [] for c in conditions}
    for _ in range(resamples):
        sample: dict[tuple[str, str], float] = {}
        for _ in rater_wins:
            bradley_terry.add_wins(sample, rater_wins[rng.randrange(len(rater_wins))])
        fitted = bradley_terry.fit(sample, conditions, prior=PRIOR_TIES)
        for condition in conditions:
            found[condition].append(fitted.scores[condition])
    tail = (1 - level) / 2
    intervals = {}
    for condition, values in found.items():
        values.sort()
        intervals[condition] = (quantile(values, tail), quantile(values, 1 - tail))
    return intervals


def _preference(results: Sequence[RaterResults], conditions: tuple[str, ...]) -> dict[str, Rate] | None:
    if len(conditions) != 2:
        return None
    main = [row for r in results for row in r.main_rows()]
    names = (*conditions, NO_PREFERENCE)
    return {name: wilson(sum(1 for r in main if r.preferred == name), len(main)) for name in names}


def _agreement(results: Sequence[RaterResults]) -> tuple[float | None, int]:
    units: dict[tuple[str, str], dict[str, str]] = {}
    for result in results:
        for row in result.main_rows():
            units.setdefault((result.set_name, row.pair_id), {})[result.annotator] = row.preferred
    shared = [u for u in units.values() if len(u) >= 2]
    return krippendorff_alpha(shared, "nominal"), len(shared)


def _connected(rater_wins: Sequence[dict[tuple[str, str], float]], conditions: tuple[str, ...]) -> bool:
    links: dict[str, set[str]] = {c: set() for c in conditions}
    for wins in rater_wins:
        for i, j in wins:
            links[i].add(j)
            links[j].add(i)
    reached = {conditions[0]}
    frontier = [conditions[0]]
    while frontier:
        for nxt in links[frontier.pop()] - reached:
            reached.add(nxt)
            frontier.append(nxt)
    return len(reached) == len(conditions)
