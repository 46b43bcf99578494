"""Gathering a paper's logbooks (folders, a stored registry import, the Hub by paper tag), every claim class in one
paper, the Logbook Judge between the agent and people, and two logbooks' evidence paired cell by cell."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewapp.cli import main
from reviewapp.core.io.markdown_safe import markdown_inline
from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.logbook_judge.importer import import_verdicts
from reviewapp.core.paper.compare import evidence_cells, pair_evidence
from reviewapp.core.paper.gather import GatheredPaper, PaperGatherError, PaperRequest, gather_paper, reread_review
from reviewapp.core.paper.view import update_cells
from reviewapp.core.sources.opener import open_source
from reviewapp.core.verdicts import Verdict
from tests.core import judge_fixtures
from tests.core.annotation_helpers import open_review
from tests.support.hub_server import HubServer
from tests.support.paper_fixtures import ORID, write_team_logbook

pytest_plugins = ["tests.support.hub_fixtures"]


def gather(*folders: Path, strict: bool = False, **request: Any) -> GatheredPaper:
    return gather_paper(PaperRequest([str(f) for f in folders], **request), open_source, strict=strict)


def test_every_claim_class_in_one_paper_including_a_claim_only_one_team_attempted(tmp_path: Path) -> None:
    teams = {
        "ada": [(0, "verified"), (1, "falsified"), (2, "verified"), (3, "partial")],
        "bob": [(0, "falsified"), (1, "toy"), (2, "partial"), (3, "toy"), (5, "inconclusive")],
        "cy": [(4, "toy")],
    }
    folders = [write_team_logbook(tmp_path / t, t, v, wording=i % 2) for i, (t, v) in enumerate(teams.items())]
    view = gather(*folders).view
    by_text = {row.text: view.claim_classes[row.id] for row in view.rows}
    assert list(by_text.values()) == [
        "contested",  # ada verified it, bob falsified it
        "falsified",
        "verified",  # verified beats partial
        "partially verified",
        "nothing established",  # bob alone: inconclusive
        "toy only",  # cy alone
    ]
    lone = [row for row in view.rows if len(view.attempted_by(row.id)) == 1]
    assert len(lone) == 2 and view.attempted_by(lone[1].id) == [view.logbooks[2].logbook_id]
    assert view.paper_class == "contested"


def test_logbook_judge_decides_over_the_agent_and_a_person_over_both_with_the_stored_registry(
    tmp_path: Path,
) -> None:
    ada = judge_fixtures.write_logbook(tmp_path / "ada")
    bob = judge_fixtures.write_logbook(tmp_path / "bob", [1, 0], numbers=[1, 2], metadata_space="bob/repro-gen")
    registry = judge_fixtures.write_registry(tmp_path / "registry.json")
    verdicts = judge_fixtures.write_verdicts(
        tmp_path / "verdicts.json",
        {
            judge_fixtures.SPACE: judge_fixtures.entry(["verified", "verified", "toy", "verified"]),
            "bob/repro-gen": judge_fixtures.entry(
                ["toy", "falsified", "inconclusive", "inconclusive"], space_id="bob/repro-gen"
            ),
        },
    )
    import_verdicts(verdicts, [read_logbook(ada), read_logbook(bob)], registry_file=registry)
    gathered = gather(ada, bob)  # no registry named: the one imported with the verdicts gives the rows
    view = gathered.view
    assert view.registry_used and [r.id for r in view.rows] == [f"registry:{i}" for i in range(1, 5)]
    ada_id, bob_id = (lb.logbook_id for lb in view.logbooks)
    speed = view.cell("registry:2", ada_id)  # the agent wrote FALSIFIED, the Logbook Judge verified
    assert (speed.agent, speed.logbook_judge) == (Verdict.FALSIFIED, Verdict.VERIFIED)
    assert (speed.decision.verdict, speed.decision.decided_by) == (Verdict.VERIFIED, "Logbook Judge")
    assert view.cell("registry:2", bob_id).decision.verdict is Verdict.FALSIFIED  # bob's claim 1 is registry 2
    assert view.claim_classes["registry:2"] == "contested"
    open_review(ada, "Grace Judge").set_verdict(2, "falsified", "Timed it again: no speed-up.")
    view = gather(ada, bob).view
    speed = view.cell("registry:2", ada_id)
    assert (speed.decision.verdict, speed.decision.decided_by) == (Verdict.FALSIFIED, "person")
    assert view.claim_classes["registry:2"] == "falsified"
    assert view.cell("registry:3", bob_id).claim is None  # bob never attempted registry claim 3


def test_a_source_that_is_not_a_logbook_is_left_out_or_stops_a_strict_gathering(tmp_path: Path) -> None:
    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified")])
    (tmp_path / "empty").mkdir()
    gathered = gather(ada, tmp_path / "empty", ada)
    assert len(gathered.view.logbooks) == 1
    assert [p.split(":")[0] for p in gathered.problems] == [str(tmp_path / "empty"), str(ada)]
    assert "same logbook as an earlier source" in gathered.problems[1]
    with pytest.raises(NotALogbookError):
        gather(ada, tmp_path / "empty", strict=True)
    with pytest.raises(PaperGatherError, match="none of the logbooks"):
        gather(tmp_path / "empty")
    bad = tmp_path / "registry.json"
    bad.write_text("[1, 2]")
    with pytest.raises(PaperGatherError, match="claim registry"):
        gather(ada, registry=bad)


def test_paper_orid_alone_gathers_the_papers_spaces_from_the_hub(
    hub_server: HubServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for team, verdicts in (("ada", [(0, "verified"), (1, "verified")]), ("bob", [(1, "falsified")])):
        root = write_team_logbook(tmp_path / team, team, verdicts) / ".trackio" / "logbook"
        files = {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
        tags = ["icml2026-repro", f"paper-{ORID.lower()}"]
        hub_server.create_repo(f"{team}/flat-minima", repo_type="space", tags=tags, files=files)
    hub_server.create_repo("cy/other", repo_type="space", tags=["icml2026-repro", "paper-Other"], files={})

    assert main(["paper", "--orid", ORID, "--format", "json"]) == 0

    view = json.loads(capsys.readouterr().out)
    assert {lb["id"] for lb in view["logbooks"]} == {"hf:space/ada/flat-minima", "hf:space/bob/flat-minima"}
    assert (view["paper"], view["class"]) == (ORID, "contested")
    assert main(["paper", "--orid", "NoSuchPaper"]) == 2
    assert "no logbooks found on the Hub for paper NoSuchPaper" in capsys.readouterr().err


def test_two_logbooks_evidence_is_paired_run_with_run_and_figure_with_figure(tmp_path: Path) -> None:
    def logbook(name: str, steps: list[tuple[str, str]]) -> Path:
        draft = LogbookDraft(f"{name} on flat minima", metadata={"paper": {"openreview_id": ORID}})
        page = draft.page("Claim 1: SAM reduces test error")
        for kind, what in steps:
            if kind == "run":
                page.run(what.split(), f"{what}: error 4.1%")
            elif kind == "figure":
                page.figure_html("<svg width='10' height='10'></svg>", what)
            else:
                page.markdown(f"{what} text", title=what)
        return draft.write(tmp_path / name)

    left = logbook("ada", [("note", "Claim"), ("run", "python train.py --seed=0"), ("run", "python eval.py"),
                           ("figure", "Test error by epoch"), ("note", "Verdict")])  # fmt: skip
    right = logbook("bob", [("note", "Claim"), ("run", "python train.py --seed=3"),
                            ("run", "python sweep.py --rho 0.05"), ("run", "python eval.py"),
                            ("figure", "Test error per epoch"), ("note", "Verdict")])  # fmt: skip
    a, b = read_logbook(left), read_logbook(right)
    left_cells, right_cells = evidence_cells(a, a.claims[0]), evidence_cells(b, b.claims[0])
    pairs = pair_evidence(left_cells, right_cells)
    assert [(p.kind, p.label) for p in pairs if p.left and p.right] == [
        ("note", "Claim"), ("run", "python train.py --seed=0"), ("run", "python eval.py"),
        ("figure", "Test error by epoch"), ("note", "Verdict"),
    ]  # fmt: skip
    alone = [(p.kind, p.left is None) for p in pairs if p.left is None or p.right is None]
    assert alone == [("run", True)]  # bob's sweep, in its place between the runs
    assert [p.label for p in pairs][2] == "python sweep.py --rho 0.05"
    # pairs never cross: with the figure before the evaluation on one side, only one of the two can pair
    crossed = pair_evidence([left_cells[2], left_cells[3]], [right_cells[4], right_cells[3]])
    assert sum(1 for p in crossed if p.left and p.right) == 1


def test_response_export_names_every_kind_of_evidence_link_and_keeps_urls_as_text(tmp_path: Path) -> None:
    from reviewapp.core.paper.export import response_markdown, view_json
    from reviewapp.core.paper.gather import rebuild
    from reviewapp.core.paper.paper_review import PaperReview
    from reviewapp.core.review.identity import Identity
    from reviewapp.core.review.records import EvidenceLink, TraceAnchor

    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "falsified")])
    gathered = gather(ada)
    ada_id = gathered.view.logbooks[0].logbook_id
    falsified = gathered.view.cell("aligned:2", ada_id).claim
    assert falsified is not None
    page = falsified.page
    review = PaperReview.open(ORID, Identity("Ann Author", "asked"), "judge")
    links = [
        EvidenceLink(logbook=ada_id, page=page, cell=2, figure=0),
        EvidenceLink(logbook=ada_id, trace=TraceAnchor(session="s1", sequence=42)),
        EvidenceLink(url="https://example.org/<script>"),
    ]
    review.respond("aligned:2", "disagree", "The noise scale differs.", links)
    view = rebuild(gathered).view
    markdown = response_markdown(view)
    claim = markdown[markdown.index("## Claim 2") :]
    assert "Finding: **falsified**." in claim
    label = markdown_inline("ada/flat-minima-repro")  # the Space its metadata names, never the local path
    assert str(ada) not in markdown and str(ada) not in json.dumps(view_json(view))
    assert f"- {label}: **falsified** (decided by the agent), evidence: page {page}" in claim
    assert "**Ann Author (author) disagrees.**\n\n> The noise scale differs." in claim
    assert f"- evidence: {label}, page {page}, cell 3, figure 1" in claim
    assert f"- evidence: {label}, trace s1 event 42" in claim
    assert "- evidence: `https://example.org/<script>`" in claim  # shown as code, never a link
    assert view.paper_class == "falsified"  # answering changes nothing
    exported = view_json(view)["claims"][1]["responses"][0]
    assert (exported["author"], exported["response"]) == ("Ann Author", "disagree")
    assert exported["evidence"][1] == {
        "logbook": "ada/flat-minima-repro",
        "trace": {"session": "s1", "sequence": 42},
    }
    review.history.undo()
    assert rebuild(gathered).view.responses == {}


def test_exports_name_who_decided_each_cell_with_the_rationale_and_no_local_path(tmp_path: Path) -> None:
    from reviewapp.core.paper.export import response_markdown, view_json

    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "verified")])
    bob = write_team_logbook(tmp_path / "bob", "bob", [(0, "verified")], wording=1)
    open_review(ada, "Rae Reviewer").set_verdict(2, "falsified", "The  gain\nvanishes with three seeds.")
    view = gather(ada, bob).view
    markdown = response_markdown(view)
    claim = markdown[markdown.index("## Claim 2") :]
    assert (
        "- ada/flat-minima-repro: **falsified** (decided by Rae Reviewer: “The gain vanishes with three seeds.”)"
        in (claim)
    )
    assert "(decided by the agent)" in markdown[: markdown.index("## Claim 2")]  # the rest, by who decides them
    exported = view_json(view)
    [cell] = [c for c in exported["claims"][1]["cells"] if c["decided_by"] == "person"]
    assert cell["logbook"] == "ada/flat-minima-repro"
    assert cell["decided_by_people"] == [
        {"name": "Rae Reviewer", "verdict": "falsified", "rationale": "The gain vanishes with three seeds."}
    ]
    for text in (markdown, json.dumps(exported)):
        assert str(tmp_path) not in text


def test_a_workspace_and_its_published_snapshot_are_one_logbook_counted_once(tmp_path: Path) -> None:
    import shutil

    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "verified")])
    snapshot = tmp_path / "published" / "ada-flat-minima"
    shutil.copytree(ada / ".trackio" / "logbook", snapshot)  # the Space's files, as published
    open_review(ada, "Rae Reviewer").set_verdict(1, "falsified", "The gap has the other sign.")
    bob = write_team_logbook(tmp_path / "bob", "bob", [(0, "falsified"), (1, "falsified")], wording=1)

    gathered = gather(snapshot, ada, bob)
    view = gathered.view
    assert [lb.source for lb in view.logbooks] == [str(ada), str(bob)]  # the reviewed copy is the one kept
    [merged] = [p for p in gathered.problems if "are one logbook" in p]
    same = "100% of the pages identical, 100% of the claims, both ada/flat-minima-repro"
    assert f"{snapshot} and {ada} are one logbook ({same})" in merged
    assert merged.endswith("counted once, as ada/flat-minima-repro")
    first = view.rows[0].id
    assert view.claim_classes[first] == "falsified"  # the snapshot's agent "verified" never contests Rae's verdict
    assert gathered.labels[str(snapshot)] == gathered.labels[str(ada)]


def test_two_logbooks_naming_one_space_are_not_merged_without_the_same_pages(tmp_path: Path) -> None:
    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "verified")])
    other = write_team_logbook(tmp_path / "other", "ada", [(2, "toy"), (3, "falsified")], wording=1)
    gathered = gather(ada, other)
    assert len(gathered.view.logbooks) == 2
    assert not [p for p in gathered.problems if "are one logbook" in p]


def test_cells_updated_for_a_changed_verdict_are_the_cells_built_anew(tmp_path: Path) -> None:
    teams = {"ada": [(0, "verified"), (1, "verified")], "bob": [(0, "verified"), (1, "toy")]}
    folders = [write_team_logbook(tmp_path / t, t, v) for t, v in teams.items()]
    gathered = gather(*folders)
    view = gathered.view
    before = view.paper_class
    ada = view.logbooks[0]
    record = open_review(folders[0], "Grace Judge").set_verdict(2, "falsified", "The second claim fails at scale.")

    rows = update_cells(view, ada.logbook_id, reread_review(ada), [record.target.claim or ""])

    fresh = gather(*folders).view
    assert rows == [view.rows[1].id]  # only the row of the claim the verdict is on
    assert view.cells == fresh.cells and view.claim_classes == fresh.claim_classes
    assert view.paper_class == fresh.paper_class == "falsified" != before  # a person falsified claim 2
    assert update_cells(view, ada.logbook_id, reread_review(ada), [record.target.claim or ""]) == []  # nothing new


def test_a_broken_logbook_is_a_broken_column_naming_its_problem_and_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from reviewapp.core.paper.export import response_markdown, view_json
    from tests.support.look_fixtures import write_broken_logbook

    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "verified")])
    lost = write_broken_logbook(tmp_path / "lost-pages")
    view = gather(ada, lost).view
    problems = read_logbook(lost).problems
    first = str(problems[0])
    assert problems and first.startswith("pages/")  # the problem names the file that is missing
    healthy, broken = view.logbooks
    assert healthy.broken is None
    assert broken.broken is not None and first in broken.broken and "no claims could be read" in broken.broken
    for row in view.rows:
        assert view.cell(row.id, broken.logbook_id).broken == broken.broken
        assert view.cell(row.id, healthy.logbook_id).broken is None
    assert view.paper_class == "fully verified"  # a broken logbook attempted nothing: it decides nothing
    markdown = response_markdown(view)
    assert f"- {markdown_inline(broken.label)}: {markdown_inline(broken.broken)}" in markdown
    exported = view_json(view)
    assert [lb["broken"] for lb in exported["logbooks"]] == [None, broken.broken]
    assert {cell["broken"] for claim in exported["claims"] for cell in claim["cells"][1:]} == {broken.broken}
    assert main(["paper", str(ada), str(lost)]) == 0
    text = capsys.readouterr().out
    assert f"L2 = {broken.label}  (broken: {broken.broken})" in text
    table = text[text.index("claim  ") :].splitlines()[1:3]
    assert all(line.rstrip().endswith("broken") and "—" not in line for line in table), table


def test_blind_exports_hide_other_reviewers_and_the_participant_where_the_window_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Blind as Grace: Bob's verdict and rationale show only on the claim Grace judged, scrubbed of the team's
    name; his verdict on the claim she has not judged, and who gave it, are in no export."""
    import re

    kestrel = write_team_logbook(tmp_path / "kestrel", "kestrel", [(0, "verified"), (1, "verified")])
    bob = open_review(kestrel, "Bob Byron")
    bob.set_verdict(1, "falsified", "kestrel cherry-picked the seeds")
    bob.set_verdict(2, "falsified", "kestrel ran it twice and kept the better run")
    open_review(kestrel, "Grace Hopper").set_verdict(2, "falsified", "one seed reverses it")
    outputs = {}
    for fmt in ("markdown", "json", "text"):
        assert main(["paper", str(kestrel), "--blind", "Grace Hopper", "--format", fmt]) == 0
        outputs[fmt] = capsys.readouterr().out
    for fmt, text in outputs.items():
        assert not re.search(r"\bkestrel\b", text, re.IGNORECASE), (fmt, text)
        assert "cherry-picked" not in text, fmt
        assert str(tmp_path) not in text, fmt
    markdown = outputs["markdown"]
    first, second = markdown[: markdown.index("## Claim 2")], markdown[markdown.index("## Claim 2") :]
    assert "Bob Byron" not in first and "(decided by the agent)" in first  # his verdict is not counted either
    assert "Bob Byron: “Participant" in second and "ran it twice and kept the better run" in second
    exported = json.loads(outputs["json"])
    first_cell, second_cell = (claim["cells"][0] for claim in exported["claims"][:2])
    assert first_cell["people"] == {} and first_cell["decided_by_people"] == []
    assert {p["name"] for p in second_cell["decided_by_people"]} == {"Bob Byron", "Grace Hopper"}
