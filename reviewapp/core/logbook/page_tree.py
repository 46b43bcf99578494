"""Page order and tree: the manifest's when it matches the disk, rebuilt from the pages otherwise.

The manifest is a cache that is often stale or hand-edited (logbook-format.md §4, §5.4), so pages on disk but
not in it still load (flagged), and manifest entries whose file is missing are reported and skipped.

Logbooks are rewritten, and earlier attempts stay behind: every page gets a status. "current" pages hold the
claims; "superseded" pages are marked historical (by their title or slug, or by a group node above them in the
manifest); "orphan" pages are on disk but the manifest no longer lists them. The manifest's root may be a page
other than pages/index.md, and a node may have no page of its own (a group): neither is a problem.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewapp.core.io.safepath import UnsafeReference, resolve_inside
from reviewapp.core.logbook.model import Problem

INDEX_FILE = "pages/index.md"
_MAX_DEPTH = 8
_TOC_LINK = re.compile(r"\]\(\s*(?:#/(?P<anchor>[^)\s#?]+)|(?:\./)?pages/(?P<path>[^)\s#?]+?)/page\.md)\s*\)")


CURRENT, SUPERSEDED, ORPHAN = "current", "superseded", "orphan"

# Words that mark an earlier attempt. The strong ones do so at either end of a title or slug; the weak ones
# ("old", "previous", ...) only at the start and followed by a word about the logbook's own pages ("Old claims",
# "previous-run"), so that "Claim 2: Old models forget" or "claim-1-first" stay current.
_STRONG = r"historical|history|archived?|superseded|legacy|deprecated|obsolete|outdated|retired"
_WEAK = r"old|previous|prior|earlier|rejected|stale|abandoned|discarded"
_OWN_THING = (
    r"attempts?|versions?|runs?|claims?|baselines?|results?|pages?|index|summary|report|drafts?|verdicts?|"
    r"rounds?|submissions?|revisions?|logbook|set|evaluation|verification|v\d+"
)
_TITLE_MARK = re.compile(
    rf"^\W*(?:{_STRONG})\b|\b(?:{_STRONG})\W*$|[(\[]\s*(?:{_STRONG})\s*[)\]]|^\W*(?:{_WEAK})\s+(?:{_OWN_THING})\b",
    re.IGNORECASE,
)
_SLUG_STRONG = re.compile(rf"^(?:{_STRONG})$")
_SLUG_WEAK = re.compile(rf"^(?:{_WEAK})$")
_SLUG_OWN = re.compile(rf"^(?:{_OWN_THING})$")


def marked_historical(title: str | None, slug: str) -> bool:
    """Title or slug says the page is an earlier attempt (`Historical: Claim 1`, `old-claims`, `x-superseded`)."""
    if title and _TITLE_MARK.search(title[:200]):
        return True
    tokens = [t for t in re.split(r"[-_.]+", slug.lower()) if t]
    if not tokens:
        return False
    if _SLUG_STRONG.match(tokens[0]) or _SLUG_STRONG.match(tokens[-1]):
        return True
    return bool(_SLUG_WEAK.match(tokens[0]) and len(tokens) > 1 and _SLUG_OWN.match(tokens[1]))


@dataclass
class PageRef:
    slug: str
    file: str  # relative to the logbook root
    manifest_title: str | None
    depth: int
    parent: str | None
    in_manifest: bool
    path: Path | None = None  # the real file, once checked to be inside the root
    status: str = CURRENT


@dataclass
class PageTree:
    refs: list[PageRef]  # every page after pages/index.md, in display order
    root_title: str | None  # the title the manifest gives its root
    index_listed: bool  # pages/index.md is the manifest's root (or there is no usable manifest)


def toc_links(index_text: str) -> list[tuple[str, int]]:
    """(slug, line) for every page link in the index, in order of first appearance."""
    seen: set[str] = set()
    links: list[tuple[str, int]] = []
    line, counted_to = 1, 0  # counted on from the previous link, so 100k links stay linear
    for match in _TOC_LINK.finditer(index_text):
        slug = match.group("anchor") or match.group("path")
        if slug and slug not in seen:
            seen.add(slug)
            line += index_text.count("\n", counted_to, match.start())
            counted_to = match.start()
            links.append((slug, line))
    return links


def scan_disk(root: Path, problems: list[Problem], verified: dict[str, Path]) -> dict[str, str]:
    """slug -> relative file of every `pages/<slug>/page.md` (and legacy nested pages), in slug order.

    Each file found is checked to lie inside the root and recorded in `verified` (relative -> real path).
    """
    pages_dir = root / "pages"
    found: dict[str, str] = {}
    try:
        entries = sorted(os.scandir(pages_dir), key=lambda e: e.name)
    except OSError:
        return found
    for entry in entries:
        if not entry.is_dir():
            continue
        rel = f"pages/{entry.name}/page.md"
        if _safe_page_file(root, rel, problems, verified):
            found[entry.name] = rel
        try:
            children = sorted(os.scandir(entry.path), key=lambda e: e.name)
        except OSError:
            continue
        for child in children:
            nested = f"pages/{entry.name}/{child.name}/page.md"
            if child.is_dir() and _safe_page_file(root, nested, problems, verified, quiet_missing=True):
                found.setdefault(child.name, nested)
    return found


def _safe_page_file(
    root: Path, rel: str, problems: list[Problem], verified: dict[str, Path], quiet_missing: bool = False
) -> bool:
    try:
        target = resolve_inside(root, rel)
    except UnsafeReference as exc:
        problems.append(Problem(rel, None, f"page refused: {exc}"))
        return False
    if not target.is_file():
        if target.exists() and not quiet_missing:
            problems.append(Problem(rel, None, "page.md is not a regular file"))
        return False
    verified[rel] = target
    return True


def manifest_pages(
    root: Path, manifest: dict[str, Any], problems: list[Problem], verified: dict[str, Path]
) -> list[PageRef] | None:
    """Pages the manifest lists, depth-first, whose files exist inside the root; None when it has no usable tree.

    A root node other than pages/index.md is listed first, at depth 0. A node without a `file` whose page is
    not on disk is a group: it has no page and no problem, and its children inherit its historical mark.
    """
    tree = manifest.get("root")
    if not isinstance(tree, dict):
        problems.append(Problem("logbook.json", None, "manifest has no page tree ('root'); rebuilt from the pages"))
        return None
    refs: list[PageRef] = []
    seen: set[str] = {"index"}
    files: set[str] = {INDEX_FILE}
    root_ref = _manifest_root(root, tree, problems, verified)
    if root_ref is not None:
        seen.add(root_ref.slug)
        files.add(root_ref.file)
        refs.append(root_ref)

    def walk(node: dict[str, Any], depth: int, parent: str | None, superseded: bool) -> None:
        children = node.get("children")
        if not isinstance(children, list):
            return
        for child in children:
            if not isinstance(child, dict):
                problems.append(Problem("logbook.json", None, "page tree entry is not an object; skipped"))
                continue
            slug, file = child.get("slug"), child.get("file")
            if not isinstance(slug, str) or not slug:
                problems.append(Problem("logbook.json", None, "page tree entry without a slug; skipped"))
                continue
            title = child.get("title")
            manifest_title = title if isinstance(title, str) else None
            marked = superseded or marked_historical(manifest_title, slug)
            if not isinstance(file, str) or not file:
                file = f"pages/{slug}/page.md"
                if file not in verified:  # a group node: nothing to read, nothing missing
                    if depth < _MAX_DEPTH:
                        walk(child, depth, parent, marked)
                    continue
            if slug in seen or file in files:
                if file != INDEX_FILE:  # the root page listed again among its children is no news
                    problems.append(Problem("logbook.json", None, f"page '{slug}' is listed twice; the first is kept"))
            elif _manifest_file_ok(root, slug, file, problems, verified):
                files.add(file)
                seen.add(slug)
                status = SUPERSEDED if marked else CURRENT
                refs.append(PageRef(slug, file, manifest_title, depth, parent, True, verified[file], status))
            if depth < _MAX_DEPTH:
                walk(child, depth + 1, slug, marked)

    walk(tree, 1, "index", False)
    return refs


def _manifest_root(
    root: Path, tree: dict[str, Any], problems: list[Problem], verified: dict[str, Path]
) -> PageRef | None:
    """The manifest's root page when it is not pages/index.md (e.g. `current-index` after a rewrite)."""
    slug, file = tree.get("slug"), tree.get("file")
    if not isinstance(slug, str) or not slug or slug == "index":
        return None
    if not isinstance(file, str) or not file:
        file = f"pages/{slug}/page.md"
        if file not in verified:  # a root named without a page of its own: pages/index.md stays the root
            return None
    if file == INDEX_FILE:
        return None
    if not _manifest_file_ok(root, slug, file, problems, verified):
        return None
    title = tree.get("title")
    return PageRef(slug, file, title if isinstance(title, str) else None, 0, None, True, verified[file])


def _plainly_absent(root: Path, file: str) -> bool:
    """A plain relative path (no `..`, not absolute) with nothing at it: missing, and cheap to tell.

    600k manifest entries naming missing pages spent a minute in full containment checks of paths that lead
    nowhere; anything else still goes through resolve_inside.
    """
    if not file or file.startswith(("/", "\\")) or "\\" in file or ":" in file or ".." in file.split("/"):
        return False
    return not os.path.lexists(os.path.join(root, file))


def _manifest_file_ok(root: Path, slug: str, file: str, problems: list[Problem], verified: dict[str, Path]) -> bool:
    if file in verified:
        return True
    if _plainly_absent(root, file):
        problems.append(Problem("logbook.json", None, f"page '{slug}' is listed but {file} is missing; skipped"))
        return False
    try:
        target = resolve_inside(root, file)
    except UnsafeReference as exc:
        problems.append(Problem("logbook.json", None, f"page '{slug}' refused: {exc}"))
        return False
    if not target.is_file():
        problems.append(Problem("logbook.json", None, f"page '{slug}' is listed but {file} is missing; skipped"))
        return False
    verified[file] = target
    return True


def build_tree(root: Path, manifest: dict[str, Any] | None, index_text: str, problems: list[Problem]) -> PageTree:
    """Ordered pages after the index, with their status, and what the manifest says about its root."""
    verified: dict[str, Path] = {}
    disk = scan_disk(root, problems, verified)
    links = toc_links(index_text)
    for slug, line in links:
        if slug not in disk and not _linked_file_exists(root, slug):
            problems.append(Problem(INDEX_FILE, line, f"table of contents links to '{slug}', which has no page"))
    listed = manifest_pages(root, manifest, problems, verified) if manifest is not None else None
    manifest_title = None
    if manifest is not None and isinstance(manifest.get("root"), dict):
        title = manifest["root"].get("title")
        manifest_title = title if isinstance(title, str) else None
    if listed is None:
        order = {slug: i for i, (slug, _) in enumerate(links)}
        slugs = sorted(disk, key=lambda s: (order.get(s, len(order)), s))
        return PageTree([_disk_ref(s, disk[s], verified[disk[s]]) for s in slugs], None, True)
    index_listed = not (listed and listed[0].depth == 0)
    # A page file is known when a listed page reads it; a file nobody reads is an orphan, never lost. When the
    # manifest gave the orphan's slug to another file, the orphan is shown under its folder path instead.
    read_files = {ref.file for ref in listed}
    taken = {ref.slug for ref in listed} | {"index"}
    order = {slug: i for i, (slug, _) in enumerate(links)}
    extra = sorted((s for s in disk if disk[s] not in read_files), key=lambda s: (order.get(s, len(order)), s))
    for slug in extra:
        problems.append(
            Problem(disk[slug], None, "page is on disk but not in logbook.json; shown after the listed pages")
        )
    refs = listed + [
        PageRef(s if s not in taken else disk[s][: -len("/page.md")], disk[s], None, 1, "index", False,
                verified[disk[s]], ORPHAN)
        for s in extra
    ]  # fmt: skip
    return PageTree(refs, manifest_title if index_listed else None, index_listed)


def _disk_ref(slug: str, file: str, path: Path) -> PageRef:
    parts = file.split("/")  # pages/<slug>/page.md or pages/<parent>/<slug>/page.md
    if len(parts) == 4:
        status = SUPERSEDED if marked_historical(None, parts[1]) or marked_historical(None, slug) else CURRENT
        return PageRef(slug, file, None, 2, parts[1], True, path, status)
    return PageRef(slug, file, None, 1, "index", True, path, SUPERSEDED if marked_historical(None, slug) else CURRENT)


def _linked_file_exists(root: Path, slug: str) -> bool:
    if _plainly_absent(root, f"pages/{slug}/page.md"):
        return False
    try:
        return resolve_inside(root, f"pages/{slug}/page.md").is_file()
    except UnsafeReference:
        return False
