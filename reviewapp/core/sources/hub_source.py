"""Opening a logbook published as a Space or dataset: download its files into the Hub cache, or reopen the cache.

Online, the revision is resolved to a commit first and every file is fetched at that commit. A pinned commit
that was downloaded completely before opens from the cache without asking the Hub (a commit never changes).
With HF_HUB_OFFLINE=1, or when the Hub cannot be reached, the last complete download of that revision opens
instead, and the window says it is a cached copy and of which commit.

Reviews proposed in open pull requests (their `reviews/` folders) are downloaded too; failing to get them never
stops the logbook from opening (a note says so).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reviewapp.core.io.hub_download import (
    CachedSnapshot,
    DownloadLimits,
    DownloadMeter,
    HubRepoClient,
    RemoteFile,
    check_size,
    offline_mode,
    transfer_guard,
)
from reviewapp.core.io.source_errors import NotALogbookSource, SourceOffline, SourceUnavailable
from reviewapp.core.io.source_ref import SourceRef
from reviewapp.core.io.transfer_guard import stopped_reason
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.sources.opened import OpenedSource, ProposedReviews
from reviewapp.core.sources.selection import (
    PAIR_MANIFEST_SUFFIXES,
    Selection,
    csv_named_files,
    pair_named_files,
    select_logbook_files,
)

MAX_PROPOSALS = 100  # open pull requests read for proposed reviews
MAX_PROPOSAL_ENTRIES = 10_000  # entries of one pull request's reviews/ listing


def open_hub_source(
    ref: SourceRef,
    *,
    limits: DownloadLimits | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    endpoint: str | None = None,
    token: str | None = None,
    cache_dir: Path | None = None,
    proposed: bool = True,
) -> OpenedSource:
    if ref.repo_id is None or ref.kind not in ("space", "dataset"):
        raise ValueError(f"not a Hub source: {ref.text!r}")
    limits = limits or DownloadLimits()
    client = HubRepoClient(ref.kind, ref.repo_id, endpoint=endpoint, token=token, cache_dir=cache_dir)
    name = ref.describe()
    if offline_mode():
        return _from_cache(
            ref, client, "HF_HUB_OFFLINE is set", never="HF_HUB_OFFLINE is set and it was never downloaded"
        )
    pinned = client.cached_snapshot(ref.revision) if ref.revision and _is_commit(ref.revision) else None
    if pinned is not None:
        return _opened(ref, client, pinned, cached=False)
    with transfer_guard(name, limits, cancel) as guard:
        return _download(ref, client, limits, guard.started, progress, cancel, proposed)


def _download(
    ref: SourceRef,
    client: HubRepoClient,
    limits: DownloadLimits,
    started: float,
    progress: ProgressCallback | None,
    cancel: CancelToken | None,
    proposed: bool,
) -> OpenedSource:
    name = ref.describe()
    try:
        commit = client.resolve(ref.revision)
    except SourceOffline as exc:
        return _from_cache(ref, client, "the Hub cannot be reached", never=exc.problem)
    listing = client.list_files(commit, max_entries=limits.max_listing_entries)
    selection = select_logbook_files(listing, limits)
    if selection is None:
        raise NotALogbookSource(
            f"{name} at {commit[:12]}",
            "not a logbook (no pages/index.md, or logbook.json beside pages/, anywhere in it)",
        )
    check_size(name, selection.files, limits)
    meter = DownloadMeter(
        selection.files, source=name, limits=limits, progress=progress, cancel=cancel, started=started
    )
    folder = client.fetch(commit, selection.files, meter)
    files = [f.path for f in selection.files]
    extra = _pair_files(folder, selection, listing)
    if extra:
        check_size(name, [*selection.files, *extra], limits)
        meter.add(extra)
        client.fetch(commit, extra, meter)
        files += [f.path for f in extra]
    notes = _left_out_note(selection)
    reviews: list[dict[str, Any]] = []
    if proposed and ref.kind == "space":
        reviews, note = _proposed(client, selection.root, meter)
        notes += note
    client.remember(ref.revision, commit, files, {"root": selection.root, "proposed": reviews, "notes": notes})
    snapshot = client.cached_snapshot(commit)
    if snapshot is None:  # removed under our feet (a cache cleaner); say so rather than open half a logbook
        raise SourceUnavailable(name, f"the downloaded files vanished from {client.storage_folder}")
    return _opened(ref, client, snapshot, cached=False)


def open_hub_cache(ref: SourceRef, client: HubRepoClient, *, because: str, never: str) -> OpenedSource:
    """The last complete download of `ref`, without a request; SourceOffline(`never`) when there is none."""
    return _from_cache(ref, client, because, never=never)


def _from_cache(ref: SourceRef, client: HubRepoClient, because: str, *, never: str) -> OpenedSource:
    snapshot = client.cached_snapshot(ref.revision)
    if snapshot is None:
        raise SourceOffline(ref.describe(), never)
    return _opened(ref, client, snapshot, cached=True, because=because)


def _opened(
    ref: SourceRef, client: HubRepoClient, snapshot: CachedSnapshot, *, cached: bool, because: str | None = None
) -> OpenedSource:
    root = str(snapshot.extra.get("root") or "")
    proposed = [
        ProposedReviews(
            int(p["num"]),
            str(p.get("title", "")),
            str(p.get("author", "")),
            str(p.get("url", "")),
            str(p["commit"]),
            client.snapshot_folder(str(p["commit"])) / root / "reviews",
        )
        for p in snapshot.extra.get("proposed", [])
        if isinstance(p, dict) and "num" in p and "commit" in p
    ]
    notes = [n for n in snapshot.extra.get("notes", []) if isinstance(n, str)]
    return OpenedSource(
        ref,
        snapshot.folder / root if root else snapshot.folder,
        ref.logbook_id,
        revision=snapshot.commit,
        cached=cached,
        cached_because=because,
        downloaded_at=snapshot.downloaded_at or None,
        containment_root=client.storage_folder,
        proposed_reviews=proposed,
        notes=notes,
    )


def _pair_files(folder: Path, selection: Selection, listing: list[RemoteFile]) -> list[RemoteFile]:
    """Files the downloaded pair-set manifests name that the selection left out (large images, usually)."""
    chosen = {f.path for f in selection.files}
    named: set[str] = set()
    for remote in selection.files:
        if remote.path.endswith(PAIR_MANIFEST_SUFFIXES):
            try:
                data = (folder / remote.path).read_bytes()
            except OSError:
                continue
            named |= pair_named_files(remote.path, data, listing)
    for csv_path in sorted(p for p in named if p.endswith(".csv") and p in chosen):
        try:
            named |= csv_named_files(csv_path, (folder / csv_path).read_bytes(), listing)
        except OSError:
            continue
    by_path = {f.path: f for f in listing}
    return [by_path[p] for p in sorted(named - chosen) if p in by_path]


def _proposed(client: HubRepoClient, root: str, meter: DownloadMeter) -> tuple[list[dict[str, Any]], list[str]]:
    """Download the review files of every open pull request; problems become a note, never a failure.

    Anyone may open a pull request, so what one adds is bounded: its files count against the logbook's limits,
    a review file over `limits.max_proposed_file_bytes` is left out (and said so), and at most MAX_PROPOSALS
    pull requests are read. The deadline and cancel stop the logbook's open as they would anywhere else.
    """
    found: list[dict[str, Any]] = []
    most = meter.limits.max_proposed_file_bytes
    skipped: list[str] = []
    notes: list[str] = []
    try:
        requests = client.open_pull_requests(MAX_PROPOSALS + 1)
        if len(requests) > MAX_PROPOSALS:
            notes.append(f"only the first {MAX_PROPOSALS} open pull requests were read")
        for pr in requests[:MAX_PROPOSALS]:
            commit = client.resolve(pr.ref)
            listed = client.list_files(commit, f"{root}reviews", max_entries=MAX_PROPOSAL_ENTRIES)
            reviews = [f for f in listed if f.path.endswith(".jsonl")]
            files = [f for f in reviews if f.size <= most]
            skipped += [f"#{pr.num} {f.path}" for f in reviews if f.size > most]
            meter.add(files)
            client.fetch(commit, files, meter)
            found.append({"num": pr.num, "title": pr.title, "author": pr.author, "url": pr.url, "commit": commit})
    except SourceUnavailable as exc:
        if stopped_reason() is not None:
            raise  # the deadline or the total: the whole open stops, as it would on the logbook's own files
        notes.append(f"reviews proposed in pull requests could not all be read: {exc.problem}")
    if skipped:
        notes.append(f"proposed review files over {most:,} bytes were left out: {', '.join(skipped[:3])}")
    return found, notes


def _left_out_note(selection: Selection) -> list[str]:
    if not selection.left_out:
        return []
    names = ", ".join(f.path for f in selection.left_out[:3])
    more = f" and {len(selection.left_out) - 3} more" if len(selection.left_out) > 3 else ""
    return [f"large files outside the logbook's pages were not downloaded: {names}{more}"]


def _is_commit(revision: str) -> bool:
    return len(revision) == 40 and all(c in "0123456789abcdef" for c in revision)
