"""Annotation records: what reviewers recorded, one JSON object per line of `reviews/<annotator>.jsonl`.

Records are a pydantic discriminated union on `kind`, each with a top-level `schema` integer. Every model
allows extra fields, so a line written by a newer version keeps what this one does not know; a kind this
version does not know, written by a newer schema, loads as an UnknownRecord instead of failing.

Adding a kind is local: define its payload and a record class with `kind: Literal["..."]`, append the class
to RECORD_TYPES, handle it in annotation_state only if it changes what replay derives, and bump SCHEMA_VERSION
once per release that adds kinds or fields: older readers then keep the new lines as unknown instead of
reporting them invalid, and reviews/SCHEMA.json (never rewritten for the same version) is replaced. A change
that reshapes existing lines also adds an entry to _UPGRADES turning a line of the previous version into the
new shape; versions without an entry need none.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    model_validator,
)

from reviewapp.core.review.roles import Role
from reviewapp.core.review.tags import normalize_tag
from reviewapp.core.verdicts import HUMAN_VERDICTS, Verdict

SCHEMA_VERSION = 3


MAX_TEXT = 20_000
MAX_LINE_BYTES = 1024 * 1024  # a longer line is reported as invalid rather than parsed


class RecordError(ValueError):
    """A line that is not a valid record; the message names the field and the problem."""


def _non_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("must not be empty")
    return text


def _human_verdict(value: Verdict) -> Verdict:
    if value not in HUMAN_VERDICTS:
        raise ValueError(f"a reviewer's verdict is one of {', '.join(HUMAN_VERDICTS)}")
    return value


Text = Annotated[str, StringConstraints(max_length=MAX_TEXT), AfterValidator(_non_blank)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_non_blank)]
Key = Annotated[str, StringConstraints(min_length=1, max_length=500)]
RecordId = Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z_-]{8,64}$")]
Tag = Annotated[str, AfterValidator(normalize_tag)]
HumanVerdict = Annotated[
    Verdict,
    AfterValidator(_human_verdict),
    WithJsonSchema({"type": "string", "enum": [v.value for v in HUMAN_VERDICTS]}),
]
Confidence = Annotated[int, Field(ge=1, le=3)]


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="allow", frozen=True, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )


# -- targets: what a record is about -------------------------------------------------------------------------


class CellAnchor(_Model):
    ordinal: int = Field(ge=0, description="0-based position of the cell on its page")
    id: str | None = Field(None, description="the cell header's id, when it has one (not unique in the wild)")
    content_hash: str = Field(description="Cell.content_hash of the body the reviewer saw")


class LineRange(_Model):
    first: int = Field(ge=1, description="1-based first line of the cell's output")
    last: int = Field(ge=1, description="1-based last line, inclusive")

    @model_validator(mode="after")
    def _ordered(self) -> LineRange:
        if self.last < self.first:
            raise ValueError("last line comes before first line")
        return self


class TraceAnchor(_Model):
    session: str = Field(min_length=1, description="trace session id")
    sequence: int = Field(ge=0, description="event sequence number in the session")


class FigureAnchor(_Model):
    index: int = Field(0, ge=0, description="which image of the figure cell, 0 for the first")
    file: str | None = Field(None, description="a workspace file shown as the figure, instead of a cell")


class Target(_Model):
    """Coarse to fine: a claim, a page, a cell, lines of its output, a figure, a trace event. None is the logbook."""

    claim: Key | None = Field(None, description="claim key, as `reviewapp inspect` lists it")
    page: str | None = Field(None, description="page slug")
    cell: CellAnchor | None = None
    lines: LineRange | None = None
    figure: FigureAnchor | None = None
    trace: TraceAnchor | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Target:
        if self.cell is not None and self.page is None:
            raise ValueError("a cell target needs the page it is on")
        if self.lines is not None and self.cell is None:
            raise ValueError("a line range needs the cell whose output it is in")
        if self.figure is not None and self.cell is None and self.figure.file is None:
            raise ValueError("a figure target needs its cell or its file")
        return self

    @property
    def anchor(self) -> str:
        """The finest thing this target names."""
        for name in ("trace", "lines", "figure", "cell", "claim", "page"):
            if getattr(self, name) is not None:
                return name
        return "logbook"


class Revision(_Model):
    """What the reviewer looked at: the logbook's commit when known, and the bytes of the target page."""

    git_head: str | None = None
    space_sha: str | None = None
    page_sha256: str | None = None


# -- payloads -------------------------------------------------------------------------------------------------


class VerdictPayload(_Model):
    verdict: HumanVerdict
    rationale: Text
    confidence: Confidence | None = Field(None, description="1 (unsure) to 3 (certain)")
    tags: list[Tag] = Field(default_factory=list)
    blind: bool | None = Field(
        None, description="true: given in blind review (the participant and other reviewers hidden); absent: not blind"
    )


class NotePayload(_Model):
    text: str = Field("", max_length=MAX_TEXT)
    tags: list[Tag] = Field(default_factory=list)

    @model_validator(mode="after")
    def _something(self) -> NotePayload:
        if not self.text.strip() and not self.tags:
            raise ValueError("a note needs text or at least one tag")
        return self


class AgentVerdictPayload(_Model):
    """The agent's verdict as it should have been read (the reader got it wrong)."""

    verdict: Verdict
    rationale: Text


class ClaimPart(_Model):
    key: Key
    title: Name
    n: int | None = None
    cells: list[int] = Field(default_factory=list, description="ordinals of evidence cells on the claim's page")
    agent_verdict: Verdict = Verdict.UNSTATED


class ClaimAddPayload(ClaimPart):
    rationale: Text


class ClaimSplitPayload(_Model):
    parts: list[ClaimPart] = Field(min_length=2)
    rationale: Text


class ClaimMergePayload(ClaimPart):
    claims: list[Key] = Field(min_length=2, description="keys of the merged claims; the target names the first")
    rationale: Text


class LogbookJudgeMatchPayload(_Model):
    """A reviewer's re-match of one Logbook Judge claim (by registry position) to a logbook claim, or to none."""

    space_id: Name = Field(description="the Space the Logbook Judge entry judged (owner/name)")
    registry_index: int = Field(ge=1, description="1-based position of the claim in the challenge's claim registry")
    claim: Key | None = Field(None, description="the logbook claim it is about; null: about no claim of this logbook")


class RetractionPayload(_Model):
    reason: str | None = Field(None, max_length=MAX_TEXT)


class PairControlsPayload(_Model):
    rate: float = Field(ge=0, le=0.5, description="control trials per main trial")
    identical: bool = Field(description="identical-image pairs are mixed in")
    repeats: bool = Field(description="trials are repeated later with sides swapped")
    min_gap: int = Field(ge=0, le=100, description="trials between a pair and its repeat")


class PairSessionPayload(_Model):
    """The start of a blinded pair-rating session: everything needed to recompute and check its trials."""

    set: Name = Field(description="pair set name; results go to reviews/pairs/<set>-<annotator>.csv")
    source: str = Field("", max_length=2000, description="the manifest or folders the set came from")
    fingerprint: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 over pair ids and image hashes")
    question: Text
    instructions: str = Field("", max_length=MAX_TEXT)
    conditions: list[Name] = Field(min_length=2, max_length=2, description="names of conditions a and b")
    pairs: list[Key] = Field(min_length=1, description="rateable pair ids in manifest order (shuffled by the seed)")
    seed: int = Field(ge=0, lt=2**63)
    algorithm: str = Field(min_length=1, max_length=100)
    controls: PairControlsPayload
    trial_order: list[Key] = Field(min_length=1, description="pair id of each trial, in the order shown")
    sides: list[Literal["a", "b"]] = Field(description="condition shown on the left in each trial")
    control_kinds: list[Literal["", "repeat", "identical"]] = Field(description="control kind of each trial")
    app_version: str = Field(min_length=1, max_length=100)

    @model_validator(mode="after")
    def _aligned(self) -> PairSessionPayload:
        if not len(self.trial_order) == len(self.sides) == len(self.control_kinds):
            raise ValueError("trial_order, sides and control_kinds must have one entry per trial")
        return self


class PairRatingPayload(_Model):
    """One rated trial of a pair-rating session; undo retracts it."""

    session: RecordId = Field(description="id of the pair_session record")
    set: Name
    trial: int = Field(ge=0, description="0-based position of the trial in the session")
    pair: Key
    left: Literal["a", "b"] = Field(description="condition shown on the left")
    right: Literal["a", "b"]
    control: Literal["", "repeat", "identical"] = ""
    response: Literal["left", "right", "same", "skipped"] = Field(
        description="what the rater answered, as shown; skipped only when an image could not be shown"
    )
    left_unusable: bool = False
    right_unusable: bool = False
    confidence: Confidence | None = Field(None, description="1 (unsure) to 3 (certain)")
    comment: str | None = Field(None, max_length=MAX_TEXT)
    response_ms: int = Field(ge=0, description="from the pair being fully shown to the answer")


class CriterionScore(_Model):
    name: Name = Field(description="the criterion's name in the rubric")
    value: float = Field(description="the score on the rubric's scale")
    weight: float = Field(1.0, gt=0, description="the criterion's weight in the overall score")
    comment: str | None = Field(None, max_length=MAX_TEXT)


class RubricScorePayload(_Model):
    """One judge's rubric score for a whole logbook (the target is the logbook)."""

    rubric: Name = Field(description="the rubric's name")
    rubric_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="sha256 of the rubric's canonical JSON")
    scale: tuple[float, float] = Field(description="lowest and highest value a criterion can take")
    criteria: list[CriterionScore] = Field(min_length=1)
    overall: float = Field(description="weighted mean of the criteria, on the same scale")
    comment: str | None = Field(None, max_length=MAX_TEXT)
    blind: bool = Field(False, description="scored in blind mode: the participant's identity was hidden")

    @model_validator(mode="after")
    def _on_scale(self) -> RubricScorePayload:
        low, high = self.scale
        if low >= high:
            raise ValueError("scale: the lowest value must be below the highest")
        for score in (*(c.value for c in self.criteria), self.overall):
            if not low <= score <= high:
                raise ValueError(f"score {score:g} is outside the scale {low:g}-{high:g}")
        if len({c.name for c in self.criteria}) != len(self.criteria):
            raise ValueError("criteria: each criterion is scored once")
        return self


class FlagPayload(_Model):
    """A flag on a logbook raised (or cleared) by any judge: something needs a second look."""

    raised: bool = Field(description="true raises the flag, false clears it")
    reason: str | None = Field(None, max_length=MAX_TEXT)

    @model_validator(mode="after")
    def _reason(self) -> FlagPayload:
        if self.raised and not (self.reason or "").strip():
            raise ValueError("reason: raising a flag needs a reason")
        return self


class TranscriptLinkPayload(_Model):
    """An agent transcript attached to the logbook: copied by sha256 into the user data folder, never committed."""

    sha256: str = Field(
        pattern=r"^[0-9a-f]{64}$", description="of the transcript file, its name in <data>/transcripts/"
    )
    file_name: Name = Field(description="the file's name when it was attached")
    format: Name = Field(description="Claude Code, Codex, Codex (legacy), Pi, Session Trace Simple, opencode, ...")
    session: Name = Field(description="the agent session it is: a session the manifest lists, or a new one")
    fills_listed: bool = Field(description="True when it supplies a listed session whose trace files are absent")
    size: int = Field(ge=0, description="bytes")
    events: int = Field(ge=0)


class ExcerptEvent(_Model):
    """One event of a pinned excerpt as it was shown, secrets masked, so exports read without the trace."""

    record: int = Field(ge=0, description="line of the transcript, or Trackio's sequence number")
    kind: Name
    title: str = Field("", max_length=500)
    text: str = Field("", max_length=2_000)


class TraceExcerptPayload(_Model):
    """A range of trace events pinned to a claim as evidence, addressed by the trace file and its own records."""

    session: Name
    trace_sha256: str = Field(
        pattern=r"^[0-9a-f]{64}$", description="the transcript file's sha256, or of Trackio's session index.json"
    )
    source: Literal["transcript", "trackio"] = Field(description="raw JSONL lines, or Trackio's normalized events")
    first_record: int = Field(ge=0, description="line (transcript) or sequence number (Trackio) of the first event")
    first_part: int = Field(0, ge=0, description="which event of that record, when one line holds several")
    last_record: int = Field(ge=0)
    last_part: int = Field(0, ge=0)
    events: list[ExcerptEvent] = Field(default_factory=list, max_length=200)
    note: str = Field("", max_length=MAX_TEXT)

    @model_validator(mode="after")
    def _ordered(self) -> TraceExcerptPayload:
        if (self.last_record, self.last_part) < (self.first_record, self.first_part):
            raise ValueError("the excerpt ends before it starts")
        return self


class EvidenceLink(_Model):
    """Where an author points as evidence: a logbook's cell, figure or trace event, or an outside URL (shown as
    text, never opened by the app)."""

    logbook: str | None = Field(None, max_length=2000, description="logbook id the link points into")
    page: str | None = Field(None, max_length=500)
    cell: int | None = Field(None, ge=0, description="0-based cell ordinal on the page")
    figure: int | None = Field(None, ge=0, description="which image of the figure cell")
    trace: TraceAnchor | None = None
    url: str | None = Field(None, max_length=2000, description="an outside address, shown as text")

    @model_validator(mode="after")
    def _somewhere(self) -> EvidenceLink:
        if self.url is None and self.logbook is None:
            raise ValueError("an evidence link names a logbook (with a page, cell, figure or trace) or a URL")
        if self.cell is not None and self.page is None:
            raise ValueError("a cell link needs its page")
        return self


class AuthorResponsePayload(_Model):
    """A paper author's answer to one finding of the paper view; shown beside it, never deciding a class."""

    paper: Key = Field(description="the paper's OpenReview id")
    response: Literal["agree", "disagree", "partly"]
    comment: str = Field("", max_length=MAX_TEXT)
    evidence: list[EvidenceLink] = Field(default_factory=list)


class ClaimAlignmentPayload(_Model):
    """A hand correction of which paper claim (row of the paper view) a logbook's claim is about."""

    paper: Key = Field(description="the paper's OpenReview id")
    logbook: str = Field(min_length=1, max_length=2000, description="logbook id of the claim's logbook")
    row: Key | None = Field(None, description="the paper claim's id (`registry:3`, `aligned:2`); none: its own row")


class AdjudicatedVerdictPayload(_Model):
    """An adjudicator's verdict on a claim where people disagree, naming the verdict records it settles."""

    verdict: HumanVerdict
    rationale: Text
    settles: list[RecordId] = Field(min_length=1, description="ids of the people's verdict records it settles")
    blind: bool = Field(False, description="made in blind mode: the reviewers' names were hidden until this decision")


class DecisionEntry(_Model):
    """One candidate (logbook) of a queue's final ranking, as decided."""

    rank: int = Field(ge=1)
    logbook: str = Field(min_length=1, max_length=2000, description="the queue entry's source")
    title: str = Field("", max_length=2000)
    score: float = Field(description="mean normalized rubric score over the judges who scored it")
    tied: bool = False
    judges: dict[str, float] = Field(default_factory=dict, description="judge -> their overall rubric score")
    normalized: dict[str, float] = Field(default_factory=dict, description="judge -> normalized score")
    verdicts: dict[str, int] = Field(default_factory=dict, description="people's verdict per claim, counted")
    marks: list[str] = Field(default_factory=list, description="flags and adjudicated falsified headline claims")


class DecisionPayload(_Model):
    """The recorded final ranking of a queue (`reviewapp decide`)."""

    queue: Name = Field(description="the queue file's name")
    method: Literal["z", "rank"]
    normalization: Text = Field(description="how each judge's scores were normalized, in words")
    rubric_sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$")
    ranking: list[DecisionEntry] = Field(default_factory=list)
    ties: list[list[str]] = Field(default_factory=list, description="groups of logbooks sharing a rank")
    notes: list[str] = Field(default_factory=list)


# -- records --------------------------------------------------------------------------------------------------


class RecordSignature(_Model):
    """Who vouches for a record: an Ed25519 signature over its canonical JSON (`core/review/signing.py`)."""

    key: str = Field(max_length=200, description="the signer's public key, `ed25519:<base64>`")
    value: str = Field(max_length=200, description="base64 signature over the record without this field")


class RecordBase(_Model):
    schema_version: int = Field(alias="schema", ge=1, description="annotation schema version of this line")
    id: RecordId
    kind: str
    annotator: Name = Field(description="display name; the file name holds a slug of it")
    role: Role
    created_at: AwareDatetime
    revision: Revision = Field(default_factory=Revision)
    supersedes: RecordId | None = Field(None, description="id of the record this one replaces (edit, undo, delete)")
    target: Target
    payload: _Model
    signature: RecordSignature | None = Field(None, description="the reviewer's signature; absent: unsigned")


def _needs_claim(record: RecordBase) -> None:
    if record.target.claim is None:
        raise ValueError(f"a {record.kind} record needs target.claim")


class VerdictRecord(RecordBase):
    """The reviewer's verdict on a claim; shown beside, never instead of, the agent's and the Logbook Judge's."""

    kind: Literal["verdict"]
    payload: VerdictPayload

    @model_validator(mode="after")
    def _claim(self) -> VerdictRecord:
        _needs_claim(self)
        return self


class NoteRecord(RecordBase):
    kind: Literal["note"]
    payload: NotePayload


class AgentVerdictRecord(RecordBase):
    """Corrects the agent verdict the reader extracted for a claim."""

    kind: Literal["agent_verdict"]
    payload: AgentVerdictPayload

    @model_validator(mode="after")
    def _claim(self) -> AgentVerdictRecord:
        _needs_claim(self)
        return self


class ClaimAddRecord(RecordBase):
    """A claim the reader missed; target.page is where it is made."""

    kind: Literal["claim_add"]
    payload: ClaimAddPayload

    @model_validator(mode="after")
    def _page(self) -> ClaimAddRecord:
        if self.target.page is None:
            raise ValueError("a claim_add record needs target.page")
        return self


class ClaimSplitRecord(RecordBase):
    """One claim that is really several; target.claim is replaced by the parts."""

    kind: Literal["claim_split"]
    payload: ClaimSplitPayload

    @model_validator(mode="after")
    def _claim(self) -> ClaimSplitRecord:
        _needs_claim(self)
        return self


class ClaimMergeRecord(RecordBase):
    """Several claims that are really one; they are replaced by the merged claim at the first one's place."""

    kind: Literal["claim_merge"]
    payload: ClaimMergePayload

    @model_validator(mode="after")
    def _first(self) -> ClaimMergeRecord:
        if self.target.claim != self.payload.claims[0]:
            raise ValueError("target.claim must be the first of payload.claims")
        return self


class LogbookJudgeMatchRecord(RecordBase):
    """Which logbook claim a Logbook Judge claim is about, set by hand; beats the automatic match."""

    kind: Literal["logbook_judge_match"]
    payload: LogbookJudgeMatchPayload


class RetractionRecord(RecordBase):
    """Deletes (or undoes) the record it supersedes; the history stays in the file."""

    kind: Literal["retraction"]
    payload: RetractionPayload = Field(default_factory=RetractionPayload)

    @model_validator(mode="after")
    def _supersedes(self) -> RetractionRecord:
        if self.supersedes is None:
            raise ValueError("a retraction must name the record it retracts in `supersedes`")
        return self


class PairSessionRecord(RecordBase):
    """A rater started (or restarted) a pair set; the protocol it records is what their ratings follow."""

    kind: Literal["pair_session"]
    payload: PairSessionPayload


class PairRatingRecord(RecordBase):
    kind: Literal["pair_rating"]
    payload: PairRatingPayload


class RubricScoreRecord(RecordBase):
    kind: Literal["rubric_score"]
    payload: RubricScorePayload


class FlagRecord(RecordBase):
    kind: Literal["flag"]
    payload: FlagPayload


class TranscriptLinkRecord(RecordBase):
    """Links an attached transcript (by sha256) to this logbook and one of its agent sessions."""

    kind: Literal["transcript_link"]
    payload: TranscriptLinkPayload


class TraceExcerptRecord(RecordBase):
    """Trace events pinned to a claim as evidence; target.trace names the session and first sequence shown."""

    kind: Literal["trace_excerpt"]
    payload: TraceExcerptPayload

    @model_validator(mode="after")
    def _claim(self) -> TraceExcerptRecord:
        _needs_claim(self)
        return self


class AuthorResponseRecord(RecordBase):
    """target.claim is the paper claim's id (`registry:3` or `aligned:2`)."""

    kind: Literal["author_response"]
    payload: AuthorResponsePayload

    @model_validator(mode="after")
    def _claim(self) -> AuthorResponseRecord:
        _needs_claim(self)
        return self


class ClaimAlignmentRecord(RecordBase):
    """target.claim is the logbook claim's key."""

    kind: Literal["claim_alignment"]
    payload: ClaimAlignmentPayload

    @model_validator(mode="after")
    def _claim(self) -> ClaimAlignmentRecord:
        _needs_claim(self)
        return self


class AdjudicatedVerdictRecord(RecordBase):
    """Settles a disagreement between people on `target.claim`; only an adjudicator records one."""

    kind: Literal["adjudicated_verdict"]
    payload: AdjudicatedVerdictPayload

    @model_validator(mode="after")
    def _claim(self) -> AdjudicatedVerdictRecord:
        _needs_claim(self)
        if self.role != "adjudicator":
            raise ValueError("role: an adjudicated verdict is recorded by an adjudicator")
        return self


class DecisionRecord(RecordBase):
    """A queue's final ranking; kept in the queue's folder (`decisions/<annotator>.jsonl`), not in a logbook."""

    kind: Literal["decision"]
    payload: DecisionPayload


class UnknownRecord(RecordBase):
    """A kind written by a newer schema version: kept, shown as such, ignored by replay."""

    payload: dict[str, Any] = Field(default_factory=dict)  # type: ignore[assignment]


RECORD_TYPES: tuple[type[RecordBase], ...] = (
    VerdictRecord,
    NoteRecord,
    AgentVerdictRecord,
    ClaimAddRecord,
    ClaimSplitRecord,
    ClaimMergeRecord,
    RetractionRecord,
    PairSessionRecord,
    PairRatingRecord,
    RubricScoreRecord,
    FlagRecord,
    LogbookJudgeMatchRecord,
    TranscriptLinkRecord,
    TraceExcerptRecord,
    AuthorResponseRecord,
    ClaimAlignmentRecord,
    AdjudicatedVerdictRecord,
    DecisionRecord,
)
RECORD_KINDS: dict[str, type[RecordBase]] = {
    get_args(cls.model_fields["kind"].annotation)[0]: cls for cls in RECORD_TYPES
}


def _payload_type(record_class: type[RecordBase]) -> type[_Model]:
    annotation = record_class.model_fields["payload"].annotation
    if not (isinstance(annotation, type) and issubclass(annotation, _Model)):
        raise TypeError(f"{record_class.__name__}.payload must be one payload model, not {annotation!r}")
    return annotation


PAYLOAD_TYPES: dict[str, type[_Model]] = {kind: _payload_type(cls) for kind, cls in RECORD_KINDS.items()}

AnnotationRecord = Annotated[Union[RECORD_TYPES], Field(discriminator="kind")]  # type: ignore[valid-type]  # noqa: UP007
Record = RecordBase  # what functions accept and return: any record class above
RECORD_ADAPTER: TypeAdapter[RecordBase] = TypeAdapter(AnnotationRecord)

# version -> function turning a line of that version into the next version's shape
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


# -- ids, parsing, serializing --------------------------------------------------------------------------------

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_record_id() -> str:
    """26 characters, sortable by creation time (48-bit milliseconds) with 80 random bits: unique across writers."""
    value = (int(time.time() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
    chars = []
    for _ in range(26):
        chars.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def parse_record(data: Any) -> RecordBase:
    """Validate one decoded JSON line; raise RecordError with a one-line reason."""
    if not isinstance(data, dict):
        raise RecordError(f"expected a JSON object, got {type(data).__name__}")
    version = data.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RecordError("missing or invalid 'schema' (a positive integer)")
    for step in range(version, SCHEMA_VERSION):
        upgrade = _UPGRADES.get(step)
        if upgrade is not None:
            data = upgrade(data)
    try:
        if data.get("kind") not in RECORD_KINDS and version > SCHEMA_VERSION:
            return UnknownRecord.model_validate(data)
        return RECORD_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise RecordError(describe_errors(exc)) from None


def parse_line(line: bytes | str) -> RecordBase:
    """Decode and validate one line of an annotation file; raise RecordError."""
    if len(line) > MAX_LINE_BYTES:
        raise RecordError(f"line is longer than {MAX_LINE_BYTES:,} bytes")
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    return parse_record(data)


def record_line(record: RecordBase) -> bytes:
    """The record as one line of UTF-8 JSON with its newline, ready to append."""
    return record.model_dump_json(exclude_none=True).encode("utf-8") + b"\n"


def describe_errors(exc: ValidationError, limit: int = 3) -> str:
    parts = []
    for error in exc.errors()[:limit]:
        loc = list(error["loc"])
        if loc and loc[0] in RECORD_KINDS:  # the union's tag, not a field
            loc = loc[1:]
        where = ".".join(str(p) for p in loc)
        parts.append(f"{where}: {error['msg']}" if where else error["msg"])
    more = len(exc.errors()) - limit
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def make_record(
    kind: str,
    *,
    annotator: str,
    role: str,
    target: Target,
    payload: BaseModel | dict[str, Any],
    revision: Revision | None = None,
    supersedes: str | None = None,
    created_at: datetime | None = None,
    record_id: str | None = None,
) -> RecordBase:
    """Build and validate a new record of the current schema version; raise RecordError."""
    if kind not in RECORD_KINDS:
        raise RecordError(f"unknown record kind {kind!r}")
    data = {
        "schema": SCHEMA_VERSION,
        "id": record_id or new_record_id(),
        "kind": kind,
        "annotator": annotator,
        "role": role,
        "created_at": created_at or datetime.now(UTC),
        "revision": revision or Revision(),
        "supersedes": supersedes,
        "target": target,
        "payload": payload.model_dump() if isinstance(payload, BaseModel) else payload,
    }
    try:
        return RECORD_KINDS[kind].model_validate(data)
    except ValidationError as exc:
        raise RecordError(describe_errors(exc)) from None


def json_schema() -> dict[str, Any]:
    """JSON Schema of one line, the same for the same SCHEMA_VERSION and code, so two writers never differ."""
    body = RECORD_ADAPTER.json_schema(by_alias=True, mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "reviewapp annotation record",
        "description": (
            "One line of reviews/<annotator>.jsonl. Lines are appended, never rewritten; a record that "
            "supersedes another replaces it, a retraction deletes it. Current state is the replay of all lines."
        ),
        "x-schema-version": SCHEMA_VERSION,
        **body,
    }


def json_schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
