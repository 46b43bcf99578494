"""Summary statistics: Wilson intervals, exact binomial test, consistency on controls, unusable rates."""

from __future__ import annotations

import pytest

from reviewapp.core.pairs.results import ResultRow, preferred_condition
from reviewapp.core.pairs.stats import binomial_two_sided, render_summary, summarize, wilson

CONDITIONS = ("base", "quant")


def row(trial: int, response: str, left: str = "base", right: str = "quant", **extra) -> ResultRow:
    values = {
        "trial": trial,
        "pair_id": f"p{trial}",
        "control": "",
        "repeat_of": None,
        "left_condition": left,
        "right_condition": right,
        "response": response,
        "preferred": preferred_condition(response, left, right),
        "left_unusable": False,
        "right_unusable": False,
        "unusable": (),
        "confidence": None,
        "response_ms": 1000 + trial,
        "rated_at": "",
        "comment": "",
    }
    values.update(extra)
    return ResultRow(**values)


def test_wilson_interval_matches_known_values() -> None:
    half = wilson(5, 10)
    assert half.low == pytest.approx(0.2366, abs=1e-4) and half.high == pytest.approx(0.7634, abs=1e-4)
    none = wilson(0, 10)
    assert none.low == 0.0 and none.high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0).value is None


def test_exact_binomial_test() -> None:
    assert binomial_two_sided(9, 10) == pytest.approx(0.021484375)
    assert binomial_two_sided(5, 10) == 1.0
    assert binomial_two_sided(0, 20) == pytest.approx(2 / 2**20)
    assert binomial_two_sided(0, 0) is None
    assert 0 < binomial_two_sided(1200, 3000) < 1e-20  # large counts stay exact, no overflow


def test_summary_of_preferences_unusable_consistency_and_bias() -> None:
    rows = [
        row(0, "right", right_unusable=False, left_unusable=True, unusable=("base",)),
        row(1, "left", left="quant", right="base"),
        row(2, "same"),
        row(3, "right"),
        row(4, "left", left="quant", right="base", control="repeat", repeat_of=0),  # quant again: consistent
        row(5, "right", control="repeat", repeat_of=2),  # was "same": inconsistent
        row(6, "same", left="base", right="base", control="identical"),
        row(7, "left", left="quant", right="quant", control="identical"),
        row(8, "skipped"),
    ]
    summary = summarize(rows, CONDITIONS)
    assert summary.main_trials == 4 and summary.skipped == 1 and summary.trials == 9
    assert summary.preferred["quant"].count == 3 and summary.preferred["none"].count == 1
    assert summary.preferred["base"].count == 0
    assert summary.unusable["base"].count == 1 and summary.unusable["quant"].count == 0
    assert (summary.repeats.count, summary.repeats.total) == (1, 2)
    assert (summary.identical_same.count, summary.identical_same.total) == (1, 2)
    assert (summary.consistency.count, summary.consistency.total) == (2, 4)
    assert (summary.left, summary.right) == (3, 3) and summary.bias_p == 1.0
    text = "\n".join(render_summary(summary))
    assert "quant: 75.0%" in text and "consistency: 50.0%" in text and "1 skipped" in text
