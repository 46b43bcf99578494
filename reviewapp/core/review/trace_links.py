"""Trace evidence in the review records: attached transcripts and excerpts pinned to claims.

An attachment is a `transcript_link` record: the transcript itself is copied by sha256 into the user data
folder (it may hold secrets) and the record names that sha256, the session and the format. A pinned excerpt
is a `trace_excerpt` record on a claim, addressed by the trace file's sha256 and its own record positions
(transcript lines, or Trackio's sequence numbers), so it stays meaningful whatever our numbering becomes. The
events it quotes are capped and have their secrets masked before they go into the record.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reviewapp.core.review.commands import CommandKind, execute
from reviewapp.core.review.history import RecordDraft
from reviewapp.core.review.logbook_review import AnnotationError, LogbookReview
from reviewapp.core.review.records import (
    ExcerptEvent,
    RecordBase,
    Target,
    TraceAnchor,
    TraceExcerptPayload,
    TraceExcerptRecord,
    TranscriptLinkPayload,
    TranscriptLinkRecord,
)
from reviewapp.core.review.secret_scan import mask_secrets
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.trace.index import JsonlTrace, TraceIndex, TrackioTrace, open_transcript
from reviewapp.core.trace.sessions import TranscriptLink
from reviewapp.core.trace.transcripts import StoredTranscript, TranscriptError, store_transcript, stored_path

MAX_QUOTED = 200
QUOTE_CHARS = 2_000


@dataclass(frozen=True)
class Attachment:
    record: TranscriptLinkRecord
    stored: StoredTranscript
    index: JsonlTrace
    fills_listed: bool
    already_linked: bool


def transcript_links(state: AnnotationState) -> list[TranscriptLink]:
    """The transcripts attached to this logbook, oldest first, by anyone."""
    links = []
    for record in state.live():
        if isinstance(record, TranscriptLinkRecord):
            payload = record.payload
            links.append(
                TranscriptLink(
                    payload.session, payload.sha256, stored_path(payload.sha256), payload.format, payload.file_name
                )
            )
    return links


def attach_transcript(review: LogbookReview, file: Path, session_id: str | None = None) -> Attachment:
    """Copy the transcript into the data folder and link it to the logbook (and a session) with one record.

    Raises TranscriptError (unreadable file), AnnotationError or StoreError (the record cannot be saved).
    """
    index, stored = prepare_transcript(file)
    return link_transcript(review, file.name, index, stored, session_id)


def prepare_transcript(file: Path) -> tuple[JsonlTrace, StoredTranscript]:
    """The slow half of attaching (read every line, copy the file), safe to run in a worker."""
    index = open_transcript(file)
    index.build()
    if index.readable == 0:  # random bytes or another kind of file: refused rather than shown as junk events
        first = f" ({index.problems[0].message})" if index.problems else ""
        raise TranscriptError(f"{file}: no event could be read from it{first}; not a transcript, not attached")
    return index, store_transcript(file)


def link_transcript(
    review: LogbookReview, file_name: str, index: JsonlTrace, stored: StoredTranscript, session_id: str | None
) -> Attachment:
    """The record half of attaching: name the stored copy, its format and its session."""
    sid = session_id or _listed_session(review, index, file_name)
    listed = review.logbook.trace(sid)
    fills = listed is not None and not (listed.available and listed.chunks)
    for record in review.state.live():
        if (
            isinstance(record, TranscriptLinkRecord)
            and record.payload.sha256 == stored.sha256
            and record.payload.session == sid
        ):
            return Attachment(record, stored, index, fills, True)
    payload = TranscriptLinkPayload(
        sha256=stored.sha256,
        file_name=file_name[:200] or "transcript",
        format=index.format,
        session=sid[:200],
        fills_listed=fills,
        size=stored.size,
        events=index.readable,
    )
    draft = RecordDraft("transcript_link", Target(claim=None, page=None), payload)
    record = _execute(review, f"attachment of {file_name}", draft, CommandKind.LINK_TRANSCRIPT)
    assert isinstance(record, TranscriptLinkRecord)
    return Attachment(record, stored, index, fills, False)


def _listed_session(review: LogbookReview, index: JsonlTrace, file_name: str) -> str:
    """The session a transcript is of: the one its own id names, else the one its file name names (Trackio
    names a session after its file when the format carries no id) when the manifest lists it without its
    files; else its own id, else its file name."""
    candidates = [c for c in (index.facts.session_id, Path(file_name).stem) if c]
    for candidate in candidates:
        listed = review.logbook.trace(candidate)
        if listed is not None and not (listed.available and listed.chunks):
            return candidate
    return candidates[0] if candidates else "transcript"


def excerpt_address(index: TraceIndex, position: int) -> tuple[int, int]:
    """(record, part) of an event: its line and place on that line, or Trackio's sequence number and 0."""
    if isinstance(index, TrackioTrace):
        return index.sequence(position), 0
    record = index.record_of(position)
    first = position
    while first > 0 and index.record_of(first - 1) == record:
        first -= 1
    return record, position - first


def pin_excerpt(
    review: LogbookReview,
    claim_ref: str | int,
    trace_session: str,
    index: TraceIndex,
    first: int,
    last: int,
    note: str = "",
) -> TraceExcerptRecord:
    """Pin events first..last (positions in `index`) to a claim; undoable like every annotation."""
    if not index.sha256:
        raise AnnotationError("the trace is still being read; pin once it is indexed")
    if not 0 <= first <= last < index.count:
        raise AnnotationError(f"no events {first + 1}–{last + 1} in this trace ({index.count} events)")
    claim = review.claim(claim_ref)
    first_record, first_part = excerpt_address(index, first)
    last_record, last_part = excerpt_address(index, last)
    quoted = []
    for event in index.events(first, min(last, first + MAX_QUOTED - 1)):
        body = event.text or event.input or event.output or event.status or ""
        quoted.append(
            ExcerptEvent(
                record=event.record,
                kind=event.kind,
                title=mask_secrets(event.title)[:500],
                text=mask_secrets(body[: QUOTE_CHARS * 2])[:QUOTE_CHARS],
            )
        )
    payload = TraceExcerptPayload(
        session=trace_session[:200],
        trace_sha256=index.sha256,
        source="trackio" if isinstance(index, TrackioTrace) else "transcript",
        first_record=first_record,
        first_part=first_part,
        last_record=last_record,
        last_part=last_part,
        events=quoted,
        note=mask_secrets(note),
    )
    target = Target(
        claim=claim.key,
        page=claim.page,
        trace=TraceAnchor(session=trace_session, sequence=index.sequence(first)),
    )
    draft = RecordDraft("trace_excerpt", target, payload)
    record = _execute(review, f"excerpt pinned to {claim.title[:60]}", draft, CommandKind.PIN_EXCERPT)
    assert isinstance(record, TraceExcerptRecord)
    return record


def pinned_excerpts(state: AnnotationState, claim_key: str | None = None) -> list[TraceExcerptRecord]:
    return [
        r
        for r in state.live()
        if isinstance(r, TraceExcerptRecord) and (claim_key is None or r.target.claim == claim_key)
    ]


def excerpt_label(record: TraceExcerptRecord) -> str:
    """One line naming an excerpt: where it is in which file, and the reviewer's note."""
    p = record.payload
    unit = "sequence" if p.source == "trackio" else "line"
    span = (
        f"{unit} {p.first_record}" if p.first_record == p.last_record else f"{unit}s {p.first_record}–{p.last_record}"
    )
    text = f"{p.session} {span} (sha256 {p.trace_sha256[:12]}…, {len(p.events)} events)"
    return f"{text}: {p.note}" if p.note else text


def locate_excerpt(index: TraceIndex, record: TraceExcerptRecord) -> tuple[int, int] | None:
    """Positions of a pinned excerpt in an index of the same file, or None when the file is not the pinned one."""
    p = record.payload
    if index.sha256 != p.trace_sha256:
        return None
    if isinstance(index, TrackioTrace):
        first, last = index.position_of_sequence(p.first_record), index.position_of_sequence(p.last_record)
    elif isinstance(index, JsonlTrace):
        first = index.line_first[p.first_record - 1] + p.first_part if p.first_record >= 1 else -1
        last = index.line_first[p.last_record - 1] + p.last_part if p.last_record >= 1 else -1
    else:
        return None
    if first < 0 or last < first or last >= index.count:
        return None
    return first, last


def _execute(review: LogbookReview, label: str, draft: RecordDraft, kind: CommandKind) -> RecordBase:
    produced = execute(review, kind, label, None, draft).record
    if produced is None:
        raise AnnotationError(f"the {draft.kind} record was not saved")
    return produced
