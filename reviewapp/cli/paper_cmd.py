"""`reviewapp paper`: every logbook on a paper in one matrix, its classes, and the authors' answers.

Exit codes: 0 printed or saved; 2 bad usage, a source that is not a logbook, or nothing to show; 3 cannot write;
4 the Hub refused; 5 the Hub cannot be reached; 6 cancelled.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from reviewapp.cli.common import (
    CommandError,
    add_annotator_options,
    add_blind_option,
    blind_reviewer,
    blind_rule,
    fail,
    open_for_command,
    open_or_exit,
    say_who,
)
from reviewapp.cli.gui_cmd import add_look_options

if TYPE_CHECKING:
    from reviewapp.core.paper.gather import GatheredPaper, PaperRequest
    from reviewapp.core.paper.view import PaperView
    from reviewapp.core.verdicts import Verdict

EXIT_CODES = (
    "with several sources, one that cannot be opened is named on stderr and left out; "
    "exit codes: 0 printed or saved; 2 bad usage, a source that is not a logbook or nothing to show; 3 cannot write; "
    "4 the Hub refused; 5 the Hub cannot be reached (or HF_HUB_OFFLINE is set); 6 cancelled"
)
CLASS_RULE = (
    "A cell is decided by a person's verdict over the Logbook Judge's over the agent's (authors never decide). "
    "Paper classes, in order: contested (one logbook's verified against another's falsified on a claim), "
    "falsified, fully verified (every claim), partially verified, toy only, nothing established."
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "paper",
        help="every logbook on one paper: claims by logbook, classes, and authors' responses",
        description="Gather the logbooks on one paper (SOURCES, the logbooks of a --list queue file, or with "
        "neither every Space the Hub lists for --orid) and show "
        "the paper's claims by logbook with the agent's, the Logbook Judge's and people's verdicts. " + CLASS_RULE,
        epilog=EXIT_CODES,
    )
    parser.add_argument("sources", nargs="*", metavar="SOURCE", help="logbooks on the paper")
    parser.add_argument(
        "--orid",
        metavar="ORID",
        help="the paper's OpenReview id (default: the one the logbooks name); alone, "
        "every logbook the Hub lists for it",
    )
    parser.add_argument("--list", type=Path, metavar="FILE", help="a queue file (or folder) of the logbooks")
    parser.add_argument("--registry", type=Path, metavar="FILE", help="the challenge's claim registry (rows)")
    parser.add_argument("--paper-index", type=Path, metavar="FILE", help="the challenge's paper index (numeric ids)")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="same as --format json")
    add_blind_option(parser)
    respond = parser.add_argument_group("answering a finding (as an author)")
    respond.add_argument("--respond", metavar="CLAIM", help="the claim's number (or id, `registry:3`) to answer")
    respond.add_argument("--response", choices=("agree", "disagree", "partly"), help="your answer to the finding")
    respond.add_argument("--comment", default="", metavar="TEXT", help="what you say about it")
    respond.add_argument(
        "--evidence", action="append", default=[], metavar="LINK",
        help="a URL (kept as text), or SOURCE#PAGE[/CELL] pointing into one of the logbooks (repeatable)",
    )  # fmt: skip
    add_annotator_options(parser)
    parser.add_argument("--window", action="store_true", help="open the paper window instead of printing")
    parser.add_argument("--dialog", choices=("respond",), help="with --window: answer the first claim's finding")
    add_look_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reviewapp.core.paper.gather import rebuild

    if args.window or args.screenshot is not None or args.dialog:
        if args.blind is not None:
            said = "the paper window is blind when File > Open Paper is used in blind review (View > Blind Review)"
            return fail(CommandError(f"error: --blind is for the printed matrix; {said}"))
        return _window(args)
    try:
        gathered = _build(args)
        if args.respond:
            _respond(args, gathered.view, gathered.labels)
            gathered = rebuild(gathered)
            if args.format == "text":
                return 0
        _print(gathered.view, args.format)
    except CommandError as error:
        return fail(error)
    return 0


def _window(args: argparse.Namespace) -> int:
    """The paper window, which gathers the logbooks itself (off the GUI thread, with progress and cancel)."""
    from reviewapp.cli.gui_cmd import open_window

    try:
        request = _request(args)
    except CommandError as error:
        return fail(error)
    return open_window(args, args.dialog or "paper", paper=request, annotator=args.annotator)


def _request(args: argparse.Namespace) -> PaperRequest:
    from reviewapp.core.paper.gather import PaperRequest
    from reviewapp.core.queue.queue_file import QueueError, read_queue

    sources = list(args.sources)
    if args.list:
        try:
            queue = read_queue(args.list)
        except QueueError as exc:
            raise CommandError(f"error: {exc}") from None
        for problem in queue.problems:
            print(f"warning: {args.list}: {problem}", file=sys.stderr)
        sources += [e.location for e in queue.entries]
    orid = args.orid.strip() if args.orid else None
    if args.orid is not None and (not orid or any(c.isspace() for c in orid)):
        raise CommandError(f"error: --orid {args.orid!r} is not an OpenReview id")
    if not sources and not orid:
        raise CommandError("error: name the logbooks on the paper (SOURCE ..., --list FILE, or --orid ORID)")
    return PaperRequest(sources, orid, args.registry, args.paper_index)


def _build(args: argparse.Namespace) -> GatheredPaper:
    from reviewapp.core.io.source_errors import EXIT_CANCELLED, SourceUnavailable
    from reviewapp.core.logbook.locate import NotALogbookError
    from reviewapp.core.paper.gather import PaperGatherError, find_on_hub, gather_paper
    from reviewapp.core.progress import Cancelled

    request = _request(args)
    try:
        # with several logbooks, one that cannot be opened is named and left out; a lone one stops with its code
        several = len(request.sources) > 1 or (not request.sources and request.orid is not None)
        opener = open_for_command if several else open_or_exit
        reviewer = blind_reviewer(args)
        blind = (lambda logbook: blind_rule(logbook, reviewer)) if reviewer is not None else None
        gathered = gather_paper(request, opener, strict=not several, find=find_on_hub, blind=blind)
    except NotALogbookError as exc:
        raise CommandError(f"error: {exc}") from None
    except PaperGatherError as exc:
        raise CommandError(f"error: {exc}") from None
    except SourceUnavailable as exc:
        raise CommandError(f"error: {exc}", exc.exit_code) from None
    except (Cancelled, KeyboardInterrupt):
        raise CommandError("cancelled", EXIT_CANCELLED) from None
    for note in gathered.problems:
        print(f"warning: {note}", file=sys.stderr)
    return gathered


def _respond(args: argparse.Namespace, view: PaperView, labels: dict[str, str]) -> None:
    from reviewapp.cli.annotate_cmd import identity_or_exit
    from reviewapp.core.paper.paper_review import PaperCommandError, PaperReview
    from reviewapp.core.review.records import EvidenceLink
    from reviewapp.core.review.write_errors import SecretInRecord, StoreError

    if not view.orid:
        raise CommandError("error: the logbooks name no paper; give --orid ORID")
    if not args.response:
        raise CommandError("error: --respond needs --response agree|disagree|partly")
    row = next((r.id for r in view.rows if args.respond in (r.id, str(r.number))), None)
    if row is None:
        known = ", ".join(str(r.number) for r in view.rows)
        raise CommandError(f"error: no claim {args.respond!r} on this paper (claims: {known})")
    links: list[EvidenceLink] = []
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
    except (PaperCommandError, SecretInRecord) as exc:
        raise CommandError(f"error: nothing saved: {exc}") from None
    except StoreError as exc:
        raise CommandError(f"error: nothing saved: {exc}", 3) from None
    say_who("saved response", identity.name, "author")
    print(record.id, flush=True)


def _print(view: PaperView, fmt: str) -> None:
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
    for note in view.notes:  # mixing papers, claims left unaligned: said before the matrix, not after it
        out.write(f"note: {note}\n")
    out.write(f"class: {view.paper_class}{' (every claim falsified)' if view.all_falsified else ''}\n\n")
    heads = [f"L{i + 1}" for i in range(len(view.logbooks))]
    for i, lb in enumerate(view.logbooks):
        broken = f"  (broken: {lb.broken})" if lb.broken is not None else ""
        out.write(f"  {heads[i]} = {lb.label}{broken}\n")
    table = [["claim", "class", *heads]]
    for row in view.rows:
        text = f"{row.number}. {' '.join(row.text.split())}"
        table.append([_cut(text, CLAIM_WIDTH), view.claim_classes[row.id], *(_cell_text(view, row.id, lb.logbook_id)
                      for lb in view.logbooks)])  # fmt: skip
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    responses = [view.responses.get(row.id, []) for row in view.rows]
    for number, line in enumerate(table):
        out.write("  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True)).rstrip() + "\n")
        for response in responses[number - 1] if number else []:
            out.write(f"    {response.annotator} (author): {response.payload.response} — {response.payload.comment}\n")
    out.write("\nCells: agent/Logbook Judge/people → deciding verdict (A, J or H decided; * people disagree).\n")


CLAIM_WIDTH = 42


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _cell_text(view: PaperView, row: str, logbook_id: str) -> str:
    cell = view.cell(row, logbook_id)
    if cell.broken is not None:
        return "broken"
    if cell.claim is None and cell.logbook_judge is None:
        return "—"
    people = "|".join(sorted({v.value[:4] for v in cell.people.values()})) or "-"
    slots = f"{_short(cell.agent)}/{_short(cell.logbook_judge)}/{people}"
    decided = cell.decision.verdict.value if cell.decision.verdict else "?"
    mark = {"person": "H", "Logbook Judge": "J", "agent": "A"}.get(cell.decision.decided_by or "", "")
    return f"{slots} → {decided}{'*' if cell.decision.disputed else ''} ({mark})"


def _short(verdict: Verdict | None) -> str:
    return "-" if verdict is None else verdict.value[:4]
