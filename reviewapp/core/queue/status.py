"""Where a judge stands on every logbook of a queue: claims reviewed, rubric score, status, disagreements.

Status, in this order: **flagged** (the latest flag record raises the flag), **done** (every claim has this judge's
verdict and their rubric score is saved), **in progress** (some of it), **not started**. A logbook read with
problems and no claims is **broken**, with its first problem on the row.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reviewapp.core.io.hub_download import DownloadLimits
from reviewapp.core.io.source_errors import SourceUnavailable
from reviewapp.core.io.source_ref import SourceError
from reviewapp.core.logbook.broken import broken_problem
from reviewapp.core.logbook.locate import NotALogbookError
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.parse_cache import read_logbook_cached
from reviewapp.core.logbook_judge.import_paths import logbook_id_of
from reviewapp.core.logbook_judge.stored import StoredImport
from reviewapp.core.progress import CancelToken, ProgressCallback
from reviewapp.core.queue.adjudication import verdict_summary
from reviewapp.core.queue.queue_file import Queue, QueueEntry
from reviewapp.core.queue.queue_row import BROKEN, DONE, FLAGGED, IN_PROGRESS, MERGED, QueueRow
from reviewapp.core.queue.row_cache import RowCache, shared_row_cache
from reviewapp.core.queue.row_keeping import RowKeeping, fill_row
from reviewapp.core.queue.rubric import score_text
from reviewapp.core.queue.scoring import current_flag, rubric_scores
from reviewapp.core.review.replay import review_files_stamp
from reviewapp.core.review.trust import Trust
from reviewapp.core.review.workspace import ReviewWorkspace
from reviewapp.core.verdicts import Verdict

#: The challenge's points per Logbook Judge verdict; a logbook's maximum is 2 x its judged claims.
POINTS = {Verdict.VERIFIED: 2, Verdict.FALSIFIED: 2, Verdict.TOY: 1, Verdict.INCONCLUSIVE: 0}


#: Where a remote queue entry's files are: (folder, logbook id).
OpenRemote = Callable[[QueueEntry], tuple[Path, str | None]]


def download_entry(
    entry: QueueEntry, cancel: CancelToken | None = None, limits: DownloadLimits | None = None
) -> tuple[Path, str | None]:
    """A Hub or URL entry's folder: downloaded within `limits` (the user's saved ones when None, as `open` uses),
    or its cached copy when offline. Raises SourceUnavailable / SourceError, which `queue_status` reports on the
    entry's row."""
    from reviewapp.core.review.preferences import load_preferences
    from reviewapp.core.sources.opener import open_source

    opened = open_source(entry.location, limits=limits or load_preferences().download_limits(), cancel=cancel)
    return opened.folder, opened.logbook_id


def logbook_judge_points(verdicts: Mapping[str, Verdict]) -> tuple[int, int] | None:
    """(points, maximum) over the claims the Logbook Judge judged; None when it judged none."""
    judged = [v for v in verdicts.values() if v in POINTS]
    if not judged:
        return None
    return sum(POINTS[v] for v in judged), 2 * len(judged)


def stored_logbook_judge_count(stored: StoredImport | None) -> int:
    """How many claims a stored Logbook Judge import gives a verdict (0 without one, or with a damaged one)."""
    return 0 if stored is None else sum(1 for c in stored.entry.claims if c.verdict is not None)


def queue_status(
    queue: Queue,
    me: str,
    *,
    logbook_judge: bool = True,
    open_remote: OpenRemote | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    row_cache: RowCache | None = None,
    computed: Sequence[dict[str, Any] | None] = (),
) -> list[QueueRow]:
    """One row per queue entry, read through the parse cache; a logbook that cannot be read is a row with its
    problem, never the end of the queue. The review state, slots and disagreements are the ReviewWorkspace's, as in
    the review window; `logbook_judge=False` leaves the Logbook Judge out (ranking needs only the scores).

    With `row_cache`, a row whose logbook, review files and Logbook Judge import are as they were is served from
    it without reading the logbook (row_cache.py), and every row computed is kept there. `computed`, entry by
    entry, the figures `read_ahead` just computed for this judge (None: none), taken while the review files are
    as they were then."""
    rows: list[QueueRow] = []
    trust = queue_trust(queue)
    keep = RowKeeping(row_cache, me, logbook_judge, queue.roster) if row_cache is not None else None
    for done, entry in enumerate(queue.entries, start=1):
        if cancel is not None:
            cancel.check()
        figures = computed[done - 1] if done <= len(computed) else None
        row = QueueRow(entry=entry, paper=entry.paper, trust=trust)
        if figures is None or not fill_row(row, figures, str(figures.get("stamp"))):
            row = _row(entry, me, logbook_judge, open_remote, trust, keep)
        rows.append(row)
        if progress is not None:
            progress(done, len(queue.entries), entry.source)
    merge_copies(rows)
    return rows


def merge_copies(rows: list[QueueRow]) -> list[int]:
    """Mark each row that is another form of a logbook on an earlier row (its workspace and its published
    snapshot, say) as merged into it: counted once, with why on the row. Returns the rows marked."""
    found = find_copies(rows)
    for copy in found:
        mark_copy(rows, copy)
    return [copy.number for copy in found]


@dataclass(frozen=True)
class Copy:
    """Row `number` is another form of the logbook on the earlier row `twin`, for the reason `why`."""

    number: int
    twin: int
    why: str


def find_copies(rows: list[QueueRow]) -> list[Copy]:
    """The rows that are another form of a logbook on an earlier row; changes nothing, so a window can look for
    them off its GUI thread (a thousand rows take a tenth of a second) and mark them after (mark_copy).

    Only rows sharing a page file (same bytes) are compared, so a long queue is not compared pair by pair."""
    from reviewapp.core.logbook.same_logbook import sameness

    seen: dict[str, int] = {}  # a page (slug and sha256) -> the first row holding it
    found: list[Copy] = []
    for number, row in enumerate(rows):
        if row.root is None or row.problem:
            continue
        hashes = row.page_hashes
        # copies need most of their pages the same (same_logbook.MIN_PAGES): told from the rows, so only rows
        # that may be copies read their logbooks (a row served from the row cache holds none yet)
        mine = set(hashes)
        earlier = sorted(
            i for i in {seen[h] for h in hashes if h in seen} if _page_share(mine, set(rows[i].page_hashes))
        )
        logbook = row.logbook if earlier else None
        twin = next((i for i in earlier if logbook and (o := rows[i].logbook) and sameness(o, logbook).same), None)
        if twin is None or logbook is None:
            for digest in hashes:
                seen.setdefault(digest, number)
            continue
        other = rows[twin].logbook
        assert other is not None
        found.append(Copy(number, twin, sameness(other, logbook).reason))
    return found


def _page_share(a: set[str], b: set[str]) -> bool:
    from reviewapp.core.logbook.same_logbook import MIN_PAGES

    return bool(a and b) and len(a & b) / max(len(a), len(b)) >= MIN_PAGES


def mark_copy(rows: list[QueueRow], copy: Copy) -> None:
    """Mark the copy's row as merged into its twin: counted once, there, with why on the row."""
    row = rows[copy.number]
    row.status = MERGED
    row.problem = (
        f"the same logbook as row {copy.twin + 1} ({rows[copy.twin].entry.source}; {copy.why}): counted once, there"
    )
    row.claims, row.claim_keys, row.unreviewed, row.disagreements = 0, [], [], 0


def read_ahead(
    entries: list[QueueEntry],
    me: str,
    roster: Path | None,
    *,
    send: Callable[[tuple[int, dict[str, Any] | None]], None],
    cancel: CancelToken | None = None,
) -> None:
    """Read each local entry's logbook through the parse cache and keep its row in the row cache, saying the
    position of each once it is there, with the row's figures, served from the row cache or computed
    (`queue_status(computed=)` takes them while the review files are as they were: the window then neither walks
    the logbook's folder nor asks the row cache for it again); run in child processes (core/io/child_process.py)
    while the window fills the rows: parsing a thousand logbooks in a thread held the window's interpreter for a
    tenth of a second at a time, and two children have both cores. A logbook that cannot be read is left for its
    row to report."""
    keep = RowKeeping(shared_row_cache(), me, True, roster)
    trust = Trust.from_settings(roster) if roster is not None else None
    for position, entry in enumerate(entries):
        if cancel is not None:
            cancel.check()
        figures = None
        with contextlib.suppress(Exception):  # whatever it is, the row's own read says it, with its reason
            keep.stamp = keep.figures = None
            row = _row(entry, me, True, None, trust, keep)
            if row.root is not None and keep.figures is not None:  # served from the row cache, or computed here
                figures = {**keep.figures, "stamp": keep.stamp}
        send((position, figures))


def queue_trust(queue: Queue) -> Trust | None:
    """Which records count for this queue: checked against the roster it names, which wins over the settings'
    roster; None when it names none (each replay then follows the reviewer's settings)."""
    return Trust.from_settings(queue.roster) if queue.roster is not None else None


def _row(
    entry: QueueEntry,
    me: str,
    logbook_judge: bool,
    open_remote: OpenRemote | None,
    trust: Trust | None,
    keep: RowKeeping | None = None,
) -> QueueRow:
    row = QueueRow(entry=entry, paper=entry.paper, trust=trust)
    known_id: str | None = None
    try:
        if entry.remote:
            if open_remote is None:
                row.problem = "a Hub or web source: open the queue with downloads allowed to read it"
                return row
            folder, known_id = open_remote(entry)
        else:
            folder = Path(entry.location)
        lead = keep.lead(folder, known_id) if keep is not None else ""
        if keep is not None and keep.serve(row, folder, lead):
            return row
        logbook = read_logbook_cached(folder)
    except (NotALogbookError, SourceUnavailable, SourceError) as exc:
        row.problem = str(exc)  # an unreachable Space is this row's problem; the rest of the queue is usable
        return row
    except OSError as exc:
        row.problem = f"{entry.source}: {exc.strerror or exc}"
        return row
    # a Hub snapshot's folder does not say which Space it is; a folder's id costs git runs, asked once and kept
    # in the parse cache with the state of the repository around it
    logbook.explicit_id = known_id or logbook.logbook_id
    row.logbook = logbook
    row.logbook_id = logbook.explicit_id
    row.title = logbook.title
    row.paper = entry.paper or logbook.paper_id or ""
    row.page_hashes = [f"{p.slug} {p.sha256}" for p in logbook.pages]  # as same_logbook compares pages
    row.space_ids = space_ids(logbook)
    # stamped before the review is read: a review file changed meanwhile makes the kept row stale, never wrong
    stamp = review_files_stamp(logbook.root, logbook_id_of(logbook)) if keep is not None else ""
    _compute(row, logbook, me, logbook_judge, trust)
    if keep is not None:
        keep.keep(folder, lead, stamp, row, logbook.paper_id)
    return row


def space_ids(logbook: Logbook) -> list[str]:
    """The Space ids a logbook names (its own, its metadata's and its manifest's): blind mode hides them."""
    named = (logbook.space_id, logbook.metadata.get("space_id"), (logbook.manifest or {}).get("space_id"))
    return [value for value in named if isinstance(value, str) and value]


def _compute(row: QueueRow, logbook: Logbook, me: str, logbook_judge: bool, trust: Trust | None) -> None:
    """The row's figures from its logbook's review, as the ReviewWorkspace derives them."""
    workspace = ReviewWorkspace(trust=trust)
    logbook_id = workspace.open(logbook, me, logbook_judge=logbook_judge)
    state = workspace.state(logbook_id)
    assert state is not None  # a read-only opening always replays the files
    claims = workspace.rows(logbook_id)
    loaded = workspace.loaded(logbook_id)
    if loaded is not None:
        row.unverified = [f"claims to be {record.annotator} ({where})" for record, where in loaded.unverified]
    # points count the claims the judge's verdicts matched, as the review window's J badges show them
    matched = {c.key: c.slots.logbook_judge for c in claims if c.slots.logbook_judge is not None}
    row.points = logbook_judge_points(matched)
    stored = stored_logbook_judge_count(workspace.logbook_judge_import(logbook_id))
    row.unmatched_judged = max(0, stored - sum(1 for v in matched.values() if v in POINTS))
    row.claims = len(claims)
    if not claims and logbook.problems:
        row.status = BROKEN
        row.problem = broken_problem(logbook.problems)
        return
    mine = {c.key for c in claims if c.slots.human is not None}
    row.reviewed_by_me = len(mine)
    row.claim_keys = [c.key for c in claims]
    row.unreviewed = [c.key for c in claims if c.key not in mine]
    row.disagreements = sum(1 for c in claims if c.disagreement)
    scores = rubric_scores(state)
    row.scores = scores
    row.people_verdicts = verdict_summary(state).text()
    row.judges = sorted(scores)
    if me in scores:
        row.my_score = scores[me].payload.overall
        row.my_score_text = score_text(row.my_score, scores[me].payload.scale)
    flag = current_flag(state)
    if flag is not None and flag.payload.raised:
        row.status, row.flag_reason = FLAGGED, flag.payload.reason
    elif claims and not row.unreviewed and row.my_score is not None:
        row.status = DONE
    elif mine or row.my_score is not None:
        row.status = IN_PROGRESS


def points_text(row: QueueRow) -> str:
    """The Logbook Judge points as the queue shows them everywhere: "3/4", and what was left out."""
    shown = f"{row.points[0]}/{row.points[1]}" if row.points else ""
    if row.unmatched_judged:
        shown += f"{' · ' if shown else ''}{row.unmatched_judged} unmatched"
    return shown


def next_unreviewed(rows: list[QueueRow], after: tuple[int, str] | None = None) -> tuple[int, str] | None:
    """(row index, claim key) of the next claim without my verdict after `after`, crossing logbook boundaries
    and wrapping around once; None when every claim of every readable logbook has my verdict."""
    order = [(i, key) for i, row in enumerate(rows) for key in row.claim_keys]
    pending = {(i, key) for i, row in enumerate(rows) for key in row.unreviewed}
    start = order.index(after) + 1 if after in order else 0
    for position in range(len(order)):
        candidate = order[(start + position) % len(order)]
        if candidate in pending and candidate != after:
            return candidate
    return None
