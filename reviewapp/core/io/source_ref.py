"""What a SOURCE argument names: a folder, a Space or dataset on the Hub (optionally pinned), or a published URL.

    parse_source("alice/repro-x@3fa9c0d")        -> Space alice/repro-x at that revision
    parse_source("datasets/alice/repro-x-traces") -> dataset
    parse_source("https://huggingface.co/spaces/alice/repro-x/tree/main")
    parse_source("https://alice-repro-x.static.hf.space/")   -> a published logbook read through its manifest

An existing path always wins over the OWNER/NAME form, so a folder called `alice/repro-x` in the current
directory opens as that folder. Nothing here touches the network.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit, urlunsplit

SourceKind = Literal["path", "space", "dataset", "url"]
HUB_HOSTS = ("huggingface.co", "www.huggingface.co", "hf.co")
_SEGMENT = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,199}")
_PREFIXES = {"spaces": "space", "datasets": "dataset"}
_ID_PREFIX = {"space": "hf:space/", "dataset": "hf:dataset/"}


class SourceError(ValueError):
    """SOURCE is neither an existing folder nor a form this app understands; the message shows the forms."""


@dataclass(frozen=True)
class SourceRef:
    kind: SourceKind
    text: str  # as the user gave it
    path: Path | None = None  # kind "path"
    repo_id: str | None = None  # kinds "space" and "dataset"
    revision: str | None = None  # pinned revision (branch, tag, `refs/pr/N` or commit id); None for the default
    url: str | None = None  # kind "url": the folder URL that holds logbook.json (ends with "/")

    @property
    def is_hub(self) -> bool:
        return self.kind in ("space", "dataset")

    @property
    def logbook_id(self) -> str | None:
        """The logbook id of a Hub source (`hf:space/OWNER/NAME`); the revision is never part of it."""
        if self.is_hub and self.repo_id:
            return _ID_PREFIX[self.kind] + self.repo_id
        if self.kind == "url" and self.url:
            return "url:" + self.url
        return None

    def describe(self) -> str:
        """How messages name the source: `Space alice/repro-x@abc1234`, `https://…/`, or the folder."""
        if self.is_hub:
            pin = f"@{self.revision}" if self.revision else ""
            return f"{self.kind.capitalize()} {self.repo_id}{pin}"
        if self.kind == "url":
            return str(self.url)
        return str(self.path)


def parse_source(text: str, *, hub_hosts: tuple[str, ...] = ()) -> SourceRef:
    """What `text` names; raises SourceError when it is none of the accepted forms.

    `hub_hosts` adds hosts (or host:port) whose `/spaces/…` and `/datasets/…` URLs count as Hub sources
    (HF_ENDPOINT's is always added).
    """
    raw = text.strip()
    if not raw:
        raise SourceError("SOURCE is empty")
    path = Path(raw).expanduser()
    if os.path.lexists(path):
        return SourceRef("path", text, path=path)
    if re.match(r"^https?://", raw, re.IGNORECASE):
        return _parse_url(text, raw, (*HUB_HOSTS, *_endpoint_hosts(), *hub_hosts))
    if "://" in raw:
        raise SourceError(f"{raw}: only http and https URLs are followed")
    return _parse_repo(text, raw)


def _parse_repo(text: str, raw: str) -> SourceRef:
    body, revision = _split_pin(raw)
    parts = body.strip("/").split("/")
    kind = "space"
    if len(parts) == 3 and parts[0] in _PREFIXES:
        kind = _PREFIXES[parts[0]]
        parts = parts[1:]
    if len(parts) != 2 or not all(_valid_segment(p) for p in parts):
        raise SourceError(
            f"{raw}: no such folder, and not a Space OWNER/NAME, a dataset datasets/OWNER/NAME or an http(s) URL "
            "(add @REVISION to pin a revision)"
        )
    return SourceRef(kind, text, repo_id="/".join(parts), revision=_checked_revision(revision, raw))  # type: ignore[arg-type]


def _parse_url(text: str, raw: str, hub_hosts: tuple[str, ...]) -> SourceRef:
    parts = urlsplit(raw)
    host = (parts.hostname or "").lower()
    if not host:
        raise SourceError(f"{raw}: the URL has no host")
    on_hub = host in hub_hosts or parts.netloc.lower() in hub_hosts
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if on_hub and segments and segments[0] in _PREFIXES:
        return _parse_hub_url(text, raw, segments)
    if on_hub and len(segments) >= 2 and "." not in segments[-1] and segments[0] != "api":
        # https://huggingface.co/OWNER/NAME is a model: say what to write instead of fetching an HTML page
        raise SourceError(
            f"{raw}: a Hub URL for a logbook names a Space (/spaces/OWNER/NAME) or a dataset (/datasets/OWNER/NAME)"
        )
    folder = parts.path
    if folder and not folder.endswith("/"):
        last = folder.rsplit("/", 1)[-1]
        folder = folder[: -len(last)] if "." in last else folder + "/"  # …/logbook.json or …/index.html
    base = urlunsplit((parts.scheme.lower(), parts.netloc, folder or "/", "", ""))
    return SourceRef("url", text, url=base)


def _parse_hub_url(text: str, raw: str, segments: list[str]) -> SourceRef:
    kind = _PREFIXES[segments[0]]
    if len(segments) < 3:
        raise SourceError(f"{raw}: expected …/{segments[0]}/OWNER/NAME")
    owner, name = segments[1], segments[2]
    name, revision = _split_pin(name)
    rest = segments[3:]
    if rest and rest[0] in ("tree", "resolve", "blob") and len(rest) >= 2:
        revision = _url_revision(rest[1:])
    if not (_valid_segment(owner) and _valid_segment(name)):
        raise SourceError(f"{raw}: {owner}/{name} is not a valid Hub repository id")
    return SourceRef(kind, text, repo_id=f"{owner}/{name}", revision=_checked_revision(revision, raw))  # type: ignore[arg-type]


def _url_revision(rest: list[str]) -> str:
    # `refs%2Fpr%2F3` arrives as one segment; an unquoted `refs/pr/3` as three
    if len(rest) >= 3 and rest[0] == "refs" and rest[1] in ("pr", "heads", "tags"):
        return "/".join(rest[:3])
    return rest[0]


def _split_pin(text: str) -> tuple[str, str | None]:
    body, at, revision = text.partition("@")
    return (body, revision) if at else (text, None)


def _checked_revision(revision: str | None, raw: str) -> str | None:
    if revision is None:
        return None
    revision = revision.strip()
    if not _REVISION.fullmatch(revision) or ".." in revision:
        raise SourceError(f"{raw}: {revision!r} is not a revision (a branch, tag, refs/pr/N or commit id)")
    return revision


def _valid_segment(part: str) -> bool:
    return bool(_SEGMENT.fullmatch(part)) and "--" not in part and ".." not in part and len(part) <= 96


def _endpoint_hosts() -> tuple[str, ...]:
    """HF_ENDPOINT's host with its port (a loopback or private Hub), so a plain server beside it stays a URL."""
    endpoint = os.environ.get("HF_ENDPOINT")
    netloc = urlsplit(endpoint).netloc if endpoint else ""
    return (netloc.lower(),) if netloc else ()
