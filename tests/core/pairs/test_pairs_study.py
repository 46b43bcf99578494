"""Study results: the Bradley–Terry fit against a textbook example, generated studies with known ground truth
(order recovered, intervals covering the truth near their nominal rate), raters below the consistency threshold
listed, agreement between raters, and `pairs study` on real committed results."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.pairs import bradley_terry
from reviewapp.core.pairs.study import combine
from tests.core.study_fixtures import SimulatedRater, centred, simulate

# Agresti, Categorical Data Analysis (2nd ed., 2002), section 10.6, table 10.10: the 1987 American League East,
# every pair of teams played 13 games; WINS[i][j] = games team i won against team j.
TEAMS = ("Milwaukee", "Detroit", "Toronto", "New York", "Boston", "Cleveland", "Baltimore")
WINS = (
    (0, 7, 9, 7, 7, 9, 11),
    (6, 0, 7, 5, 11, 9, 9),
    (4, 6, 0, 7, 7, 8, 12),
    (6, 8, 6, 0, 6, 7, 10),
    (6, 2, 6, 7, 0, 7, 12),
    (4, 4, 5, 6, 6, 0, 6),
    (2, 4, 1, 3, 1, 7, 0),
)
# Table 10.11: the fitted log-strengths relative to Baltimore.
AGRESTI = {"Milwaukee": 1.58, "Detroit": 1.44, "Toronto": 1.29, "New York": 1.25, "Boston": 1.11, "Cleveland": 0.68}


def test_bradley_terry_reproduces_the_textbook_fit() -> None:
    wins = {(TEAMS[i], TEAMS[j]): WINS[i][j] for i in range(7) for j in range(7) if i != j}
    fitted = bradley_terry.fit(wins)
    assert fitted.converged
    relative = {team: fitted.scores[team] - fitted.scores["Baltimore"] for team in AGRESTI}
    assert relative == pytest.approx(AGRESTI, abs=0.005)
    assert sum(fitted.scores.values()) == pytest.approx(0.0, abs=1e-9)
    assert fitted.order() == list(TEAMS)
    # The fitted model gives Milwaukee its textbook chance against Baltimore: exp(1.58) / (1 + exp(1.58)) = 0.83.
    assert fitted.win_probability("Milwaukee", "Baltimore") == pytest.approx(0.83, abs=0.005)


def test_a_condition_never_preferred_gets_a_finite_score_with_the_prior() -> None:
    wins = {("a", "b"): 10.0, ("b", "c"): 10.0}
    bare = bradley_terry.fit(wins, ("a", "b", "c"))
    assert math.isinf(bare.scores["c"]) or bare.scores["c"] < -10
    fitted = bradley_terry.fit(wins, ("a", "b", "c"), prior=1.0)
    assert all(math.isfinite(v) for v in fitted.scores.values())
    assert fitted.order() == ["a", "b", "c"]


def test_the_fit_recovers_the_order_despite_noisy_and_side_biased_raters() -> None:
    truth = {"small": -1.2, "medium": 0.0, "large": 0.9, "huge": 1.8}
    raters = [SimulatedRater(f"rater {k}", noise=0.4, side_bias=(-1) ** k * 0.8) for k in range(8)]
    recovered = 0
    for run in range(10):
        study = combine(simulate(truth, raters, pairs_per_set=20, seed=run), resamples=0)
        recovered += [s.condition for s in study.scores] == ["huge", "large", "medium", "small"]
    assert recovered >= 9
    study = combine(simulate(truth, raters, pairs_per_set=20, seed=0), resamples=200)
    assert all(s.low is not None and s.low <= s.score <= s.high for s in study.scores)  # type: ignore[operator]
    shares = [r.left_share for r in study.raters if r.left_share is not None]
    assert any(share > 0.55 for share in shares) and any(share < 0.45 for share in shares)


def test_intervals_cover_the_truth_near_their_nominal_rate() -> None:
    truth = {"a": -0.8, "b": 0.0, "c": 0.5}
    target = centred(truth)
    covered = total = 0
    for run in range(30):
        raters = [SimulatedRater(f"r{k}", noise=0.25) for k in range(10)]
        # no ties: a "no difference" drawn at random is outside the model and pulls every score towards 0
        found = simulate(truth, raters, pairs_per_set=10, tie_rate=0.0, seed=1000 + run)
        study = combine(found, resamples=200, seed=run)
        for score in study.scores:
            assert score.low is not None and score.high is not None
            total += 1
            covered += score.low <= target[score.condition] <= score.high
    # Nominal 95%; a percentile bootstrap over ten raters runs narrow (89% here), so the bound is loose.
    assert 0.80 <= covered / total <= 1.0


def test_raters_below_the_consistency_threshold_are_listed_and_left_out() -> None:
    truth = {"a": 0.0, "b": 1.0}
    good = [SimulatedRater(f"steady {k}", reliability=1.0) for k in range(4)]
    careless = SimulatedRater("careless", reliability=0.0)
    results = simulate(truth, [*good, careless], controls_per_set=6, seed=5)
    study = combine(results, min_consistency=0.7, resamples=100)
    assert [r.annotator for r in study.excluded] == ["careless"]
    assert "below 70%" in study.excluded[0].note
    assert len(study.raters) == 5 and len(study.included) == 4
    assert study.preference is not None
    kept_trials = sum(len(r.main_rows()) for r in results if r.annotator != "careless")
    assert study.preference["b"].total == kept_trials
    everyone = combine(results, min_consistency=0.0, resamples=100)
    assert not everyone.excluded and everyone.preference is not None
    assert everyone.preference["b"].total > kept_trials


def test_agreement_between_raters_is_high_when_they_answer_alike() -> None:
    equal = {"a": 0.0, "b": 0.0}
    raters = [SimulatedRater(f"r{k}") for k in range(4)]
    # Each pair clearly favours one side (everyone sees which), or no pair does (nobody can tell).
    agreed = combine(simulate(equal, raters, tie_rate=0.0, pair_spread=6.0, seed=1), resamples=0)
    split = combine(simulate(equal, raters, tie_rate=0.0, pair_spread=0.0, seed=1), resamples=0)
    assert agreed.alpha is not None and split.alpha is not None
    assert agreed.alpha_units == 12
    assert agreed.alpha > 0.5 and abs(split.alpha) < 0.2


def test_the_same_rater_and_set_twice_counts_once_and_is_named() -> None:
    results = simulate({"a": 0.0, "b": 1.0}, [SimulatedRater("ann"), SimulatedRater("bo")], seed=2)
    study = combine([*results, results[0]], resamples=50)
    assert len(study.raters) == 2
    assert any("ann rated a-vs-b in another file already" in p for p in study.problems)


# --- `pairs study` on results made by the real rating round ---


def _rated_workspace(tmp_path: Path) -> tuple[Path, list[Path]]:
    from tests.core.pairs.test_pairs_results import honest, rate_all
    from tests.support.pair_fixtures import write_pair_logbook

    workspace = write_pair_logbook(tmp_path / "ws", 8, controls={"rate": 0.5})

    def contrary(trial):  # prefers the quantized images and never sees identical pairs as identical
        return "left" if trial.left == "b" else "right"

    paths = []
    for name, answer in (("Ada", honest), ("Ben", honest), ("Cy", contrary)):
        session = rate_all(workspace, answer=answer, name=name)
        assert session.results is not None
        paths.append(session.results[0])
    return workspace, paths


def test_pairs_study_combines_committed_results_and_writes_the_report(tmp_path: Path, capsys) -> None:
    _, paths = _rated_workspace(tmp_path)
    report = tmp_path / "out" / "study.md"
    report.parent.mkdir()
    assert main(["pairs", "study", *map(str, paths), "--json", "--out", str(report)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["conditions"] == ["baseline", "quantized"]
    assert data["below_consistency"] == ["Cy"]
    assert [s["condition"] for s in data["scores"]] == ["baseline", "quantized"]
    assert data["preference"]["baseline"]["count"] == data["preference"]["baseline"]["total"] == 16
    # Ada and Ben (the two kept) preferred the baseline on every pair: one value only, alpha is undefined.
    assert data["krippendorff_alpha"] == {"nominal": None, "units": 8}
    text = report.read_text(encoding="utf-8")
    assert "n/a (every answer was the same)" in text
    assert "![Condition scores" in text and "study-scores.png" in text and "Cy" in text
    for name in ("study-scores.png", "study-scores.svg", "study-raters.png", "study-raters.svg"):
        assert (report.parent / name).stat().st_size > 1000


def test_pairs_study_names_an_altered_file_and_combines_the_rest(tmp_path: Path, capsys) -> None:
    _, paths = _rated_workspace(tmp_path)
    paths[1].write_text(paths[1].read_text(encoding="utf-8").replace("baseline", "quantized", 1), encoding="utf-8")
    assert main(["pairs", "study", *map(str, paths)]) == 1
    out = capsys.readouterr().out
    assert f"problem: {paths[1]}: left out, invalid" in out
    assert "1 of 2 raters in the scores" in out  # Ada and Cy; Cy is below the threshold


def test_pairs_study_without_valid_results_is_a_usage_error(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nothing.csv"
    assert main(["pairs", "study", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "nothing.csv" in err and "no valid results" in err
