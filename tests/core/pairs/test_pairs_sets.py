"""Pair sets: manifests (JSON, CSV), two folders, figure images; every bad pair is reported and the rest is kept."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from reviewapp.cli import main
from reviewapp.core.logbook.demo import PAIR_COUNT, demo_workspace
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.pairs.sets import PairSetError, find_manifests, load_set, pairs_from_folders
from tests.support.pair_fixtures import CONDITIONS, QUESTION, break_images, write_pair_logbook


def test_json_manifest_gives_settings_pairs_and_claim(tmp_path: Path) -> None:
    logbook = read_logbook(write_pair_logbook(tmp_path / "ws", 4))
    pair_set = load_set(logbook)
    assert pair_set.name == "test"
    assert pair_set.conditions == CONDITIONS and pair_set.question == QUESTION
    assert pair_set.claim == logbook.claims[0].key
    assert [p.id for p in pair_set.rateable] == ["p01", "p02", "p03", "p04"]
    assert pair_set.problems == [] and pair_set.set_problems == []
    assert pair_set.controls.rate == 0.3
    first = pair_set.pairs[0]
    assert first.a_info is not None and first.a_info.dimensions == "96x96" and len(first.a_info.sha256) == 64


def test_csv_manifest_names_conditions_after_the_folders_and_keeps_metadata(tmp_path: Path) -> None:
    logbook = read_logbook(write_pair_logbook(tmp_path / "ws", 3, manifest="csv"))
    pair_set = load_set(logbook, "test")
    assert pair_set.conditions == CONDITIONS
    assert pair_set.pairs[1].metadata == {"seed": "1"} and pair_set.pairs[1].prompt == "scene number 2"
    assert pair_set.claim is None


def test_two_folders_are_paired_by_file_name_and_strays_reported(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 3)
    Image.new("RGB", (96, 96)).save(workspace / "samples" / "baseline" / "only-here.png")
    pair_set = pairs_from_folders(read_logbook(workspace), "samples/baseline", "samples/quantized")
    assert pair_set.conditions == CONDITIONS and pair_set.name == "baseline-vs-quantized"
    assert [p.id for p in pair_set.rateable] == ["p01", "p02", "p03"]
    assert [(p.pair_id, p.message) for p in pair_set.problems] == [
        ("only-here", "no image of that name in samples/quantized/")
    ]


def test_folders_in_a_json_manifest(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2, extra={"pairs": None, "folders": ["baseline", "quantized"]})
    pair_set = load_set(read_logbook(workspace))
    assert [p.id for p in pair_set.rateable] == ["p01", "p02"]


def test_every_kind_of_bad_image_is_reported_for_its_pair(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 8)
    broken = break_images(workspace)
    pair_set = load_set(read_logbook(workspace))
    problems = {p.pair_id: p.message for p in pair_set.problems}
    assert set(problems) == set(broken)
    assert "file not found" in problems["p01"]
    assert "not a supported image" in problems["p02"]
    assert "is a folder" in problems["p03"]
    assert "too many pixels" in problems["p04"]
    assert "differ in size (96x96 vs 48x32)" in problems["p05"]
    assert "too many pixels" in problems["p06"] or "over the" in problems["p06"]
    assert [p.id for p in pair_set.rateable] == ["p07", "p08"]  # the session runs on the rest


def test_damaged_image_data_behind_a_valid_header_is_reported(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2)
    path = workspace / "samples" / "baseline" / "p02.png"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # flips a byte inside IDAT: the chunk CRC no longer matches
    path.write_bytes(bytes(data))
    problems = {p.pair_id: p.message for p in load_set(read_logbook(workspace)).problems}
    assert list(problems) == ["p02"] and "damaged" in problems["p02"]


def test_references_outside_the_folder_and_duplicates_are_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.png").write_bytes(b"x")
    rows = [
        {"id": "a", "left": "../../secret.png", "right": "quantized/p01.png"},
        {"id": "b", "left": "baseline/p01.png", "right": "/etc/passwd"},
        {"id": "c", "left": "baseline/p01.png", "right": "quantized/p01.png"},
        {"id": "c", "left": "baseline/p02.png", "right": "quantized/p02.png"},
    ]
    workspace = write_pair_logbook(tmp_path / "ws", 2, extra={"pairs": rows})
    pair_set = load_set(read_logbook(workspace))
    messages = [str(p) for p in pair_set.problems]
    assert any("pair a: left image '../../secret.png' is outside the folder" in m for m in messages)
    assert any("pair b: right image '/etc/passwd' is outside the folder" in m for m in messages)
    assert any("pair c: listed twice" in m for m in messages)
    assert [p.id for p in pair_set.rateable] == []  # c is reported (listed twice): nothing silently chosen
    assert [p.id for p in pair_set.pairs] == ["a", "b", "c"]


def test_figure_images_inside_the_logbook_can_be_paired(tmp_path: Path) -> None:
    def png(colour: str) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (40, 30), colour).save(out, format="PNG")
        return out.getvalue()

    draft = LogbookDraft("Figures")
    draft.page("Claim 1: Colours").figure_png(png("red"), "before").figure_png(png("blue"), "after")
    workspace = tmp_path / "ws"
    draft.write(workspace)
    spec = {"pairs": [{"id": "f", "left": "figure:claim-1-colours/0", "right": "figure:claim-1-colours/1"}]}
    (workspace / "figs-pairs.json").write_text(json.dumps(spec))
    pair_set = load_set(read_logbook(workspace), "figs")
    assert pair_set.problems == [] and pair_set.pairs[0].a_info is not None
    assert pair_set.pairs[0].a_info.dimensions == "40x30"
    assert pair_set.pairs[0].a_info.sha256 != pair_set.pairs[0].b_info.sha256  # two different figures


def test_set_level_problems_and_errors_name_the_file(tmp_path: Path) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2, extra={"claim": "9", "controls": {"rate": 3}})
    pair_set = load_set(read_logbook(workspace))
    assert pair_set.claim is None
    assert any("claim '9' is not in this logbook" in p for p in pair_set.set_problems)
    assert any("controls not used" in p for p in pair_set.set_problems)
    (workspace / "samples" / "test-pairs.json").write_text("{not json")
    with pytest.raises(PairSetError, match=r"samples/test-pairs.json: not valid JSON"):
        load_set(read_logbook(workspace))
    with pytest.raises(PairSetError, match="no pair set 'other'"):
        load_set(read_logbook(workspace), "other")


def test_demo_has_a_pair_set_for_its_image_claim() -> None:
    logbook = read_logbook(demo_workspace())
    assert list(find_manifests(logbook)) == ["usability"]
    pair_set = load_set(logbook, "usability")
    assert len(pair_set.rateable) == PAIR_COUNT and pair_set.conditions == ("baseline", "quantized")
    claim = logbook.claim(pair_set.claim or "")
    assert claim is not None and claim.n == 4


def test_pairs_list_command_reports_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 8)
    break_images(workspace)
    assert main(["pairs", "list", str(workspace), "--json"]) == 0
    [entry] = json.loads(capsys.readouterr().out)["sets"]
    assert entry["name"] == "test" and entry["pairs"] == 8 and entry["rateable"] == 2
    assert {p["pair"] for p in entry["problems"]} == {"p01", "p02", "p03", "p04", "p05", "p06"}
    assert main(["pairs", "list", str(workspace)]) == 0
    out = capsys.readouterr().out
    assert "test: 2 of 8 pairs can be rated" in out and "pair p01:" in out


def test_pairs_rate_names_the_sets_when_the_one_asked_for_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2)
    assert main(["pairs", "rate", str(workspace), "--set", "nope", "--annotator", "Rita Rater"]) == 2
    assert "no pair set 'nope' in this logbook (sets: test)" in capsys.readouterr().err
