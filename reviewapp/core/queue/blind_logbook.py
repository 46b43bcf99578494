"""A logbook as a judge sees it in blind mode: every text the window shows scrubbed of the participant's identity.

The copy keeps what the program needs to find files and records (the folder, the logbook id, the Space id used to
look up Logbook Judge imports) and scrubs everything shown: the title, page titles and text, cell titles, bodies
and headers (run output included), claim titles and the verdict phrases quoted from them, metadata and manifest
values, trace titles, workspace file names and the reader's problems. Trace events are read later, one at a time,
and go through `blind_event`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from reviewapp.core.io.gitcmd import GitError
from reviewapp.core.io.gitcmd import run as run_git
from reviewapp.core.logbook.model import (
    Cell,
    Claim,
    Logbook,
    Page,
    Problem,
    TraceEvent,
    VerdictMention,
    WorkspaceFile,
)
from reviewapp.core.queue.blind import Blinder, blinder_for, identity_names
from reviewapp.core.queue.queue_row import QueueRow
from reviewapp.core.review.blind_rule import BlindRule

MAX_AUTHORS = 50
_LOOKUP_KEYS = frozenset({"space_id"})  # kept as they are: Logbook Judge imports are found through them


def logbook_authors(logbook: Logbook, exclude: Iterable[str] = ()) -> list[str]:
    """Git authors (`Name <mail>`) of the commits that touched the logbook's pages, but not `exclude` (the judge
    looking at it, whose own review commits are in the same history). Empty when the folder is not in a git
    repository or git cannot run: blinding then relies on the other names it knows."""
    skip = {name.casefold() for name in exclude if name}
    try:
        done = run_git(
            ["log", f"--max-count={MAX_AUTHORS * 20}", "--format=%an <%ae>", "--", "."], logbook.root, timeout=10
        )
    except GitError:
        return []
    if not done.ok:
        return []
    found: list[str] = []
    for line in done.stdout.splitlines():
        name = line.split("<", 1)[0].strip()
        if line and line not in found and name.casefold() not in skip:
            found.append(line)
        if len(found) >= MAX_AUTHORS:
            break
    return found


def blinder_of(logbook: Logbook, judge: str = "") -> Blinder:
    """The blinder of a logbook: its id, the Space ids it names and its git authors (the judge left out)."""
    return blinder_for(logbook.logbook_id, logbook, logbook_authors(logbook, exclude=(judge,)))


def reviewer_rule(logbook: Logbook, reviewer: str) -> BlindRule:
    """The blind rule the window applies to `logbook` for `reviewer`: the names its id, Spaces and git authors
    give scrubbed (the reviewer's own left in), others' records hidden where the reviewer has no verdict."""
    return blinder_of(logbook, reviewer).rule(reviewer, logbook.workspace or logbook.root)


def listed_row_blinder(row: QueueRow) -> Blinder:
    """A queue row's blinder from what the row keeps (its id and the Space ids its logbook names), without
    reading the logbook or git: what a queue shows until blind mode asks for the git authors (row_blinder)."""
    named = row.logbook_id or row.entry.location
    return Blinder.for_logbook(named, identity_names(named, row.space_ids))


def row_blinder(row: QueueRow, judge: str = "") -> Blinder:
    """The blinder of a queue row: from its logbook when it could be read, else from where it is."""
    if row.logbook is not None:
        return blinder_of(row.logbook, judge)
    return blinder_for(row.logbook_id or row.entry.location, None)


def blind_logbook(logbook: Logbook, blinder: Blinder) -> Logbook:
    """A copy of `logbook` with every shown text scrubbed; the original is not changed."""
    s = blinder.scrub
    pages = [_page(p, blinder) for p in logbook.pages]
    claims = [_claim(c, blinder) for c in logbook.claims]
    traces = [dataclasses.replace(t, title=s(t.title)) for t in logbook.traces]
    files = [_file(f, blinder) for f in logbook.workspace_files]
    problems = [Problem(s(p.file), p.line, s(p.message)) for p in logbook.problems]
    return dataclasses.replace(
        logbook,
        title=s(logbook.title),
        paper_title=s(logbook.paper_title) if logbook.paper_title else logbook.paper_title,
        tags=[s(t) for t in logbook.tags],
        metadata=_scrub_tree(logbook.metadata, blinder),
        manifest=_scrub_tree(logbook.manifest, blinder) if logbook.manifest is not None else None,
        pages=pages,
        claims=claims,
        traces=traces,
        workspace_files=files,
        problems=problems,
        explicit_id=logbook.logbook_id,  # records stay keyed by the real id; the id itself is never shown blind
    )


def blind_event(event: TraceEvent, blinder: Blinder) -> TraceEvent:
    s = blinder.scrub
    return dataclasses.replace(
        event,
        title=s(event.title),
        text=s(event.text),
        input=s(event.input) if event.input else event.input,
        output=s(event.output) if event.output else event.output,
    )


def _page(page: Page, blinder: Blinder) -> Page:
    s = blinder.scrub
    return dataclasses.replace(
        page,
        title=s(page.title),
        preamble=s(page.preamble),
        h1_title=s(page.h1_title) if page.h1_title else page.h1_title,
        cells=[_cell(c, blinder) for c in page.cells],
    )


def _cell(cell: Cell, blinder: Blinder) -> Cell:
    s = blinder.scrub
    return dataclasses.replace(
        cell,
        title=s(cell.title),
        body=s(cell.body),
        header=_scrub_tree(cell.header, blinder),
        header_raw=s(cell.header_raw) if cell.header_raw else cell.header_raw,
    )


def _claim(claim: Claim, blinder: Blinder) -> Claim:
    return dataclasses.replace(
        claim,
        title=blinder.scrub(claim.title),
        verdict_mention=_mention(claim.verdict_mention, blinder),
        other_mentions=[m for m in (_mention(m, blinder) for m in claim.other_mentions) if m is not None],
        candidates=[m for m in (_mention(m, blinder) for m in claim.candidates) if m is not None],
        considered=[m for m in (_mention(m, blinder) for m in claim.considered) if m is not None],
    )


def _mention(mention: VerdictMention | None, blinder: Blinder) -> VerdictMention | None:
    return None if mention is None else dataclasses.replace(mention, text=blinder.scrub(mention.text))


def _file(entry: WorkspaceFile, blinder: Blinder) -> WorkspaceFile:
    s = blinder.scrub
    return dataclasses.replace(
        entry, path=s(entry.path), name=s(entry.name), bucket_url=s(entry.bucket_url) if entry.bucket_url else None
    )


def _scrub_tree(value: Any, blinder: Blinder, key: str = "") -> Any:
    if isinstance(value, str):
        return value if key in _LOOKUP_KEYS else blinder.scrub(value)
    if isinstance(value, dict):
        return {k: _scrub_tree(v, blinder, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub_tree(v, blinder, key) for v in value]
    return value
