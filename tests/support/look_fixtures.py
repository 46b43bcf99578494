"""A real-looking lab for looking at every window: a queue of team logbooks on one paper with long names and two
judges' scores (the first with its agent session, the second with a claim the judges disagree on), one broken
logbook (its pages are missing), and a logbook with an image pair set two raters have rated."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft, write_trace
from reviewapp.core.pairs.rating import PairRatingRound
from reviewapp.core.pairs.sets import load_set
from reviewapp.core.queue.rubric import DEFAULT_RUBRIC
from reviewapp.core.queue.scoring import record_rubric_score, score_payload
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from tests.support.pair_fixtures import open_annotations, write_pair_logbook
from tests.support.paper_fixtures import ORID, write_team_logbook

TEAMS = (
    ("vision-and-optimisation-lab-of-the-northern-university", [(0, "verified"), (1, "falsified"), (2, "toy")]),
    ("kestrel", [(0, "verified"), (1, "verified"), (3, "partial"), (4, "inconclusive")]),
    ("a-team-with-an-unusually-long-handle-for-a-space", [(0, "falsified"), (2, "verified"), (5, "toy")]),
)
JUDGES = ("Grace Hopper", "Edsger Dijkstra")


@dataclass(frozen=True)
class Lab:
    root: Path
    queue: Path
    teams: list[Path]
    broken: Path
    pairs: Path
    results: list[Path]  # two raters' results of the pair set, for the study


def write_broken_logbook(folder: Path) -> Path:
    """A logbook whose manifest lists claim pages that are all missing: it opens with problems and no claims."""
    draft = LogbookDraft(
        "Reproduction of flat minima, pages lost in an upload", metadata={"paper": {"openreview_id": ORID}}
    )
    for number in (1, 2):
        draft.page(f"Claim {number}: sharpness predicts the gap").markdown("**Verdict: VERIFIED.**")
    root = draft.write(folder)
    for page in (root / "pages").iterdir():
        if page.is_dir():
            shutil.rmtree(page)
    return folder


def add_agent_session(folder: Path) -> None:
    """An agent session that ran each claim's check, listed in the manifest: the review window opens its trace
    pane beside the evidence, as it does for a logbook that kept its trace."""
    root = folder / ".trackio" / "logbook"
    events = []
    for claim in (1, 2, 3):
        for kind, title, text in (
            ("assistant", "Assistant", f"Next I check claim {claim} at a reduced budget."),
            ("tool_call", "Bash", f'trackio logbook run --page "Claim {claim}" -- python check_{claim - 1}.py'),
        ):
            sequence = len(events) + 1
            event = {"id": f"e{sequence}", "sequence": sequence, "kind": kind, "title": title, "text": text}
            events.append({**event, "turn": claim})
    trace = write_trace(root, "session-1", events, title="Reproduction session")
    manifest = json.loads((root / "logbook.json").read_text(encoding="utf-8"))
    manifest["traces"] = [trace]
    (root / "logbook.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def rate_every_pair(folder: Path, rater: str, seed: int) -> Path:
    """`rater` answers every trial of the pair set (the baseline preferred, identical pairs seen as identical)
    and writes their results file; returns its path."""
    round_ = PairRatingRound.open(open_annotations(folder, rater), load_set(read_logbook(folder)), seed=seed)
    while (trial := round_.current) is not None:
        answer = "same" if trial.control == "identical" else "left" if trial.left == "a" else "right"
        round_.rate(answer, confidence=2, response_ms=900)
    csv_path, _ = round_.write_results()
    return csv_path


def write_lab(root: Path) -> Lab:
    teams = []
    for number, (team, verdicts) in enumerate(TEAMS):
        folder = write_team_logbook(root / f"{team}-flat-minima", team, verdicts, wording=number % 2, runs=2)
        teams.append(folder)
    add_agent_session(teams[0])
    for judge_number, judge in enumerate(JUDGES):
        for team_number, folder in enumerate(teams[:2]):
            review = LogbookReview.open(read_logbook(folder), Identity(judge, "command line"), "judge")
            value = 2 + (judge_number + team_number) % 3
            record_rubric_score(
                review, score_payload(DEFAULT_RUBRIC, dict.fromkeys(("rigor", "scale", "honesty", "clarity"), value))
            )
    disputed = [
        ("verified", "Table 2 reproduced within 0.3 points on three seeds."),
        ("falsified", "The gap reverses at the paper's batch size; the logbook ran a tenth of it."),
    ]
    for judge, (verdict, why) in zip(JUDGES, disputed, strict=True):  # a dispute for the Disagreements view
        LogbookReview.open(read_logbook(teams[1]), Identity(judge, "command line"), "judge").set_verdict(
            1, verdict, why
        )
    broken = write_broken_logbook(root / "lost-pages-flat-minima")
    lines = ["source,paper", *(f"{f.name},{ORID}" for f in teams), f"{broken.name},{ORID}"]
    queue = root / "queue.csv"
    queue.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pairs = write_pair_logbook(root / "pair-widgets", 4, size=160)
    results = [rate_every_pair(pairs, rater, seed) for seed, rater in enumerate(("Sam Sight", "Ola Optic"))]
    return Lab(root, queue, teams, broken, pairs, results)
