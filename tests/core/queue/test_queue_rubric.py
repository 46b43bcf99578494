"""Rubric files, score payloads, and rubric scores and flags as undoable records."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.queue.rubric import DEFAULT_RUBRIC, OVERALL_ONLY, RubricError, load_rubric, rubric_toml, score_text
from reviewapp.core.queue.scoring import current_flag, record_rubric_score, rubric_scores, score_payload, set_flag
from reviewapp.core.review.records import parse_line, record_line
from tests.core.annotation_helpers import open_review, small_logbook

RUBRIC = """
name = "prizes"
scale = [0, 10]

[[criterion]]
name = "rigor"
label = "Rigor of evidence"
weight = 3

[[criterion]]
name = "clarity"
weight = 1
"""


def test_a_rubric_file_is_read_with_its_scale_and_weights(tmp_path: Path) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC)
    rubric = load_rubric(path)
    assert rubric.scale == (0.0, 10.0)
    assert [(c.name, c.weight) for c in rubric.criteria] == [("rigor", 3.0), ("clarity", 1.0)]
    assert rubric.overall({"rigor": 8, "clarity": 4}) == 7.0  # (3*8 + 1*4) / 4


def test_the_default_rubric_round_trips_through_toml(tmp_path: Path) -> None:
    path = tmp_path / "default.toml"
    path.write_text(rubric_toml(DEFAULT_RUBRIC))
    again = load_rubric(path)
    assert again == DEFAULT_RUBRIC and again.sha256 == DEFAULT_RUBRIC.sha256
    assert [c.name for c in again.criteria] == ["rigor", "scale", "honesty", "clarity"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name = 'x'\n", r"at least one \[\[criterion\]\]"),
        ("scale = [5, 1]\n[[criterion]]\nname='a'\n", "lowest first"),
        ("[[criterion]]\nname='Rigor!'\n", "lower-case"),
        ("[[criterion]]\nname='a'\nweight=0\n", "positive finite number"),
        ("[[criterion]]\nname='a'\nweight=inf\n", "positive finite number"),
        ("[[criterion]]\nname='a'\nweight=nan\n", "positive finite number"),
        ("[[criterion]]\nname='a'\nweight=1e300\n[[criterion]]\nname='b'\nweight=1e300\n", "up to"),
        ("scale = [1, inf]\n[[criterion]]\nname='a'\n", "finite numbers"),
        ("[[criterion]]\nname='a'\n[[criterion]]\nname='a'\n", "appears twice"),
        ("name = \n", "not valid TOML"),
    ],
)
def test_a_bad_rubric_is_refused_naming_the_file(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(RubricError, match=problem) as caught:
        load_rubric(path)
    assert str(path) in str(caught.value)


def test_scores_are_checked_against_the_rubric() -> None:
    with pytest.raises(RubricError, match="outside the scale 1-5"):
        score_payload(DEFAULT_RUBRIC, {"rigor": 6, "scale": 3, "honesty": 3, "clarity": 3})
    with pytest.raises(RubricError, match="not scored: honesty, clarity"):
        score_payload(DEFAULT_RUBRIC, {"rigor": 4, "scale": 3})
    with pytest.raises(RubricError, match="no criterion 'speed'"):
        score_payload(DEFAULT_RUBRIC, {"speed": 4})
    payload = score_payload(OVERALL_ONLY, {"overall": 4.5}, comment="solid")
    assert payload.overall == 4.5 and payload.rubric_sha256 == OVERALL_ONLY.sha256


def test_a_rubric_score_supersedes_the_judges_previous_one_and_undoes(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    ada = open_review(workspace)
    values = {"rigor": 4, "scale": 2, "honesty": 5, "clarity": 3}
    first = record_rubric_score(ada, score_payload(DEFAULT_RUBRIC, values, {"scale": "10% proxy"}))
    second = record_rubric_score(ada, score_payload(DEFAULT_RUBRIC, {**values, "rigor": 2}))
    assert second.supersedes == first.id
    assert rubric_scores(ada.state)["Ada Lovelace"].payload.overall == 3.0
    assert ada.history.undo_label == "Undo change of rubric score"
    ada.history.undo()
    again = open_review(workspace)
    current = rubric_scores(again.state)["Ada Lovelace"]
    assert current.payload.overall == 3.5
    assert current.payload.criteria[1].comment == "10% proxy"
    line = record_line(current)
    assert parse_line(line) == current


def test_any_judge_can_raise_and_clear_a_flag(tmp_path: Path) -> None:
    workspace = small_logbook(tmp_path)
    ada = open_review(workspace, "Ada")
    set_flag(ada, True, "figure 2 does not match the run")
    bob = open_review(workspace, "Bob")
    assert current_flag(bob.state) is not None and current_flag(bob.state).payload.raised  # type: ignore[union-attr]
    set_flag(bob, False, "re-ran it: matches")
    assert not current_flag(bob.state).payload.raised  # type: ignore[union-attr]
    bob.history.undo()  # undoing the clear brings Ada's flag back
    bob.reload()
    flag = current_flag(bob.state)
    assert flag is not None and flag.payload.raised and flag.annotator == "Ada"
    with pytest.raises(ValueError, match="needs a reason"):
        set_flag(ada, True, "  ")


@pytest.mark.parametrize(
    ("value", "scale", "shown"),
    [(4.0, (1.0, 5.0), "4"), (3.5, (1.0, 5.0), "3.50"), (2.0 / 3, (0.0, 1.0), "0.67"), (1.0, (0.5, 2.5), "1.00")],
)
def test_a_score_is_written_as_its_scale_is(value: float, scale: tuple[float, float], shown: str) -> None:
    assert score_text(value, scale) == shown
