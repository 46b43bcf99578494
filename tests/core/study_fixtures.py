"""Generated pair-rating studies with known ground truth: conditions with set Bradley–Terry strengths, raters
with set noise (their own strengths scatter around the truth), side bias and reliability on control trials."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations

from reviewapp.core.pairs.results import ResultRow, preferred_condition
from reviewapp.core.pairs.study import RaterResults


@dataclass(frozen=True)
class SimulatedRater:
    name: str
    noise: float = 0.0  # standard deviation of the rater's own strengths around the truth
    side_bias: float = 0.0  # added to the log-odds of answering "left"
    reliability: float = 0.95  # chance of answering a control trial consistently


def _row(trial: int, pair_id: str, left: str, right: str, response: str, control: str = "") -> ResultRow:
    return ResultRow(
        trial=trial,
        pair_id=pair_id,
        control=control,
        repeat_of=None,
        left_condition=left,
        right_condition=right,
        response=response,
        preferred=preferred_condition(response, left, right),
        left_unusable=False,
        right_unusable=False,
        unusable=(),
        confidence=None,
        response_ms=800,
        rated_at="",
        comment="",
    )


def simulate(
    truth: dict[str, float],
    raters: list[SimulatedRater],
    *,
    pairs_per_set: int = 12,
    controls_per_set: int = 4,
    tie_rate: float = 0.05,
    pair_spread: float = 0.0,
    seed: int = 0,
) -> list[RaterResults]:
    """One pair set per pair of conditions; every rater rates every pair of every set once, in random sides.
    `pair_spread` gives each pair an offset of its own (the same for every rater): some pairs favour one side."""
    rng = random.Random(seed)
    offsets = {
        (a, b, k): rng.gauss(0.0, pair_spread) for a, b in combinations(sorted(truth), 2) for k in range(pairs_per_set)
    }
    results = []
    for rater in raters:
        own = {c: s + rng.gauss(0.0, rater.noise) for c, s in truth.items()}
        for a, b in combinations(sorted(truth), 2):
            rows = []
            for k in range(pairs_per_set):
                left, right = (a, b) if rng.random() < 0.5 else (b, a)
                if rng.random() < tie_rate:
                    response = "same"
                else:
                    offset = offsets[(a, b, k)] if left == a else -offsets[(a, b, k)]
                    logit = own[left] - own[right] + offset + rater.side_bias
                    response = "left" if rng.random() < 1 / (1 + math.exp(-logit)) else "right"
                rows.append(_row(len(rows), f"{a}-{b}-{k}", left, right, response))
            for k in range(controls_per_set):
                consistent = rng.random() < rater.reliability
                response = "same" if consistent else rng.choice(("left", "right"))
                rows.append(_row(len(rows), f"{a}-{b}-{k}", a, a, response, control="identical"))
            results.append(RaterResults(rater.name, f"{a}-vs-{b}", (a, b), rows, label=f"{rater.name}/{a}-{b}"))
    return results


def centred(truth: dict[str, float]) -> dict[str, float]:
    mean = sum(truth.values()) / len(truth)
    return {c: v - mean for c, v in truth.items()}
