"""Build a trace index in a child process (`core.io.child_process`): the window's interpreter stays free.

The child reads the file and sends the index's columns back in batches; this side only copies them in (a few
C-level copies per batch) and publishes them, as an in-process build does. Linking the trace to the logbook's
cells runs there too, over the child's own copy of the index. Starting a child costs more than reading a first
screenful, so that screenful is read here meanwhile; the child's entries write over the same positions with the
same values.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

from reviewapp.core.io.child_process import run_in_child
from reviewapp.core.progress import CancelToken
from reviewapp.core.trace.index import FIRST_ROWS, Progress, TraceIndex
from reviewapp.core.trace.links import LinkPlan, TraceLinks

Message = tuple[Any, ...]
Recipe = tuple[type[TraceIndex], tuple[Any, ...], str]


def build_elsewhere(
    index: TraceIndex,
    plan: LinkPlan | None = None,
    cancel: CancelToken | None = None,
    progress: Progress | None = None,
    every: int = 2_000,
) -> TraceLinks | None:
    """Build `index` from a child process's batches; with a plan, return the trace's links to the cells.

    Raises what an in-process build would raise, and Cancelled when `cancel` is set.
    """

    def take(message: Message) -> None:
        if message[0] == "batch":
            _kind, starts, columns, tool_names, pairs, published = message
            index.take_batch(starts, columns, tool_names, pairs, published)
        else:
            _kind, problems, facts, sha256, size = message
            index.take_final(problems, facts, sha256, size)
        if progress is not None:
            progress(index.count)

    return run_in_child(
        _produce,
        (index.recipe(), plan, every),
        on_message=take,
        cancel=cancel,
        meanwhile=lambda: index.build(cancel, progress, every, stop_at=FIRST_ROWS),
        name="reviewapp-trace-index",
    )


def _produce(
    recipe: Recipe, plan: LinkPlan | None, every: int, *, send: Callable[[Message], None], cancel: CancelToken | None
) -> TraceLinks | None:
    """Build a fresh index from `recipe`, sending its new entries in batches and then what it found at the end."""
    cls, args, label = recipe
    index = cls(*args)
    index.label = label
    index.late_pairs = []
    index.cache_records = 2  # linking reads each call once, in order: nothing is shown again here
    sent = {name: len(getattr(index, name)) for name in index.COLUMNS}

    def send_batch(_count: int) -> None:
        starts = dict(sent)
        columns: dict[str, array[Any]] = {}
        for name in index.COLUMNS:
            column = getattr(index, name)
            columns[name] = column[starts[name] :]
            sent[name] = len(column)
        pairs, index.late_pairs = index.late_pairs or [], []
        send(("batch", starts, columns, list(index.tool_names), pairs, index.count))

    index.build(cancel, progress=send_batch, every=every)
    send(("done", index.problems, index.facts, index.sha256, index.size))
    return plan.link(index, cancel) if plan is not None else None
