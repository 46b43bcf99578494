"""Every view of one review shows the same truth: the queue row, the paper cell, `inspect --json`,
`annotations --json` and `agreement --json` give a claim the same three verdicts, the same disagreement and the
same reviewers as the ReviewWorkspace (which the review window shows; tests/qt/test_views_agree.py checks it), and
in blind review the same names hidden: the participant's, and other reviewers' on claims the reviewer has not
judged."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from reviewapp.cli import main
from reviewapp.cli.agreement_cmd import collect_ratings
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.agreement_report import AGENT, LOGBOOK_JUDGE, agreement_report
from reviewapp.core.paper.export import response_markdown, view_json
from reviewapp.core.paper.gather import PaperRequest, gather_paper
from reviewapp.core.queue.blind_logbook import blinder_of
from reviewapp.core.queue.queue_file import read_queue
from reviewapp.core.queue.status import queue_status
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.sources.opener import open_source
from reviewapp.core.verdicts import Verdict
from tests.core import judge_fixtures
from tests.core.disputed_logbook import ME, OTHER, Disputed, write_disputed_logbook

Slots = tuple[Verdict | None, Verdict | None, Verdict | None]  # agent, Logbook Judge, this reviewer


@dataclass
class Shown:
    """What one view shows of the review, in the view's own words turned into verdicts."""

    verdicts: dict[str, Slots] = field(default_factory=dict)  # claim key -> (A, J, H); H None: not shown
    disputed: set[str] | int | None = None  # the disputed claims, or only how many; None: the view has no ⚠
    people: dict[str, set[str]] | None = None  # claim key -> who judged it, as the view names them
    text: str = ""  # everything the view printed (blind: no name of the participant may be in it)


BLIND_ME = "Grace Hopper"  # in blind review: a name the participant's names ("ada/repro-gen-paper") do not scrub


@dataclass(frozen=True)
class Looking:
    """Who looks, and whether blind."""

    me: str = ME
    blind: bool = False

    def flags(self) -> list[str]:
        return ["--blind", self.me] if self.blind else []


@pytest.fixture
def disputed(tmp_path: Path) -> Disputed:
    return write_disputed_logbook(tmp_path)


def workspace_view(disputed: Disputed, looking: Looking = Looking()) -> Shown:
    workspace = ReviewWorkspace()
    logbook = read_logbook(disputed.folder)
    rule = blinder_of(logbook, looking.me).rule(looking.me, disputed.folder) if looking.blind else None
    logbook_id = workspace.open(logbook, looking.me, rule=rule)
    rows = workspace.rows(logbook_id)
    return Shown(
        {r.key: (r.slots.agent, r.slots.logbook_judge, r.slots.human) for r in rows},
        {r.key for r in rows if r.disagreement},
        {r.key: set(workspace.people(logbook_id, r.key)) for r in rows},
    )


def queue_view(disputed: Disputed, tmp_path: Path, _capsys: pytest.CaptureFixture[str], looking: Looking) -> Shown:
    queue_file = tmp_path / "queue.txt"
    queue_file.write_text(f"{disputed.folder}\n", "utf-8")
    (row,) = queue_status(read_queue(queue_file), looking.me)
    assert row.problem is None
    # the queue shows counts: which claims are left for me, and how many are disputed; it names no reviewer of a
    # claim (who scored the logbook, only once I have: nobody has here)
    reviewed = set(row.claim_keys) - set(row.unreviewed)
    expected = workspace_view(disputed, looking)
    assert reviewed == {k for k, (_, _, human) in expected.verdicts.items() if human is not None}
    assert row.claim_keys == list(expected.verdicts) and row.judges == []
    return Shown(disputed=row.disagreements)


def paper_view(disputed: Disputed, _tmp_path: Path, _capsys: pytest.CaptureFixture[str], looking: Looking) -> Shown:
    def blind(logbook):  # type: ignore[no-untyped-def]
        return blinder_of(logbook, looking.me).rule(looking.me, logbook.workspace or logbook.root)

    request = PaperRequest([str(disputed.folder)])
    gathered = gather_paper(request, open_source, strict=True, blind=blind if looking.blind else None)
    # both exports, as the window writes them (Ctrl+Shift+E, Ctrl+E)
    exports = json.dumps(view_json(gathered.view)) + response_markdown(gathered.view)
    shown = Shown(people={}, text=exports + gathered.view.logbooks[0].label)
    for cell in gathered.view.cells.values():
        if cell.claim is None:
            continue
        shown.verdicts[cell.claim.key] = (cell.agent, cell.logbook_judge, cell.people.get(looking.me))
        assert shown.people is not None
        shown.people[cell.claim.key] = set(cell.people)
    return shown


def inspect_view(disputed: Disputed, _tmp_path: Path, capsys: pytest.CaptureFixture[str], looking: Looking) -> Shown:
    assert main(["inspect", str(disputed.folder), "--json", *looking.flags()]) == 0
    out = capsys.readouterr().out
    claims = json.loads(out)["claims"]
    # inspect shows what the reader found: the logbook's own claims (a split claim as it was written), no reviewer
    verdicts = {c["key"]: (Verdict(c["verdict"]), _verdict(c["judge_verdict"]), None) for c in claims}
    verdicts.pop(disputed.split)
    contradicted = {c["key"] for c in claims if c["contradicted_by"]} - {disputed.split, disputed.parts[0]}
    return Shown(verdicts, contradicted, text=out)


def annotations_view(
    disputed: Disputed, _tmp_path: Path, capsys: pytest.CaptureFixture[str], looking: Looking
) -> Shown:
    assert main(["annotations", str(disputed.folder), "--json", *looking.flags()]) == 0
    out = capsys.readouterr().out
    shown = Shown(people={}, text=out)
    assert shown.people is not None
    for row in json.loads(out)["claims"]:
        key = row["key"]
        human = _verdict(row["human_verdict"]) if row["annotator"] == looking.me else None
        _, _, known = shown.verdicts.get(key, (None, None, None))
        shown.verdicts[key] = (_verdict(row["agent_verdict"]), _verdict(row["judge_verdict"]), human or known)
        if row["annotator"]:
            shown.people.setdefault(key, set()).add(row["annotator"])
        else:
            shown.people.setdefault(key, set())
    return shown


def agreement_view(disputed: Disputed, _tmp_path: Path, capsys: pytest.CaptureFixture[str], looking: Looking) -> Shown:
    command = ["agreement", str(disputed.folder), "--logbook-judge", "--agent", *looking.flags()]
    assert main([*command, "--format", "json"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out)
    blind = looking.me if looking.blind else None
    args = argparse.Namespace(sources=[str(disputed.folder)], logbook_judge=True, agent=True, blind=blind)
    ratings = collect_ratings(args)
    assert report == json.loads(json.dumps(agreement_report(ratings)))  # what it printed is these ratings' report
    assert set(report["raters"]) == {looking.me, OTHER, AGENT, LOGBOOK_JUDGE}
    shown = Shown(people={}, text=out + json.dumps(list(ratings)))
    assert shown.people is not None
    for unit_key, unit in ratings.items():
        key = unit_key.rsplit("#", 2)[-2] + "#" + unit_key.rsplit("#", 1)[-1]
        shown.verdicts[key] = (unit.get(AGENT), unit.get(LOGBOOK_JUDGE), unit.get(looking.me))
        shown.people[key] = set(unit) - {AGENT, LOGBOOK_JUDGE}
    return shown


def _verdict(value: str | None) -> Verdict | None:
    return Verdict(value) if value else None


VIEWS: dict[str, Callable[[Disputed, Path, pytest.CaptureFixture[str], Looking], Shown]] = {
    "queue row": queue_view,
    "paper cell": paper_view,
    "inspect --json": inspect_view,
    "annotations --json": annotations_view,
    "agreement --json": agreement_view,
}


def test_the_logbook_has_what_views_used_to_disagree_about(disputed: Disputed) -> None:
    truth = workspace_view(disputed)
    assert disputed.split not in truth.verdicts and set(disputed.parts) <= set(truth.verdicts)
    agent, logbook_judge, human = truth.verdicts[disputed.contradicted]
    assert (agent, human) == (Verdict.TOY, Verdict.TOY) and logbook_judge is None  # re-matched away by hand
    assert disputed.contradicted in truth.disputed  # type: ignore[operator]  # only the logbook contradicts it
    assert truth.verdicts[disputed.seen_blind] == (Verdict.FALSIFIED, Verdict.VERIFIED, Verdict.FALSIFIED)
    assert truth.people is not None and truth.people[disputed.seen_blind] == {ME, OTHER}


def agrees(view: str, disputed: Disputed, shown: Shown, truth: Shown) -> None:
    for key, (agent, logbook_judge, human) in shown.verdicts.items():
        want_agent, want_judge, want_human = truth.verdicts[key]
        assert (agent, logbook_judge) == (want_agent, want_judge), key
        assert human in (None, want_human) if view == "inspect --json" else human == want_human, key
    if view != "inspect --json" and shown.verdicts:
        assert set(shown.verdicts) == set(truth.verdicts)
    assert truth.disputed is not None and not isinstance(truth.disputed, int)
    if isinstance(shown.disputed, int):
        assert shown.disputed == len(truth.disputed)
    elif shown.disputed is not None:  # inspect knows only what the logbook says of itself
        assert shown.disputed == {disputed.contradicted}
    if shown.people is not None:
        assert truth.people is not None
        assert shown.people == {key: truth.people[key] for key in shown.people}


@pytest.mark.parametrize("view", list(VIEWS))
def test_every_view_gives_the_same_verdicts_disagreements_and_people(
    view: str, disputed: Disputed, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agrees(view, disputed, VIEWS[view](disputed, tmp_path, capsys, Looking()), workspace_view(disputed))


@pytest.mark.parametrize("view", list(VIEWS))
def test_in_blind_review_every_view_hides_the_same_names(
    view: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disputed = write_disputed_logbook(tmp_path, me=BLIND_ME)
    looking = Looking(BLIND_ME, blind=True)
    truth = workspace_view(disputed, looking)
    # Bob's verdict shows where I have given mine (claim 2), and he is named nowhere else (claim 1 is his alone)
    assert truth.people is not None and truth.people[disputed.seen_blind] == {BLIND_ME, OTHER}
    assert truth.people[disputed.hidden_blind] == set()
    shown = VIEWS[view](disputed, tmp_path, capsys, looking)
    agrees(view, disputed, shown, truth)
    for name in judge_fixtures.SPACE.split("/"):  # the participant's Space, named in the logbook's metadata
        assert not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", shown.text, re.IGNORECASE), name
    assert str(disputed.folder) not in shown.text
