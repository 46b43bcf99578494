"""Bradley–Terry strengths from paired comparisons, fitted by the MM algorithm, with no numerical libraries.

The model: condition i beats condition j with probability p_i / (p_i + p_j). Hunter's (2004) MM update,
p_i <- W_i / sum_j n_ij / (p_i + p_j) (W_i wins of i, n_ij comparisons of i with j), rescaled to a geometric
mean of 1 after each step, climbs the likelihood to its maximum whenever every condition has beaten, and been
beaten by, the others through some chain of comparisons. A "no difference" answer counts half a win to each side.

The score of a condition is its log-strength, centred so that the conditions' scores sum to zero: a difference
of 1 between two scores means odds of e:1 for the higher one. `prior` adds that many virtual ties between every
pair of conditions that were compared (half a win each way), which keeps a condition that never won (or never
lost) at a finite score; the study uses a small one and says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_ITERATIONS = 10_000
TOLERANCE = 1e-10

# wins[(i, j)]: how often condition i was preferred to condition j (half for each "no difference").
Wins = Mapping[tuple[str, str], float]


@dataclass(frozen=True, slots=True)
class Fit:
    conditions: tuple[str, ...]
    scores: dict[str, float]  # centred log-strengths
    iterations: int
    converged: bool

    def win_probability(self, i: str, j: str) -> float:
        return 1.0 / (1.0 + math.exp(self.scores[j] - self.scores[i]))

    def order(self) -> list[str]:
        """Conditions from the strongest to the weakest."""
        return sorted(self.conditions, key=lambda c: -self.scores[c])


def add_wins(total: dict[tuple[str, str], float], more: Wins) -> None:
    for key, count in more.items():
        total[key] = total.get(key, 0.0) + count


def fit(wins: Wins, conditions: Sequence[str] | None = None, *, prior: float = 0.0) -> Fit:
    names = tuple(conditions) if conditions is not None else tuple(sorted({c for key in wins for c in key}))
    index = {name: k for k, name in enumerate(names)}
    n = len(names)
    won = [[0.0] * n for _ in names]
    for (i, j), count in wins.items():
        if i in index and j in index and i != j:
            won[index[i]][index[j]] += count
    if prior > 0:
        for a in range(n):
            for b in range(a + 1, n):
                if won[a][b] + won[b][a] > 0:
                    won[a][b] += prior / 2
                    won[b][a] += prior / 2
    games = [[won[a][b] + won[b][a] for b in range(n)] for a in range(n)]
    total_wins = [sum(row) for row in won]
    strength = [1.0] * n
    iterations = 0
    converged = n < 2
    while not converged and iterations < MAX_ITERATIONS:
        iterations += 1
        updated = []
        for a in range(n):
            denominator = sum(games[a][b] / (strength[a] + strength[b]) for b in range(n) if b != a and games[a][b])
            updated.append(total_wins[a] / denominator if denominator else strength[a])
        positive = [s for s in updated if s > 0]
        centre = math.exp(sum(math.log(s) for s in positive) / len(positive)) if positive else 1.0
        updated = [s / centre for s in updated]
        change = max(abs(new - old) / max(old, 1e-300) for new, old in zip(updated, strength, strict=True))
        strength = updated
        converged = change < TOLERANCE
    scores = {name: _log(strength[index[name]]) for name in names}
    finite = [v for v in scores.values() if math.isfinite(v)]
    mean = sum(finite) / len(finite) if finite else 0.0
    return Fit(names, {k: v - mean for k, v in scores.items()}, iterations, converged)


def _log(value: float) -> float:
    return math.log(value) if value > 0 else -math.inf
