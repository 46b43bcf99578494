"""What a clicked link in logbook content leads to: a page of this logbook, a web address, a file inside the
logbook, or nothing that may be opened. Nothing is opened here; the window decides, and only on a click.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from urllib.parse import unquote, urlsplit

from reviewapp.core.io.safepath import UnsafeReference, local_reference, resolve_inside

_PAGE_ANCHOR = re.compile(r"^#/(?:view/code/)?(?P<slug>[^/?#]+)/?$")
_PAGE_FILE = re.compile(r"^(?:\./)?pages/(?P<slug>.+?)/page\.md$")
_WEB = frozenset({"http", "https", "mailto"})


class LinkKind(StrEnum):
    PAGE = "page"
    WEB = "web"
    FILE = "file"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class LinkTarget:
    kind: LinkKind
    href: str
    page: str | None = None
    path: Path | None = None
    reason: str | None = None  # why a REFUSED link is not followed


def classify_link(root: Path, href: str, page_slugs: set[str] | frozenset[str]) -> LinkTarget:
    text = href.strip()
    anchor = _PAGE_ANCHOR.match(text)
    if anchor:
        slug = unquote(anchor.group("slug"))
        if slug in page_slugs:
            return LinkTarget(LinkKind.PAGE, href, page=slug)
        return LinkTarget(LinkKind.REFUSED, href, reason=f"no page '{slug}' in this logbook")
    scheme = urlsplit(text).scheme.lower()
    if scheme in _WEB:
        return LinkTarget(LinkKind.WEB, href)
    if scheme.startswith("trackio-"):
        return LinkTarget(
            LinkKind.REFUSED, href, reason="a local Trackio reference; it only resolves on the author's machine"
        )
    reference = local_reference(text)
    if reference is None:
        return LinkTarget(LinkKind.REFUSED, href, reason=f"links of type '{scheme or text[:1]}' are not followed")
    page_file = _PAGE_FILE.match(reference)
    if page_file and page_file.group("slug").split("/")[-1] in page_slugs:
        return LinkTarget(LinkKind.PAGE, href, page=page_file.group("slug").split("/")[-1])
    try:
        target = resolve_inside(root, reference)
    except UnsafeReference as exc:
        return LinkTarget(LinkKind.REFUSED, href, reason=str(exc))
    if not target.exists():
        return LinkTarget(LinkKind.REFUSED, href, reason=f"{reference} does not exist in this logbook")
    return LinkTarget(LinkKind.FILE, href, path=target)
