"""The trial protocol: reproducible from the seed alone, each pair once, controls mixed in as documented."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewapp.core.pairs.protocol import ControlSettings, build_trials, trials_from_lists

PAIRS = [f"p{i:03d}" for i in range(40)]


def outside_tool(pair_ids: list[str], seed: int, rate: float, min_gap: int) -> list[tuple[str, str, str]]:
    """The algorithm as the protocol module documents it, written independently: what a third party would do."""
    rng = random.Random(seed)
    order = list(pair_ids)
    rng.shuffle(order)
    main = [[pid, "a" if rng.random() < 0.5 else "b", ""] for pid in order]
    n = int(len(order) * rate + 0.5)
    n_identical, n_repeats = n // 2, n - n // 2
    repeats = sorted(rng.sample(range(len(main)), n_repeats))
    identical = sorted(rng.sample(range(len(main)), n_identical))
    shown = ["a" if rng.random() < 0.5 else "b" for _ in identical]
    seq = list(main)
    for source in repeats:
        p = next(i for i, t in enumerate(seq) if t is main[source])
        at = rng.randint(min(p + 1 + min_gap, len(seq)), len(seq))
        seq.insert(at, [main[source][0], "b" if main[source][1] == "a" else "a", "repeat"])
    for source, side in zip(identical, shown, strict=True):
        seq.insert(rng.randint(0, len(seq)), [main[source][0], side, "identical"])
    return [tuple(t) for t in seq]


def test_trials_follow_the_documented_algorithm_exactly() -> None:
    for seed in (0, 1, 12345, 2**52 + 7):
        trials = build_trials(PAIRS, seed, ControlSettings(rate=0.2, min_gap=3))
        assert [(t.pair_id, t.left, t.control) for t in trials] == outside_tool(PAIRS, seed, 0.2, 3)


def test_same_seed_same_trials_other_seed_other_order() -> None:
    controls = ControlSettings()
    first, again, other = (build_trials(PAIRS, s, controls) for s in (99, 99, 100))
    assert first == again
    assert [t.pair_id for t in first] != [t.pair_id for t in other]


def test_each_pair_is_a_main_trial_once_and_sides_are_mixed() -> None:
    trials = build_trials(PAIRS, 7, ControlSettings(rate=0.0))
    assert sorted(t.pair_id for t in trials) == sorted(PAIRS)
    assert [t.index for t in trials] == list(range(len(PAIRS)))
    lefts = [t.left for t in trials]
    assert 10 < lefts.count("a") < 30  # randomized per trial, not one side for everything
    assert all(t.right != t.left and not t.is_control for t in trials)


def test_controls_repeat_with_sides_swapped_after_a_gap_and_show_identical_images() -> None:
    trials = build_trials(PAIRS, 3, ControlSettings(rate=0.25, min_gap=2))
    repeats = [t for t in trials if t.control == "repeat"]
    identical = [t for t in trials if t.control == "identical"]
    assert len(repeats) == 5 and len(identical) == 5  # 10 controls for 40 pairs, split evenly
    for repeat in repeats:
        assert repeat.repeat_of is not None
        first = trials[repeat.repeat_of]
        assert first.pair_id == repeat.pair_id and first.control == ""
        assert (repeat.left, repeat.right) == (first.right, first.left)
        assert repeat.index - first.index >= 3  # at least min_gap trials in between
    assert all(t.left == t.right for t in identical)


def test_only_one_kind_of_control_when_asked() -> None:
    only_repeats = build_trials(PAIRS, 5, ControlSettings(rate=0.1, identical=False))
    assert {t.control for t in only_repeats} == {"", "repeat"} and len(only_repeats) == 44
    none = build_trials(PAIRS, 5, ControlSettings(rate=0.1, identical=False, repeats=False))
    assert len(none) == 40


def test_trials_from_a_session_record_equal_the_computed_ones() -> None:
    trials = build_trials(PAIRS, 11, ControlSettings(rate=0.3))
    listed = trials_from_lists([t.pair_id for t in trials], [t.left for t in trials], [t.control for t in trials])
    assert listed == trials


@pytest.mark.parametrize(
    "settings_",
    [{"rate": 0.9}, {"rate": -0.1}, {"rate": "0.1"}, {"identical": "yes"}, {"min_gap": -1}, {"sides": 2}],
)
def test_invalid_control_settings_are_refused(settings_: dict) -> None:
    with pytest.raises(ValueError):
        ControlSettings.from_dict({**ControlSettings().to_dict(), **settings_})


def test_duplicate_pair_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="unique"):
        build_trials(["a", "b", "a"], 1, ControlSettings())


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=60),
    seed=st.integers(min_value=0, max_value=2**53 - 1),
    rate=st.sampled_from([0.0, 0.05, 0.1, 0.25, 0.5]),
)
def test_any_set_gives_every_pair_once_plus_valid_controls(count: int, seed: int, rate: float) -> None:
    pairs = [f"id-{i}" for i in range(count)]
    trials = build_trials(pairs, seed, ControlSettings(rate=rate))
    main = [t for t in trials if not t.is_control]
    assert sorted(t.pair_id for t in main) == sorted(pairs)
    assert len(trials) - len(main) == min(int(count * rate + 0.5), 2 * count)
    for trial in trials:
        if trial.control == "repeat":
            assert trial.repeat_of is not None and trial.repeat_of < trial.index
