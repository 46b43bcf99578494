"""`pairs check` against fabricated results: the rows must equal what the rater's append-only records give,
and the seed must be the one derived from the set's content and the rater's name (algorithm v2)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

from reviewapp.core.pairs.check import check_results
from reviewapp.core.pairs.protocol import ALGORITHM, FREE_SEED_ALGORITHM, Trial, derived_seed
from reviewapp.core.pairs.rating import PairRatingRound
from reviewapp.core.pairs.results import COLUMNS
from reviewapp.core.pairs.sets import load_set
from tests.support.pair_fixtures import open_annotations, write_pair_logbook


def honest(trial: Trial) -> str:
    return "same" if trial.control == "identical" else ("left" if trial.left == "a" else "right")


def rate(workspace: Path, name: str = "Rita Rater", seed: int | None = None) -> tuple[PairRatingRound, Path, Path]:
    annotations = open_annotations(workspace, name)
    rating = PairRatingRound.open(annotations, load_set(annotations.logbook), seed=seed)
    while (trial := rating.current) is not None:
        rating.rate(honest(trial), confidence=2, response_ms=700)
    assert rating.results is not None
    return rating, *rating.results


def rewrite(csv_path: Path, protocol_path: Path, change) -> None:  # type: ignore[no-untyped-def]
    """Change the rows and record the new file's sha256 in the protocol, as a forger would."""
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    for row in rows:
        change(row)
    out = io.StringIO(newline="")
    writer = csv.DictWriter(out, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    data = out.getvalue().encode("utf-8")
    csv_path.write_bytes(data)
    protocol = json.loads(protocol_path.read_text(encoding="utf-8"))
    protocol["csv"]["sha256"] = hashlib.sha256(data).hexdigest()
    protocol_path.write_text(json.dumps(protocol), encoding="utf-8")


def flip(row: dict[str, str]) -> None:
    swap = {"left": "right", "right": "left", "same": "left"}
    row["response"] = swap.get(row["response"], row["response"])
    row["preferred"] = row["left_condition"] if row["response"] == "left" else row["right_condition"]


def test_honest_results_with_a_derived_seed_pass_without_warnings(tmp_path: Path) -> None:
    rating, csv_path, protocol_path = rate(write_pair_logbook(tmp_path / "ws", 6))
    protocol = json.loads(protocol_path.read_text(encoding="utf-8"))
    assert protocol["algorithm"] == ALGORITHM
    assert protocol["seed"] == derived_seed(rating.pair_set.fingerprint(), "Rita Rater") == rating.seed
    report = check_results(csv_path)
    assert report.valid, report.errors
    assert report.warnings == []


def test_flipping_every_response_and_rehashing_is_caught_by_the_records(tmp_path: Path) -> None:
    _, csv_path, protocol_path = rate(write_pair_logbook(tmp_path / "ws", 6))
    rewrite(csv_path, protocol_path, flip)
    report = check_results(csv_path)
    assert not report.valid
    assert any("differs from the rater's records (response, preferred)" in e for e in report.errors), report.errors


def test_a_chosen_seed_labelled_as_derived_is_refused(tmp_path: Path) -> None:
    _, csv_path, protocol_path = rate(write_pair_logbook(tmp_path / "ws", 6), seed=12345)
    protocol = json.loads(protocol_path.read_text(encoding="utf-8"))
    assert protocol["algorithm"] == FREE_SEED_ALGORITHM
    protocol["algorithm"] = ALGORITHM  # pass a chosen order off as the derived one
    protocol_path.write_text(json.dumps(protocol), encoding="utf-8")
    report = check_results(csv_path)
    assert any("the seed is not the one derived" in e for e in report.errors)


def test_results_of_the_old_algorithm_stay_checkable_with_a_warning(tmp_path: Path) -> None:
    _, csv_path, _ = rate(write_pair_logbook(tmp_path / "ws", 6), seed=777)
    report = check_results(csv_path)
    assert report.valid, report.errors
    assert any("could choose" in w for w in report.warnings)


def test_results_without_the_raters_records_cannot_pass(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 4)
    _, csv_path, _ = rate(workspace)
    (csv_path.parent.parent / "rita-rater.jsonl").unlink()
    report = check_results(csv_path)
    assert any("cannot be recomputed" in e for e in report.errors)


def test_the_derived_seed_depends_on_the_set_and_the_rater_only() -> None:
    assert derived_seed("f" * 64, "Rita") == derived_seed("f" * 64, "Rita") < 2**53
    assert derived_seed("f" * 64, "Rita") != derived_seed("e" * 64, "Rita")
    assert derived_seed("f" * 64, "Rita") != derived_seed("f" * 64, "Rob")
