"""`reviewapp verdicts import`, `inspect --verdicts` and `agreement`, in-process, against generated logbooks."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.import_paths import imports_dir, logbook_id_of
from reviewapp.core.logbook_judge.stored import load_import, load_registry
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_judge_matches import manual_matches, rematch
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.verdicts import Verdict
from tests.core.judge_fixtures import (
    REGISTRY_TEXTS,
    SPACE,
    entry,
    write_logbook,
    write_registry,
    write_verdicts,
)

VERDICTS = ["VERIFIED", "falsified", "Toy", "inconclusive"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    write_logbook(tmp_path / "ws", order=[1, 0, 3, 2])  # the logbook lists the claims in another order
    return tmp_path / "ws"


def _json(capsys: pytest.CaptureFixture[str]) -> dict:
    return json.loads(capsys.readouterr().out)


def test_import_stores_a_normalized_copy_with_the_source_sha256(tmp_path, workspace, capsys):
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    registry = write_registry(tmp_path / "claims_anchored.json")
    code = main(["verdicts", "import", str(verdicts), "--registry", str(registry), str(workspace), "--json"])
    out = _json(capsys)
    assert code == 0
    (report,) = out["imports"]
    logbook = read_logbook(workspace)
    stored = load_import(logbook_id_of(logbook))
    assert stored is not None
    assert report["stored"] == str(imports_dir() / Path(report["stored"]).parent.name / "verdicts.json")
    assert stored.source_sha256 == hashlib.sha256(verdicts.read_bytes()).hexdigest()
    assert stored.entry.space_id == SPACE and stored.entry.sha == "a" * 40
    assert [c.verdict for c in stored.entry.claims] == [
        Verdict.VERIFIED,
        Verdict.FALSIFIED,
        Verdict.TOY,
        Verdict.INCONCLUSIVE,
    ]
    registry_sha = hashlib.sha256(registry.read_bytes()).hexdigest()
    assert stored.registry_sha256 == registry_sha
    assert (imports_dir() / "registry" / f"{registry_sha}.json").is_file()
    assert load_registry(registry_sha) is not None
    # nothing was written into the logbook's folder
    assert not any("verdicts" in p.name for p in workspace.rglob("*"))
    # the registry gave the texts, so the reordered claims were matched by text to the right pages
    titles = {c.key: c.title for c in logbook.claims}
    matched = {c["index"]: titles[c["claim_key"]] for c in report["claims"]}
    assert "90% sparsity" in matched[1] and "2x faster" in matched[2] and "quantized" in matched[4]
    assert {c["method"] for c in report["claims"]} == {"by text"}


def test_import_reports_an_ambiguous_link_and_space_forces_it(tmp_path, capsys):
    root = write_logbook(tmp_path / "ws", manifest_space="ada/second")
    values = {SPACE: entry(VERDICTS), "ada/second": entry(VERDICTS[:2], space_id="ada/second")}
    verdicts = write_verdicts(tmp_path / "verdicts.json", values)
    assert main(["verdicts", "import", str(verdicts), str(tmp_path / "ws")]) == 1
    out = capsys.readouterr().out
    assert "not linked (ambiguous)" in out and "ada/second" in out
    assert load_import(logbook_id_of(read_logbook(root))) is None
    assert main(["verdicts", "import", str(verdicts), "--space", "ada/second", str(tmp_path / "ws"), "--json"]) == 0
    (report,) = _json(capsys)["imports"]
    assert report["link"]["strength"] == "forced"
    stored = load_import(logbook_id_of(read_logbook(root)))
    assert stored is not None and stored.entry.key == "ada/second"


def test_import_of_a_malformed_file_names_the_entry_and_imports_the_rest(tmp_path, workspace, capsys):
    values = {SPACE: entry(VERDICTS), "ada/broken": {"claims": 3}, "ada/odd": entry(["perhaps"], space_id="ada/odd")}
    verdicts = write_verdicts(tmp_path / "verdicts.json", values)
    assert main(["verdicts", "import", str(verdicts), str(workspace)]) == 1
    captured = capsys.readouterr()
    assert "warning: verdicts.json: ada/broken: `claims` is missing or not a list" in captured.err
    assert "warning: verdicts.json: ada/odd: claim 1: 'perhaps'" in captured.err
    assert load_import(logbook_id_of(read_logbook(workspace))) is not None
    (tmp_path / "bad.json").write_text("{", "utf-8")
    assert main(["verdicts", "import", str(tmp_path / "bad.json"), str(workspace)]) == 2
    assert "error: bad.json:1: invalid JSON" in capsys.readouterr().err


def test_import_usage_errors(tmp_path, workspace, capsys):
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    assert main(["verdicts", "import", str(verdicts), "--space", SPACE, str(workspace), str(workspace)]) == 2
    assert main(["verdicts", "import", str(verdicts), str(tmp_path / "nothing-here")]) == 2
    assert main(["verdicts", "import", str(verdicts), "--space", "zed/none", str(workspace)]) == 2
    err = capsys.readouterr().err
    assert "give one SOURCE" in err and "nothing-here: no such folder" in err
    assert "no Logbook Judge entry for Space zed/none" in err


def test_import_into_an_unwritable_data_folder_exits_3(tmp_path, workspace, monkeypatch, capsys):
    if os.geteuid() == 0:
        blocker = tmp_path / "data-is-a-file"
        blocker.write_text("x")
        monkeypatch.setenv("REVIEWAPP_DATA_DIR", str(blocker))
    else:
        data = tmp_path / "ro"
        data.mkdir(mode=0o500)
        monkeypatch.setenv("REVIEWAPP_DATA_DIR", str(data))
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    assert main(["verdicts", "import", str(verdicts), str(workspace)]) == 3
    assert "cannot write to the data folder" in capsys.readouterr().err


def test_inspect_with_verdicts_adds_judge_fields_and_stores_nothing(tmp_path, workspace, capsys):
    texts = [REGISTRY_TEXTS[0], REGISTRY_TEXTS[1], None, REGISTRY_TEXTS[3]]
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS, texts=texts)})
    assert main(["inspect", str(workspace), "--verdicts", str(verdicts), "--json"]) == 0
    out = _json(capsys)
    assert not imports_dir().exists()
    by_title = {c["title"]: c for c in out["claims"]}
    first = next(c for t, c in by_title.items() if "90% sparsity" in t)
    assert first["judge_verdict"] == "verified"
    assert first["judge_claim"] == {"index": 1, "text": REGISTRY_TEXTS[0]}
    assert first["judge_match"]["method"] == "by text" and 0 < first["judge_match"]["confidence"] <= 1
    assert first["judge_evidence"] == "Evidence for registry claim 1."
    unmatched = [c for c in out["claims"] if c["judge_verdict"] is None]
    assert len(unmatched) == 1 and "shift" in unmatched[0]["title"].lower()
    assert [c["index"] for c in out["logbook_judge"]["unmatched_judge_claims"]] == [3]
    assert out["logbook_judge"]["entry"]["quality"] == "medium"
    assert "revision open here is unknown" in out["logbook_judge"]["revision_warning"]


def _session(workspace: Path, name: str) -> LogbookReview:
    return LogbookReview.open(read_logbook(workspace), Identity(name, "cli"))


def test_rematch_by_hand_is_an_undoable_record(tmp_path, workspace):
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    assert main(["verdicts", "import", str(verdicts), str(workspace)]) == 0
    session = _session(workspace, "Ada")
    review_workspace = ReviewWorkspace()
    logbook_id = review_workspace.add(session.logbook, session)
    judged = review_workspace.logbook_judge(logbook_id)
    assert judged is not None
    # no text: equal counts, matched by position (the logbook's claim 1 is the registry's claim 2 here)
    first = session.claims()[0]
    assert judged.match(first.key).method == "by position"
    assert judged.verdicts()[first.key] is Verdict.VERIFIED
    rematch(session, SPACE, 2, first.key)
    rematch(session, SPACE, 1, None)
    judged = review_workspace.logbook_judge(logbook_id)
    assert judged is not None
    assert judged.match(first.key).judge.index == 2 and judged.match(first.key).method == "by hand"
    assert judged.verdicts()[first.key] is Verdict.FALSIFIED
    assert judged.result.matches[0].claim_key is None
    assert session.history.undo_label == "Undo re-match of Logbook Judge claim 1 to no claim"
    session.history.undo()
    session.history.undo()
    assert manual_matches(session.state, SPACE) == {}
    again = _session(workspace, "Ada")  # replayed from disk
    assert manual_matches(again.state, SPACE) == {}
    session.history.redo()
    assert manual_matches(_session(workspace, "Bob").state, SPACE) == {2: first.key}


def test_agreement_with_the_logbook_judge_and_the_agent(tmp_path, capsys):
    root = write_logbook(tmp_path / "ws")
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    assert main(["verdicts", "import", str(verdicts), str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    logbook = read_logbook(root)
    ada = LogbookReview.open(logbook, Identity("Ada", "cli"))
    bob = LogbookReview.open(logbook, Identity("Bob", "cli"))
    for n, verdict in zip((1, 2, 3, 4), ("verified", "falsified", "toy", "partial"), strict=True):
        ada.set_verdict(n, verdict, "looked")
    for n, verdict in zip((1, 2, 3), ("verified", "toy", "toy"), strict=True):
        bob.set_verdict(n, verdict, "looked")
    assert main(["agreement", str(tmp_path / "ws"), "--logbook-judge", "--agent", "--json"]) == 0
    report = _json(capsys)
    assert report["raters"] == ["Ada", "Bob", "Agent", "Logbook Judge"]
    assert report["categories"] == ["verified", "falsified", "toy", "inconclusive"]
    assert report["left_out"]["partial"] == 2  # Ada's claim 4 and the agent's PARTIALLY VERIFIED
    assert report["bootstrap"] == {"resamples": 2000, "seed": 20260717, "over": "claims", "interval": "percentile 95%"}
    pair = next(p for p in report["cohen_kappa"] if p["raters"] == ["Ada", "Logbook Judge"])
    assert pair["claims"] == 3 and pair["value"] == pytest.approx(1.0)
    confusion = report["logbook_judge_vs_people"]
    assert confusion["counts"]["partial"]["inconclusive"] == 1  # Ada's partial against the judge's inconclusive
    assert confusion["counts"]["toy"]["falsified"] == 1  # Bob's toy on claim 2
    assert confusion["precision"]["falsified"] == pytest.approx(0.5)
    assert confusion["recall"]["toy"] == pytest.approx(2 / 3)
    assert any("no 'partial'" in n for n in report["notes"])
    assert main(["agreement", str(tmp_path / "ws"), "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "statistic,raters,claims,value,ci95_low,ci95_high"
    assert any(line.startswith("Cohen's kappa,Ada vs Bob,3,") for line in lines)
    assert main(["agreement", str(tmp_path / "ws")]) == 0
    text = capsys.readouterr().out
    assert "seed 20260717" in text and "Krippendorff's alpha ordinal" in text


def test_logbook_judge_commands_never_import_qt(tmp_path, workspace):
    import subprocess
    import sys

    from tests.core.annotation_helpers import subprocess_env

    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    script = (
        "import sys\n"
        "from reviewapp.cli import main\n"
        "v, w = sys.argv[1:3]\n"
        "codes = [main(['verdicts', 'import', v, w, '--json']), main(['inspect', w, '--verdicts', v, '--json']),\n"
        "         main(['agreement', w, '--logbook-judge', '--agent', '--json'])]\n"
        "assert codes == [0, 0, 0], codes\n"
        "qt = sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'reviewapp.qt')))\n"
        "print('QT:' + ','.join(qt))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(verdicts), str(workspace)],
        capture_output=True,
        text=True,
        env=subprocess_env(tmp_path),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "QT:"


def test_the_demo_ships_verdicts_that_match_by_text(tmp_path):
    from reviewapp.core.logbook.demo import demo_workspace
    from reviewapp.core.logbook_judge.demo_import import ensure_demo_import
    from reviewapp.core.logbook_judge.judged import judged_from_store

    workspace = demo_workspace()
    logbook = read_logbook(workspace)
    assert ensure_demo_import(logbook, workspace)
    judged = judged_from_store(logbook)
    assert judged is not None
    assert {m.method for m in judged.result.matches} == {"by text"}
    by_number = {c.n: judged.verdicts().get(c.key) for c in logbook.claims}
    assert by_number == {1: Verdict.VERIFIED, 2: Verdict.FALSIFIED, 3: Verdict.INCONCLUSIVE, 4: Verdict.TOY}
    assert judged.entry.quality == "medium" and judged.entry.overall
    other = read_logbook(write_logbook(tmp_path / "other"))
    assert not ensure_demo_import(other, workspace)  # only the demo itself


def test_annotations_export_and_queue_read_the_stored_import(tmp_path, capsys):
    write_logbook(tmp_path / "ws")
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    assert main(["annotations", str(tmp_path / "ws"), "--export", "jsonl"]) == 0
    before = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {row["judge_verdict"] for row in before} == {None}
    assert main(["verdicts", "import", str(verdicts), str(tmp_path / "ws")]) == 0
    capsys.readouterr()
    assert main(["annotations", str(tmp_path / "ws"), "--export", "jsonl"]) == 0
    after = [json.loads(line)["judge_verdict"] for line in capsys.readouterr().out.splitlines()]
    assert after == ["verified", "falsified", "toy", "inconclusive"]
    queue = tmp_path / "queue.txt"
    queue.write_text("ws\n", "utf-8")
    assert main(["queue", str(queue), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["logbook_judge_points"], row["logbook_judge_max"]) == (5, 8)  # 2 + 2 + 1 + 0 of 2 x 4


def test_inspect_with_a_registry_fills_claim_texts_and_names_unsupported_numeric_papers(tmp_path, workspace, capsys):
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})  # claims carry no text
    registry = write_registry(tmp_path / "claims_anchored.json")
    assert main(["inspect", str(workspace), "--verdicts", str(verdicts), "--registry", str(registry), "--json"]) == 0
    out = _json(capsys)
    first = next(c for c in out["claims"] if "90% sparsity" in c["title"])
    assert first["judge_claim"] == {"index": 1, "text": REGISTRY_TEXTS[0]}
    assert first["judge_match"]["method"] == "by text" and "statement" in first["judge_match"]["why"]
    assert first["judge_verdict"] == "verified" and first["judge_evidence"] == "Evidence for registry claim 1."
    assert all(c["judge_verdict"] for c in out["claims"]) and out["logbook_judge"]["unmatched_judge_claims"] == []
    assert any("taken from the claim registry" in n for n in out["logbook_judge"]["notes"])

    # The same registry keyed by the paper's numeric ICML id: unsupported without the paper index, and said so.
    numeric = write_registry(tmp_path / "numeric.json", key="71132")
    args = ["inspect", str(workspace), "--verdicts", str(verdicts), "--registry", str(numeric), "--json"]
    assert main(args) == 0
    out = _json(capsys)
    notes = " ".join(out["logbook_judge"]["notes"])
    assert "no claims for paper GenPaper01" in notes and "--paper-index" in notes
    assert {c["judge_match"]["method"] for c in out["claims"] if c["judge_match"]} == {"by position"}
    index = tmp_path / "index.json"
    index.write_text(json.dumps({"papers": [{"pid": 71132, "orid": "GenPaper01"}]}), "utf-8")
    assert main([*args, "--paper-index", str(index)]) == 0
    out = _json(capsys)
    assert {c["judge_match"]["method"] for c in out["claims"]} == {"by text"}
    assert not any("no claims for paper" in n for n in out["logbook_judge"]["notes"])


def test_import_and_agreement_for_a_space_with_reviews_kept_in_the_data_folder(tmp_path, capsys, monkeypatch):
    from reviewapp.core.sources.opener import open_source
    from tests.core.commit_helpers import published_files
    from tests.support.hub_server import HubServer

    with HubServer() as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.endpoint)
        hub.create_repo("alice/repro-x", repo_type="space", files=published_files(tmp_path / "pub", "alice/repro-x"))
        opened = open_source("alice/repro-x")
        values = {"alice/repro-x": entry(["verified", "toy", "toy"], sha=opened.revision)}
        verdicts = write_verdicts(tmp_path / "verdicts.json", values)
        assert main(["verdicts", "import", str(verdicts), "alice/repro-x", "--format", "json"]) == 0
        (report,) = _json(capsys)["imports"]
        # judged at another revision than the one downloaded: said, naming both
        older = write_verdicts(tmp_path / "older.json", {"alice/repro-x": entry(["verified"] * 3, sha="c" * 40)})
        assert main(["inspect", "alice/repro-x", "--verdicts", str(older), "--json"]) == 0
        warning = _json(capsys)["logbook_judge"]["revision_warning"]
        assert f"judged revision {'c' * 12}, but revision {opened.revision[:12]} is open" in warning
    assert report["logbook_id"] == "hf:space/alice/repro-x" and report["link"]["strength"] == "strong"
    assert report["revision_warning"] is None  # the revision judged is the one downloaded
    logbook = read_logbook(opened.folder, logbook_id=opened.logbook_id)
    ada = LogbookReview.open(logbook, Identity("Ada", "cli"))
    for n, verdict in ((1, "verified"), (2, "falsified"), (3, "toy")):
        ada.set_verdict(n, verdict, "looked")
    assert not (opened.folder / "reviews").exists()  # never written into the Hub cache

    # the Hub is gone now: the cached copy, the stored import and the reviews in the data folder are enough
    assert main(["agreement", "alice/repro-x", "--logbook-judge", "--json"]) == 0
    out = _json(capsys)
    assert out["raters"] == ["Ada", "Logbook Judge"]
    pair = out["cohen_kappa"][0]
    assert pair["claims"] == 3 and out["percent_agreement"]["value"] == pytest.approx(2 / 3)
    assert out["logbook_judge_vs_people"]["counts"]["falsified"]["toy"] == 1


def test_inspect_shows_the_stored_import_with_re_matches_by_hand(tmp_path, workspace, capsys):
    assert main(["inspect", str(workspace), "--json"]) == 0
    assert "logbook_judge" not in _json(capsys)  # nothing imported yet: nothing shown
    verdicts = write_verdicts(tmp_path / "verdicts.json", {SPACE: entry(VERDICTS)})
    assert main(["verdicts", "import", str(verdicts), str(workspace)]) == 0
    capsys.readouterr()
    verdicts.write_text("{}", "utf-8")  # the stored import is read, never the file it came from
    session = _session(workspace, "Ada")
    first = session.claims()[0]
    rematch(session, SPACE, 2, first.key)
    rematch(session, SPACE, 1, None)

    assert main(["inspect", str(workspace), "--json"]) == 0
    out = _json(capsys)
    assert out["logbook_judge"]["file"] is None and out["logbook_judge"]["source_file"].endswith("verdicts.json")
    assert out["logbook_judge"]["entry"]["space_id"] == SPACE
    by_key = {c["key"]: c for c in out["claims"]}
    assert by_key[first.key]["judge_verdict"] == "falsified" and by_key[first.key]["judge_match"]["method"] == "by hand"
    unmatched = {c["index"]: c["why"] for c in out["logbook_judge"]["unmatched_judge_claims"]}
    assert unmatched[1] == "unmatched by hand" and 2 not in unmatched
    assert main(["inspect", str(workspace)]) == 0
    text = capsys.readouterr().out
    assert "Logbook Judge:" in text and "unmatched registry claim 1" in text
