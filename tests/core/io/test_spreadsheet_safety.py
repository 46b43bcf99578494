"""Every CSV the app writes is safe to open in a spreadsheet: text that would run as a formula is quoted,
numbers stay numbers, and `pairs check` still reads the results back (and old results with a warning)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from pathlib import Path

import pytest

from reviewapp.core.io.spreadsheet import spreadsheet_plain, spreadsheet_safe
from reviewapp.core.pairs.check import check_results
from reviewapp.core.pairs.protocol import Trial
from reviewapp.core.pairs.rating import PairRatingRound
from reviewapp.core.pairs.results import PROTOCOL_VERSION
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.review.export import export_rows, write_csv
from tests.core.annotation_helpers import open_review, small_logbook
from tests.support.pair_fixtures import open_annotations, write_pair_logbook

HOSTILE = ["=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "-", '=HYPERLINK("http://x")']


@pytest.mark.parametrize("text", HOSTILE)
def test_text_a_spreadsheet_would_run_is_quoted_and_reads_back(text: str) -> None:
    assert spreadsheet_safe(text) == "'" + text
    assert spreadsheet_plain(spreadsheet_safe(text)) == text


@pytest.mark.parametrize("value", [-3, 2.5, -0.25, "-3.5", "+7", "-1e-3", "plain", "", "'quoted already"])
def test_numbers_and_plain_text_are_unchanged(value: object) -> None:
    assert spreadsheet_safe(value) == value
    if isinstance(value, str):
        assert spreadsheet_plain(value) == value


def test_the_annotations_export_quotes_every_formula_start(tmp_path: Path) -> None:
    review = open_review(small_logbook(tmp_path))
    for claim, rationale in zip((1, 2, 3), ("-2+3 worked", "@SUM(A1)", "\t=1"), strict=True):
        review.set_verdict(claim, "partial", rationale, confidence=2)
    out = io.StringIO()
    write_csv(export_rows(review.state), out)
    rationales = [row["rationale"] for row in csv.DictReader(io.StringIO(out.getvalue()))]
    assert rationales == ["'-2+3 worked", "'@SUM(A1)", "'\t=1"]
    confidences = [row["confidence"] for row in csv.DictReader(io.StringIO(out.getvalue()))]
    assert confidences == ["2", "2", "2"]


def rate_with_hostile_text(workspace: Path) -> PairRatingRound:
    annotations = open_annotations(workspace)
    rating = PairRatingRound.open(annotations, load_set(annotations.logbook))
    while (trial := rating.current) is not None:
        rating.rate(_answer(trial), confidence=1, comment='=HYPERLINK("http://x","see")', response_ms=500)
    return rating


def _answer(trial: Trial) -> str:
    return "same" if trial.control == "identical" else "left"


def test_pair_results_quote_comments_pair_ids_and_condition_names(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 4)
    manifest = workspace / "samples" / "test-pairs.json"
    spec = json.loads(manifest.read_text(encoding="utf-8"))
    spec["conditions"] = ["=baseline", "@quantized"]
    for pair in spec["pairs"]:
        pair["id"] = "-" + pair["id"]
    manifest.write_text(json.dumps(spec), encoding="utf-8")
    rating = rate_with_hostile_text(workspace)
    assert rating.results is not None
    csv_path, protocol_path = rating.results
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text(encoding="utf-8"))))
    assert {row["comment"] for row in rows} == {'\'=HYPERLINK("http://x","see")'}
    assert all(row["pair_id"].startswith("'-p") for row in rows)
    assert {row["left_condition"] for row in rows} <= {"'=baseline", "'@quantized"}
    assert all(row["trial"].isdigit() and row["response_ms"] == "500" for row in rows)  # numbers stay numbers
    assert json.loads(protocol_path.read_text(encoding="utf-8"))["version"] == PROTOCOL_VERSION == 2
    report = check_results(csv_path)
    assert report.valid, report.errors
    assert not report.warnings


def test_results_of_the_previous_format_are_still_checked_with_a_warning(tmp_path: Path) -> None:
    rating = rate_with_hostile_text(write_pair_logbook(tmp_path / "ws", 3))
    assert rating.results is not None
    csv_path, protocol_path = rating.results
    # protocol 1 wrote cells unquoted: rewrite the CSV that way and record its hash as version 1 did
    old_csv = csv_path.read_bytes().replace(b"\"'=HYPERLINK", b'"=HYPERLINK')
    assert b"'=" not in old_csv and b"=HYPERLINK" in old_csv
    csv_path.write_bytes(old_csv)
    protocol = json.loads(protocol_path.read_text(encoding="utf-8"))
    protocol["version"] = 1
    protocol["csv"]["sha256"] = hashlib.sha256(old_csv).hexdigest()
    protocol_path.write_text(json.dumps(protocol), encoding="utf-8")
    report = check_results(csv_path)
    assert report.valid, report.errors
    assert any("older version" in warning for warning in report.warnings)
