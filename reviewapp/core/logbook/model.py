"""Typed, read-only view of a Trackio logbook as the reader found it.

Plain slotted dataclasses rather than pydantic models: a large logbook has thousands of cells whose bodies are
already-validated substrings, and revalidating them would double load time for no safety gain. Pydantic is used
where data crosses a trust boundary the other way (annotation records, pair protocols, preferences).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from reviewapp.core.logbook.logbook_id import LogbookId, logbook_id_for
from reviewapp.core.verdicts import Verdict


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with the input, reported beside what did load."""

    file: str  # relative to the logbook root; workspace files are prefixed with "../"
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


class CellKind(StrEnum):
    MARKDOWN = "markdown"
    CODE = "code"
    FIGURE = "figure"
    ARTIFACT = "artifact"
    DASHBOARD = "dashboard"
    GENERIC = "generic"  # a type this reader does not know; shown as text


@dataclass(slots=True)
class Cell:
    page: str  # slug of the page holding the cell
    ordinal: int  # 0-based position on the page
    kind: CellKind
    type_name: str  # the header's `type` as written ("markdown" when absent)
    id: str | None  # the header's id; not unique in the wild, never use it alone as a key
    title: str
    header: dict[str, Any]
    body: str
    line: int  # 1-based line of the `---` that opens the cell in the page file
    body_line: int  # 1-based line where the body text starts
    header_raw: str | None = None  # kept when the header JSON did not parse

    @property
    def key(self) -> str:
        """Position-based key, stable as long as the page's cell order does not change."""
        return f"{self.page}/{self.ordinal}"

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.body.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    @property
    def line_count(self) -> int:
        return self.body.count("\n") + 1 if self.body else 0


@dataclass(slots=True)
class Page:
    slug: str
    title: str
    file: str  # relative to the logbook root
    preamble: str  # markdown between the H1 and the first cell (the intro on the index page)
    cells: list[Cell]
    sha256: str  # of the file's bytes; annotations record it to tell what a reviewer saw
    size: int
    depth: int = 0  # nesting level in the page tree (index is 0, its children 1)
    parent: str | None = None
    in_manifest: bool = True
    h1_title: str | None = None  # title by Trackio's H1 rule, when it differs from the shown title
    preamble_line: int = 1  # file line where the preamble starts
    status: str = "current"  # "current", "superseded" (an earlier attempt kept for history) or "orphan"

    @property
    def cell_types(self) -> list[str]:
        """Each cell's `type_name`, in order (a page from the parse cache answers without reading its cells)."""
        return [cell.type_name for cell in self.cells]

    @property
    def is_index(self) -> bool:
        return self.slug == "index"

    @property
    def is_current(self) -> bool:
        return self.status == "current"

    @property
    def is_root(self) -> bool:
        """The page the manifest's tree starts from: pages/index.md, or the page that replaced it."""
        return self.depth == 0


def claim_number_text(ref: str) -> str:
    """'Claim 3a', '#3a', 'C3a' -> '3a': how a user may write a claim number."""
    text = ref.strip().lower()
    for prefix in ("claim", "#", "c"):
        if text.startswith(prefix) and text[len(prefix) :].lstrip(" #")[:1].isdigit():
            text = text[len(prefix) :].lstrip(" #")
    return text


MAX_TITLE_CHARS = 300  # titles past this are elided: matching and every list see at most this much of one


def elided_title(text: str) -> str:
    """`text` cut to MAX_TITLE_CHARS with an ellipsis: a 200 KB heading must not cost every list and match."""
    return text if len(text) <= MAX_TITLE_CHARS else text[: MAX_TITLE_CHARS - 1].rstrip() + "…"


ELSEWHERE_SOURCES = frozenset({"summary table", "summary", "index title", "logbook summary", "raw data"})


@dataclass(frozen=True, slots=True)
class VerdictMention:
    """One place where the logbook states a verdict for a claim."""

    verdict: Verdict
    raw: str  # the phrase as written, upper-cased
    text: str  # the sentence or line that matched, for highlighting
    page: str
    line: int
    cell: int | None  # ordinal of the cell on the page, None for the preamble
    source: str  # where it was found: "claim text", "cell title", "summary table", "index title", "history", ...
    confidence: float  # how surely the place it was found in states a verdict (before the decision's tunables)
    features: tuple[str, ...] = ()  # its kind first ("labelled", "title", "mention", …), then how ("negated", …)
    score: float = 0.0  # what the decision scored it (verdict_decision)

    @property
    def elsewhere(self) -> bool:
        """Stated outside the claim's own text (scorecard, index, summary) rather than on its page."""
        return self.source in ELSEWHERE_SOURCES

    def with_score(self, score: float) -> VerdictMention:
        """This mention scored `score`: `dataclasses.replace(self, score=score)` at a fifth of its cost (a
        decision scores every candidate of every claim; replace was half of deciding a 200-claim logbook)."""
        return VerdictMention(
            self.verdict,
            self.raw,
            self.text,
            self.page,
            self.line,
            self.cell,
            self.source,
            self.confidence,
            self.features,
            score,
        )


@dataclass(slots=True)
class Claim:
    key: str  # "<page slug>#<number or ordinal>": how every feature refers to this claim
    n: int | None
    title: str
    page: str
    cells: list[int]  # ordinals of the evidence cells on the page
    verdict: Verdict = Verdict.UNSTATED
    verdict_raw: str | None = None
    verdict_mention: VerdictMention | None = None
    confidence: float = 0.0  # how sure the reader is about `verdict`, 0..1
    other_mentions: list[VerdictMention] = field(default_factory=list)
    section_line: int | None = None  # first line of the claim's section when several claims share a page
    number: str | None = None  # the number as a user types it for --claim: "3", or "3a" for a sub-claim
    numbering: str = "written"  # where n comes from: "written", "summary table", "manifest order", ...
    aliases: tuple[str, ...] = ()  # earlier keys of this claim; records written under them still attach
    candidates: list[VerdictMention] = field(default_factory=list)  # when unstated: what might have been a verdict
    considered: list[VerdictMention] = field(default_factory=list)  # every candidate on its page, chosen or not
    unstated_reason: str | None = None  # why no verdict was taken, when unstated

    @property
    def contradicted(self) -> bool:
        """The logbook states a different verdict for this claim elsewhere (e.g. scorecard vs page)."""
        if self.verdict is Verdict.UNSTATED:
            return False
        return any(m.elsewhere and m.verdict != self.verdict for m in self.other_mentions)

    @property
    def history(self) -> list[VerdictMention]:
        """Verdicts superseded or orphan pages state for this claim: earlier attempts, not contradictions."""
        return [m for m in self.other_mentions if m.source == "history"]

    @property
    def label(self) -> str:
        if self.number is not None:
            return f"Claim {self.number}"
        return f"Claim {self.n}" if self.n is not None else self.title


@dataclass(frozen=True, slots=True)
class TraceChunk:
    file: str
    count: int
    first_sequence: int
    last_sequence: int


@dataclass(slots=True)
class TraceInfo:
    id: str
    title: str
    provider: str | None
    model: str | None
    started_at: str | None
    ended_at: str | None
    event_count: int | None  # as the index declares
    index_file: str | None
    available: bool  # the session index and every event chunk are present
    chunks: list[TraceChunk] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class TraceEvent:
    sequence: int
    kind: str
    title: str
    text: str
    tool_name: str | None = None
    call_id: str | None = None
    input: str | None = None
    output: str | None = None
    status: str | None = None
    timestamp: str | None = None
    turn: int | None = None


@dataclass(frozen=True, slots=True)
class WorkspaceFile:
    path: str
    name: str
    type: str | None
    size: int | None
    modified_at: str | None
    bucket_url: str | None
    local_path: Path | None  # resolved inside the workspace folder, when the file is there


@dataclass(slots=True)
class Logbook:
    root: Path  # the folder holding pages/
    source: Path  # what the user pointed at
    layout: str  # "workspace" (.trackio/logbook) or "space" (published snapshot)
    workspace: Path | None  # the folder holding .trackio/, for workspace layouts
    title: str
    space_id: str | None
    paper_id: str | None
    paper_title: str | None
    arxiv_id: str | None
    tags: list[str]
    schema_version: int | None
    metadata: dict[str, Any]
    manifest: dict[str, Any] | None
    pages: list[Page]
    claims: list[Claim]
    traces: list[TraceInfo]
    workspace_files: list[WorkspaceFile]
    problems: list[Problem]
    # the logbook id given by whoever opened it (a Hub download knows its Space); None: derived from `root`
    explicit_id: LogbookId | None = None
    _derived_id: LogbookId | None = field(default=None, repr=False, compare=False)

    @property
    def logbook_id(self) -> LogbookId:
        """Where the logbook was opened from (see logbook_id.py); looked up once, on first use."""
        if self.explicit_id is not None:
            return self.explicit_id
        if self._derived_id is None:
            self._derived_id = logbook_id_for(self.root)
        return self._derived_id

    def page(self, slug: str) -> Page | None:
        for page in self.pages:
            if page.slug == slug:
                return page
        return None

    def claim(self, ref: str | int) -> Claim | None:
        """Find a claim by key ("claim-3-x#3"), an earlier key it kept, or its number (3, "3", "3a", "Claim 3a")."""
        text = str(ref).strip()
        for claim in self.claims:
            if claim.key == text:
                return claim
        for claim in self.claims:
            if text in claim.aliases:
                return claim
        label = claim_number_text(text)
        matches = [c for c in self.claims if c.number is not None and c.number.lower() == label]
        if len(matches) == 1:
            return matches[0]
        if label.isdigit():
            matches = [c for c in self.claims if c.n == int(label)]
            if len(matches) == 1:
                return matches[0]
        return None

    def cell_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for page in self.pages:
            for type_name in page.cell_types:
                counts[type_name] = counts.get(type_name, 0) + 1
        return counts

    def trace(self, trace_id: str) -> TraceInfo | None:
        return next((t for t in self.traces if t.id == trace_id), None)
