"""The paper view: the paper's claims as rows, one column per logbook, each cell the agent's, the Logbook Judge's
and people's verdicts with the one that decides it, and the classes that follow (rules in `classify`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from reviewapp.core.logbook.broken import broken_problem
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook_judge.matching import claim_texts
from reviewapp.core.logbook_judge.registry import RegistryClaim
from reviewapp.core.logbook_judge.stored import StoredImport
from reviewapp.core.paper.alignment import Alignment, PaperClaim, Placement, align
from reviewapp.core.paper.classify import ClaimClass, Decision, PaperClass, classify_claim, classify_paper, decide
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.records import AuthorResponseRecord, ClaimAlignmentRecord, RecordBase
from reviewapp.core.review.state import AnnotationState, EffectiveClaim
from reviewapp.core.verdicts import Verdict


@dataclass(slots=True)
class PaperLogbook:
    """One logbook on the paper, with its reviews replayed and its Logbook Judge import (if any)."""

    logbook_id: str
    label: str  # how the column is headed and exported: `column_label`, never a local absolute path
    logbook: Logbook
    state: AnnotationState
    logbook_judge: StoredImport | None = None
    logbook_judge_verdicts: dict[str, Verdict] = field(default_factory=dict)  # the J slot, from the workspace
    source: str = ""  # the source as given (a folder, a Space, a URL): what opening its evidence opens
    rule: BlindRule = BlindRule.SEEING_ALL  # blind review: others' verdicts only where the reviewer judged

    def claims(self) -> list[EffectiveClaim]:
        return self.state.effective_claims()

    @property
    def broken(self) -> str | None:
        """Why this logbook is broken (read with problems and no claims, its first problem naming the file), or
        None. Only a logbook with problems and no claims read pays for asking the review."""
        problems = self.logbook.problems
        if not problems or self.logbook.claims or self.claims():
            return None
        return self.rule.text(broken_problem(problems))


@dataclass(slots=True)
class MatrixCell:
    row: str
    logbook_id: str
    claim: EffectiveClaim | None  # None: this logbook has no claim on this row
    placement: Placement | None
    agent: Verdict | None
    logbook_judge: Verdict | None
    people: dict[str, Verdict]  # annotator -> verdict, authors left out
    decision: Decision
    rationales: dict[str, str] = field(default_factory=dict)  # annotator -> why they gave their verdict
    broken: str | None = None  # the logbook is broken: why (its first problem and file); it has no claim here


@dataclass(slots=True)
class PaperView:
    orid: str | None
    title: str
    rows: list[PaperClaim]
    logbooks: list[PaperLogbook]
    cells: dict[tuple[str, str], MatrixCell]
    claim_classes: dict[str, ClaimClass]
    paper_class: PaperClass
    all_falsified: bool
    registry_used: bool
    responses: dict[str, list[AuthorResponseRecord]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def cell(self, row: str, logbook_id: str) -> MatrixCell:
        return self.cells[(row, logbook_id)]

    def attempted_by(self, row: str) -> list[str]:
        return [lb.logbook_id for lb in self.logbooks if self.cells[(row, lb.logbook_id)].claim is not None]


def build_paper_view(
    logbooks: Sequence[PaperLogbook],
    *,
    orid: str | None = None,
    registry: Sequence[RegistryClaim] | None = None,
    paper_state: AnnotationState | None = None,
) -> PaperView:
    notes: list[str] = []
    papers = sorted({lb.logbook.paper_id for lb in logbooks if lb.logbook.paper_id})
    orid = orid or (papers[0] if len(papers) == 1 else None)
    if len(papers) > 1:
        notes.append(f"the logbooks name different papers ({', '.join(papers)}); shown together as asked")
    records = paper_state.live() if paper_state is not None else []
    manual: dict[tuple[str, str], str | None] = {}
    for record in sorted((r for r in records if isinstance(r, ClaimAlignmentRecord)), key=lambda r: r.created_at):
        manual[(record.payload.logbook, record.target.claim or "")] = record.payload.row
    texts = [(lb.logbook_id, claim_texts(lb.logbook, lb.claims())) for lb in logbooks]
    alignment = align(texts, registry, manual)
    notes.extend(alignment.notes)
    cells: dict[tuple[str, str], MatrixCell] = {}
    for lb in logbooks:
        by_registry = _by_registry_position(lb, registry)
        claims = {c.key: c for c in lb.claims()}
        for row in alignment.rows:
            placement = alignment.cell(row.id, lb.logbook_id)
            claim = claims.get(placement.claim_key) if placement else None
            cells[(row.id, lb.logbook_id)] = _cell(lb, row, placement, claim, by_registry)
    claim_classes = {
        row.id: classify_claim(cells[(row.id, lb.logbook_id)].decision for lb in logbooks) for row in alignment.rows
    }
    counted = [r.id for r in alignment.rows if r.in_registry] if registry else None
    paper_class, all_falsified = classify_paper(claim_classes, counted)
    shown = blind_text(logbooks)  # a row's wording and a note may come from any logbook: every name scrubbed
    return PaperView(
        orid=orid,
        title=shown(_title(logbooks)),
        rows=[dataclasses.replace(row, text=shown(row.text)) for row in alignment.rows],
        logbooks=list(logbooks),
        cells=cells,
        claim_classes=claim_classes,
        paper_class=paper_class,
        all_falsified=all_falsified,
        registry_used=bool(registry),
        responses=responses_of(records),
        notes=[shown(note) for note in notes],
    )


def responses_of(records: Iterable[RecordBase]) -> dict[str, list[AuthorResponseRecord]]:
    """The authors' responses among the paper's live records, by row id."""
    responses: dict[str, list[AuthorResponseRecord]] = {}
    for response in records:
        if isinstance(response, AuthorResponseRecord) and response.target.claim:
            responses.setdefault(response.target.claim, []).append(response)
    return responses


def update_cells(view: PaperView, logbook_id: str, state: AnnotationState, keys: Iterable[str]) -> list[str]:
    """People's verdicts on the claims `keys` of one logbook changed (its review read again as `state`): update
    that logbook's cells on those claims, the classes of their rows and the paper's. Claims neither came nor went,
    so the alignment stands. Returns the ids of the rows whose cell changed, in row order."""
    column = next(lb for lb in view.logbooks if lb.logbook_id == logbook_id)
    column.state = state
    wanted = set(keys)
    claims = {c.key: c for c in state.effective_claims() if c.key in wanted}
    changed: list[str] = []
    for row in view.rows:
        old = view.cells[(row.id, logbook_id)]
        if old.claim is None or old.claim.key not in claims:
            continue
        new = _cell(column, row, old.placement, claims[old.claim.key], {})
        if new != old:
            view.cells[(row.id, logbook_id)] = new
            view.claim_classes[row.id] = classify_claim(view.cells[(row.id, lb.logbook_id)].decision
                                                        for lb in view.logbooks)  # fmt: skip
            changed.append(row.id)
    if changed:
        counted = [r.id for r in view.rows if r.in_registry] if view.registry_used else None
        view.paper_class, view.all_falsified = classify_paper(view.claim_classes, counted)
    return changed


def _cell(
    lb: PaperLogbook,
    row: PaperClaim,
    placement: Placement | None,
    claim: EffectiveClaim | None,
    by_registry: dict[int, Verdict],
) -> MatrixCell:
    agent = claim.agent_verdict if claim else None
    logbook_judge = lb.logbook_judge_verdicts.get(claim.key) if claim else None
    if claim is None and row.in_registry:  # a claim's J slot is the workspace's, re-matches by hand applied
        logbook_judge = by_registry.get(row.number)
    people = _people(lb, claim.key) if claim else {}
    rationales = _rationales(lb, claim.key, people) if claim else {}
    decision = decide(people, logbook_judge, agent)
    broken = lb.broken if claim is None else None
    return MatrixCell(
        row.id, lb.logbook_id, claim, placement, agent, logbook_judge, people, decision, rationales, broken
    )


def alignment_of(view: PaperView) -> Alignment:
    """The alignment the view was built on (rows and placements), e.g. to offer hand corrections."""
    placements: dict[str, list[Placement]] = {}
    for (_, logbook_id), cell in view.cells.items():
        if cell.placement is not None:
            placements.setdefault(logbook_id, []).append(cell.placement)
    return Alignment(view.rows, placements, view.notes)


def _people(lb: PaperLogbook, claim_key: str) -> dict[str, Verdict]:
    return {
        annotator: record.payload.verdict
        for annotator, record in lb.rule.verdicts(lb.state, claim_key).items()
        if record.role != "author"  # authors are interested parties: their word never decides a class
    }


def _rationales(lb: PaperLogbook, claim_key: str, people: dict[str, Verdict]) -> dict[str, str]:
    """Why each person gave their verdict, as one line; blind, with the participant's names scrubbed."""
    records = lb.state.verdicts(claim_key)
    return {
        name: lb.rule.text(" ".join(str(records[name].payload.rationale).split())) for name in people if name in records
    }


def blind_text(logbooks: Sequence[PaperLogbook]) -> Callable[[str], str]:
    """Text shown beside several logbooks, as blind review allows it: each blind logbook's names scrubbed."""
    rules = [lb.rule for lb in logbooks if lb.rule.blind]

    def shown(text: str) -> str:
        for rule in rules:
            text = rule.text(text)
        return text

    return shown


def column_label(source: str, logbook_id: str, logbook: Logbook) -> str:
    """How a logbook is named in the matrix and its exports: its Space or repository, its address, or for a local
    folder the Space its metadata names, else the folder's own name (never the absolute path)."""
    scheme, _, rest = logbook_id.partition(":")
    if scheme == "hf":
        return rest.split("/", 1)[1] if "/" in rest else rest
    if scheme == "url":
        return rest
    if scheme == "git":
        return rest.split("/", 1)[1] if "/" in rest else rest
    if logbook.space_id:
        return logbook.space_id
    folder = logbook.workspace or logbook.root
    return folder.name or source


def _by_registry_position(lb: PaperLogbook, registry: Sequence[RegistryClaim] | None) -> dict[int, Verdict]:
    """The Logbook Judge was scored against the registry by position: when its claim count is the registry's,
    claim i is registry claim i even where no logbook claim matched it."""
    if lb.logbook_judge is None or not registry or len(lb.logbook_judge.entry.claims) != len(registry):
        return {}
    return {c.index: c.verdict for c in lb.logbook_judge.entry.claims if c.verdict is not None}


def _title(logbooks: Sequence[PaperLogbook]) -> str:
    titles = [lb.logbook.paper_title for lb in logbooks if lb.logbook.paper_title]
    if titles:
        return max(set(titles), key=titles.count)
    return logbooks[0].logbook.title if logbooks else ""
