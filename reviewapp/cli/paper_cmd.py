"""`reviewapp paper`: every logbook on a paper in one matrix, its classes, and the authors' answers.

Exit codes: 0 printed or saved; 2 bad usage, a source that is not a logbook, or nothing to show; 3 cannot write.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from reviewapp.cli.common import CommandError, add_annotator_options, fail, load_or_exit, say_who

EXIT_CODES = (
    "exit codes: 0 printed or saved; 2 bad usage, a source that is not a logbook or nothing to show; 3 cannot write"
)
CLASS_RULE = (
    "A cell is decided by a person's verdict over the Logbook Judge's over the agent's (authors never decide). "
    "Paper classes, in order: contested (one logbook's verified against another's falsified on a claim), "
    "falsified, fully verified (every claim), partially verified, toy only, nothing established."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "paper",
        help="every logbook on one paper: claims by logbook, classes, and authors' responses",
        description="Gather the logbooks on one paper (SOURCES, or the logbooks of a --list queue file) and show "
        "the paper's claims by logbook with the agent's, the Logbook Judge's and people's verdicts. " + CLASS_RULE,
        epilog=EXIT_CODES,
    )
    parser.add_argument("sources", nargs="*", metavar="SOURCE", help="logbooks on the paper")
    parser.add_argument("--orid", metavar="ORID", help="the paper's OpenReview id (default: the one the logbooks name)")
    parser.add_argument("--list", type=Path, metavar="FILE", help="a queue file (or folder) of the logbooks")
    parser.add_argument("--registry", type=Path, metavar="FILE", help="the challenge's claim registry (rows)")
    parser.add_argument("--paper-index", type=Path, metavar="FILE", help="the challenge's paper index (numeric ids)")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    respond = parser.add_argument_group("answering a finding (as an author)")
    respond.add_argument("--respond", metavar="CLAIM", help="the claim's number (or id, `registry:3`) to answer")
    respond.add_argument("--response", choices=("agree", "disagree", "partly"), help="your answer to the finding")
    respond.add_argument("--comment", default="", metavar="TEXT", help="what you say about it")
    respond.add_argument(
        "--evidence", action="append", default=[], metavar="LINK",
        help="a URL (kept as text), or SOURCE#PAGE[/CELL] pointing into one of the logbooks (repeatable)",
    )  # fmt: skip
    add_annotator_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        view, labels = _build(args)
        if args.respond:
            _respond(args, view, labels)
            view, labels = _build(args)
            if args.format == "text":
                return 0
        _print(view, args.format)
    except CommandError as error:
        return fail(error)
    return 0


def _build(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from reviewapp.core.logbook.logbook_id import logbook_id_for
    from reviewapp.core.logbook_judge.registry import read_paper_index, read_registry
    from reviewapp.core.logbook_judge.stored import load_import
    from reviewapp.core.paper.paper_store import PaperIdError, PaperStore
    from reviewapp.core.paper.view import PaperLogbook, build_paper_view
    from reviewapp.core.queue.queue_file import QueueError, read_queue
    from reviewapp.core.review.state import AnnotationState
    from reviewapp.core.review.store import AnnotationStore

    sources = list(args.sources)
    if args.list:
        try:
            queue = read_queue(args.list)
        except QueueError as exc:
            raise CommandError(f"error: {exc}") from None
        for problem in queue.problems:
            print(f"warning: {args.list}: {problem}", file=sys.stderr)
        sources += [e.location for e in queue.entries]
    if not sources:
        raise CommandError("error: name the logbooks on the paper (SOURCE ..., or --list FILE)")
    columns = []
    labels: dict[str, str] = {}
    for source in sources:
        logbook = load_or_exit(source)
        logbook_id = logbook_id_for(logbook.root)
        if any(c.logbook_id == logbook_id for c in columns):
            print(f"warning: {source}: the same logbook as an earlier source; shown once", file=sys.stderr)
            continue
        state = AnnotationState(logbook.claims)
        state.add_all(AnnotationStore(logbook.root, writable=False, logbook_id=logbook_id).load(repair=False).records)
        columns.append(PaperLogbook(logbook_id, source, logbook, state, load_import(logbook_id)))
        labels[source] = logbook_id
    orid = args.orid or next((c.logbook.paper_id for c in columns if c.logbook.paper_id), None)
    registry = None
    if args.registry:
        index = read_paper_index(args.paper_index) if args.paper_index else None
        registry = read_registry(args.registry, index).for_paper(orid)
        if registry is None:
            print(
                f"warning: {args.registry}: no claims for paper {orid}; claims aligned across logbooks", file=sys.stderr
            )
    paper_state = AnnotationState()
    if orid:
        try:
            paper_state.add_all(PaperStore(orid).load(repair=False).records)
        except PaperIdError as exc:
            raise CommandError(f"error: {exc}") from None
    return build_paper_view(columns, orid=orid, registry=registry, paper_state=paper_state), labels


def _respond(args: argparse.Namespace, view, labels: dict[str, str]) -> None:  # type: ignore[no-untyped-def]
    from reviewapp.cli.annotate_cmd import identity_or_exit
    from reviewapp.core.paper.paper_review import PaperActionError, PaperReview
    from reviewapp.core.review.records import EvidenceLink
    from reviewapp.core.review.store import SecretInRecord, StoreError

    if not view.orid:
        raise CommandError("error: the logbooks name no paper; give --orid ORID")
    if not args.response:
        raise CommandError("error: --respond needs --response agree|disagree|partly")
    row = next((r.id for r in view.rows if args.respond in (r.id, str(r.number))), None)
    if row is None:
        known = ", ".join(str(r.number) for r in view.rows)
        raise CommandError(f"error: no claim {args.respond!r} on this paper (claims: {known})")
    links = []
    for text in args.evidence:
        if text.startswith(("http://", "https://")):
            links.append(EvidenceLink(url=text))
            continue
        source, _, where = text.partition("#")
        if source not in labels or not where:
            raise CommandError(f"error: --evidence {text}: give a URL or SOURCE#PAGE[/CELL] with one of the sources")
        page, _, cell = where.partition("/")
        if cell and not cell.isdigit():
            raise CommandError(f"error: --evidence {text}: the cell is its number on the page (1 for the first)")
        links.append(EvidenceLink(logbook=labels[source], page=page, cell=int(cell) - 1 if cell else None))
    identity = identity_or_exit(args.annotator, Path.cwd(), remember=args.remember)
    try:
        review = PaperReview.open(view.orid, identity, "author")
        record = review.respond(row, args.response, args.comment, links)
    except (PaperActionError, SecretInRecord) as exc:
        raise CommandError(f"error: nothing saved: {exc}") from None
    except StoreError as exc:
        raise CommandError(f"error: nothing saved: {exc}", 3) from None
    say_who("saved response", identity.name, "author")
    print(record.id, flush=True)


def _print(view, fmt: str) -> None:  # type: ignore[no-untyped-def]
    from reviewapp.core.paper.export import response_markdown, view_json

    if fmt == "json":
        json.dump(view_json(view), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return
    if fmt == "markdown":
        sys.stdout.write(response_markdown(view))
        return
    out = sys.stdout
    out.write(f"{view.title or view.orid}  [{view.orid or 'no paper id'}]\n")
    out.write(f"class: {view.paper_class}{' (every claim falsified)' if view.all_falsified else ''}\n\n")
    heads = [f"L{i + 1}" for i in range(len(view.logbooks))]
    for i, lb in enumerate(view.logbooks):
        out.write(f"  {heads[i]} = {lb.label}\n")
    out.write("\n" + "claim".ljust(44) + "class".ljust(21) + "".join(h.ljust(26) for h in heads) + "\n")
    for row in view.rows:
        text = f"{row.number}. {' '.join(row.text.split())}"
        cells = []
        for lb in view.logbooks:
            cell = view.cell(row.id, lb.logbook_id)
            if cell.claim is None and cell.logbook_judge is None:
                cells.append("—")
                continue
            people = "|".join(sorted({v.value[:4] for v in cell.people.values()})) or "-"
            slots = f"{_short(cell.agent)}/{_short(cell.logbook_judge)}/{people}"
            decided = cell.decision.verdict.value if cell.decision.verdict else "?"
            mark = {"person": "H", "Logbook Judge": "J", "agent": "A"}.get(cell.decision.decided_by or "", "")
            cells.append(f"{slots} → {decided}{'*' if cell.decision.disputed else ''} ({mark})")
        out.write(text[:42].ljust(44) + view.claim_classes[row.id].ljust(21) + "".join(c.ljust(26) for c in cells))
        out.write("\n")
        for response in view.responses.get(row.id, []):
            out.write(f"    {response.annotator} (author): {response.payload.response} — {response.payload.comment}\n")
    out.write("\nCells: agent/Logbook Judge/people → deciding verdict (A, J or H decided; * people disagree).\n")
    for note in view.notes:
        out.write(f"note: {note}\n")


def _short(verdict) -> str:  # type: ignore[no-untyped-def]
    return "-" if verdict is None else verdict.value[:4]
