"""Many pairs naming one image: the file is read and checked once, and every pair still gets its details."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.pairs import sets
from reviewapp.core.pairs.sets import load_set, validate_pairs
from tests.support.pair_fixtures import open_annotations, write_pair_logbook


def test_one_image_named_by_many_pairs_is_probed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = write_pair_logbook(tmp_path / "ws", 2)
    manifest = workspace / "samples" / "test-pairs.json"
    spec = json.loads(manifest.read_text(encoding="utf-8"))
    spec["pairs"] = [{"id": f"r{i:04d}", "left": "baseline/p01.png", "right": "quantized/p01.png"} for i in range(400)]
    spec["pairs"].append({"id": "r0001", "left": "baseline/p02.png", "right": "quantized/p02.png"})
    manifest.write_text(json.dumps(spec), encoding="utf-8")
    probed: list[int] = []
    real_probe = sets.probe_image

    def counting_probe(data):  # type: ignore[no-untyped-def]
        probed.append(len(data))
        return real_probe(data)

    monkeypatch.setattr(sets, "probe_image", counting_probe)
    annotations = open_annotations(workspace)
    pair_set = load_set(annotations.logbook)
    if not pair_set.validated:
        validate_pairs(pair_set)
    assert len(probed) == 2  # the left and the right file, once each
    assert len(pair_set.pairs) == 400
    assert all(p.a_info is not None and p.a_info == pair_set.pairs[0].a_info for p in pair_set.rateable)
    assert [p.pair_id for p in pair_set.problems] == ["r0001"]  # listed twice: the first one is used
