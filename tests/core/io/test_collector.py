"""The cyclic collector is off while a read builds what stays, and on again when the last such read ends."""

from __future__ import annotations

import gc
import threading

from reviewapp.core.io.collector import collector_paused


def test_nested_and_concurrent_pauses_end_together() -> None:
    assert gc.isenabled()
    started, release = threading.Event(), threading.Event()

    def other_read() -> None:
        with collector_paused():
            started.set()
            release.wait(10)

    reader = threading.Thread(target=other_read)
    with collector_paused():
        kept = [[n] for n in range(1000)]
        reader.start()
        started.wait(10)
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other read is still going
    release.set()
    reader.join(10)
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(kept)  # what was built is out of the collector's full passes
    gc.unfreeze()
