"""Read a logbook folder into a Logbook: every page that can be read, and a list of what could not."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from reviewapp.core.io.coerce import as_int, as_name
from reviewapp.core.io.fork_split import can_fork, split_map
from reviewapp.core.io.safepath import UnsafeReference, is_contained, open_regular, resolve_inside
from reviewapp.core.logbook.locate import Location, locate
from reviewapp.core.logbook.logbook_id import LogbookId, check_logbook_id
from reviewapp.core.logbook.metadata import paper_info, read_json_object, tags_of
from reviewapp.core.logbook.model import Claim, Logbook, Page, Problem, TraceInfo, WorkspaceFile, elided_title
from reviewapp.core.logbook.page_parser import ParsedPage, decode_page, parse_page
from reviewapp.core.logbook.page_tree import INDEX_FILE, ORPHAN, PageRef, PageTree, build_tree
from reviewapp.core.logbook.problem_cap import cap_per_kind
from reviewapp.core.logbook.space_card import space_card_tags
from reviewapp.core.logbook.traces import load_traces
from reviewapp.core.logbook.workspace_files import load_workspace_files
from reviewapp.core.progress import CancelToken, ProgressCallback

# Budgets sized to real logbooks (the largest real page is about 1 MB): past them a page opens truncated, with a
# problem saying so, instead of a 250 MB page holding the window for seconds and gigabytes.
PAGE_LIMIT = 16 * 1024 * 1024
LOGBOOK_LIMIT = 512 * 1024 * 1024
PAGE_FLOOR = 64 * 1024  # what each page still gets once the logbook's budget is spent: its title and start
# A preview reads pages in order until a claim page, but no further than this: past it, the whole reading decides.
PREVIEW_PAGES = 12
PREVIEW_BYTES = 8 * 1024 * 1024
# Below this many bytes of pages, reading them in one process costs less than sharing them with a second.
SHARED_READ_WEIGHT = 8 * 1024 * 1024


class PageMemory(Protocol):
    """Pages parsed before, by content: the parse cache lends one to the reader so an unchanged page of a changed
    logbook is not parsed again, and learns from it every page the reader read."""

    def recall(self, slug: str, file: str, sha256: str, text: str) -> ParsedPage | None:
        """The parse of this page's text when it was parsed before (the same bytes, slug and file), else None."""

    def record(self, page: Page, read_bytes: int, text: str, parsed: ParsedPage) -> object:
        """What to keep of `page`, read from its file's first `read_bytes` bytes, decoded to `text` and parsed to
        `parsed`: made where the page was read (a forked child, say), so it must pickle; kept with `keep`."""

    def keep(self, record: object) -> None:
        """Remember a page by what `record` made of it."""


def read_logbook(
    source: Path | str,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    *,
    logbook_id: LogbookId | None = None,
    memory: PageMemory | None = None,
    meanwhile: Callable[[Path], None] | None = None,
) -> Logbook:
    """Load everything readable; raise NotALogbookError only when `source` is not a logbook at all.

    `progress` is called after each page; `cancel` is checked between pages (raising Cancelled). `logbook_id`
    names where the folder came from when the folder cannot say (a Space downloaded with `--local-dir`:
    `hub_logbook_id("space", "OWNER/NAME")`); otherwise the id is derived from the folder on first use.
    `memory` supplies pages parsed before and is told of every page read (see PageMemory). `meanwhile`: the
    caller's work that needs only the pages read (it is given the logbook's root), run once every page is read,
    while a second CPU (where there is one) starts on the claims.
    """
    problems: list[Problem] = []
    opened = _open(source, problems, cancel, memory, logbook_id)
    pages = [opened.index_page] if opened.index_page else []
    if progress is None and cancel is None and (shared := _read_shared(opened, problems, memory)) is not None:
        pages.extend(shared)
    else:
        refs = opened.tree.refs
        for done, ref in enumerate(refs, start=1):
            if cancel is not None:
                cancel.check()
            read = _read_page(opened.root, ref, problems, opened.budget, cancel, memory)
            if read.page is not None:
                pages.append(read.page)
            if memory is not None and read.record is not None:
                memory.keep(read.record)
            if progress is not None:
                progress(done, len(refs), ref.slug)
    _report_duplicate_ids(pages, problems)
    opened.name_index()
    traces: list[TraceInfo] = []
    workspace_files: list[WorkspaceFile] = []

    def the_rest() -> None:  # what needs no claim, done while the claims' statements are being found
        traces.extend(load_traces(opened.root, opened.manifest, problems))
        workspace_files.extend(load_workspace_files(opened.root, opened.where.workspace, opened.metadata, problems))
        if meanwhile is not None:
            meanwhile(opened.root)

    from reviewapp.core.logbook.claim_finder import find_claims  # imported while the pages are read, where shared

    claims = find_claims(pages, meanwhile=the_rest)
    return opened.logbook(pages, claims, traces, workspace_files, cap_per_kind(problems))


def read_preview(
    source: Path | str,
    cancel: CancelToken | None = None,
    *,
    logbook_id: LogbookId | None = None,
    max_pages: int = PREVIEW_PAGES,
    max_bytes: int = PREVIEW_BYTES,
) -> Logbook | None:
    """The start of a logbook, to show while the rest is read: the manifest, the index and the pages in order up
    to the first claim page, with the claims found on them (`preview_claims`: each keyed as `read_logbook` keys
    it, with the verdict its own text states). None when no claim page comes within the first `max_pages` pages
    or `max_bytes` bytes (the whole reading decides those claims). Never a record's target: the claims, their
    verdicts and the pages are provisional until the whole logbook is read; nothing about traces or the
    workspace's files is read here."""
    problems: list[Problem] = []
    opened = _open(source, problems, cancel, None, logbook_id)
    pages = [opened.index_page] if opened.index_page else []
    claims: list[Claim] = []
    spent = 0
    for ref in opened.tree.refs[:max_pages]:
        if cancel is not None:
            cancel.check()
        page, text, _, _ = _read_page(opened.root, ref, problems, opened.budget, cancel, None)
        if page is None:
            continue
        pages.append(page)
        spent += len(text)
        claims = _preview_claims(pages)
        if claims or spent > max_bytes:
            break
    if not claims:
        return None
    opened.name_index()
    return opened.logbook(pages, claims, [], [], cap_per_kind(problems))


@dataclass
class _Opened:
    """What every reading starts with: where the logbook is, its metadata, manifest, index page and page tree."""

    source: Path
    where: Location
    metadata: dict[str, Any]
    manifest: dict[str, Any] | None
    budget: _Budget
    index_page: Page | None
    index_h1: str | None
    tree: PageTree
    explicit_id: LogbookId | None

    @property
    def root(self) -> Path:
        return self.where.root

    def name_index(self) -> str:
        """The logbook's title, which the index page takes as its own."""
        metadata, manifest = self.metadata, self.manifest
        title = elided_title(
            self.index_h1
            or self.tree.root_title
            or as_name((manifest or {}).get("title"))
            or as_name(metadata.get("title"))
            or self.root.parent.parent.name
        )
        if self.index_page is not None:
            self.index_page.title = title
        return title

    def logbook(
        self,
        pages: list[Page],
        claims: list[Claim],
        traces: list[TraceInfo],
        workspace_files: list[WorkspaceFile],
        problems: list[Problem],
    ) -> Logbook:
        metadata, manifest = self.metadata, self.manifest
        tags = tags_of(metadata, manifest)
        card_tags = space_card_tags(self.root) if self.where.layout == "space" else []
        paper = paper_info(metadata, manifest, tags, card_tags)
        return Logbook(
            root=self.root,
            source=self.source,
            layout=self.where.layout,
            workspace=self.where.workspace,
            title=self.name_index(),
            space_id=as_name(metadata.get("space_id")) or as_name((manifest or {}).get("space_id")),
            paper_id=paper.paper_id,
            paper_title=paper.title,
            arxiv_id=paper.arxiv_id,
            tags=tags,
            schema_version=as_int((manifest or {}).get("schema_version")),
            metadata=metadata,
            manifest=manifest,
            pages=pages,
            claims=claims,
            traces=traces,
            workspace_files=workspace_files,
            problems=problems,
            explicit_id=self.explicit_id,
        )


def _open(
    source: Path | str,
    problems: list[Problem],
    cancel: CancelToken | None,
    memory: PageMemory | None,
    logbook_id: LogbookId | None,
) -> _Opened:
    if logbook_id is not None:
        logbook_id = check_logbook_id(logbook_id)
    source = Path(source)
    where = locate(source)
    root = where.root
    metadata: dict[str, Any] = {}
    if where.metadata_file is not None:
        metadata = (
            read_json_object(where.metadata_file, "../metadata.json", problems, root=where.metadata_file.parent) or {}
        )
    manifest = read_json_object(root / "logbook.json", "logbook.json", problems, root=root)
    budget = _Budget(LOGBOOK_LIMIT)
    index_ref = PageRef("index", INDEX_FILE, None, 0, None, True)
    index_page, index_text, _, index_record = _read_page(root, index_ref, problems, budget, cancel, memory)
    if memory is not None and index_record is not None:
        memory.keep(index_record)
    index_h1 = index_page.title if index_page and index_page.title != "index" else None  # "index": no H1
    tree = build_tree(root, manifest, index_text, problems)
    if index_page is not None and not tree.index_listed:  # the manifest's root is another page
        index_page.in_manifest, index_page.status = False, ORPHAN
    return _Opened(source, where, metadata, manifest, budget, index_page, index_h1, tree, logbook_id)


class _Budget:
    """Bytes of page text left for the rest of the logbook."""

    def __init__(self, total: int) -> None:
        self.left = total

    def for_page(self) -> int:
        return min(PAGE_LIMIT, max(self.left, PAGE_FLOOR))

    def spend(self, size: int) -> None:
        self.left -= size


def _read_shared(opened: _Opened, problems: list[Problem], memory: PageMemory | None) -> list[Page] | None:
    """The tree's pages read as `read_logbook`'s loop reads them, shared with a second CPU where fork_split may
    (a child reads from the end), or None when no child may start or they must be read in order: when they may not
    all fit in the logbook's budget, a page's reading depends on what the pages before it spent. Each page comes
    with its own problems and what `memory` keeps of it, gathered here in page order."""
    if not can_fork():  # a window's or a queue's worker: the plain loop, without every page's size first
        return None
    refs = opened.tree.refs
    sizes = [_size_on_disk(opened.root, ref) for ref in refs]
    if sum(sizes) > opened.budget.left:
        return None

    def read(index: int) -> tuple[_PageRead, list[Problem]]:
        found: list[Problem] = []
        done = _read_page(opened.root, refs[index], found, opened.budget, None, memory)
        return done._replace(text=""), found  # the text is not needed here, and would double what the child sends

    pages: list[Page] = []
    left = opened.budget.left
    shared = split_map(read, range(len(refs)), sizes.__getitem__, min_weight=SHARED_READ_WEIGHT, first=_claim_finder)
    for done, found in shared:
        problems.extend(found)
        left -= done.read_bytes  # each process spent its own copy of the budget
        if done.page is not None:
            pages.append(done.page)
        if memory is not None and done.record is not None:
            memory.keep(done.record)
    opened.budget.left = left
    return pages


def _claim_finder() -> None:
    """Import what finds the claims (its patterns take a while to compile) while a second CPU starts on the pages,
    instead of before any page is read."""
    import reviewapp.core.logbook.claim_finder  # noqa: F401


def _preview_claims(pages: list[Page]) -> list[Claim]:
    from reviewapp.core.logbook.claim_finder import preview_claims

    return preview_claims(pages)


def _size_on_disk(root: Path, ref: PageRef) -> int:
    """A page file's size as the file system gives it now (0 when it cannot say: the reading will)."""
    try:
        return os.stat(ref.path or resolve_inside(root, ref.file)).st_size
    except (OSError, UnsafeReference, ValueError):
        return 0


class _PageRead(NamedTuple):
    page: Page | None
    text: str  # "" when the page could not be read
    read_bytes: int
    record: object  # what the memory keeps of the page (None without one)


def _read_page(
    root: Path,
    ref: PageRef,
    problems: list[Problem],
    budget: _Budget,
    cancel: CancelToken | None = None,
    memory: PageMemory | None = None,
) -> _PageRead:
    """The parsed page and its text; over budget, its start only. What `memory` is to keep of it comes with it,
    not kept yet (see PageMemory.record)."""
    limit = budget.for_page()
    try:
        data, size = _read_head(root, ref.path or resolve_inside(root, ref.file), limit)
    except UnsafeReference as exc:
        problems.append(Problem(ref.file, None, f"page not read: {exc}"))
        return _PageRead(None, "", 0, None)
    budget.spend(len(data))
    if size > len(data):
        why = "a page may have" if limit == PAGE_LIMIT else "left of the logbook's budget"
        problems.append(
            Problem(
                ref.file,
                None,
                f"page is {size:,} bytes, over the {limit:,} bytes {why}; only its first {len(data):,} bytes are shown",
            )
        )
    text, decode_problems = decode_page(data, ref.file)
    problems.extend(decode_problems)
    sha256 = hashlib.sha256(data).hexdigest()
    parsed = memory.recall(ref.slug, ref.file, sha256, text) if memory is not None else None
    if parsed is None:
        parsed = parse_page(text, ref.slug, ref.file, cancel)
    problems.extend(parsed.problems)
    title = elided_title(ref.manifest_title or parsed.h1_title or ref.slug)
    page = Page(
        slug=ref.slug,
        title=title,
        file=ref.file,
        preamble=parsed.preamble,
        cells=parsed.cells,
        sha256=sha256,
        size=size,
        depth=ref.depth,
        parent=ref.parent,
        in_manifest=ref.in_manifest,
        status=ref.status,
        h1_title=h1_title if (h1_title := elided_title(parsed.h1_title or "")) and h1_title != title else None,
        preamble_line=parsed.preamble_line,
    )
    record = memory.record(page, len(data), text, parsed) if memory is not None else None
    return _PageRead(page, text, len(data), record)


def _read_head(root: Path, path: Path, limit: int) -> tuple[bytes, int]:
    """(the first `limit` bytes of a contained regular file, cut at a line end when cut, its size)."""
    real = os.path.realpath(path)
    if not is_contained(root, Path(real)):
        raise UnsafeReference(f"{os.path.basename(path)} leads outside {os.path.basename(os.path.realpath(root))}/")
    with os.fdopen(open_regular(real, follow=False), "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        data = handle.read(min(size, limit) + 1)
    if len(data) <= limit:
        return data, max(size, len(data))
    data = data[:limit]
    cut = data.rfind(b"\n")
    return (data[: cut + 1] if cut > 0 else data), max(size, limit + 1)


def _report_duplicate_ids(pages: list[Page], problems: list[Problem]) -> None:
    first_seen: dict[str, tuple[str, int]] = {}
    for page in pages:
        for cell in page.cells:
            if cell.id is None:
                continue
            if cell.id in first_seen:
                where = "{}:{}".format(*first_seen[cell.id])
                problems.append(Problem(page.file, cell.line, f"duplicate cell id '{cell.id}' (first at {where})"))
            else:
                first_seen[cell.id] = (page.file, cell.line)
