"""benchmarks/reader_accuracy.py scores any folder of logbooks that has an expected.json beside them."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from reviewapp.core.logbook.writer import LogbookDraft

BENCHMARK = Path(__file__).resolve().parents[3] / "benchmarks" / "reader_accuracy.py"


def load_benchmark():
    spec = importlib.util.spec_from_file_location("reader_accuracy", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def write_folder(folder: Path) -> None:
    draft = LogbookDraft("Reproduction: Widgets")
    draft.page("Claim 1: Sparse").markdown("Verdict: verified.")
    draft.page("Claim 2: Fast").markdown("Verdict: falsified.")
    draft.page("Claim 3: Robust").markdown("We ran it.")
    draft.write(folder / "widgets")
    expected = {
        "widgets": {
            "title": "Reproduction: Widgets",
            "paper_id": None,
            "pages": 4,
            "cells": {"markdown": 3},
            "logbook_root": ".trackio/logbook",
            "claims": [
                {"n": 1, "page": "claim-1-sparse", "title": "Sparse", "verdict_raw": "VERIFIED", "verdict": "verified",
                 "where": "claim text"},
                {"n": 2, "page": "claim-2-fast", "title": "Fast", "verdict_raw": "FALSIFIED", "verdict": "toy",
                 "where": "claim text"},  # written down wrong on purpose: the benchmark must count it as wrong
                {"n": 3, "page": "claim-3-robust", "title": "Robust", "verdict_raw": "TOY", "verdict": "toy",
                 "where": "summary"},
                {"n": 4, "page": "claim-4-missing", "title": "Missing", "verdict_raw": None, "verdict": "partial",
                 "where": "", "ambiguous": True},
            ],
        }
    }  # fmt: skip
    (folder / "expected.json").write_text(json.dumps(expected), encoding="utf-8")


def test_scores_a_folder_with_expected_json(tmp_path: Path) -> None:
    write_folder(tmp_path)
    bench = load_benchmark()
    [score] = [bench.score(name, tmp_path, facts) for name, facts in bench.load_expected(tmp_path).items()]
    assert (score.found, score.expected, score.exact_set) == (3, 4, False)
    assert (score.right, score.wrong, score.missed, score.ambiguous) == (1, 1, 1, 1)
    assert score.unmatched == ["claim-4-missing#4"] and score.facts == []
    assert score.confusion[("toy", "falsified")] == 1 and score.confusion[("toy", "unstated")] == 1


def test_prints_the_table_and_the_confusion_matrix(tmp_path: Path) -> None:
    write_folder(tmp_path)
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--folder", str(tmp_path), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    assert data["totals"]["right"] == 1 and data["totals"]["wrong"] == 1 and data["totals"]["missed"] == 1
    assert data["confusion"]["verified"]["verified"] == 1
    text = subprocess.run(
        [sys.executable, str(BENCHMARK), "--folder", str(tmp_path)], capture_output=True, text=True, check=True
    ).stdout
    assert "Exact claim set: 0/1 logbooks" in text and "Confusion matrix" in text
    assert "claim-2-fast#2: falsified, expected toy" in text


def test_the_corpus_facts_are_written_in_the_same_shape(tmp_path: Path) -> None:
    bench = load_benchmark()
    out = tmp_path / "expected.json"
    assert bench.main(["--write-expected", str(out)]) == 0
    facts = json.loads(out.read_text(encoding="utf-8"))
    some = next(iter(facts.values()))
    assert {"title", "paper_id", "pages", "cells", "logbook_root", "claims"} <= set(some)
    assert {"n", "page", "title", "verdict_raw", "verdict", "where", "ambiguous"} <= set(some["claims"][0])


def test_a_verdict_outside_the_vocabulary_makes_the_file_unusable(tmp_path: Path) -> None:
    write_folder(tmp_path)
    expected = json.loads((tmp_path / "expected.json").read_text(encoding="utf-8"))
    expected["widgets"]["claims"][0]["verdict"] = "PARTIALLY VERIFIED"  # a written form is accepted
    expected["widgets"]["claims"][1]["verdict"] = "mostly fine"
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--folder", str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "expected.json: widgets: claim 2: unknown verdict 'mostly fine'" in done.stderr

    expected["widgets"]["claims"][1]["verdict"] = "falsified"
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    [facts] = load_benchmark().load_expected(tmp_path).values()
    assert facts["claims"][0]["verdict"] == "partial"


def test_a_folder_that_is_not_a_logbook_is_scored_as_all_missed(tmp_path: Path) -> None:
    write_folder(tmp_path)
    (tmp_path / "empty").mkdir()
    expected = json.loads((tmp_path / "expected.json").read_text(encoding="utf-8"))
    expected["empty"] = {"claims": [{"n": 1, "page": "claim-1", "verdict": "verified"}]}
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    bench = load_benchmark()
    scores = {name: bench.score(name, tmp_path, facts) for name, facts in bench.load_expected(tmp_path).items()}
    assert scores["empty"].error and scores["empty"].missed == 1 and not scores["empty"].exact_set
    assert scores["widgets"].right == 1


def write_owner(folder: Path, owner: str, verdict_sentence: str, verdict: str) -> dict:
    """One logbook of `owner` whose claim 1 states its verdict only as `verdict_sentence`, claim 2 plainly."""
    name = f"{owner}__repro"
    draft = LogbookDraft(f"Reproduction by {owner}")
    draft.page("Claim 1: Sparse").markdown(f"We ran the sweep on three seeds. {verdict_sentence}")
    draft.page("Claim 2: Fast").markdown("Verdict: falsified.")
    draft.write(folder / name)
    return {
        name: {
            "logbook_root": ".trackio/logbook",
            "claims": [
                {"n": 1, "page": "claim-1-sparse", "verdict": verdict},
                {"n": 2, "page": "claim-2-fast", "verdict": "falsified"},
            ],
        }
    }


def test_cross_validation_fits_without_the_left_out_owner(tmp_path: Path) -> None:
    """Only owner "a" states verdicts as a passing sentence naming the claim: fitted on everyone, the reader
    learns to take it; fitted without "a", it cannot, and the left-out score shows the gap."""
    expected = write_owner(tmp_path, "a", "This verifies the claim.", "verified")
    expected |= write_owner(tmp_path, "b", "Nothing to add.", "unstated")
    expected |= write_owner(tmp_path, "c", "Nothing to add.", "unstated")
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    bench = load_benchmark()
    books = bench.gather_all([(tmp_path, bench.load_expected(tmp_path))])
    assert bench.objective([b.scored(bench.NEUTRAL) for b in books]) < bench.objective(
        [b.scored(bench.fit(books)) for b in books]
    )
    result = bench.cross_validate(books)
    in_sample, left_out = bench.shares(result["in_sample"]), bench.shares(result["out_of_sample"])
    assert in_sample["right_clear_cut"] == 1.0
    assert left_out["right_clear_cut"] < 1.0 and left_out["wrong"] == 0.0
    assert result["folds"]["a"] == {} and result["folds"]["b"] != {}  # without a, nothing moves the start
    [left_out_a] = [s for s in result["out_of_sample"] if s.name == "a__repro"]
    assert left_out_a.missed == 1 and left_out_a.mistakes == ["claim-1-sparse#1: missed (verified)"]


def test_cross_validate_prints_in_sample_beside_left_out(tmp_path: Path) -> None:
    expected = write_owner(tmp_path, "a", "This verifies the claim.", "verified")
    expected |= write_owner(tmp_path, "b", "Nothing to add.", "unstated")
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    text = subprocess.run(
        [sys.executable, str(BENCHMARK), "--folder", str(tmp_path), "--cross-validate"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    header = next(line for line in text.splitlines() if "in-sample" in line)
    assert header.split() == ["shipped", "in-sample", "left", "out", "target"]
    assert "verdicts right, clear-cut" in text and "Overfitting" in text and "without a:" in text
