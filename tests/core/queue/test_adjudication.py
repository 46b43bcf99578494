"""Adjudication and the prize decision: two judges disagree on one claim, an adjudicator settles it, undoes and redoes
that, the reviews and the decision are committed to a bare git remote, and `queue --disagreements`, `rank` and
`decide` follow every step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.core.queue.adjudication import adjudicate, people_verdict
from reviewapp.core.review.commands import CommandKind
from reviewapp.core.review.logbook_review import AnnotationError
from reviewapp.core.review.records import AdjudicatedVerdictRecord, DecisionRecord, RetractionRecord, parse_line
from reviewapp.core.verdicts import Verdict
from tests.core.annotation_helpers import open_review, write_small_logbook
from tests.core.commit_helpers import clone, git, isolate_git, remote_file, set_identity

REVIEWS = ".trackio/logbook/reviews"


@pytest.fixture(autouse=True)
def no_global_git_identity(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate_git(tmp_path_factory.mktemp("git-home"), monkeypatch)


@pytest.fixture
def team(tmp_path: Path) -> tuple[Path, Path]:
    """A bare remote holding a queue of two logbooks, and the adjudicator's clone of it."""
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(remote), str(seed))
    set_identity(seed, "Seeder", "seed@example.invalid")
    for name in ("alpha", "beta"):
        write_small_logbook(seed / name)
    (seed / "queue.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "queue")
    git(seed, "push", "-q", "origin", "main")
    return clone(remote, tmp_path / "work", "Ada Adjudicator", "ada@example.invalid"), remote


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def disputes(capsys, work: Path, *extra: str) -> list[dict]:
    code, out, err = run(capsys, "queue", str(work / "queue.txt"), "--disagreements", "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def ranking(capsys, work: Path) -> dict[str, dict]:
    code, out, err = run(capsys, "rank", str(work / "queue.txt"), "--json")
    assert code == 0, err
    return {row["logbook"]: row for row in json.loads(out)["ranking"]}


def two_judges_disagree(work: Path) -> None:
    harsh, kind = open_review(work / "alpha", "Harsh"), open_review(work / "alpha", "Kind")
    harsh.set_verdict(1, "falsified", "The accuracy drop is 4 points, not 0.3 (small-widgets team).")
    kind.set_verdict(1, "verified", "Table 2 matches within 0.3 points.")
    for judge in (harsh, kind):
        judge.set_verdict(2, "falsified", "Measured 1.02x.")  # they agree here
    assert main(["score", str(work / "alpha"), "--overall", "4", "--comment", "careful", "--annotator", "Harsh"]) == 0
    assert main(["score", str(work / "alpha"), "--overall", "5", "--annotator", "Kind"]) == 0
    assert main(["score", str(work / "beta"), "--overall", "2", "--annotator", "Harsh"]) == 0
    assert main(["score", str(work / "beta"), "--overall", "3", "--annotator", "Kind"]) == 0


def test_a_conflict_is_adjudicated_undone_redone_committed_and_decided(team, capsys) -> None:
    work, remote = team
    two_judges_disagree(work)
    capsys.readouterr()

    [open_dispute] = disputes(capsys, work)
    assert (open_dispute["source"], open_dispute["label"], open_dispute["status"]) == ("alpha", "claim 1", "open")
    assert {p["name"]: p["verdict"] for p in open_dispute["people"]} == {"Harsh": "falsified", "Kind": "verified"}
    [blind] = disputes(capsys, work, "--blind")
    assert [p["name"] for p in blind["people"]] == ["reviewer 1", "reviewer 2"]
    assert "alpha" not in json.dumps(blind) and "Harsh" not in json.dumps(blind)
    assert "small-widgets" in open_dispute["people"][0]["rationale"]
    assert blind["people"][0]["rationale"].startswith("The accuracy drop is 4 points")
    assert "small-widgets" not in json.dumps(blind)  # the Space's name, scrubbed as the queue scrubs it
    assert ranking(capsys, work)["alpha"]["marks"] == []
    assert ranking(capsys, work)["alpha"]["verdicts"] == {"disputed": 1, "falsified": 1}

    adjudicator = open_review(work / "alpha", "Ada Adjudicator", "adjudicator")
    record = adjudicate(adjudicator, 1, "falsified", "The rerun in cell 2 shows the 4-point drop.")
    assert isinstance(record, AdjudicatedVerdictRecord) and record.role == "adjudicator"
    assert len(record.payload.settles) == 2
    heard = adjudicator.history.last_change
    assert heard is not None and heard.kind == CommandKind.ADJUDICATE_VERDICT and CommandKind(heard.kind).undoable
    assert people_verdict(adjudicator.state, record.target.claim or "") == (Verdict.FALSIFIED, "adjudicated")
    [settled] = disputes(capsys, work, "--blind")
    assert settled["status"] == "settled" and {p["name"] for p in settled["people"]} == {"Harsh", "Kind"}
    assert settled["adjudicated_verdict"] == "falsified"
    alpha = ranking(capsys, work)["alpha"]
    assert alpha["marks"] == ["headline claim adjudicated falsified"]
    assert alpha["verdicts"] == {"falsified": 2} and alpha["adjudicated"] == 1

    adjudicator.history.undo()
    assert isinstance(adjudicator.state.records[-1], RetractionRecord)
    assert disputes(capsys, work)[0]["status"] == "open"
    assert ranking(capsys, work)["alpha"]["marks"] == []
    adjudicator.history.redo()
    assert disputes(capsys, work)[0]["status"] == "settled"
    assert ranking(capsys, work)["alpha"]["marks"] == ["headline claim adjudicated falsified"]

    code, out, err = run(capsys, "commit", str(work / "alpha"), "--push")
    assert code == 0, err
    pushed = remote_file(remote, f"alpha/{REVIEWS}/ada-adjudicator.jsonl")
    assert pushed is not None
    kinds = [parse_line(line).kind for line in pushed.splitlines()]
    assert kinds == ["adjudicated_verdict", "retraction", "adjudicated_verdict"]

    code, out, err = run(
        capsys, "decide", str(work / "queue.txt"), "--annotator", "Ada Adjudicator", "--commit", "--push"
    )
    assert code == 0, err
    decision_id = out.strip()
    stored = (work / "decisions" / "ada-adjudicator.jsonl").read_bytes().splitlines()
    decision = parse_line(stored[-1])
    assert isinstance(decision, DecisionRecord) and decision.id == decision_id
    assert [(e.logbook, e.rank, e.marks) for e in decision.payload.ranking] == [
        ("alpha", 1, ["headline claim adjudicated falsified"]),
        ("beta", 2, []),
    ]
    assert decision.payload.ties == [] and "z-scores" in decision.payload.normalization
    report = (work / "queue-decision.md").read_text(encoding="utf-8")
    assert "headline claim adjudicated falsified" in report and "No ties." in report
    assert "> careful" in report and "The rerun in cell 2 shows the 4-point drop." in report
    alpha_part = report[report.index("## alpha") :]
    for judge in ("Harsh", "Kind"):  # who gave claim 2 its people's verdict, each with their rationale
        assert f"{judge}:\n\n> claim 2 falsified: Measured 1.02x." in alpha_part
    assert "claim 1 verified" not in alpha_part  # settled: the adjudicated verdict and its rationale stand for it
    table = (work / "queue-decision.csv").read_text(encoding="utf-8").splitlines()
    assert table[0].startswith("rank,logbook,title,score,tied") and table[1].startswith("1,alpha,")
    assert remote_file(remote, "decisions/ada-adjudicator.jsonl") == b"\n".join(stored) + b"\n"
    assert remote_file(remote, "queue-decision.md") == report.encode("utf-8")
    assert git(work, "status", "--porcelain", "--", "decisions", "queue-decision.md", "queue-decision.csv") == ""
    code, out, err = run(capsys, "decide", str(work / "queue.txt"), "--annotator", "Ada Adjudicator", "--json")
    assert code == 0, err
    again = json.loads(out)
    assert again["kind"] == "decision" and again["id"] != decision_id  # a second decision, appended
    assert len((work / "decisions" / "ada-adjudicator.jsonl").read_bytes().splitlines()) == 2


@pytest.mark.parametrize("blind", [["--blind"], ["--blind", "Hugo"]])
def test_a_blind_decision_is_refused_and_records_nothing(team, capsys, blind: list[str]) -> None:
    work, _ = team
    two_judges_disagree(work)
    capsys.readouterr()  # the scores' record ids
    code, out, err = run(capsys, "decide", str(work / "queue.txt"), "--annotator", "Ada Adjudicator", *blind)
    assert code == 2 and out == ""
    assert "a decision cannot be blind: it names every candidate" in err and "rank QUEUE --blind" in err
    assert "Traceback" not in err
    assert not (work / "decisions").exists() and not (work / "queue-decision.md").exists()


def test_only_an_adjudicator_settles_and_only_a_real_dispute(team) -> None:
    work, _ = team
    two_judges_disagree(work)
    with pytest.raises(AnnotationError, match="only an adjudicator"):
        adjudicate(open_review(work / "alpha", "Harsh"), 1, "falsified", "mine wins")
    adjudicator = open_review(work / "alpha", "Ada Adjudicator", "adjudicator")
    with pytest.raises(AnnotationError, match="do not disagree on claim 2"):
        adjudicate(adjudicator, 2, "falsified", "nothing to settle")
    with pytest.raises(AnnotationError, match="rationale"):
        adjudicate(adjudicator, 1, "falsified", "   ")
    assert not (work / "alpha" / REVIEWS / "ada-adjudicator.jsonl").exists()


def test_a_reviewer_who_changes_their_verdict_reopens_the_dispute(team, capsys) -> None:
    work, _ = team
    two_judges_disagree(work)
    adjudicate(open_review(work / "alpha", "Ada Adjudicator", "adjudicator"), 1, "partial", "Both half right.")
    open_review(work / "alpha", "Kind").set_verdict(1, "toy", "On reflection, a 10% proxy.")
    capsys.readouterr()
    [reopened] = disputes(capsys, work)
    assert reopened["status"] == "reopened" and reopened["adjudicated_verdict"] == "partial"


def test_a_rubric_spread_above_the_threshold_is_a_disagreement(team, capsys) -> None:
    work, _ = team
    for logbook, harsh, kind in (("alpha", 1, 5), ("beta", 5, 1)):
        assert main(["score", str(work / logbook), "--overall", str(harsh), "--annotator", "Harsh"]) == 0
        assert main(["score", str(work / logbook), "--overall", str(kind), "--annotator", "Kind"]) == 0
    capsys.readouterr()
    found = disputes(capsys, work)
    assert {(d["source"], d["kind"], d["spread"]) for d in found} == {("alpha", "rubric", 2.0), ("beta", "rubric", 2.0)}
    assert disputes(capsys, work, "--max-spread", "2.5") == []


def test_rank_blind_shows_only_the_logbooks_the_judge_scored_and_no_verdict_counts(team, capsys) -> None:
    """As the queue window's ranking in blind review: a logbook Grace has not scored is left out (said, not named),
    and the verdict counts, which count other reviewers' verdicts, are hidden."""
    work, _ = team
    two_judges_disagree(work)
    assert main(["score", str(work / "alpha"), "--overall", "3", "--annotator", "Grace"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "rank", str(work / "queue.txt"), "--json", "--blind", "Grace")
    assert code == 0, err
    shown = json.loads(out)
    assert [(r["logbook"], r["verdicts"]) for r in shown["ranking"]] == [("alpha", None)]
    assert "1 logbook(s) Grace has not scored are left out" in " ".join(shown["notes"])
    assert "beta" not in out
    code, out, err = run(capsys, "rank", str(work / "queue.txt"), "--blind", "Grace")
    assert code == 0 and "hidden in blind review" in out and "beta" not in out
    assert set(ranking(capsys, work)) == {"alpha", "beta"}  # not blind: every scored logbook, with its verdicts
