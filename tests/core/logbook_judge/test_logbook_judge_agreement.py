"""Agreement statistics against published worked examples (sources quoted per fixture)."""

from __future__ import annotations

import math

import pytest

from reviewapp.core.logbook_judge.agreement import (
    bootstrap,
    cohen_kappa,
    cohen_kappa_table,
    confusion,
    fleiss_kappa,
    fleiss_kappa_table,
    krippendorff_alpha,
    percent_agreement,
)

NAN = math.nan


def units_of(*raters: list[float]) -> list[dict[str, float]]:
    """Reliability data as rows per coder -> units as {coder: value}, NaN = missing."""
    names = "ABCDEFGH"
    return [{names[r]: row[u] for r, row in enumerate(raters) if not math.isnan(row[u])} for u in range(len(raters[0]))]


# Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", the "C" data: 4 coders x 12 units, values 1-5;
# the same data is the example of R irr::kripp.alpha and fast-krippendorff tests/test_krippendorff.py @ 13c1938f.
KRIPPENDORFF_C = units_of(
    [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
    [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
)


@pytest.mark.parametrize(
    ("level", "expected"),
    [("nominal", 0.743421), ("ordinal", 0.815388), ("interval", 0.849107), ("ratio", 0.797403)],
)
def test_krippendorff_alpha_on_krippendorffs_own_reliability_data(level, expected):
    assert krippendorff_alpha(KRIPPENDORFF_C, level) == pytest.approx(expected, abs=1e-6)


# 3 coders x 15 units, the data and asserted values of fast-krippendorff's tests (attributed to Wikipedia's
# "Krippendorff's alpha" article): nominal 0.691358, interval 0.810845.
THREE_CODERS = units_of(
    [NAN, NAN, NAN, NAN, NAN, 3, 4, 1, 2, 1, 1, 3, 3, NAN, 3],
    [1, NAN, 2, 1, 3, 3, 4, 3, NAN, NAN, NAN, NAN, NAN, NAN, NAN],
    [NAN, NAN, 2, 1, 3, 4, 4, NAN, 2, 1, 1, 3, 3, NAN, 4],
)


def test_krippendorff_alpha_three_coders_with_gaps():
    assert krippendorff_alpha(THREE_CODERS, "nominal") == pytest.approx(0.691358, abs=1e-6)
    assert krippendorff_alpha(THREE_CODERS, "interval") == pytest.approx(0.810845, abs=1e-6)
    assert krippendorff_alpha(THREE_CODERS, "ordinal") == pytest.approx(0.806721, abs=1e-6)


def test_krippendorff_binary_example():
    # Krippendorff (2011): 2 observers x 10 units, alpha nominal 0.095.
    units = units_of([0, 1, 0, 0, 0, 0, 0, 0, 1, 0], [1, 1, 1, 0, 0, 1, 0, 0, 0, 0])
    assert krippendorff_alpha(units, "nominal") == pytest.approx(0.095238, abs=1e-6)


def test_ordinal_alpha_follows_the_given_order_not_the_alphabet():
    units = [{"a": "low", "b": "mid"}, {"a": "mid", "b": "high"}, {"a": "low", "b": "low"}, {"a": "high", "b": "high"}]
    by_order = krippendorff_alpha(units, "ordinal", order=["low", "mid", "high"])
    alphabetical = krippendorff_alpha(units, "ordinal", order=["high", "low", "mid"])
    assert by_order is not None and alphabetical is not None
    assert by_order > alphabetical


def test_cohen_kappa_two_by_two():
    # Wikipedia "Cohen's kappa" worked example: po 0.70, pe 0.50, kappa 0.40.
    assert cohen_kappa_table([[20, 5], [10, 15]]) == pytest.approx(0.40)


def test_cohen_kappa_sas_example_used_by_statsmodels():
    # statsmodels/stats/tests/test_inter_rater.py @ 039c320d (SAS example): kappa 0.4842, weighted [0,1,2] 0.4701.
    table = [[0, 4, 1], [0, 8, 0], [0, 1, 5]]
    assert cohen_kappa_table(table) == pytest.approx(0.4842, abs=1e-4)
    assert cohen_kappa_table(table, weights=[0, 1, 2]) == pytest.approx(0.4701, abs=1e-4)


def test_cohen_kappa_from_units_equals_the_table():
    units = [{"x": "a", "y": "a"}] * 20 + [{"x": "a", "y": "b"}] * 5 + [{"x": "b", "y": "a"}] * 10
    units += [{"x": "b", "y": "b"}] * 15 + [{"x": "a"}] * 7  # the single ratings are left out
    assert cohen_kappa(units, "x", "y") == pytest.approx(0.40)


FLEISS_WIKIPEDIA = [
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
]  # fmt: skip


def test_fleiss_kappa_wikipedia_table():
    # Wikipedia "Fleiss' kappa" example (10 subjects x 5 categories, 14 raters), also in statsmodels' tests: 0.210.
    assert fleiss_kappa_table(FLEISS_WIKIPEDIA) == pytest.approx(0.2099, abs=1e-4)


# Fleiss (1971) diagnoses, 30 subjects x 6 raters, categories 1-5 (R irr::diagnoses; statsmodels test_inter_rater.py).
DIAGNOSES = [
    [4, 4, 4, 4, 4, 4], [2, 2, 2, 5, 5, 5], [2, 3, 3, 3, 3, 5], [5, 5, 5, 5, 5, 5], [2, 2, 2, 4, 4, 4],
    [1, 1, 3, 3, 3, 3], [3, 3, 3, 3, 5, 5], [1, 1, 3, 3, 3, 4], [1, 1, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5],
    [1, 4, 4, 4, 4, 4], [1, 2, 4, 4, 4, 4], [2, 2, 2, 3, 3, 3], [1, 4, 4, 4, 4, 4], [2, 2, 4, 4, 4, 5],
    [3, 3, 3, 3, 3, 5], [1, 1, 1, 4, 5, 5], [1, 1, 1, 1, 1, 2], [2, 2, 4, 4, 4, 4], [1, 3, 3, 5, 5, 5],
    [5, 5, 5, 5, 5, 5], [2, 4, 4, 4, 4, 4], [2, 2, 4, 5, 5, 5], [1, 1, 4, 4, 4, 4], [1, 4, 4, 4, 4, 5],
    [2, 2, 2, 2, 2, 4], [1, 1, 1, 1, 5, 5], [2, 2, 4, 4, 4, 4], [1, 3, 3, 3, 3, 3], [5, 5, 5, 5, 5, 5],
]  # fmt: skip


def test_fleiss_kappa_and_alpha_on_fleiss_1971_diagnoses():
    units = [{f"r{i}": v for i, v in enumerate(row)} for row in DIAGNOSES]
    assert fleiss_kappa(units) == pytest.approx(0.4302445, abs=1e-6)  # R irr::kappam.fleiss
    assert krippendorff_alpha(units, "nominal") == pytest.approx(0.433410, abs=1e-6)


def test_fleiss_kappa_with_missing_ratings_uses_the_units_that_can_be_compared():
    full = [{f"r{i}": v for i, v in enumerate(row)} for row in DIAGNOSES]
    with_gaps = [*full, {"r0": 3}, {}]  # one single rating and an unrated claim change nothing
    assert fleiss_kappa(with_gaps) == pytest.approx(fleiss_kappa(full))


def test_percent_agreement_pools_rater_pairs():
    units = [{"a": 1, "b": 1, "c": 2}, {"a": 1, "b": 1}, {"a": 3}]
    assert percent_agreement(units) == pytest.approx(2 / 4)  # 1 of 3 pairs, then 1 of 1; the lone rating ignored
    assert percent_agreement([{"a": 1}]) is None


def test_bootstrap_is_reproducible_and_brackets_the_estimate():
    first = bootstrap(KRIPPENDORFF_C, lambda u: krippendorff_alpha(u, "nominal"), resamples=300)
    again = bootstrap(KRIPPENDORFF_C, lambda u: krippendorff_alpha(u, "nominal"), resamples=300)
    other_seed = bootstrap(KRIPPENDORFF_C, lambda u: krippendorff_alpha(u, "nominal"), resamples=300, seed=1)
    assert first == again
    assert first != other_seed
    assert first.low is not None and first.high is not None
    assert first.low < 0.743421 < first.high
    assert first.resamples == 300 and first.valid == 300


def test_confusion_precision_and_recall_per_class():
    pairs = [("verified", "verified")] * 3 + [("verified", "toy"), ("partial", "verified"), ("falsified", "toy")]
    table = confusion(pairs, ["verified", "partial", "falsified"], ["verified", "toy"])
    assert table.counts["verified"] == {"verified": 3, "toy": 1}
    assert table.precision("verified") == pytest.approx(3 / 4)  # the judge said verified 4 times, 3 right
    assert table.recall("verified") == pytest.approx(3 / 4)
    assert table.precision("toy") == pytest.approx(0.0)  # no person said toy
    assert table.recall("falsified") == pytest.approx(0.0)
    assert table.recall("toy") is None
