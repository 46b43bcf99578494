"""The paper view on generated papers: alignment across teams, every class, the precedence rule, hand alignment."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.registry import RegistryClaim
from reviewapp.core.paper.classify import Decision, classify_claim, classify_paper, decide
from reviewapp.core.paper.paper_store import PaperStore
from reviewapp.core.paper.view import PaperLogbook, build_paper_view
from reviewapp.core.review.records import Target, make_record
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.store import AnnotationStore
from reviewapp.core.verdicts import Verdict
from tests.core.annotation_helpers import open_review
from tests.support.paper_fixtures import CLAIMS, ORID, write_team_logbook

V, F, T, P, INC = Verdict.VERIFIED, Verdict.FALSIFIED, Verdict.TOY, Verdict.PARTIAL, Verdict.INCONCLUSIVE


def column(folder: Path, label: str) -> PaperLogbook:
    logbook = read_logbook(folder)
    state = AnnotationState(logbook.claims)
    state.add_all(AnnotationStore(logbook.root).load(repair=False).records)
    return PaperLogbook(f"path:{folder}", label, logbook, state)


def paper(tmp_path: Path, teams: dict[str, list[tuple[int, str]]], **kwargs: Any) -> list[PaperLogbook]:
    columns = []
    for position, (team, verdicts) in enumerate(teams.items()):
        folder = write_team_logbook(tmp_path / team, team, verdicts, wording=position % 2, **kwargs.get(team, {}))
        columns.append(column(folder, team))
    return columns


def test_claims_are_aligned_across_renumbered_and_reworded_logbooks(tmp_path: Path) -> None:
    # ada writes all five claims; bob, in other words, only claims 4, 2 and 5, numbered 1-3 in that order
    columns = paper(tmp_path, {"ada": [(i, "verified") for i in range(5)], "bob": [(3, "toy"), (1, "toy"), (4, "toy")]})
    view = build_paper_view(columns)
    assert [r.text for r in view.rows] == [CLAIMS[i][0] for i in range(5)]
    bob = columns[1]
    cells = [(view.cell(r.id, bob.logbook_id).claim, r.number) for r in view.rows]
    placed = {claim.title: number for claim, number in cells if claim is not None}
    assert placed == {
        f"Claim 1: {CLAIMS[3][1]}": 4,
        f"Claim 2: {CLAIMS[1][1]}": 2,
        f"Claim 3: {CLAIMS[4][1]}": 5,
    }
    assert view.attempted_by(view.rows[0].id) == [columns[0].logbook_id]  # a claim only one team attempted
    assert view.orid == ORID and view.title == "Flat minima generalize"


def test_a_claim_only_one_team_made_gets_a_row_of_its_own(tmp_path: Path) -> None:
    columns = paper(tmp_path, {"ada": [(0, "verified"), (1, "verified")], "bob": [(0, "verified"), (2, "toy")]})
    view = build_paper_view(columns)
    assert len(view.rows) == 3
    own = view.rows[2]
    assert view.attempted_by(own.id) == [columns[1].logbook_id]
    assert view.claim_classes == {"aligned:1": "verified", "aligned:2": "verified", "aligned:3": "toy only"}
    assert view.paper_class == "partially verified"


@pytest.mark.parametrize(
    ("teams", "expected", "all_falsified"),
    [
        ({"ada": [(0, "verified"), (1, "falsified")], "bob": [(0, "falsified"), (1, "falsified")]}, "contested", False),
        ({"ada": [(0, "verified"), (1, "falsified")], "bob": [(0, "verified")]}, "falsified", False),
        ({"ada": [(0, "falsified"), (1, "falsified")]}, "falsified", True),
        ({"ada": [(0, "verified"), (1, "verified")], "bob": [(1, "verified"), (0, "toy")]}, "fully verified", False),
        ({"ada": [(0, "verified"), (1, "toy")], "bob": [(0, "partial")]}, "partially verified", False),
        ({"ada": [(0, "toy"), (1, "inconclusive")]}, "toy only", False),
        ({"ada": [(0, "inconclusive")], "bob": [(0, "inconclusive")]}, "nothing established", False),
    ],
)
def test_every_paper_class(
    tmp_path: Path, teams: dict[str, list[tuple[int, str]]], expected: str, all_falsified: bool
) -> None:
    view = build_paper_view(paper(tmp_path, teams))
    assert (view.paper_class, view.all_falsified) == (expected, all_falsified)


def test_a_persons_verdict_decides_over_the_agents_and_authors_never_decide(tmp_path: Path) -> None:
    columns = paper(tmp_path, {"ada": [(0, "verified")], "bob": [(0, "verified")]})
    ada = columns[0]
    cell = build_paper_view(columns).cell("aligned:1", ada.logbook_id)
    assert (cell.decision.verdict, cell.decision.decided_by) == (V, "agent")
    author = open_review(ada.logbook.root, "Ann Author", role="author")
    author.set_verdict(1, "falsified", "The units are wrong.")
    view = build_paper_view([column(ada.logbook.root.parents[1], "ada"), columns[1]])
    assert view.cell("aligned:1", view.logbooks[0].logbook_id).decision.decided_by == "agent"
    assert view.paper_class == "fully verified"
    judge = open_review(ada.logbook.root, "Grace Judge", role="judge")
    judge.set_verdict(1, "falsified", "Re-ran it: 10x off.")
    view = build_paper_view([column(ada.logbook.root.parents[1], "ada"), columns[1]])
    cell = view.cell("aligned:1", view.logbooks[0].logbook_id)
    assert (cell.decision.verdict, cell.decision.decided_by, cell.people) == (F, "person", {"Grace Judge": F})
    assert view.paper_class == "contested"  # bob's logbook still says verified


def test_the_decision_rule_on_its_own() -> None:
    assert decide({}, T, V) == Decision(T, "Logbook Judge")
    assert decide({}, None, V) == Decision(V, "agent")
    assert decide({}, None, Verdict.UNSTATED) == Decision(None, None)
    assert decide({"a": V, "b": F}, None, V) == Decision(None, "person", True, True)
    assert decide({"a": P, "b": T}, V, V) == Decision(T, "person", True)
    assert decide({"a": F, "b": T}, None, None) == Decision(None, "person", True)
    assert classify_claim([decide({"a": V, "b": F}, None, None)]) == "contested"
    assert classify_paper({"r1": "verified", "r2": "verified"}, counted=["r1", "r2", "r3"])[0] == "partially verified"


def test_registry_claims_are_the_rows_and_fully_verified_needs_every_one(tmp_path: Path) -> None:
    registry = [RegistryClaim(i + 1, f"{CLAIMS[i][0]} (Table {i + 1})", "unverified") for i in range(3)]
    columns = paper(tmp_path, {"ada": [(0, "verified"), (1, "verified")], "bob": [(1, "verified"), (0, "verified")]})
    view = build_paper_view(columns, registry=registry)
    assert [r.id for r in view.rows] == ["registry:1", "registry:2", "registry:3"]
    bob = columns[1].logbook_id
    first = view.cell("registry:1", bob).claim
    assert first is not None and first.n == 2
    assert view.attempted_by("registry:3") == []
    assert view.paper_class == "partially verified"  # registry claim 3 was never verified


def test_hand_alignment_and_author_responses_are_paper_records(tmp_path: Path) -> None:
    columns = paper(tmp_path, {"ada": [(0, "verified"), (1, "verified")], "bob": [(0, "falsified"), (1, "verified")]})
    view = build_paper_view(columns)
    assert view.paper_class == "contested"
    bob = columns[1]
    first_key = next(c.key for c in bob.claims() if c.n == 1)
    store = PaperStore(ORID)
    alignment = make_record(
        "claim_alignment", annotator="Grace", role="judge", target=Target(claim=first_key),
        payload={"paper": ORID, "logbook": bob.logbook_id, "row": None},
    )  # fmt: skip
    response = make_record(
        "author_response", annotator="Ann", role="author", target=Target(claim="aligned:2"),
        payload={"paper": ORID, "response": "partly", "comment": "Only on CIFAR-10.",
                 "evidence": [{"logbook": bob.logbook_id, "page": bob.claims()[1].page, "cell": 1}]},
    )  # fmt: skip
    store.append(alignment, "grace")
    store.append(response, "ann")
    state = AnnotationState()
    state.add_all(PaperStore(ORID).load().records)
    view = build_paper_view(columns, paper_state=state)
    assert len(view.rows) == 3 and view.cell("aligned:1", bob.logbook_id).claim is None
    assert view.cell("aligned:3", bob.logbook_id).placement.method == "by hand"  # type: ignore[union-attr]
    assert view.paper_class == "falsified"  # no longer the same claim: nothing contests it
    assert [r.payload.response for r in view.responses["aligned:2"]] == ["partly"]
