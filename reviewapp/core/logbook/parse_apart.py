"""Parse a large logbook into the parse cache in a child process, so the interpreter of the process that shows it
stays free meanwhile.

A window reads the rest of a logbook while it shows the start (the preview). Read in a thread, that parse holds
the interpreter for most of a second on a 200-claim logbook, and every card the window builds or paints meanwhile
waits its turn for it: the window stalled for 50-70 ms at a time. A child (core/io/child_process.py) parses with
an interpreter of its own and stores the entry; this process then takes the logbook from the parse cache, which
costs a tenth of parsing it. A small logbook is parsed here: starting a child costs more than reading it, and a
window shows no start of it first (see LARGE_PAGES_BYTES).
"""

from __future__ import annotations

import os
from pathlib import Path

from reviewapp.core.io.child_process import Send, run_in_child
from reviewapp.core.logbook.locate import NotALogbookError, locate
from reviewapp.core.logbook.logbook_id import LogbookId
from reviewapp.core.logbook.parse_cache import is_cached, read_logbook_cached
from reviewapp.core.progress import CancelToken, ProgressCallback

# A logbook with this many bytes of pages or more is large: parsed by a child (below, a child takes longer to start
# than the logbook takes to read here: a quarter second), and a window shows its start meanwhile (below, reading it
# whole shows its first claim about as soon, and the window draws it once, not twice).
LARGE_PAGES_BYTES = 4_000_000


def is_large(source: Path, *, logbook_id: LogbookId | None = None) -> bool:
    """Whether `source` is a large logbook that the parse cache does not serve yet (see LARGE_PAGES_BYTES)."""
    return not is_cached(source, logbook_id=logbook_id) and pages_bytes(source) >= LARGE_PAGES_BYTES


def parse_apart(
    source: Path,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    *,
    logbook_id: LogbookId | None = None,
    large: bool | None = None,
) -> None:
    """Parse `source` into the parse cache in a child process when it is large and not cached yet (`large`: what
    `is_large` said of it, when the caller asked already), passing on the child's progress;
    `read_logbook_cached(source, logbook_id=logbook_id)` then serves it whole (`logbook_id`: the id a download
    knows, as the reader takes it). Otherwise nothing is done here, and the caller's own read parses it. The
    child's errors are raised here (Cancelled when `cancel` is set); when no child can run, the parse runs here
    instead (core/io/child_process.py)."""
    if not (is_large(source, logbook_id=logbook_id) if large is None else large):
        return

    def told(message: tuple[int, int, str]) -> None:
        if progress is not None:
            progress(*message)

    run_in_child(_parse, (str(source), logbook_id), on_message=told, cancel=cancel, name="reviewapp-read")


def pages_bytes(source: Path) -> int:
    """The size of the logbook's pages folder (0 when `source` is no logbook: the read says why)."""
    try:
        pages = locate(source).root / "pages"
    except (NotALogbookError, OSError):
        return 0
    total, stack = 0, [str(pages)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file():  # a Hub download's files are links into its cache's blobs
                    total += entry.stat().st_size
            except OSError:
                continue
    return total


def _parse(source: str, logbook_id: LogbookId | None, *, send: Send, cancel: CancelToken | None) -> None:
    """(the child) Read `source` through the parse cache, which stores it; progress goes back as messages."""

    def told(done: int, total: int, page: str) -> None:
        send((done, total, page))

    read_logbook_cached(Path(source), told, cancel, logbook_id=logbook_id)
