"""Gathering every logbook on a paper: from the Hub by paper tag, from folders and sources, or from a list file.

Shared by `reviewapp paper`, File > Open Paper and the benchmark. Logbooks are read through the parse cache, so
reopening a paper of twenty logbooks does not parse them again; each logbook's reviews, its stored Logbook Judge
import and the paper's own records (hand alignments, author responses) are loaded beside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.io.source_errors import SourceUnavailable
from reviewapp.core.io.source_ref import SourceError
from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.parse_cache import read_logbook_cached
from reviewapp.core.logbook.same_logbook import sameness
from reviewapp.core.logbook_judge.entries import VerdictsFileError
from reviewapp.core.logbook_judge.registry import RegistryClaim, read_paper_index, read_registry
from reviewapp.core.paper.paper_store import PaperIdError, PaperStore
from reviewapp.core.paper.view import PaperLogbook, PaperView, build_paper_view, column_label, responses_of
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.review.blind_rule import BlindRule
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.sources.opened import OpenedSource

Opener = Callable[[str], OpenedSource]


class PaperGatherError(ValueError):
    """The paper cannot be shown as asked (no logbooks, an unreadable registry or list); the message says why."""


@dataclass(slots=True)
class PaperRequest:
    """What to gather: SOURCES (a list file's sources already among them), or without any, every logbook the
    Hub lists for `orid`."""

    sources: list[str] = field(default_factory=list)
    orid: str | None = None
    registry: Path | None = None
    paper_index: Path | None = None


@dataclass(slots=True)
class GatheredPaper:
    view: PaperView
    labels: dict[str, str]  # source as given -> logbook id
    problems: list[str] = field(default_factory=list)  # sources left out, list-file rows, registry warnings
    registry_claims: tuple[RegistryClaim, ...] | None = None


def gather_paper(
    request: PaperRequest,
    opener: Opener,
    *,
    strict: bool = False,
    find: Callable[[str], list[str]] | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    blind: Callable[[Logbook], BlindRule] | None = None,
) -> GatheredPaper:
    """Open every source with `opener` and build the paper view; `blind` gives each logbook the blind rule of
    the reviewer looking (its pseudonym heads the column, others' verdicts show where the reviewer gave theirs).

    With `strict` a source that cannot be opened or read raises (the command line stops with its exit code);
    otherwise it is left out and named in `problems` (the window shows the rest). `find(orid)` lists the Hub's
    logbooks on the paper when neither sources nor a list are given.
    """
    problems: list[str] = []
    sources = list(request.sources)
    if not sources and request.orid and find is not None:
        sources = find(request.orid)
        if not sources:
            raise PaperGatherError(f"no logbooks found on the Hub for paper {request.orid}")
    if not sources:
        raise PaperGatherError("name the logbooks on the paper (sources, a list file, or a paper id to find)")
    columns: list[PaperLogbook] = []
    labels: dict[str, str] = {}
    for done, source in enumerate(sources):
        if cancel is not None:
            cancel.check()
        if progress is not None:
            progress(done, len(sources), source)
        try:
            column = open_column(source, opener, blind)
        except (SourceError, SourceUnavailable, NotALogbookError, OSError) as exc:
            if strict:
                raise
            problems.append(f"{source}: {exc}")
            continue
        if any(c.logbook_id == column.logbook_id for c in columns):
            problems.append(f"{source}: the same logbook as an earlier source; shown once")
            continue
        twin = next((c for c in columns if sameness(c.logbook, column.logbook).same), None)
        if twin is not None:  # one logbook in two forms: counted once, the copy people reviewed kept
            kept, dropped = (column, twin) if _verdicts_on(column) > _verdicts_on(twin) else (twin, column)
            left_out = _verdicts_on(dropped)
            problems.append(
                f"{dropped.source} and {kept.source} are one logbook ({sameness(kept.logbook, dropped.logbook).reason})"
                f": counted once, as {kept.label}"
                + (f"; the {left_out} verdict(s) given on {dropped.source} are not counted" if left_out else "")
            )
            if kept is column:
                columns[columns.index(twin)] = column
                labels = {s: column.logbook_id if i == twin.logbook_id else i for s, i in labels.items()}
            labels[source] = kept.logbook_id
            continue
        if any(c.label == column.label for c in columns):  # two folders named alike: told apart by number
            column.label = f"{column.label} #{sum(1 for c in columns if c.label.startswith(column.label)) + 1}"
        columns.append(column)
        labels[source] = column.logbook_id
    if progress is not None:
        progress(len(sources), len(sources), "")
    if not columns:
        raise PaperGatherError("none of the logbooks could be opened:\n" + "\n".join(problems))
    orid = request.orid or next((c.logbook.paper_id for c in columns if c.logbook.paper_id), None)
    registry = _registry(request, orid, columns, problems)
    view = build_paper_view(columns, orid=orid, registry=registry, paper_state=paper_records(orid))
    return GatheredPaper(view, labels, problems, registry)


def _verdicts_on(column: PaperLogbook) -> int:
    return sum(len(column.state.verdicts(claim.key)) for claim in column.claims())


def find_on_hub(orid: str, cancel: CancelToken | None = None) -> list[str]:
    """The Spaces the Hub lists for the paper (its `paper-<ORID>` tag), as sources."""
    from reviewapp.core.sources.find import find_logbooks

    return [f.repo_id for f in find_logbooks(orid, cancel=cancel, count_claims=False)]


def open_column(source: str, opener: Opener, blind: Callable[[Logbook], BlindRule] | None = None) -> PaperLogbook:
    """One logbook's column: read through the parse cache, its review and Logbook Judge slot as the workspace has
    them (re-matches by hand applied, as in the review window)."""
    opened = opener(source)
    logbook = read_logbook_cached(opened.folder)
    if opened.logbook_id is not None:
        logbook = dataclasses.replace(logbook, explicit_id=opened.logbook_id)
    return _column(source, logbook, blind(logbook) if blind is not None else BlindRule.SEEING_ALL)


def _column(source: str, logbook: Logbook, rule: BlindRule, label: str | None = None) -> PaperLogbook:
    workspace = ReviewWorkspace()  # a damaged import shows no J verdicts; `verdicts import` again replaces it
    logbook_id = workspace.open(logbook)
    state = workspace.state(logbook_id)
    assert state is not None  # a read-only opening always replays the files
    verdicts = {
        row.key: row.slots.logbook_judge for row in workspace.rows(logbook_id) if row.slots.logbook_judge is not None
    }
    label = label or (rule.alias if rule.blind else column_label(source, logbook_id, logbook))
    judged = workspace.logbook_judge_import(logbook_id)
    return PaperLogbook(logbook_id, label, logbook, state, judged, verdicts, source=source, rule=rule)


def reopen_column(column: PaperLogbook) -> PaperLogbook:
    """The same logbook (not read again) with its review and Logbook Judge slot read again: after claims came or
    went, or a change that can move the Logbook Judge's matches."""
    return _column(column.source, column.logbook, column.rule, column.label)


def reread_review(column: PaperLogbook) -> AnnotationState:
    """The logbook's review files read again, through the workspace (after people's verdicts changed)."""
    workspace = ReviewWorkspace()
    logbook_id = workspace.open(column.logbook, logbook_judge=False)
    state = workspace.state(logbook_id)
    assert state is not None
    return state


def paper_records(orid: str | None) -> AnnotationState:
    """The paper's hand alignments and author responses (everyone's); empty without a paper id."""
    state = AnnotationState()
    if orid:
        try:
            state.add_all(PaperStore(orid).load(repair=False).records)
        except PaperIdError as exc:
            raise PaperGatherError(str(exc)) from None
    return state


def reread_responses(view: PaperView) -> list[str]:
    """The authors' responses read again (after one was written, undone or redone): the ids of the rows whose
    responses changed. Responses never decide a class, so nothing else changes."""
    fresh = responses_of(paper_records(view.orid).live())
    changed = [row.id for row in view.rows if fresh.get(row.id, []) != view.responses.get(row.id, [])]
    view.responses = fresh
    return changed


def rebuild(gathered: GatheredPaper, replaced: PaperLogbook | None = None) -> GatheredPaper:
    """The same logbooks with the paper's records read again (after a hand alignment), `replaced` in place of the
    column with its logbook id (after claims of that logbook came or went)."""
    view = gathered.view
    columns = [
        replaced if replaced is not None and lb.logbook_id == replaced.logbook_id else lb for lb in view.logbooks
    ]
    fresh = build_paper_view(
        columns, orid=view.orid, registry=gathered.registry_claims, paper_state=paper_records(view.orid)
    )
    return GatheredPaper(fresh, gathered.labels, gathered.problems, gathered.registry_claims)


def _registry(
    request: PaperRequest, orid: str | None, columns: Sequence[PaperLogbook], problems: list[str]
) -> tuple[RegistryClaim, ...] | None:
    """The rows: the registry named in the request, else the one imported with any logbook's Logbook Judge
    verdicts for this paper, else None (claims aligned across the logbooks)."""
    if request.registry is not None:
        try:
            index = read_paper_index(request.paper_index) if request.paper_index else None
            claims = read_registry(request.registry, index).for_paper(orid)
        except (VerdictsFileError, OSError) as exc:
            said = str(exc)  # the registry reader names the file; say where it is
            raise PaperGatherError(f"{request.registry.parent / said}" if said.startswith(request.registry.name)
                                   else f"{request.registry}: {said}") from None  # fmt: skip
        if claims is None:
            problems.append(f"{request.registry}: no claims for paper {orid}; claims aligned across logbooks")
        return claims
    for column in columns:
        if column.logbook_judge is None or column.logbook_judge.entry.orid != orid:
            continue
        claims = column.logbook_judge.registry_claims()
        if claims:
            return claims
    return None
