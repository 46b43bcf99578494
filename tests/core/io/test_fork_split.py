"""split_map: a forked child takes items from the end while this process takes them from the start, only where
that is safe, and the answer is always the plain loop's. Each check runs in a fresh interpreter, so that no thread
an earlier test left behind decides it. Where a check needs both sides to take items, one side waits for a file
the other writes, so that no check depends on how fast either runs."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reviewapp.core.io.fork_split import can_fork, split_map

REPO = Path(__file__).resolve().parents[3]
LINUX_WITH_TWO_CPUS = sys.platform.startswith("linux") and len(__import__("os").sched_getaffinity(0)) >= 2


def run_fresh(script: str, *args: str) -> dict:
    """Run `script` in a new interpreter; it prints one JSON object, returned here."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


needs_fork = pytest.mark.skipif(not LINUX_WITH_TWO_CPUS, reason="a forked helper runs only on Linux with two CPUs")


@needs_fork
def test_the_child_takes_items_from_the_end_and_the_results_keep_their_order(tmp_path: Path) -> None:
    found = run_fresh(
        """
        import json, os, sys, time
        from pathlib import Path
        from reviewapp.core.io.fork_split import split_map
        me, started = os.getpid(), Path(sys.argv[1])
        def square(n):
            if os.getpid() != me:
                started.touch()
            else:
                while not started.exists():  # this process waits until the child has taken an item
                    time.sleep(0.001)
            time.sleep(0.002)
            return n * n, os.getpid()
        out = split_map(square, list(range(40)), lambda n: 10, min_weight=0)
        print(json.dumps({"values": [v for v, _ in out], "pids": [p for _, p in out], "me": me}))
        """,
        str(tmp_path / "child-started"),
    )
    assert found["values"] == [n * n for n in range(40)]
    pids = found["pids"]
    assert pids[0] == found["me"]  # the head is computed here
    assert pids[-1] != found["me"]  # the tail by the child
    cut = pids.index(pids[-1])
    assert set(pids[:cut]) == {found["me"]} and set(pids[cut:]) == {pids[-1]}  # each side one run of items


@needs_fork
def test_this_process_takes_over_what_a_slow_child_has_not_taken(tmp_path: Path) -> None:
    """The child stalls on its first item (the last) until this process has reached the one before it: this
    process computes all the others, and waits only for that one item."""
    found = run_fresh(
        """
        import json, os, sys, time
        from pathlib import Path
        from reviewapp.core.io.fork_split import split_map
        me, folder = os.getpid(), Path(sys.argv[1])
        def square(n):
            if os.getpid() != me:
                (folder / "child-started").touch()
                while not (folder / "reached-8").exists():
                    time.sleep(0.001)
            elif n == 0:
                while not (folder / "child-started").exists():
                    time.sleep(0.001)
            elif n == 8:
                (folder / "reached-8").touch()
            return n * n, os.getpid()
        out = split_map(square, list(range(10)), lambda n: 1, min_weight=0)
        print(json.dumps({"values": [v for v, _ in out], "pids": [p for _, p in out], "me": me}))
        """,
        str(tmp_path),
    )
    assert found["values"] == [n * n for n in range(10)]
    assert found["pids"][:9] == [found["me"]] * 9
    assert found["pids"][9] != found["me"]


@needs_fork
def test_the_callers_own_work_runs_here_once_while_the_child_starts(tmp_path: Path) -> None:
    found = run_fresh(
        """
        import json, os, sys, time
        from pathlib import Path
        from reviewapp.core.io.fork_split import split_map
        me, started = os.getpid(), Path(sys.argv[1])
        order = []
        def first():
            while not started.exists():  # the child computes while the caller's work runs here
                time.sleep(0.001)
            order.append(("first", os.getpid()))
        def square(n):
            if os.getpid() != me:
                started.touch()
            order.append(("item", os.getpid()))
            return n * n
        out = split_map(square, list(range(10)), lambda n: 1, min_weight=0, first=first)
        print(json.dumps({"values": out, "order": order, "me": me}))
        """,
        str(tmp_path / "child-started"),
    )
    assert found["values"] == [n * n for n in range(10)]
    assert found["order"][0] == ["first", found["me"]]
    assert [kind for kind, _ in found["order"]].count("first") == 1


def test_the_callers_own_work_runs_first_without_a_child_too() -> None:
    order: list[str] = []
    out = split_map(lambda n: order.append("item") or n, [1, 2, 3], lambda n: 1, first=lambda: order.append("first"))
    assert out == [1, 2, 3]
    assert order == ["first", "item", "item", "item"]


@needs_fork
def test_a_child_that_fails_leaves_its_share_to_this_process() -> None:
    found = run_fresh(
        """
        import json, os
        from reviewapp.core.io.fork_split import split_map
        me = os.getpid()
        def square(n):
            if os.getpid() != me:
                raise RuntimeError("the child breaks")
            return n * n
        out = split_map(square, list(range(10)), lambda n: 1, min_weight=0)
        print(json.dumps({"values": out}))
        """
    )
    assert found["values"] == [n * n for n in range(10)]


@needs_fork
def test_results_that_cannot_be_taken_from_the_child_are_computed_here(tmp_path: Path) -> None:
    """Results the child wrote whole but this process cannot unpickle: the child's share is computed here."""
    found = run_fresh(
        """
        import json, os, sys, time
        from pathlib import Path
        from reviewapp.core.io.fork_split import split_map
        me, written = os.getpid(), Path(sys.argv[1])
        def refuse():
            raise ValueError("cannot be rebuilt here")
        class Square(int):
            def __reduce__(self):
                written.touch()
                return (refuse, ())
        def square(n):
            if os.getpid() != me:
                return Square(n * n), os.getpid()
            while not written.exists():  # this process starts once the child has written a result
                time.sleep(0.001)
            return n * n, os.getpid()
        out = split_map(square, list(range(12)), lambda n: 1, min_weight=0)
        print(json.dumps({"values": [int(v) for v, _ in out], "pids": sorted({p for _, p in out}), "me": me}))
        """,
        str(tmp_path / "written"),
    )
    assert found["values"] == [n * n for n in range(12)]
    assert found["pids"] == [found["me"]]


@needs_fork
@pytest.mark.parametrize("where", ["an item", "the caller's own work"])
def test_an_error_here_stops_the_child_and_leaves_no_process_behind(where: str) -> None:
    found = run_fresh(
        """
        import json, os, sys, time
        from reviewapp.core.io.fork_split import split_map
        me, where = os.getpid(), sys.argv[1]
        def slow_there(n):
            if os.getpid() != me:
                time.sleep(60)  # the child would outlive this process without being stopped
            elif n == 1 and where == "an item":
                raise ValueError("a bad item here")
            return n
        def first():
            if where != "an item":
                raise ValueError("the caller's work fails")
        try:
            split_map(slow_there, list(range(4)), lambda n: 1, min_weight=0, first=first)
            raised = False
        except ValueError:
            raised = True
        try:
            os.waitpid(-1, os.WNOHANG)
            children = True
        except ChildProcessError:
            children = False
        print(json.dumps({"raised": raised, "children": children}))
        """,
        where,
    )
    assert found == {"raised": True, "children": False}


@needs_fork
def test_no_child_while_another_thread_runs() -> None:
    found = run_fresh(
        """
        import json, os, threading
        from reviewapp.core.io.fork_split import can_fork, split_map
        alone = can_fork()
        stop = threading.Event()
        other = threading.Thread(target=stop.wait)
        other.start()
        try:
            pids = split_map(lambda n: os.getpid(), list(range(8)), lambda n: 1, min_weight=0)
            with_thread = can_fork()
        finally:
            stop.set()
            other.join()
        print(json.dumps({"alone": alone, "with_thread": with_thread, "pids": sorted(set(pids)), "me": os.getpid()}))
        """
    )
    assert found["alone"] is True
    assert found["with_thread"] is False
    assert found["pids"] == [found["me"]]


def test_small_work_stays_here() -> None:
    import os

    pids = split_map(lambda n: os.getpid(), list(range(8)), lambda n: 1)  # 8 units: far below a fork's worth
    assert set(pids) == {os.getpid()}
    assert isinstance(can_fork(), bool)


@needs_fork
def test_claims_found_with_a_second_cpu_equal_those_found_with_one(tmp_path: Path) -> None:
    script = """
        import json, sys
        from reviewapp.core.io import fork_split
        from reviewapp.core.logbook.parse_cache import encode
        from reviewapp.core.logbook.reader import read_logbook
        forks = []
        start = fork_split._Child.start
        fork_split._Child.start = lambda *a: forks.append(1) or start(*a)
        fork_split.MIN_WEIGHT = int(sys.argv[2])
        logbook = read_logbook(sys.argv[1])
        print(json.dumps({"forks": len(forks), "claims": encode(logbook.claims)}))
        """
    root = _many_claims(tmp_path)
    split = run_fresh(script, str(root), "0")
    plain = run_fresh(script, str(root), str(10**12))
    assert split["forks"] == 1 and plain["forks"] == 0
    assert len(plain["claims"]) == 12
    assert split["claims"] == plain["claims"]
    assert len({c["verdict"] for c in plain["claims"]}) >= 3  # statements of several kinds were read


def _many_claims(tmp_path: Path, *, odd_pages: bool = False) -> Path:
    """Twelve claims stated in different ways (labels, bold, headings, passing words, a run's JSON); with
    `odd_pages`, the first and the last claim's pages have a cell whose header is not JSON."""
    from reviewapp.core.logbook.writer import LogbookDraft

    draft = LogbookDraft("Reproduction: Many Findings")
    ways = [
        "**Verdict: VERIFIED.** The gap closes within a point.",
        "Outcome: falsified — the bound fails at n = 64.",
        "## Result\n\n**Verdict: TOY** (2 seeds instead of 20).",
        "We could not confirm this; the run failed twice. Verdict: inconclusive.",
        "The claim is **partially verified**: two of three settings hold.",
        "✅ Reproduced on the full benchmark.",
    ]
    for n in range(1, 13):
        page = draft.page(f"Claim {n}: Finding number {n}")
        page.markdown(f"> The paper says finding {n} holds.", title="Claim")
        page.run(["python", f"exp_{n}.py"], '{"verdict": "verified", "score": 0.9}', title="Check")
        page.markdown(ways[n % len(ways)], title="Verdict")
        if odd_pages and n in (1, 12):
            page.raw_cell('{"type": "markdown", "title": ', f"A cell of claim {n} whose header is cut short.")
    return draft.write(tmp_path / "workspace")


_READ_PAGES = """
    import json, sys
    from pathlib import Path
    from reviewapp.core.io import fork_split
    from reviewapp.core.logbook import reader
    from reviewapp.core.logbook.parse_cache import CacheStats, encode, read_logbook_cached
    forks = []
    start = fork_split._Child.start
    fork_split._Child.start = lambda *a: forks.append(1) or start(*a)
    reader.SHARED_READ_WEIGHT = int(sys.argv[2])
    fork_split.MIN_WEIGHT = 10**12  # the claims in one process: only the pages' reading differs
    cache = Path(sys.argv[3])
    stats = CacheStats()
    logbook = read_logbook_cached(sys.argv[1], folder=cache, stats=stats)
    (records,) = [json.loads(p.read_text()) for p in cache.glob("*.cells")]
    print(json.dumps({
        "forks": len(forks), "parsed": stats.parsed, "recalled": stats.recalled,
        "pages": encode(logbook.pages), "problems": encode(logbook.problems), "claims": encode(logbook.claims),
        "records": records["pages"],
    }))
    """


@needs_fork
def test_pages_read_with_a_second_cpu_equal_those_read_with_one(tmp_path: Path) -> None:
    """Pages, their problems in page order, the claims and the parse cache's records are those of one process,
    and a changed page is parsed again alone when the others are recalled in the child as here."""
    root = _many_claims(tmp_path, odd_pages=True)
    split = run_fresh(_READ_PAGES, str(root), "0", str(tmp_path / "cache-split"))
    plain = run_fresh(_READ_PAGES, str(root), str(10**12), str(tmp_path / "cache-plain"))
    assert split["forks"] == 1 and plain["forks"] == 0
    assert [p["slug"] for p in plain["pages"]][-1] == "claim-12-finding-number-12"
    assert len(plain["problems"]) >= 2  # the odd pages' problems, on pages read by either process
    for key in ("pages", "problems", "claims", "records", "parsed"):
        assert split[key] == plain[key], key
    assert split["parsed"] == len(plain["pages"])

    changed = root / "pages" / "claim-2-finding-number-2" / "page.md"
    changed.write_text(changed.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    again = run_fresh(_READ_PAGES, str(root), "0", str(tmp_path / "cache-split"))
    assert again["forks"] == 1
    assert (again["parsed"], again["recalled"]) == (1, len(plain["pages"]) - 1)


@needs_fork
def test_pages_that_may_not_fit_the_budget_are_read_in_order(tmp_path: Path) -> None:
    small_budget = "reader.LOGBOOK_LIMIT, reader.PAGE_FLOOR = 3_000, 300"
    script = _READ_PAGES.replace("reader.SHARED_READ_WEIGHT", f"{small_budget}; reader.SHARED_READ_WEIGHT")
    found = run_fresh(script, str(_many_claims(tmp_path)), "0", str(tmp_path / "cache"))
    assert found["forks"] == 0
    assert any("left of the logbook's budget" in p["message"] for p in found["problems"])


@needs_fork
def test_work_run_apart_runs_in_a_child_that_wait_apart_waits_for(tmp_path: Path) -> None:
    found = run_fresh(
        """
        import json, os, sys, time
        from pathlib import Path
        from reviewapp.core.io.fork_split import run_apart, wait_apart
        out, go = Path(sys.argv[1]), Path(sys.argv[1] + ".go")
        def work():
            waited = time.monotonic()
            while not go.exists() and time.monotonic() - waited < 30:  # still working when this process goes on
                time.sleep(0.001)  # (the limit only ends a run where the work was not apart: it then fails)
            out.write_text(str(os.getpid()))
        run_apart(work)
        went_on = not out.exists()
        go.touch()
        wait_apart()
        try:
            os.waitpid(-1, os.WNOHANG)
            children = True
        except ChildProcessError:
            children = False
        print(json.dumps({"went_on": went_on, "by": int(out.read_text()), "me": os.getpid(), "children": children}))
        """,
        str(tmp_path / "written"),
    )
    assert found["went_on"] is True
    assert found["by"] != found["me"]
    assert found["children"] is False


def test_work_run_apart_runs_here_where_no_child_may_start(tmp_path: Path) -> None:
    import os
    import threading

    from reviewapp.core.io.fork_split import run_apart, wait_apart

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)  # a second thread: no fork
    other.start()
    try:
        run_apart(lambda: (tmp_path / "written").write_text(str(os.getpid())))
    finally:
        stop.set()
        other.join()
    assert (tmp_path / "written").read_text() == str(os.getpid())
    wait_apart()


@needs_fork
def test_a_command_returns_once_what_it_stores_apart_is_written(tmp_path: Path) -> None:
    """The parse cache's entry is written by a child, the claim search once the command has answered; the command
    returns when both are done. Served from the cache later, the logbook is indexed again when the search lost it."""
    found = run_fresh(
        """
        import contextlib, io, json, os, sys
        from pathlib import Path
        cache = Path(sys.argv[2])
        os.environ["REVIEWAPP_CACHE_DIR"] = str(cache)
        from reviewapp.core.io import fork_split
        from reviewapp.cli import main
        from reviewapp.core.logbook import claim_index, parse_cache
        started = []
        run_apart = fork_split.run_apart
        parse_cache.run_apart = lambda work: started.append(1) or run_apart(work)

        def command():
            with contextlib.redirect_stdout(io.StringIO()) as printed:
                code = main(["inspect", sys.argv[1], "--json"])
            try:
                os.waitpid(-1, os.WNOHANG)
                children = True
            except ChildProcessError:
                children = False
            with claim_index.ClaimIndex() as index:
                indexed = index.search("finding").total
            return {"code": code, "claims": len(json.loads(printed.getvalue())["claims"]), "children": children,
                    "apart": len(started), "indexed": indexed}

        first = command()
        entries = sorted(p.name for p in (cache / "parsed").glob("*.json"))
        served = parse_cache.CacheStats()
        parse_cache.forget_recent()
        parse_cache.read_logbook_cached(sys.argv[1], stats=served)
        claim_index.forget_shared()
        for suffix in ("", "-wal", "-shm"):  # the claim search deleted, the parse cache kept
            Path(f"{claim_index.index_path()}{suffix}").unlink(missing_ok=True)
        parse_cache.forget_recent()
        started.clear()
        again = command()
        print(json.dumps({"first": first, "entries": entries, "served": served.whole, "again": again}))
        """,
        str(_many_claims(tmp_path)),
        str(tmp_path / "cache"),
    )
    first, again = found["first"], found["again"]
    assert first["code"] == 0 and first["claims"] == 12
    assert first["apart"] == 1  # the entry
    assert first["children"] is False
    assert len(found["entries"]) == 1
    assert found["served"] is True  # the entry written apart serves the next reading whole
    assert first["indexed"] == 12
    assert (again["apart"], again["children"], again["indexed"]) == (0, False, 12)  # served, and indexed again
