"""What a claim's own text states: every candidate in its page or section, found by the rules of
`verdict_mentions` (labelled lines, titles, headings, bold, tables, a run's verdict JSON) and by the exhaustive pass
of `verdict_candidates` (every other verdict word), each with its features for `verdict_decision`."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from reviewapp.core.logbook import verdict_candidates as vc
from reviewapp.core.logbook import verdict_decision as vd
from reviewapp.core.logbook import verdict_mentions as vm
from reviewapp.core.logbook.cell_details import output_text
from reviewapp.core.logbook.claim_text import ROW_CLAIM, Scope, verdict_column_of, without_code
from reviewapp.core.logbook.claims_elsewhere import HISTORY
from reviewapp.core.logbook.model import Cell, CellKind, Page, VerdictMention
from reviewapp.core.verdicts import Verdict, may_state_verdict

CLAIM_TABLE = 0.7  # a table on the claim's own page: below a labelled statement, above code output
CODE_OUTPUT = 0.45  # verifier JSON in a code cell's output, often about one sub-check
_RAW_JSON_LIMIT = 2_000_000


def own_mentions(scope: Scope, n: int | None = None, siblings: set[int] | None = None) -> list[VerdictMention]:
    """Every candidate in the claim's own text: stated verdicts (labelled, titles, bold, tables, run output) and
    every other verdict word. On a page shared by several claims, statements that name a sibling claim only are
    that claim's."""
    if scope.first_line < 0:
        return []
    found = [_with_distance(m, scope) for m in _scope_mentions(scope, n)]
    if siblings:
        found = [m for m in found if not _only_about(m.text, siblings)]
    return found


_NEAR_LINES = 3
PASSING_LIMIT = 60  # passing mentions kept per claim: enough to read, bounded on a hostile page


def _with_distance(mention: VerdictMention, scope: Scope) -> VerdictMention:
    """Mark a candidate within a few lines of the claim's heading (its section's, or the page's title)."""
    heading = scope.first_line or 1
    if 0 <= mention.line - heading <= _NEAR_LINES and "near the claim heading" not in mention.features:
        return replace(mention, features=(*mention.features, "near the claim heading"))
    return mention


def _only_about(text: str, numbers: set[int]) -> bool:
    named = {int(m.group(1)) for m in _NAMED_CLAIM.finditer(text)}
    return bool(named) and named <= numbers


_NAMED_CLAIM = re.compile(r"\bclaims?\s*#?\s*C?(\d{1,3})\b", re.IGNORECASE)


def _scope_mentions(scope: Scope, n: int | None) -> list[VerdictMention]:
    page = scope.page
    found: list[VerdictMention] = []
    if scope.first_line == 0:
        title = vm.title_verdict(page.title)
        if title:
            found.append(_mention(title, scope, 1, None, "page title"))
    budget = [PASSING_LIMIT]  # passing mentions still to collect for this claim
    _scan_text(page.preamble, page.preamble_line, None, scope, found, budget)
    for cell in page.cells:
        if scope.first_line and not scope.overlaps(cell.body_line, cell.body_line + max(cell.line_count, 1) - 1):
            continue
        title = vm.title_verdict(cell.title) if cell.header.get("title") else None
        if title and scope.covers(cell.body_line):
            found.append(_mention(title, scope, cell.line + 2, cell.ordinal, "cell title"))
        if cell.kind in (CellKind.MARKDOWN, CellKind.GENERIC):
            _scan_text(cell.body, cell.body_line, cell.ordinal, scope, found, budget)
            _claim_tables(cell.body, cell.body_line, page, cell.ordinal, scope, n, found)
        elif cell.kind is CellKind.CODE and scope.covers(cell.body_line):
            output = output_text(cell)  # read once: outputs can be long
            if (
                output is not None
                and len(output[0]) <= _RAW_JSON_LIMIT
                and not _code_output(cell, output[0], page, found)
            ):
                _output_lines(cell, *output, page, found)
    if scope.first_line == 0:
        _claim_tables(page.preamble, page.preamble_line, page, None, scope, n, found)
    return found


def _claim_tables(
    text: str, first_line: int, page: Page, cell: int | None, scope: Scope, n: int | None, out: list[VerdictMention]
) -> None:
    """A verdict in a table on the claim's own page: a 'Verdict | X' row, the only row under a verdict column, or
    the row of a verdict column that names this claim's number. Outranked by a labelled statement."""
    if "|" not in text or not may_state_verdict(text):
        return
    lines = without_code(text).split("\n")
    owners = _section_owners(lines)
    index = 0
    while index < len(lines):
        if not lines[index].strip().startswith("|"):
            index += 1
            continue
        start = index
        while index < len(lines) and lines[index].strip().startswith("|"):
            index += 1
        rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[start:index]]
        data = [(start + i, r) for i, r in enumerate(rows) if not set("".join(r)) <= set("-: ")]
        if not data or not scope.covers(first_line + start) or owners[start] is not None:
            continue  # (a table in the Logbook Judge's feedback or an earlier attempt's section is not the verdict)
        header, body = data[0][1], data[1:]
        column = verdict_column_of(header)
        picked: list[tuple[int, str, str]] = []  # (line index, verdict text, row)
        for at, row in data:
            if len(row) == 2 and vm.clean(row[0]).lower() in _ROW_LABELS:
                picked.append((at, row[1], " | ".join(row)))
        if column is not None and not picked:
            if len(body) == 1 and column < len(body[0][1]):
                picked.append((body[0][0], body[0][1][column], " | ".join(body[0][1])))
            elif n is not None:
                for at, row in body:
                    number = next((ROW_CLAIM.match(c) for c in row[:2] if ROW_CLAIM.match(c)), None)
                    if number and int(number.group(1)) == n and column < len(row):
                        picked.append((at, row[column], " | ".join(row)))
        for at, value, row_text in picked:
            found = vm.head_verdict(vm.clean(value))
            if found:
                line = first_line + at
                out.append(VerdictMention(found[0], found[1].upper(), vm.clean(row_text), page.slug, line, cell,
                                          "claim table", CLAIM_TABLE, (vd.CLAIM_TABLE,)))  # fmt: skip


_ROW_LABELS = frozenset({"verdict", "final verdict", "overall verdict", "status", "outcome", "result", "assessment"})
_JSON_VERDICT_KEYS = ("verdict", "status", "outcome", "result")
_PROCESS_KEYS = frozenset({"status", "result"})
_PROCESS_STATE = re.compile(r"pending|deferred|blocked|unresolved|not\s+(?:yet\s+)?\w+", re.IGNORECASE)


def _code_output(cell: Cell, output: str, page: Page, out: list[VerdictMention]) -> bool:
    """Verifier JSON printed by a code cell (`{"verdict": "NOT_EXECUTED"}`): the weakest place a verdict can be,
    since such output is often about one sub-check; only top-level keys count. True when one was found."""
    if not output.lstrip().startswith("{"):
        return False
    try:
        data = json.loads(output)
    except (ValueError, RecursionError):
        return False
    if not isinstance(data, dict):
        return False
    for key in _JSON_VERDICT_KEYS:
        value = data.get(key)
        if not isinstance(value, str) or len(value) > 200:
            continue
        found = vm.head_verdict(value.replace("_", " "))
        if found and key in _PROCESS_KEYS and _PROCESS_STATE.fullmatch(found[1]):
            continue  # {"status": "pending"} is a job's state, not a verdict on the claim
        if found:
            text = f'"{key}": "{value}"'
            out.append(VerdictMention(found[0], found[1].upper(), text, page.slug, cell.body_line, cell.ordinal,
                                      "code output", CODE_OUTPUT, (vd.CODE_OUTPUT,)))  # fmt: skip
            return True
    return False


def _output_lines(cell: Cell, output: str, start: int, page: Page, out: list[VerdictMention]) -> None:
    """`verdict: X` lines anywhere in a run's output (YAML, logs, nested JSON), which starts at `start` in the
    cell's body: candidates only, one pass."""
    for key, value, offset in vc.output_lines(output):
        found = vm.head_verdict(value.replace("_", " "))
        if found:
            line = cell.body_line + cell.body.count("\n", 0, start + offset)
            features = (vd.CODE_OUTPUT, "output line")
            out.append(VerdictMention(found[0], found[1].upper(), f"{key}: {value}", page.slug, line, cell.ordinal,
                                      "code output", vc.OUTPUT_LINE_CONFIDENCE, features))  # fmt: skip


def _scan_text(
    text: str,
    first_line: int,
    cell: int | None,
    scope: Scope,
    out: list[VerdictMention],
    budget: list[int],
) -> None:
    if not text or not vc.may_mention(text):
        return
    plain = without_code(text)
    lines = plain.split("\n")
    sections = _section_owners(lines)
    line, counted = first_line, 0
    for offset, paragraph in _paragraphs(plain):
        line += plain.count("\n", counted, offset)
        counted = offset
        owner = sections[line - first_line]
        if owner == _OTHERS or not scope.covers(line) or not vc.may_mention(paragraph):
            continue
        flat = paragraph.replace("\n", " ")  # same length, so offsets still map to lines
        statements = list(vm.labelled(flat)) or list(vm.emphasized(flat))
        heading = _heading_statement(flat) if not statements else None
        if heading is not None:
            statements = [heading]
        source = HISTORY if owner == _EARLIER else "claim text"
        for found in statements:
            out.append(_mention(found, scope, line + paragraph.count("\n", 0, found.offset), cell, source))
        if owner != _EARLIER and budget[0] > 0:
            _passing_mentions(flat, paragraph, line, scope, cell, {f.verdict for f in statements}, out, budget)
    for index, found in vm.heading_then_paragraph(lines):
        if scope.covers(first_line + index) and sections[index] != _OTHERS:
            source = HISTORY if sections[index] == _EARLIER else "verdict section"
            out.append(_mention(found, scope, first_line + index, cell, source))


# A sentence about the claim itself ("This verifies the selected … claim", "Claim 1 reproduced"), not the paper's.
_NAMES_CLAIM = re.compile(r"\bclaims?\b", re.IGNORECASE)
# A sentence about the paper or its authors restates their claim ("Claim 3 of the paper: the bound holds"), and a
# claim contract or registry states what would count: neither is the agent saying what it found.
_OTHERS_CLAIM = re.compile(
    r"\b(?:paper|papers|authors?|original|published)\b|\bclaim\s+(?:contract|registry|statement)", re.IGNORECASE
)


def _names_claim(text: str, at: int, sentence: str) -> bool:
    """The word "claim" within a few words of offset `at`, in the same sentence (`_sentence_around(text, at)`),
    and not the paper's claim."""
    near = text[max(0, at - _NEAR) : at + _NEAR]
    return bool(_NAMES_CLAIM.search(near) and sentence and _NAMES_CLAIM.search(sentence)) and not _OTHERS_CLAIM.search(
        sentence
    )


_NEAR = 80
_SENTENCE_START = re.compile(r"(?:[.!?][*_)\]\"'”’]*\s+|\|\s*)(?=\S)")


def _sentence_around(text: str, at: int) -> str:
    """The sentence (or table cell) holding offset `at`."""
    start = 0
    for match in _SENTENCE_START.finditer(text, max(0, at - 400), at + 1):
        start = match.end()
    return vm.first_sentence(text, start, max(240, at - start + 60)).strip(" |")


def _heading_statement(paragraph: str) -> vm.Found | None:
    """A markdown heading read like a title: '# Claim 1 — verified', '## Result: partial', '### [TOY] Claim 3'."""
    stripped = paragraph.lstrip()
    if not stripped.startswith("#"):
        return None
    heading = stripped.lstrip("#").strip()
    found = vm.title_verdict(heading) or _verdict_only(heading)
    return replace(found, text=vm.clean(stripped.lstrip("#"))) if found is not None else None


def _verdict_only(heading: str) -> vm.Found | None:
    """A heading that is nothing but a verdict and its marks: '## ✅ Verified', '### FALSIFIED ❌'."""
    text = vm.clean(heading)
    matches = list(vm.phrases(text))
    rest = text
    for match in reversed(matches):
        rest = rest[: match.start()] + rest[match.end() :]
    if not matches or any(ch.isalnum() for ch in rest):
        return None
    found = vm.combine(matches)
    if found is None or _PROCESS_STATE.fullmatch(found[1]):
        return None  # "## Pending", "## Blocked": a section of work still to do, not the verdict
    return vm.Found(found[0], found[1].upper(), text, 0, vm.TITLE, "title")


def _passing_mentions(
    flat: str,
    paragraph: str,
    line: int,
    scope: Scope,
    cell: int | None,
    stated: set[Verdict],
    out: list[VerdictMention],
    budget: list[int],
) -> None:
    """Every other verdict word of a paragraph, with its features: a candidate the decision does not take. At most
    `budget` of them per claim, so a page that repeats verdict words costs no more than one that does not."""
    for mention in vc.mentions(flat):
        if budget[0] <= 0:
            return
        if mention.verdict in stated and set(mention.features) <= {"hedged"}:
            continue  # the statement already found says it
        budget[0] -= 1
        around = _sentence_around(flat, mention.start)
        sentence = vm.clean(around)
        at = line + paragraph.count("\n", 0, mention.start)
        about = ("names the claim",) if _names_claim(flat, mention.start, around) else ()
        if flat.lstrip().startswith(">"):  # a block quote: someone else's words
            about = ("quoted", *about)
        features = (vd.MENTION, *mention.features, *about, *_place_features(scope, cell))
        out.append(VerdictMention(mention.verdict, mention.raw, sentence, scope.page.slug, at, cell, "claim text",
                                  vc.MENTION_CONFIDENCE, features))  # fmt: skip


# Sections whose statements are not the agent's verdict: someone else's (the Logbook Judge's feedback, a reviewer's
# comments, the paper's own claim) or an earlier attempt's (kept as the claim's history).
_OTHERS, _EARLIER = "others", "earlier"
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_OTHERS_SECTION = re.compile(
    r"\blogbook\s+judge\b|\b(?:judge|grader|reviewer)(?:'s|s'?)?\s+(?:verdicts?|feedback|assessments?|comments?|notes?|"
    r"ratings?|scores?|reviews?)\b|\b(?:feedback|verdicts?|assessments?|comments?)\s+(?:from|by)\s+the\s+"
    r"(?:logbook\s+)?(?:judge|grader|reviewers?)\b|\bpaper(?:'s)?\s+(?:claim|statement|abstract)\b|"
    r"\b(?:claim|statement)\s+(?:from|in|of)\s+the\s+paper\b|\boriginal\s+claim\b",
    re.IGNORECASE,
)
_EARLIER_SECTION = re.compile(
    r"\b(?:history|historical|superseded|legacy|archived?)\b|\b(?:previous|prior|earlier|old|first)\s+"
    r"(?:attempts?|versions?|runs?|rounds?|verdicts?|results?|submissions?|revisions?|reproductions?|logbook)\b|"
    r"\b(?:attempt|round|version)\s*#?\s*1\b|\bv1\b",
    re.IGNORECASE,
)


def _section_owners(lines: list[str]) -> list[str | None]:
    """For each line, whose section it sits in: None (the agent's), _OTHERS or _EARLIER, by the nearest heading
    above it; a section runs until a heading of the same or a higher level."""
    owners: list[str | None] = []
    stack: list[tuple[int, str | None]] = []  # (level, owner) of the open headings
    owner: str | None = None
    for line in lines:
        heading = _HEADING.match(line.strip()) if line.lstrip().startswith("#") else None
        if heading:
            level, title = len(heading.group(1)), vm.clean(heading.group(2))
            while stack and stack[-1][0] >= level:
                stack.pop()
            inherited = stack[-1][1] if stack else None
            mark = _OTHERS if _OTHERS_SECTION.search(title) else _EARLIER if _EARLIER_SECTION.search(title) else None
            owner = inherited or mark
            stack.append((level, owner))
        owners.append(owner)
    return owners


def _paragraphs(text: str) -> list[tuple[int, str]]:
    """(offset, text) of blocks separated by blank lines; headings and table rows stand alone."""
    blocks: list[tuple[int, str]] = []
    start = 0
    offset = 0
    for line in text.split("\n"):
        stripped = line.strip()
        standalone = stripped.startswith(("#", "|", "- ", "* ", ">")) or bool(re.match(r"\d+[.)]\s", stripped))
        if not stripped or standalone:
            if start < offset:
                blocks.append((start, text[start : offset - 1]))
            if stripped:
                blocks.append((offset, line))
            start = offset + len(line) + 1
        offset += len(line) + 1
    if start < len(text):
        blocks.append((start, text[start:]))
    return blocks


def _mention(found: vm.Found, scope: Scope, line: int, cell: int | None, source: str) -> VerdictMention:
    kind = _RULE_KINDS.get(found.rule, vd.MENTION)
    if source in ("page title", "cell title"):
        kind = vd.HEDGED if found.rule == "hedged" else vd.TITLE
    features = (kind, *_place_features(scope, cell))
    return VerdictMention(
        found.verdict, found.raw, found.text, scope.page.slug, line, cell, source, found.confidence, features
    )


_RULE_KINDS = {
    "labelled": vd.LABELLED,
    "hedged": vd.HEDGED,
    "heading": vd.HEADING,
    "title label": vd.TITLE,
    "title": vd.TITLE,
    "bold": vd.BOLD,
    "upper-case": vd.UPPER,
}


def _place_features(scope: Scope, cell: int | None) -> tuple[str, ...]:
    """Where on its page a candidate sits: before the first cell, in the first or the last cell."""
    if cell is None:
        return ("before the first cell",) if scope.page.cells else ()
    first, last = scope.text_cell_ends
    return (*(("first cell",) if cell == first else ()), *(("last cell",) if cell == last else ()))
