"""SIGKILL at random moments, hundreds of times, while records are appended: every id a writer printed (it prints
only after the record is on disk) is there afterwards, and every file still validates.

No assertion depends on how fast the machine is: most kills wait until the writer has reported a chosen number of
saved records (0 to 3) and then strike at a random moment, so that kills after saving and the records written are
counted from what was waited for, not from what a busy machine managed to do in a fixed time.

Writers are forked from one warm parent (tests/core/crash_writer.py), so a kill costs milliseconds instead of an
interpreter start; a few real `reviewapp annotate` processes are killed as well. Takes well under a minute and
runs in CI like any other test (`-m "not slow"` leaves it out locally).
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import jsonschema
import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.records import parse_line
from reviewapp.core.review.store import AnnotationStore
from tests.core.annotation_helpers import small_logbook, subprocess_env

REPO = Path(__file__).resolve().parents[3]
WRITER_KILLS = 300
CLI_KILLS = 12
SAVED_BEFORE_KILL = (0, 1, 1, 2, 3)  # records a writer reports before the kill may come (0: at any moment)
WAIT_FOR_WRITES_S = 120  # only a stuck writer takes this long, however busy the machine


def _drain(stream, sink: list[str] | queue.Queue) -> None:  # type: ignore[no-untyped-def]
    for raw in stream:
        line = raw.decode("utf-8", "replace").strip()
        if line:
            if isinstance(sink, list):
                sink.append(line)
            else:
                sink.put(line)


def _validate(root: Path, printed: set[str]) -> tuple[int, int]:
    """Load (setting torn tails aside), then check every id and every line; returns (records, set-aside files)."""
    store = AnnotationStore(root)
    loaded = store.load()
    assert loaded.errors == [], [str(e) for e in loaded.errors]
    found = {record.id for record, _ in loaded.records}
    missing = printed - found
    assert not missing, f"{len(missing)} printed ids lost, e.g. {sorted(missing)[:3]}"
    again = store.load()
    assert again.issues == [] and again.repairs == []
    folder = root / "reviews"
    schema = json.loads((folder / "SCHEMA.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    lines = 0
    for path in store.files():
        data = path.read_bytes()
        assert not data or data.endswith(b"\n"), path  # empty: killed between creating and writing
        for line in data.splitlines():
            parse_line(line)
            assert not list(validator.iter_errors(json.loads(line))), (path, line[:80])
            lines += 1
    aside = [p for p in folder.iterdir() if ".torn-" in p.name]
    assert all(not p.name.endswith(".jsonl") for p in aside)
    return lines, len(aside)


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_that_was_reported_saved(tmp_path: Path) -> None:
    seed = int(os.environ.get("REVIEWAPP_CRASH_SEED") or time.time_ns() % 1_000_000)
    rng = random.Random(seed)
    store_root = read_logbook(small_logbook(tmp_path, "store-target")).root
    review_workspace = small_logbook(tmp_path, "review-target")
    home = tmp_path / "home"
    home.mkdir()
    env = subprocess_env(home)

    zygote = subprocess.Popen(
        [sys.executable, "-m", "tests.core.crash_writer"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    assert zygote.stdin is not None and zygote.stdout is not None and zygote.stderr is not None
    printed: list[str] = []
    control: queue.Queue[str] = queue.Queue()
    readers = [
        threading.Thread(target=_drain, args=(zygote.stdout, printed), daemon=True),
        threading.Thread(target=_drain, args=(zygote.stderr, control), daemon=True),
    ]
    for reader in readers:
        reader.start()
    errors: list[str] = []

    def fork(command: str) -> int:
        zygote.stdin.write(command.encode() + b"\n")  # type: ignore[union-attr]
        zygote.stdin.flush()  # type: ignore[union-attr]
        while True:
            line = control.get(timeout=30)
            if line.startswith("pid "):
                return int(line.split()[1])
            errors.append(line)

    pids: list[int] = []
    killed_after_saving = 0
    waited_kills = 0  # kills that came only after the writer reported saving
    waited_records = 0
    for iteration in range(WRITER_KILLS):
        kind = iteration % 10
        if kind <= 5:
            commands = [f"store {store_root} w{iteration % 3} W{iteration % 3}"]
        elif kind == 6:
            commands = [f"store {store_root} f{iteration} F{iteration}"]  # killed while creating the file
        elif kind == 7:
            commands = [f"store {store_root} w0 W0", f"store {store_root} w0 W0"]  # two writers, one owner
        else:
            commands = [f"review {review_workspace} S{iteration % 2}"]
        before = len(printed)
        children = [fork(command) for command in commands]
        pids.extend(children)
        wanted = SAVED_BEFORE_KILL[(iteration // 10) % len(SAVED_BEFORE_KILL)]  # every kind of writer gets each
        if wanted:
            deadline = time.monotonic() + WAIT_FOR_WRITES_S
            while len(printed) < before + wanted:
                assert time.monotonic() < deadline, f"a writer saved nothing in {WAIT_FOR_WRITES_S} s (seed {seed})"
                time.sleep(0.002)
            waited_kills += 1
            waited_records += wanted
            time.sleep(rng.uniform(0, 0.01))  # then a random moment: mid-append as often as between appends
        else:
            time.sleep(rng.uniform(0, 0.12 if kind >= 8 else 0.03))
        for pid in children:
            os.kill(pid, signal.SIGKILL)
        if len(printed) > before:
            killed_after_saving += 1
    zygote.stdin.close()
    assert zygote.wait(timeout=30) == 0
    for reader in readers:
        reader.join(timeout=10)
    for pid in pids:  # every child is gone (killed and reaped) before anything is checked
        deadline = time.monotonic() + 5
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            assert time.monotonic() < deadline, f"child {pid} survived SIGKILL"
            time.sleep(0.01)
    errors.extend(line for line in iter(lambda: control.get_nowait() if not control.empty() else None, None))
    assert errors == [], f"writer errors (seed {seed}): {errors[:5]}"

    cli_printed: list[str] = []
    cli_env = {**env, "REVIEWAPP_CONFIG_DIR": str(home / "cli-config")}
    for number in range(CLI_KILLS):
        process = subprocess.Popen(
            [sys.executable, "-m", "reviewapp", "annotate", str(review_workspace), "--claim", str(1 + number % 3),
             "--verdict", "toy", "--rationale", f"cli {number}", "--annotator", f"CLI {number % 2}"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=cli_env,
        )  # fmt: skip
        time.sleep(rng.uniform(0.1, 1.2))
        process.send_signal(signal.SIGKILL)
        out, _ = process.communicate(timeout=30)
        cli_printed.extend(line for line in out.decode().split() if line)

    store_ids = {line.split()[1] for line in printed if line.startswith("store ")}
    review_ids = {line.split()[1] for line in printed if line.startswith("review ")}
    assert len(store_ids) + len(review_ids) == len(set(printed)) >= waited_records, f"ids lost (seed {seed})"
    assert killed_after_saving >= waited_kills > WRITER_KILLS // 2
    store_lines, store_aside = _validate(store_root, store_ids)
    review_lines, review_aside = _validate(read_logbook(review_workspace).root, review_ids | set(cli_printed))
    print(
        f"crash test (seed {seed}): {WRITER_KILLS} writer kills ({killed_after_saving} after saving), {CLI_KILLS} "
        f"CLI kills ({len(cli_printed)} printed an id); {store_lines + review_lines} lines, "
        f"{len(store_ids) + len(review_ids) + len(cli_printed)} printed ids, {store_aside + review_aside} set aside"
    )
