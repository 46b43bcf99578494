"""Per-judge normalization and the combined ranking, on examples worked out by hand."""

from __future__ import annotations

import math

import pytest

from reviewapp.core.queue.ranking import JudgeScore, normalize, rank_logbooks


def scores(table: dict[str, dict[str, float]]) -> list[JudgeScore]:
    return [JudgeScore(judge, logbook, value) for judge, row in table.items() for logbook, value in row.items()]


def test_z_scores_match_hand_computation() -> None:
    # A: 5, 3, 1 -> mean 3, population sd sqrt(8/3) = 1.63299 -> 1.22474, 0, -1.22474
    assert normalize([5, 3, 1], "z") == pytest.approx([1.224745, 0.0, -1.224745], abs=1e-6)
    # B: 2, 2, 1 -> mean 5/3, sd sqrt(2/9) = 0.471405 -> 0.707107, 0.707107, -1.414214
    assert normalize([2, 2, 1], "z") == pytest.approx([0.707107, 0.707107, -1.414214], abs=1e-6)


def test_rank_normalization_uses_mid_ranks_on_minus_one_to_one() -> None:
    # 3, 3, 1: mid-ranks 2.5, 2.5, 1 of n = 3 -> (2r - 4) / 2 = 0.5, 0.5, -1
    assert normalize([3, 3, 1], "rank") == [0.5, 0.5, -1.0]
    assert normalize([4], "rank") == [0.0]


def test_combined_scores_average_the_judges_who_scored_each_logbook() -> None:
    ranking = rank_logbooks(scores({"A": {"x": 5, "y": 3, "z": 1}, "B": {"x": 2, "y": 2, "z": 1}}))
    by = {row.logbook: row for row in ranking.rows}
    # x: (1.224745 + 0.707107) / 2 = 0.965926; y: 0.353553; z: -1.319479
    assert [r.logbook for r in ranking.rows] == ["x", "y", "z"]
    assert (by["x"].score, by["y"].score, by["z"].score) == (0.97, 0.35, -1.32)
    assert by["x"].judges == {"A": 5, "B": 2}
    assert math.isclose(by["z"].spread, 1.414214 - 1.224745, abs_tol=1e-6)
    assert [r.rank for r in ranking.rows] == [1, 2, 3]


def test_a_harsh_and_a_lenient_judge_count_the_same() -> None:
    # Raw means would rank c (4) > b (3) > a (2); per judge, a beat b for the harsh judge and b beat c for the
    # lenient one, so the normalized ranking is a, b, c.
    ranking = rank_logbooks(scores({"harsh": {"a": 2, "b": 1}, "lenient": {"b": 5, "c": 4}}))
    assert [(r.logbook, r.score) for r in ranking.rows] == [("a", 1.0), ("b", 0.0), ("c", -1.0)]
    assert sorted(r.raw_mean for r in ranking.rows) == [2, 3, 4]
    assert any("harsh scored 2 logbooks" in w for w in ranking.warnings)
    assert any("different subsets" in w for w in ranking.warnings)


def test_a_judge_who_gives_one_score_to_everything_expresses_no_preference() -> None:
    ranking = rank_logbooks(scores({"flat": {"a": 4, "b": 4, "c": 4}, "A": {"a": 1, "b": 2, "c": 3}}))
    by = {row.logbook: row for row in ranking.rows}
    assert by["a"].normalized["flat"] == by["c"].normalized["flat"] == 0.0
    assert [r.logbook for r in ranking.rows] == ["c", "b", "a"]
    assert any("flat gave every logbook the same score" in w for w in ranking.warnings)


def test_ties_at_two_decimals_share_a_rank_and_are_flagged() -> None:
    ranking = rank_logbooks(scores({"A": {"a": 3, "b": 3, "c": 1, "d": 5}}))
    assert [(r.logbook, r.rank, r.tied) for r in ranking.rows] == [
        ("d", 1, False),
        ("a", 2, True),
        ("b", 2, True),
        ("c", 4, False),
    ]


def test_a_single_score_normalizes_to_zero_with_a_warning() -> None:
    ranking = rank_logbooks(scores({"solo": {"a": 5}}))
    assert ranking.rows[0].score == 0.0
    assert ranking.warnings[0].startswith("solo scored 1 logbook:")
