"""Finding every published logbook on a paper: the challenge's Spaces whose `paper-<orid>` tag matches.

The Hub's tag filter is exact, and authors wrote the OpenReview id in whatever case, so the challenge tag is
listed in full and the paper tag is matched here, ignoring case. The listing follows the Hub's pagination
(`Link: rel="next"`) to the last page: the challenge's own discovery stopped at the first 1,000 of about 6,850
Spaces and silently lost the rest.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.core.io.hub_download import (
    DownloadLimits,
    HubRepoClient,
    hub_endpoint,
    offline_mode,
    transfer_guard,
    translate_hub_error,
)
from reviewapp.core.io.source_errors import SourceOffline, SourceUnavailable
from reviewapp.core.progress import CancelToken, ProgressCallback

if TYPE_CHECKING:
    from huggingface_hub import HfApi

CHALLENGE_TAG = "icml2026-repro"
_EXPAND = ["author", "lastModified", "tags", "sha"]


@dataclass(frozen=True)
class FoundLogbook:
    repo_id: str
    last_modified: str | None  # ISO 8601, UTC
    sha: str | None
    tags: tuple[str, ...]
    claims: int | None  # for Spaces already in the cache; None otherwise

    @property
    def owner(self) -> str:
        return self.repo_id.split("/")[0]

    @property
    def name(self) -> str:
        return self.repo_id.split("/", 1)[1]


def paper_tag_matches(tags: Iterable[str], orid: str) -> bool:
    wanted = f"paper-{orid.strip().lower()}"
    return any(isinstance(t, str) and t.strip().lower() == wanted for t in tags)


def find_logbooks(
    orid: str,
    *,
    author: str | None = None,
    tags: Sequence[str] = (),
    endpoint: str | None = None,
    token: str | None = None,
    cache_dir: Path | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    count_claims: bool = True,
    limits: DownloadLimits | None = None,
) -> list[FoundLogbook]:
    """Public Spaces tagged `icml2026-repro` on paper `orid` (and every tag in `tags`, any case), by `author`.

    Raises SourceUnavailable (offline, rate limited, refused, past the time limit of `limits`) naming the
    listing; Cancelled at once.
    """
    source = f"the Hub's list of {CHALLENGE_TAG} Spaces"
    if offline_mode():
        raise SourceOffline(source, "finding logbooks needs the Hub, and HF_HUB_OFFLINE is set")
    from huggingface_hub import HfApi

    base = (endpoint or hub_endpoint()).rstrip("/")
    api = HfApi(endpoint=base, token=token, library_name="reviewapp")
    wanted_tags = [t.strip().lower() for t in tags if t.strip()]
    try:
        with transfer_guard(source, limits or DownloadLimits(), cancel):
            found = _listed(api, base, orid, author, wanted_tags, progress, cancel)
    except SourceUnavailable:
        raise
    except Exception as exc:
        translated = translate_hub_error(exc, source, endpoint=base, logged_in=lambda: token is not None)
        if translated is None:
            raise
        raise translated from exc
    if count_claims:
        found = [_with_claims(f, base, token, cache_dir) for f in found]
    return sorted(found, key=lambda f: (f.last_modified or "", f.repo_id), reverse=True)


def _listed(
    api: HfApi,
    base: str,
    orid: str,
    author: str | None,
    wanted_tags: list[str],
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
) -> list[FoundLogbook]:
    found: list[FoundLogbook] = []
    _probe(base)
    for seen, space in enumerate(api.list_spaces(filter=CHALLENGE_TAG, author=author, expand=_EXPAND), 1):  # type: ignore[arg-type]
        if cancel is not None:
            cancel.check()
        if progress is not None and seen % 100 == 0:
            progress(seen, 0, f"{seen} Spaces listed, {len(found)} on this paper")
        space_tags = tuple(space.tags or ())
        if not paper_tag_matches(space_tags, orid):
            continue
        lowered = {t.lower() for t in space_tags}
        if any(t not in lowered for t in wanted_tags):
            continue
        modified = space.last_modified.isoformat().replace("+00:00", "Z") if space.last_modified else None
        found.append(FoundLogbook(space.id, modified, space.sha, space_tags, None))
    return found


def _probe(base: str) -> None:
    """One request without retries, so that a network that is down, a rate limit or a refusal says so at once:
    the listing itself retries connection errors with growing sleeps (about half a minute in all)."""
    from huggingface_hub.utils import get_session, hf_raise_for_status

    response = get_session().get(f"{base}/api/spaces", params={"filter": CHALLENGE_TAG, "limit": 1}, timeout=20)
    hf_raise_for_status(response)


def _with_claims(found: FoundLogbook, endpoint: str, token: str | None, cache_dir: Path | None) -> FoundLogbook:
    """The number of claims of a Space already in the cache (its last download), read without the network."""
    from reviewapp.core.logbook.locate import NotALogbookError
    from reviewapp.core.logbook.reader import read_logbook

    client = HubRepoClient("space", found.repo_id, endpoint=endpoint, token=token, cache_dir=cache_dir)
    snapshot = client.cached_snapshot(None)
    if snapshot is None:
        return found
    root = str(snapshot.extra.get("root") or "")
    try:
        logbook = read_logbook(snapshot.folder / root if root else snapshot.folder)
    except (NotALogbookError, OSError, ValueError):  # a damaged cached copy: this row shows no count
        return found
    return FoundLogbook(found.repo_id, found.last_modified, found.sha, found.tags, len(logbook.claims))
