"""Summary of a rater's results: preferences with Wilson intervals, unusable rates, consistency and side bias.

Main trials (each pair once) give the preference and unusable rates. Control trials measure the rater:
a repeat (the same pair later, sides swapped) is consistent when it prefers the same condition as the first
showing (or "no difference" both times); an identical pair is answered consistently with "no difference".
Side bias is tested on every decisive answer (left or right) with an exact two-sided binomial test against 1/2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from reviewapp.core.pairs.results import NO_PREFERENCE, ResultRow

Z_95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Rate:
    count: int
    total: int
    low: float  # 95% Wilson interval
    high: float

    @property
    def value(self) -> float | None:
        return self.count / self.total if self.total else None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "rate": self.value}

    def __str__(self) -> str:
        if not self.total:
            return "n/a (0 trials)"
        return f"{self.value:.1%} [{self.low:.1%}, {self.high:.1%}] ({self.count}/{self.total})"


@dataclass(frozen=True, slots=True)
class Summary:
    conditions: tuple[str, str]
    trials: int
    main_trials: int
    skipped: int
    preferred: dict[str, Rate]  # condition name or "none" -> share of main trials
    unusable: dict[str, Rate]  # condition name -> share of main trials where it was marked unusable
    repeats: Rate  # consistent repeats
    identical_same: Rate  # identical pairs answered "no difference"
    consistency: Rate  # all consistent control trials
    left: int  # decisive answers for the left image, all trials
    right: int
    bias_p: float | None  # two-sided binomial p of left vs right
    median_response_ms: float | None

    @property
    def left_share(self) -> float | None:
        decisive = self.left + self.right
        return self.left / decisive if decisive else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "conditions": list(self.conditions),
            "trials": self.trials,
            "main_trials": self.main_trials,
            "skipped": self.skipped,
            "preferred": {k: v.to_dict() for k, v in self.preferred.items()},
            "unusable": {k: v.to_dict() for k, v in self.unusable.items()},
            "repeats_consistent": self.repeats.to_dict(),
            "identical_no_difference": self.identical_same.to_dict(),
            "consistency": self.consistency.to_dict(),
            "side_bias": {"left": self.left, "right": self.right, "left_share": self.left_share, "p": self.bias_p},
            "median_response_ms": self.median_response_ms,
        }


def wilson(count: int, total: int, z: float = Z_95) -> Rate:
    if total <= 0:
        return Rate(count, total, 0.0, 1.0)
    p = count / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return Rate(count, total, max(0.0, centre - half), min(1.0, centre + half))


def binomial_two_sided(successes: int, trials: int) -> float | None:
    """Exact two-sided p-value against p = 1/2 (outcomes at least as unlikely as the one observed)."""
    if trials <= 0:
        return None
    tail = min(successes, trials - successes)
    total = sum(math.comb(trials, k) for k in range(tail + 1))
    if 2 * tail == trials:
        return 1.0
    return min(1.0, 2 * total / (1 << trials))  # a shift stays an int (2**n is typed Any)


def summarize(rows: Sequence[ResultRow], conditions: tuple[str, str]) -> Summary:
    main = [r for r in rows if not r.control and r.response != "skipped"]
    by_trial = {r.trial: r for r in rows}
    preferred = {
        name: wilson(sum(1 for r in main if r.preferred == name), len(main)) for name in (*conditions, NO_PREFERENCE)
    }
    unusable = {name: wilson(sum(1 for r in main if name in r.unusable), len(main)) for name in conditions}
    repeat_agree = repeat_total = 0
    for row in rows:
        if row.control != "repeat" or row.response == "skipped" or row.repeat_of is None:
            continue
        first = by_trial.get(row.repeat_of)
        if first is None or first.response == "skipped":
            continue
        repeat_total += 1
        repeat_agree += first.preferred == row.preferred
    identical = [r for r in rows if r.control == "identical" and r.response != "skipped"]
    identical_same = sum(1 for r in identical if r.response == "same")
    left = sum(1 for r in rows if r.response == "left")
    right = sum(1 for r in rows if r.response == "right")
    times = sorted(r.response_ms for r in rows if r.response != "skipped")
    median = None
    if times:
        middle = len(times) // 2
        median = float(times[middle]) if len(times) % 2 else (times[middle - 1] + times[middle]) / 2
    return Summary(
        conditions=conditions,
        trials=len(rows),
        main_trials=len(main),
        skipped=sum(1 for r in rows if r.response == "skipped"),
        preferred=preferred,
        unusable=unusable,
        repeats=wilson(repeat_agree, repeat_total),
        identical_same=wilson(identical_same, len(identical)),
        consistency=wilson(repeat_agree + identical_same, repeat_total + len(identical)),
        left=left,
        right=right,
        bias_p=binomial_two_sided(left, left + right),
        median_response_ms=median,
    )


def render_summary(summary: Summary) -> list[str]:
    a, b = summary.conditions
    lines = [
        f"Trials: {summary.trials} ({summary.main_trials} main, {summary.trials - summary.main_trials} control"
        + (f", {summary.skipped} skipped" if summary.skipped else "")
        + ")",
        "Preferred (share of main trials, 95% Wilson interval):",
        f"  {a}: {summary.preferred[a]}",
        f"  {b}: {summary.preferred[b]}",
        f"  no visible difference: {summary.preferred[NO_PREFERENCE]}",
        "Unusable:",
        f"  {a}: {summary.unusable[a]}",
        f"  {b}: {summary.unusable[b]}",
        "Rater:",
        f"  consistency: {summary.consistency}",
        f"    repeats with sides swapped: {summary.repeats}",
        f"    identical pairs seen as no difference: {summary.identical_same}",
    ]
    if summary.bias_p is None:
        lines.append("  side bias: no decisive answers")
    else:
        share = summary.left_share or 0.0
        lines.append(
            f"  side bias: left {summary.left}, right {summary.right} "
            f"({share:.0%} left, binomial p = {summary.bias_p:.3g})"
        )
    if summary.median_response_ms is not None:
        lines.append(f"  median response time: {summary.median_response_ms / 1000:.1f} s")
    return lines
