"""Writer processes for the crash test, forked from one warm parent so that hundreds of kills stay fast.

Run as `python -m tests.core.crash_writer`. It reads commands on stdin, one per line:

    store ROOT SLUG NAME       fork a child appending notes to ROOT/reviews/SLUG.jsonl through AnnotationStore
    review WORKSPACE NAME     fork a child opening a LogbookReview and doing verdicts, notes and undo/redo

and answers `pid N` on stderr for each child. Children write `store ID` or `review ID` to stdout (one os.write
per line, atomic on a pipe) only after the append call returned, i.e. after the record was fsynced: an id on stdout is a
promise that the record survives the SIGKILL the test sends at a random moment.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import Revision, Target, make_record
from reviewapp.core.review.store import AnnotationStore

MAX_APPENDS = 5000  # a child the test forgot to kill still ends


def _say(kind: str, record_id: str) -> None:
    os.write(1, f"{kind} {record_id}\n".encode())


def store_child(root: Path, slug: str, name: str) -> None:
    store = AnnotationStore(root)
    store.known_secrets = []
    target = Target(claim="c#1", page="p")
    for number in range(MAX_APPENDS):
        record = make_record(
            "note",
            annotator=name,
            role="judge",
            target=target,
            payload={"text": f"{name} {number} " + "x" * (number % 7 * 300)},
            revision=Revision(page_sha256="0" * 64),
        )
        store.append(record, slug)
        _say("store", record.id)


def review_child(workspace: Path, name: str) -> None:
    logbook = read_logbook(workspace)
    review = LogbookReview.open(logbook, Identity(name, "command line"))
    review.store.known_secrets = []
    verdicts = ("verified", "partial", "toy", "falsified")
    for number in range(MAX_APPENDS):
        step = number % 4
        if step == 0:
            record = review.set_verdict(1 + number % 3, verdicts[number % 4], f"round {number}", confidence=2)
        elif step == 1:
            record = review.add_note(review.claim_target(1 + number % 3), f"note {number}", tags=["units mismatch"])
        elif step == 2:
            review.history.undo()
            record = review.state.record(review.state.records[-1].id)  # the undo's record
        else:
            review.history.redo()
            record = review.state.record(review.state.records[-1].id)
        assert record is not None
        _say("review", record.id)


def main() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel; the test kills them
    for line in sys.stdin:
        command, *args = line.split()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                if command == "store":
                    store_child(Path(args[0]), args[1], args[2])
                else:
                    review_child(Path(args[0]), args[1])
            except BaseException as exc:  # reported to the test, which fails on it
                os.write(2, f"error {type(exc).__name__}: {exc}\n".replace("\n", " ").encode() + b"\n")
                code = 1
            finally:
                os._exit(code)
        sys.stderr.write(f"pid {pid}\n")
        sys.stderr.flush()


if __name__ == "__main__":
    main()
