"""The trial protocol: order, sides and control trials, all derived from one recorded seed.

Anyone can recompute a pair protocol's trials from its protocol file with CPython's `random` module, which is what
`reviewapp pairs check` does. The algorithm ("reviewapp-pairs-v1"), with `rng = random.Random(seed)` and the
set's rateable pair ids in manifest order:

1. `order = list(pair_ids); rng.shuffle(order)` - the order of the main trials.
2. For each pair in `order`: `left = "a" if rng.random() < 0.5 else "b"` - the condition shown on the left.
3. `n = int(len(order) * rate + 0.5)` control trials; with both kinds on, `n_identical = n // 2` and
   `n_repeats = n - n_identical` (with one kind on, all n are of that kind); each capped at len(order).
4. `repeats = sorted(rng.sample(range(len(order)), n_repeats))` - main trials shown again, sides swapped.
5. `identical = sorted(rng.sample(range(len(order)), n_identical))`, then for each of them
   `shown = "a" if rng.random() < 0.5 else "b"` - that condition's image is shown on both sides.
6. Starting from the main trials, for each repeat in `repeats` order: `at = rng.randint(min(p + 1 + min_gap,
   len(seq)), len(seq))` where p is the position of the repeated trial in the current sequence; insert there.
7. For each identical trial in `identical` order: insert at `rng.randint(0, len(seq))`.

Nothing else draws from `rng`, so the same seed, pair ids and control settings always give the same trials.

Algorithm "reviewapp-pairs-v2" builds the trials exactly as above; what changed is the seed, which the rater no
longer picks: it is `derived_seed(fingerprint, annotator)`, the first 52 bits of sha256 over the algorithm name,
the set's fingerprint (a hash of its pair ids and image contents) and the rater's name. Blinding guards against
bias, not against an adversary, so a predictable seed is fine; what matters is that nobody can search for an
order that suits them. v1 pair protocols (a seed drawn at random, or given) stay checkable, with a warning.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

ALGORITHM = "reviewapp-pairs-v2"
FREE_SEED_ALGORITHM = "reviewapp-pairs-v1"
READABLE_ALGORITHMS = (FREE_SEED_ALGORITHM, ALGORITHM)
MAX_CONTROL_RATE = 0.5

Condition = Literal["a", "b"]
ControlKind = Literal["", "repeat", "identical"]


@dataclass(frozen=True, slots=True)
class ControlSettings:
    rate: float = 0.1  # control trials per main trial
    identical: bool = True  # the same image on both sides: "no visible difference" is the right answer
    repeats: bool = True  # a main trial shown again later with sides swapped: measures self-consistency and bias
    min_gap: int = 2  # trials between a pair and its repeat, when the sequence allows

    def __post_init__(self) -> None:
        if isinstance(self.rate, bool) or not isinstance(self.rate, int | float):
            raise ValueError("rate must be a number")
        if not 0.0 <= float(self.rate) <= MAX_CONTROL_RATE:
            raise ValueError(f"rate must be between 0 and {MAX_CONTROL_RATE}")
        if not isinstance(self.identical, bool) or not isinstance(self.repeats, bool):
            raise ValueError("identical and repeats must be true or false")
        if isinstance(self.min_gap, bool) or not isinstance(self.min_gap, int) or not 0 <= self.min_gap <= 100:
            raise ValueError("min_gap must be an integer from 0 to 100")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ControlSettings:
        unknown = set(data) - {"rate", "identical", "repeats", "min_gap"}
        if unknown:
            raise ValueError(f"unknown control settings: {', '.join(sorted(unknown))}")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Trial:
    index: int  # position in the pair protocol, 0-based
    pair_id: str
    left: Condition  # condition shown on the left
    right: Condition
    control: ControlKind = ""
    repeat_of: int | None = None  # index of the trial a repeat repeats

    @property
    def is_control(self) -> bool:
        return self.control != ""

    def condition_on(self, side: str) -> Condition:
        return self.left if side == "left" else self.right


def derived_seed(fingerprint: str, annotator: str) -> int:
    """The v2 seed: fixed by the set's content and the rater's name; below 2**53 so JSON keeps it exact."""
    digest = hashlib.sha256(f"{ALGORITHM}\0{fingerprint}\0{annotator}".encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") >> 12


def new_seed() -> int:
    """A fresh seed per rater and pair protocol; below 2**53 so that every JSON reader keeps it exact."""
    return secrets.randbelow(2**53)


def _other(condition: Condition) -> Condition:
    return "b" if condition == "a" else "a"


def build_trials(pair_ids: Sequence[str], seed: int, controls: ControlSettings) -> list[Trial]:
    """The pair protocol's trials, exactly as the module docstring describes."""
    if len(set(pair_ids)) != len(pair_ids):
        raise ValueError("pair ids must be unique")
    rng = random.Random(seed)
    order = list(pair_ids)
    rng.shuffle(order)
    main: list[dict[str, Any]] = []
    for pair_id in order:
        left: Condition = "a" if rng.random() < 0.5 else "b"
        main.append({"pair_id": pair_id, "left": left, "right": _other(left), "control": "", "of": None})
    count = len(main)
    n_controls = int(count * float(controls.rate) + 0.5) if count else 0
    if controls.identical and controls.repeats:
        n_identical = n_controls // 2
        n_repeats = n_controls - n_identical
    elif controls.repeats:
        n_identical, n_repeats = 0, n_controls
    elif controls.identical:
        n_identical, n_repeats = n_controls, 0
    else:
        n_identical = n_repeats = 0
    n_identical, n_repeats = min(n_identical, count), min(n_repeats, count)
    repeats = sorted(rng.sample(range(count), n_repeats))
    identical = sorted(rng.sample(range(count), n_identical))
    identical_shown: list[Condition] = ["a" if rng.random() < 0.5 else "b" for _ in identical]
    sequence = list(main)
    for source in repeats:
        original = main[source]
        position = next(i for i, t in enumerate(sequence) if t is original)
        at = rng.randint(min(position + 1 + controls.min_gap, len(sequence)), len(sequence))
        swapped = {
            "pair_id": original["pair_id"],
            "left": original["right"],
            "right": original["left"],
            "control": "repeat",
            "of": original,
        }
        sequence.insert(at, swapped)
    for source, shown in zip(identical, identical_shown, strict=True):
        at = rng.randint(0, len(sequence))
        sequence.insert(
            at, {"pair_id": main[source]["pair_id"], "left": shown, "right": shown, "control": "identical", "of": None}
        )
    position_of = {id(t): i for i, t in enumerate(sequence)}
    return [
        Trial(
            index=i,
            pair_id=t["pair_id"],
            left=t["left"],
            right=t["right"],
            control=t["control"],
            repeat_of=position_of[id(t["of"])] if t["of"] is not None else None,
        )
        for i, t in enumerate(sequence)
    ]


def trials_from_lists(order: Sequence[str], sides: Sequence[str], kinds: Sequence[str]) -> list[Trial]:
    """Trials as a pair_session record lists them; a repeat repeats the main trial of the same pair."""
    main_index = {pair_id: i for i, (pair_id, kind) in enumerate(zip(order, kinds, strict=True)) if kind == ""}
    trials = []
    for index, (pair_id, left, kind) in enumerate(zip(order, sides, kinds, strict=True)):
        side: Condition = "a" if left == "a" else "b"
        right: Condition = side if kind == "identical" else _other(side)
        control: ControlKind = "repeat" if kind == "repeat" else "identical" if kind == "identical" else ""
        trials.append(
            Trial(index, pair_id, side, right, control, main_index.get(pair_id) if kind == "repeat" else None)
        )
    return trials
