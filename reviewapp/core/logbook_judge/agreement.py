"""Inter-rater agreement, written out so that anyone can recompute it (no numerical libraries).

Ratings are units (claims) × raters with missing values allowed: `units` is a sequence of mappings rater ->
category. Every coefficient below uses only the units where at least two raters gave a rating.

* Percent agreement: agreeing rater pairs / all rater pairs, pooled over units.
* Cohen's kappa (two raters): (p_o − p_e) / (1 − p_e) over the units both rated; optionally weighted
  (1 − Σw·o / Σw·e with w = |score_i − score_j|, or its square).
* Fleiss' kappa: the form for varying numbers of raters per unit, P_i = Σ_j n_ij(n_ij − 1) / (n_i(n_i − 1)),
  p_j = Σ_i n_ij / Σ_i n_i, κ = (mean P_i − Σ p_j²) / (1 − Σ p_j²); with the same number of raters on every unit it
  is Fleiss (1971) exactly.
* Krippendorff's alpha from the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's
  Alpha-Reliability"): α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck, with nominal, ordinal, interval and ratio
  metrics.
* Percentile bootstrap over units (claims), a fixed number of resamples from a fixed seed, so every run prints the
  same interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, TypeVar

C = TypeVar("C", bound=Hashable)
Units = Sequence[Mapping[str, Hashable]]
Level = Literal["nominal", "ordinal", "interval", "ratio"]

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20260717  # the challenge's first judging day; any fixed value does, it is printed with the result


def _pairable(units: Units) -> list[list[Hashable]]:
    return [list(u.values()) for u in units if len(u) >= 2]


def percent_agreement(units: Units) -> float | None:
    agree = total = 0
    for values in _pairable(units):
        for a, b in combinations(values, 2):
            total += 1
            agree += a == b
    return agree / total if total else None


def cohen_kappa_table(
    table: Sequence[Sequence[float]], weights: Sequence[float] | None = None, *, squared: bool = False
) -> float | None:
    """Cohen's kappa of a square contingency table (rows rater 1, columns rater 2), optionally weighted."""
    k = len(table)
    n = sum(sum(row) for row in table)
    if n == 0:
        return None
    rows = [sum(table[i]) / n for i in range(k)]
    cols = [sum(table[i][j] for i in range(k)) / n for j in range(k)]
    if weights is None:
        po = sum(table[i][i] for i in range(k)) / n
        pe = sum(rows[i] * cols[i] for i in range(k))
        return None if math.isclose(pe, 1.0) else (po - pe) / (1 - pe)

    def w(i: int, j: int) -> float:
        d = abs(weights[i] - weights[j])
        return d * d if squared else d

    observed = sum(w(i, j) * table[i][j] / n for i in range(k) for j in range(k))
    expected = sum(w(i, j) * rows[i] * cols[j] for i in range(k) for j in range(k))
    return None if expected == 0 else 1 - observed / expected


def cohen_kappa(units: Units, a: str, b: str, categories: Sequence[Hashable] | None = None) -> float | None:
    pairs = [(u[a], u[b]) for u in units if a in u and b in u]
    if not pairs:
        return None
    cats = list(categories) if categories is not None else sorted({v for p in pairs for v in p}, key=str)
    index = {c: i for i, c in enumerate(cats)}
    table = [[0] * len(cats) for _ in cats]
    for x, y in pairs:
        table[index[x]][index[y]] += 1
    return cohen_kappa_table(table)


def fleiss_kappa_table(table: Sequence[Sequence[float]]) -> float | None:
    """Fleiss' kappa from counts per unit and category (units may have different numbers of raters)."""
    rated = [row for row in table if sum(row) >= 2]
    if not rated:
        return None
    total = sum(sum(row) for row in rated)
    k = len(rated[0])
    p = [sum(row[j] for row in rated) / total for j in range(k)]
    p_i = [(sum(x * x for x in row) - sum(row)) / (sum(row) * (sum(row) - 1)) for row in rated]
    p_bar = sum(p_i) / len(p_i)
    p_e = sum(x * x for x in p)
    return None if math.isclose(p_e, 1.0) else (p_bar - p_e) / (1 - p_e)


def fleiss_kappa(units: Units, categories: Sequence[Hashable] | None = None) -> float | None:
    cats = list(categories) if categories is not None else sorted({v for u in units for v in u.values()}, key=str)
    index = {c: i for i, c in enumerate(cats)}
    table = []
    for u in units:
        row = [0] * len(cats)
        for v in u.values():
            row[index[v]] += 1
        table.append(row)
    return fleiss_kappa_table(table)


def krippendorff_alpha(units: Units, level: Level = "nominal", order: Sequence[Hashable] | None = None) -> float | None:
    """Krippendorff's alpha. Ordinal uses `order` (low to high) when given, else the values' own sort order;
    interval and ratio need numeric values."""
    values = _pairable(units)
    if not values:
        return None
    cats: list[Hashable] = list(order) if order is not None else sorted({v for u in values for v in u})  # type: ignore[type-var]
    index = {c: i for i, c in enumerate(cats)}
    k = len(cats)
    o = [[0.0] * k for _ in range(k)]
    for unit in values:
        m = len(unit)
        for i, x in enumerate(unit):
            for j, y in enumerate(unit):
                if i != j:
                    o[index[x]][index[y]] += 1 / (m - 1)
    n_c = [sum(row) for row in o]
    n = sum(n_c)
    delta = _metric(level, cats, n_c)
    observed = sum(o[c][d] * delta(c, d) for c in range(k) for d in range(k))
    expected = sum(n_c[c] * n_c[d] * delta(c, d) for c in range(k) for d in range(k))
    if expected == 0:
        return None
    return 1 - (n - 1) * observed / expected


def _metric(level: Level, cats: Sequence[Hashable], n_c: Sequence[float]) -> Callable[[int, int], float]:
    if level == "nominal":
        return lambda c, d: 0.0 if c == d else 1.0
    if level == "ordinal":

        def ordinal(c: int, d: int) -> float:
            lo, hi = min(c, d), max(c, d)
            return (sum(n_c[lo : hi + 1]) - (n_c[lo] + n_c[hi]) / 2) ** 2

        return ordinal
    numbers = [float(c) for c in cats]  # type: ignore[arg-type]
    if level == "interval":
        return lambda c, d: (numbers[c] - numbers[d]) ** 2
    return lambda c, d: ((numbers[c] - numbers[d]) / (numbers[c] + numbers[d])) ** 2 if numbers[c] + numbers[d] else 0.0


@dataclass(frozen=True)
class Interval:
    low: float | None
    high: float | None
    resamples: int
    seed: int
    valid: int  # resamples where the statistic was defined

    def to_json(self) -> dict[str, object]:
        return {"low": self.low, "high": self.high, "resamples": self.resamples, "seed": self.seed, "valid": self.valid}


def bootstrap(
    units: Units,
    statistic: Callable[[Units], float | None],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    level: float = 0.95,
) -> Interval:
    """Percentile interval of `statistic` over resamples of the units (claims) with replacement."""
    rng = random.Random(seed)
    units = list(units)
    found: list[float] = []
    if units:
        for _ in range(resamples):
            sample = [units[rng.randrange(len(units))] for _ in units]
            value = statistic(sample)
            if value is not None and not math.isnan(value):
                found.append(value)
    if not found:
        return Interval(None, None, resamples, seed, 0)
    found.sort()
    tail = (1 - level) / 2
    return Interval(quantile(found, tail), quantile(found, 1 - tail), resamples, seed, len(found))


def quantile(sorted_values: Sequence[float], q: float) -> float:
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


@dataclass
class Confusion:
    """Rows: the reference rater's category (a person); columns: the rater being checked (the Logbook Judge)."""

    rows: list[str]
    columns: list[str]
    counts: dict[str, dict[str, int]]

    def precision(self, category: str) -> float | None:
        """Of the claims the checked rater put in `category`, the share the reference put there too."""
        said = sum(self.counts[r].get(category, 0) for r in self.rows)
        return self.counts.get(category, {}).get(category, 0) / said if said else None

    def recall(self, category: str) -> float | None:
        """Of the claims the reference put in `category`, the share the checked rater found."""
        truth = sum(self.counts.get(category, {}).values())
        return self.counts[category].get(category, 0) / truth if truth else None


def confusion(pairs: Sequence[tuple[str, str]], rows: Sequence[str], columns: Sequence[str]) -> Confusion:
    counts = {r: {c: 0 for c in columns} for r in rows}
    for reference, checked in pairs:
        if reference in counts and checked in counts[reference]:
            counts[reference][checked] += 1
    return Confusion(list(rows), list(columns), counts)
