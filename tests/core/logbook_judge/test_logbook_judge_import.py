"""Reading the Logbook Judge's verdicts files and claim registry: the real shape, our row forms, bad input."""

from __future__ import annotations

import json

import pytest

from reviewapp.core.logbook_judge.entries import VerdictsFileError, read_verdicts, write_rows_csv
from reviewapp.core.logbook_judge.registry import anchor_of, read_paper_index, read_registry
from reviewapp.core.verdicts import Verdict
from tests.conftest import CORPUS, corpus_available
from tests.core.judge_fixtures import REGISTRY_TEXTS, SPACE, entry, write_registry, write_verdicts


def test_real_shape_key_and_inner_space_id_missing_sha_mixed_case(tmp_path):
    path = write_verdicts(
        tmp_path / "verdicts.json",
        {
            "ada/old-name": entry(["VERIFIED", "Falsified", "toy", "inconclusive"], space_id=SPACE, sha=None),
            "bob/other": entry(["verified"], space_id="bob/other", texts=["A claim (Table 2)"]),
        },
    )
    read = read_verdicts(path)
    assert read.problems == []
    first, second = read.entries
    assert first.key == "ada/old-name" and first.space_id == SPACE
    assert first.space_ids == ("ada/old-name", SPACE)
    assert first.sha is None and second.sha == "a" * 40
    assert [c.verdict for c in first.claims] == [Verdict.VERIFIED, Verdict.FALSIFIED, Verdict.TOY, Verdict.INCONCLUSIVE]
    assert [c.verdict_raw for c in first.claims][:2] == ["VERIFIED", "Falsified"]
    assert [c.index for c in first.claims] == [1, 2, 3, 4]
    assert first.overall and first.quality == "medium" and first.model == "zai-org/GLM-5.2"
    assert second.claims[0].text == "A claim (Table 2)"


def test_paper_id_falls_back_to_paper_id_then_paper(tmp_path):
    a = entry(["verified"])
    del a["orid"]
    a["paper_id"] = "FromPaperId"
    b = entry(["verified"])
    del b["orid"]
    b["paper"] = 71132
    read = read_verdicts(write_verdicts(tmp_path / "v.json", {"a/x": a, "b/y": b}))
    assert [e.orid for e in read.entries] == ["FromPaperId", "71132"]


def test_malformed_entries_are_named_and_the_rest_imported(tmp_path):
    good = entry(["verified", "toy"])
    bad_claims = entry(["verified"])
    bad_claims["claims"] = "not a list"
    odd_verdict = entry(["verified", "maybe", "partial"])
    path = write_verdicts(
        tmp_path / "verdicts.json",
        {
            "ada/good": good,
            "ada/bad": bad_claims,
            "no-slash": entry(["toy"]),
            "ada/list": [1, 2],
            "ada/odd": odd_verdict,
        },
    )
    read = read_verdicts(path)
    assert [e.key for e in read.entries] == ["ada/good", "ada/odd"]
    messages = [str(p) for p in read.problems]
    assert any(m.startswith("verdicts.json: ada/bad: `claims`") for m in messages)
    assert any(m.startswith("verdicts.json: no-slash: key is not a Space id") for m in messages)
    assert any(m.startswith("verdicts.json: ada/list: expected an object") for m in messages)
    assert any("ada/odd: claim 2: 'maybe' is not one of" in m for m in messages)
    assert any("ada/odd: claim 3: 'partial'" in m for m in messages)  # the Logbook Judge has no partial
    odd = read.entries[1]
    assert [c.verdict for c in odd.claims] == [Verdict.VERIFIED, None, None]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "verdicts.json:1: invalid JSON"),
        ("[1, 2]", "verdicts.json: expected a JSON object keyed by Space id"),
        (b"\xff\xfe{}", "verdicts.json: not valid UTF-8"),
    ],
)
def test_unreadable_file_is_one_clear_error(tmp_path, content, expected):
    path = tmp_path / "verdicts.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    with pytest.raises(VerdictsFileError, match="^" + expected.replace("(", r"\(")):
        read_verdicts(path)


def test_missing_file_names_it(tmp_path):
    with pytest.raises(VerdictsFileError, match=r"gone\.json: cannot read"):
        read_verdicts(tmp_path / "gone.json")


def test_csv_and_jsonl_row_forms_round_trip(tmp_path):
    source = read_verdicts(
        write_verdicts(tmp_path / "v.json", {SPACE: entry(["verified", "TOY"], texts=["One (Table 1)", None])})
    )
    csv_path = tmp_path / "rows.csv"
    csv_path.write_text(write_rows_csv(source.entries), "utf-8")
    from_csv = read_verdicts(csv_path)
    assert from_csv.problems == []
    (got,) = from_csv.entries
    assert got.space_id == SPACE and got.orid == source.entries[0].orid and got.sha == "a" * 40
    assert [(c.index, c.text, c.verdict) for c in got.claims] == [
        (1, "One (Table 1)", Verdict.VERIFIED),
        (2, None, Verdict.TOY),
    ]
    assert got.overall == source.entries[0].overall and got.quality == "medium"
    lines = [
        {"space_id": SPACE, "orid": "P1", "claim_index": 2, "verdict": "falsified", "claim": "Second"},
        {"space_id": SPACE, "orid": "P1", "claim_index": 1, "verdict": "Verified"},
        "not an object",
        {"space_id": "", "verdict": "toy"},
    ]
    jsonl = tmp_path / "rows.jsonl"
    jsonl.write_text("\n".join(json.dumps(x) for x in lines) + "\n{broken\n", "utf-8")
    read = read_verdicts(jsonl)
    (got,) = read.entries
    assert [(c.index, c.verdict) for c in got.claims] == [(1, Verdict.VERIFIED), (2, Verdict.FALSIFIED)]
    assert [p.entry for p in read.problems] == ["line 3", "line 4", "line 5"]


def test_csv_without_required_columns(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("space,verdict\nada/x,verified\n", "utf-8")
    with pytest.raises(VerdictsFileError, match=r"rows\.csv: missing column"):
        read_verdicts(path)


def test_registry_with_numeric_ids_needs_the_paper_index(tmp_path):
    path = tmp_path / "claims_anchored.json"
    path.write_text(
        json.dumps({"GenPaper01": [{"text": REGISTRY_TEXTS[0], "status": "unverified"}], "71132": [{"text": "N (T)"}]}),
        "utf-8",
    )
    without = read_registry(path)
    assert "71132" in without.unsupported and "--paper-index" in without.unsupported["71132"]
    assert without.for_paper("genpaper01")  # looked up case-insensitively, like the board
    index = tmp_path / "index.json"
    index.write_text(json.dumps({"papers": [{"i": 1, "pid": "71132", "orid": "NumPaper01"}, {"i": 2}]}), "utf-8")
    ids = read_paper_index(index)
    assert ids == {"71132": "NumPaper01"}
    resolved = read_registry(path, ids)
    assert resolved.unsupported == {}
    assert [c.text for c in resolved.for_paper("NumPaper01") or ()] == ["N (T)"]


def test_registry_anchor_and_bad_registry(tmp_path):
    registry = read_registry(write_registry(tmp_path / "r.json"))
    claims = registry.for_paper("GenPaper01")
    assert claims is not None and [c.index for c in claims] == [1, 2, 3, 4]
    assert [c.anchor for c in claims] == ["Table 1", "Figure 3", "Table 4", "Theorem 4.3"]
    assert anchor_of("no anchor here") is None
    (tmp_path / "bad.json").write_text("[]", "utf-8")
    with pytest.raises(VerdictsFileError, match=r"bad\.json: claim registry must be an object"):
        read_registry(tmp_path / "bad.json")


@pytest.mark.skipif(not corpus_available(), reason="shared corpus not present")
def test_reconstructed_corpus_verdicts_read_cleanly():
    read = read_verdicts(CORPUS / "JUDGE-verdicts.json")
    assert read.problems == []
    assert len(read.entries) == 15
    assert all(e.sha is None and e.overall is None for e in read.entries)  # not recoverable, per its README
    by_key = {e.key: e for e in read.entries}
    assert [c.verdict for c in by_key["DineshAI/TBSyYj4VV6"].claims][:2] == [Verdict.FALSIFIED, Verdict.INCONCLUSIVE]
    assert by_key["DineshAI/zl3akehFBq"].has_text and not by_key["DineshAI/gFPPTokv9C"].has_text
    assert "reconstructed" in by_key["DineshAI/gFPPTokv9C"].extra
