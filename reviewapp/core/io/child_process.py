"""Run a long pass over a big file in a child process, so the interpreter of the process that shows it stays free.

A thread that runs Python shares the interpreter with the GUI thread: while it reads a 100,000-event trace,
every row or card the window draws waits its turn, and the window froze for a tenth of a second at a time. A
child has an interpreter of its own. What it finds comes back as messages (plain values, so that taking one in
here costs a C-level unpickle, not a Python call per item) and, at the end, as the target's return value.

`target(*args, send=..., cancel=...)` is called in the child with `send` posting a message back and no cancel
(the child is stopped instead). When no child can run, or one dies, the target runs in the calling thread with
`send` handing each message straight over, so the work still gets done, only with the window less smooth.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, NoReturn, TypeVar, cast

from reviewapp.core.progress import Cancelled, CancelToken

T = TypeVar("T")
Send = Callable[[Any], None]
POLL_S = 0.05  # how often a cancel is noticed while the child works
log = logging.getLogger(__name__)
# Set at interpreter exit before multiprocessing ends the children (its exit handler was registered by the import
# of multiprocessing.connection above, and exit handlers run in reverse): a child that dies then was stopped.
_exiting = threading.Event()
atexit.register(_exiting.set)


class ChildFailed(OSError):
    """The child process could not be started, or stopped before it finished."""


def run_in_child(
    target: Callable[..., T],
    args: tuple[Any, ...],
    *,
    on_message: Send,
    cancel: CancelToken | None = None,
    meanwhile: Callable[[], None] | None = None,
    name: str = "reviewapp-worker",
) -> T:
    """Run `target` in a spawned child; messages go to `on_message` here, in order; return what it returns.

    `meanwhile` runs here while the child starts (starting one takes longer than a first screenful of work). The
    target's own exception is raised here; Cancelled when `cancel` is set.
    """
    try:
        return _in_child(target, args, on_message, cancel, meanwhile, name, None)
    except ChildFailed as exc:
        log.warning("%s: running here instead: %s", name, exc)
    return target(*args, send=on_message, cancel=cancel)


def _in_child(
    target: Callable[..., T],
    args: tuple[Any, ...],
    on_message: Send,
    cancel: CancelToken | None,
    meanwhile: Callable[[], None] | None,
    name: str,
    timeout_s: float | None,
) -> T:
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    context = multiprocessing.get_context("spawn")  # never fork a process that runs a GUI and threads
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child_main, args=(target, args, send), name=name, daemon=True)
    try:
        child.start()
    except (OSError, RuntimeError) as exc:
        raise ChildFailed(f"could not start a child process: {exc}") from exc
    finally:
        send.close()
    try:
        if meanwhile is not None:
            meanwhile()
        while True:
            if cancel is not None:
                cancel.check()
            if not receive.poll(POLL_S):
                if not child.is_alive() and not receive.poll(0):
                    _stopped(child, cancel)
                if deadline is not None and time.monotonic() > deadline:
                    raise ChildFailed(f"no answer from the child process within {timeout_s:.0f} s")
                continue
            try:
                kind, value = receive.recv()
            except EOFError:
                child.join(1)
                _stopped(child, cancel)
            if kind == "message":
                on_message(value)
            elif kind == "result":
                return cast(T, value)
            else:  # the target's own error, raised here as if it had run here
                raise value
    finally:
        receive.close()
        if child.is_alive():
            child.terminate()
        child.join(5)
        # Not child.close(): at interpreter exit multiprocessing's own handler walks its children from the main
        # thread while this thread may still be here, and a child closed under it ends the app with a traceback
        # ("process object is closed"). The joined child is dropped from that list at the next start, and its
        # pipe is closed when the object goes.


def probe(timeout_s: float = 60) -> str | None:
    """Start a child process and hear from it: None when that works here, else why not."""
    try:
        answer = _in_child(_answer, (), lambda _message: None, None, None, "reviewapp-probe", timeout_s)
    except (ChildFailed, Cancelled) as exc:
        return str(exc) or "the child process was stopped"
    return None if answer == "ready" else f"the child process answered {answer!r}"


def _answer(*, send: Send, cancel: CancelToken | None) -> str:
    return "ready"


def _stopped(child: multiprocessing.process.BaseProcess, cancel: CancelToken | None) -> NoReturn:
    # Asked to stop (cancelled, the app exiting, the system shutting down): that is a cancel. Anything else
    # (killed for memory, crashed) leaves the work to this process.
    asked = _exiting.is_set() or (cancel is not None and cancel.cancelled)
    if asked or child.exitcode in (-signal.SIGTERM, -signal.SIGINT):
        raise Cancelled()
    raise ChildFailed(f"the child process stopped (exit code {child.exitcode})")


def _child_main(target: Callable[..., Any], args: tuple[Any, ...], send: Connection) -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.nice(5)  # the window's process comes first on a busy machine
    try:
        result = target(*args, send=lambda value: send.send(("message", value)), cancel=None)
        send.send(("result", result))
    except Exception as exc:  # sent to the parent, which raises it as its own
        with contextlib.suppress(Exception):
            send.send(("failed", exc))
    finally:
        send.close()
