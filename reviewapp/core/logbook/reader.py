"""Read a logbook folder into a Logbook: every page that can be read, and a list of what could not."""

from __future__ import annotations

import hashlib
from pathlib import Path

from reviewapp.core.io.coerce import as_int, as_name
from reviewapp.core.io.safepath import UnsafeReference, read_contained, resolve_inside
from reviewapp.core.logbook.claim_finder import find_claims
from reviewapp.core.logbook.locate import locate
from reviewapp.core.logbook.logbook_id import LogbookId, check_logbook_id
from reviewapp.core.logbook.metadata import paper_info, read_json_object, tags_of
from reviewapp.core.logbook.model import Logbook, Page, Problem
from reviewapp.core.logbook.page_parser import decode_page, parse_page
from reviewapp.core.logbook.page_tree import INDEX_FILE, ORPHAN, PageRef, build_tree
from reviewapp.core.logbook.traces import load_traces
from reviewapp.core.logbook.workspace_files import load_workspace_files
from reviewapp.core.progress import CancelToken, ProgressCallback

PAGE_LIMIT = 256 * 1024 * 1024


def read_logbook(
    source: Path | str,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    *,
    logbook_id: LogbookId | None = None,
) -> Logbook:
    """Load everything readable; raise NotALogbookError only when `source` is not a logbook at all.

    `progress` is called after each page; `cancel` is checked between pages (raising Cancelled). `logbook_id`
    names where the folder came from when the folder cannot say (a Space downloaded with `--local-dir`:
    `hub_logbook_id("space", "OWNER/NAME")`); otherwise the id is derived from the folder on first use.
    """
    if logbook_id is not None:
        logbook_id = check_logbook_id(logbook_id)
    source = Path(source)
    where = locate(source)
    root = where.root
    problems: list[Problem] = []
    metadata: dict = {}
    if where.metadata_file is not None:
        metadata = (
            read_json_object(where.metadata_file, "../metadata.json", problems, root=where.metadata_file.parent) or {}
        )
    manifest = read_json_object(root / "logbook.json", "logbook.json", problems, root=root)
    index_page, index_text = _read_page(root, PageRef("index", INDEX_FILE, None, 0, None, True), problems)
    index_h1 = index_page.title if index_page and index_page.title != "index" else None  # "index": no H1
    tree = build_tree(root, manifest, index_text, problems)
    refs, manifest_root_title = tree.refs, tree.root_title
    if index_page is not None and not tree.index_listed:  # the manifest's root is another page
        index_page.in_manifest, index_page.status = False, ORPHAN
    pages = [index_page] if index_page else []
    for done, ref in enumerate(refs, start=1):
        if cancel is not None:
            cancel.check()
        page, _ = _read_page(root, ref, problems)
        if page is not None:
            pages.append(page)
        if progress is not None:
            progress(done, len(refs), ref.slug)
    _report_duplicate_ids(pages, problems)
    tags = tags_of(metadata, manifest)
    paper = paper_info(metadata, manifest, tags)
    title = (
        index_h1
        or manifest_root_title
        or as_name((manifest or {}).get("title"))
        or as_name(metadata.get("title"))
        or root.parent.parent.name
    )
    if index_page is not None:
        index_page.title = title
    return Logbook(
        root=root,
        source=source,
        layout=where.layout,
        workspace=where.workspace,
        title=title,
        space_id=as_name(metadata.get("space_id")) or as_name((manifest or {}).get("space_id")),
        paper_id=paper.paper_id,
        paper_title=paper.title,
        arxiv_id=paper.arxiv_id,
        tags=tags,
        schema_version=as_int((manifest or {}).get("schema_version")),
        metadata=metadata,
        manifest=manifest,
        pages=pages,
        claims=find_claims(pages),
        traces=load_traces(root, manifest, problems),
        workspace_files=load_workspace_files(root, where.workspace, metadata, problems),
        problems=problems,
        explicit_id=logbook_id,
    )


def _read_page(root: Path, ref: PageRef, problems: list[Problem]) -> tuple[Page | None, str]:
    """The parsed page and its text ("" when it could not be read)."""
    try:
        data = read_contained(root, ref.path or resolve_inside(root, ref.file), PAGE_LIMIT)
    except UnsafeReference as exc:
        problems.append(Problem(ref.file, None, f"page not read: {exc}"))
        return None, ""
    text, decode_problems = decode_page(data, ref.file)
    problems.extend(decode_problems)
    parsed = parse_page(text, ref.slug, ref.file)
    problems.extend(parsed.problems)
    title = ref.manifest_title or parsed.h1_title or ref.slug
    page = Page(
        slug=ref.slug,
        title=title,
        file=ref.file,
        preamble=parsed.preamble,
        cells=parsed.cells,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        depth=ref.depth,
        parent=ref.parent,
        in_manifest=ref.in_manifest,
        status=ref.status,
        h1_title=parsed.h1_title if parsed.h1_title != title else None,
        preamble_line=parsed.preamble_line,
    )
    return page, text


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
