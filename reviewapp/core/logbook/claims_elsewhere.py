"""Statements about claims on other pages than their own: summary tables, "Claim 3: VERIFIED" lines, index
titles, logbook-wide sentences ("all claims verified") and JSON results in figure raw data."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from reviewapp.core.logbook import verdict_mentions as vm
from reviewapp.core.logbook.cell_details import figure_details
from reviewapp.core.logbook.claim_text import (
    ROW_CLAIM,
    TABLE_LINK,
    VERDICT_COLUMN,
    page_texts,
    verdict_column_of,
    without_code,
)
from reviewapp.core.logbook.model import CellKind, Claim, Page, VerdictMention
from reviewapp.core.logbook.page_tree import toc_links
from reviewapp.core.verdicts import may_state_verdict

HISTORY = "history"  # stated by a superseded or orphan page: an earlier verdict, not a contradiction
GLOBAL = 0.4
_RAW_JSON_LIMIT = 2_000_000
_LINE_CLAIMS = re.compile(
    r"\bclaim(?:\s*(?:#\s*)?(\d{1,3})|s\s*(\d{1,3})\s*(?:[-–]{1,2}|to|and|&)\s*(\d{1,3}))\b"
    r"[^:\n—–.;!?]{0,60}?(?:\*\*)?\s*(?::+|\s[-—–]{1,2}\s|[—–])\s*",
    re.IGNORECASE,
)
_GLOBAL = re.compile(
    r"\b(?:all|every|each|both)\s+(?:[\w-]+\s+){0,3}?(?:claims?|behaviou?rs?|theorems?|results)\b"
    r"|\b(\d{1,2})\s*/\s*\1\s+(?:[\w-]+\s+)?(?:claims?|checks?)\b",
    re.IGNORECASE,
)
_EARLIER_COLUMN = re.compile(r"previous|prior|earlier|\bold\b|\blast\b|before|\bv1\b|first\s+attempt", re.IGNORECASE)
SUMMARY_TABLE = 0.7
SUMMARY_LINE = 0.6
INDEX_TITLE = 0.8
RAW_DATA = 0.6
_RAW_CLAIM_KEY = re.compile(r"^claim[_\s-]?(\d{1,3})(?:\D|$)", re.IGNORECASE)


def cross_page_mentions(
    claims: list[Claim], pages: list[Page], claim_pages: set[int]
) -> tuple[list[list[VerdictMention]], list[list[VerdictMention]]]:
    """Per claim: statements about it on other current pages (summary tables, index titles, logbook-wide
    sentences, raw data), and what superseded and orphan pages state about it."""
    by_number: dict[int, list[int]] = {}
    for index, claim in enumerate(claims):
        if claim.n is not None:
            by_number.setdefault(claim.n, []).append(index)
    by_page = {c.page: i for i, c in enumerate(claims) if not c.section_line}
    elsewhere: list[list[VerdictMention]] = [[] for _ in claims]
    history: list[list[VerdictMention]] = [[] for _ in claims]
    titles: list[frozenset[str]] = []  # the claims' title words, once a row names a claim by its title
    for page in pages:
        if id(page) in claim_pages:
            continue
        found = elsewhere if page.is_current else history
        for target, mention in _summary_mentions(page):
            if isinstance(target, int):
                about = by_number.get(target, [])
            elif isinstance(target, _TitleRef):
                titles = titles or [_title_words(c.title) for c in claims]
                match = _claim_by_title(target, titles)
                about = [] if match is None else [match]
            else:
                about = [by_page[target]] if target in by_page else []
            for index in about:
                (history if mention.source == HISTORY else found)[index].append(mention)
        if page.is_root:
            for slug, mention in _index_title_mentions(page):
                if slug in by_page:
                    found[by_page[slug]].append(mention)
        if page.is_current:  # an earlier attempt's "all claims verified" says nothing about this claim
            for mention in _global_mentions(page):
                for index in range(len(claims)):
                    found[index].append(mention)
        for n, mention in _raw_data_mentions(page):
            for index in by_number.get(n, []):
                found[index].append(mention)
    return elsewhere, history


@dataclass(frozen=True)
class _TitleRef:
    """A summary row that names a claim by the words of its title."""

    words: frozenset[str]


_STOP_WORDS = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "that",
        "this",
        "are",
        "was",
        "were",
        "its",
        "into",
        "over",
        "under",
        "than",
        "then",
        "they",
        "them",
        "their",
        "our",
        "has",
        "have",
        "not",
        "claim",
        "claims",
    ]
)


def _title_words(text: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"[a-z0-9]{3,}", vm.clean(text).lower()) if w not in _STOP_WORDS)


def _claim_by_title(ref: _TitleRef, titles: list[frozenset[str]]) -> int | None:
    """The one claim whose title the row's words cover best, when they cover most of it."""
    scored = sorted(
        (
            (len(ref.words & t) / min(len(ref.words), len(t)), i)
            for i, t in enumerate(titles)
            if len(ref.words & t) >= 2
        ),
        reverse=True,
    )
    if not scored or scored[0][0] < _TITLE_COVER or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


_TITLE_COVER = 0.6


def _summary_mentions(page: Page) -> list[tuple[int | str | _TitleRef, VerdictMention]]:
    """Rows of tables with a verdict column whose first columns name a claim (by number, by a link to its page, or
    by the words of its title); 'Claim 3: VERIFIED' lines."""
    out: list[tuple[int | str | _TitleRef, VerdictMention]] = []
    for text, first_line, cell in page_texts(page):
        if not may_state_verdict(text):
            continue
        lines = without_code(text).split("\n")
        verdict_column: int | None = None
        earlier_column: int | None = None
        for index, line in enumerate(lines):
            stripped = line.strip()
            if not stripped.startswith("|"):
                verdict_column = None
                _line_mentions(stripped, page, first_line + index, cell, out)
                continue
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if verdict_column is None:
                header = verdict_column_of(cells)
                verdict_column = header if header is not None else -1
                earlier_column = _earlier_column_of(cells)
                continue
            if set(stripped) <= set("|-: "):
                continue
            number = next((ROW_CLAIM.match(c) for c in cells[:2] if ROW_CLAIM.match(c)), None)
            link = next((TABLE_LINK.search(c) for c in cells[:2] if TABLE_LINK.search(c)), None)
            target: int | str | _TitleRef  # a claim number, the slug of the page the row links, or its words
            if number is not None:
                target = int(number.group(1))
            elif link is not None:
                target = link.group("slug")
            elif verdict_column >= 0 and len(_title_words(cells[0])) >= 2:
                target = _TitleRef(_title_words(cells[0]))  # a row naming the claim by its title
            else:
                continue
            for column, source in ((verdict_column, "summary table"), (earlier_column, HISTORY)):
                if column is None or not 0 <= column < len(cells):
                    continue
                found = vm.combine(list(vm.phrases(vm.clean(cells[column]))))
                if found:
                    text = vm.clean(stripped)
                    mention = VerdictMention(
                        found[0],
                        found[1].upper(),
                        text,
                        page.slug,
                        first_line + index,
                        cell,
                        source,
                        SUMMARY_TABLE,
                        ("summary table",),
                    )
                    out.append((target, mention))
    return out


def _earlier_column_of(header: list[str]) -> int | None:
    """A column of verdicts an earlier attempt gave ("Previous verdict"): the claim's history."""
    names = [vm.clean(c) for c in header]
    return next(
        (i for i, c in enumerate(names) if len(c) <= 40 and VERDICT_COLUMN.search(c) and _EARLIER_COLUMN.search(c)),
        None,
    )


def _line_mentions(
    line: str, page: Page, line_no: int, cell: int | None, out: list[tuple[int | str | _TitleRef, VerdictMention]]
) -> None:
    named: set[int] = set()
    for match in _LINE_CLAIMS.finditer(line):
        tail = vm.first_sentence(line, match.end())
        found = vm.combine(list(vm.phrases(vm.clean(tail))))
        if not found:
            continue
        first = int(match.group(1) or match.group(2))
        last = int(match.group(3)) if match.group(3) else first
        mention = VerdictMention(
            found[0], found[1].upper(), vm.clean(line), page.slug, line_no, cell, "summary", SUMMARY_LINE, ("summary",)
        )
        numbers = range(first, min(last, first + 20) + 1)
        named.update(numbers)
        out.extend((n, mention) for n in numbers)
    _sentence_mentions(line, page, line_no, cell, named, out)


def _sentence_mentions(
    line: str,
    page: Page,
    line_no: int,
    cell: int | None,
    named: set[int],
    out: list[tuple[int | str | _TitleRef, VerdictMention]],
) -> None:
    """'Claim 1 reproduced analytically', 'Claims 2 and 3 are blocked': a sentence that names claims and, right after,
    a verdict. Weaker than a labelled line: it fills a claim whose page states nothing, never contradicts one."""
    for match in _SENTENCE_CLAIMS.finditer(line):
        numbers = _numbers_of(match.group("numbers"))
        if not numbers or set(numbers) <= named:
            continue
        after = vm.clean(line[match.end() : match.end() + _SENTENCE_REACH])
        after = vm.first_sentence(after, 0)
        found = vm.combine(list(vm.phrases(after)))
        if not found:
            continue
        text = vm.clean(line[match.start() : match.end()]) + " " + after
        mention = VerdictMention(found[0], found[1].upper(), text.strip(), page.slug, line_no, cell, "summary",
                                 SUMMARY_SENTENCE, ("summary sentence",))  # fmt: skip
        out.extend((n, mention) for n in numbers if n not in named)


def _numbers_of(text: str) -> list[int]:
    """'2 and 3' -> [2, 3]; '1-3' -> [1, 2, 3] (a range of at most 20)."""
    span = re.fullmatch(r"(\d{1,3})\s*[-–]\s*(\d{1,3})", text.strip())
    if span and int(span.group(1)) < int(span.group(2)) <= int(span.group(1)) + 20:
        return list(range(int(span.group(1)), int(span.group(2)) + 1))
    return [int(n) for n in re.findall(r"\d{1,3}", text)]


_SENTENCE_CLAIMS = re.compile(
    r"\bclaims?\s+#?(?P<numbers>\d{1,3}(?:\s*(?:,|&|and|-|–)\s*\d{1,3}){0,5})\b(?!\s*(?:of|in)\b)", re.IGNORECASE
)
_SENTENCE_REACH = 60  # how far after the claim's number its verdict may be
SUMMARY_SENTENCE = 0.35  # below GLOBAL: fills a gap, is never shown as a contradiction


def _index_title_mentions(page: Page) -> list[tuple[str, VerdictMention]]:
    """Verdicts written into table-of-contents link titles ('[Claim 5 — … — **toy**](…)')."""
    out: list[tuple[str, VerdictMention]] = []
    lines = page.preamble.split("\n")
    for slug, line in toc_links(page.preamble):
        label = re.search(r"\[(?P<label>[^\]]+)\]", lines[line - 1])
        found = vm.title_verdict(label.group("label")) if label else None
        if found:
            file_line = page.preamble_line + line - 1
            mention = VerdictMention(
                found.verdict,
                found.raw,
                found.text,
                page.slug,
                file_line,
                None,
                "index title",
                INDEX_TITLE,
                ("index title",),
            )
            out.append((slug, mention))
    return out


def _global_mentions(page: Page) -> list[VerdictMention]:
    """'All claims verified', '6/6 claims reproduced', 'toy support for all three': weak evidence for every claim."""
    out: list[VerdictMention] = []
    for text, first_line, cell in page_texts(page):
        if not may_state_verdict(text):
            continue
        for match in _GLOBAL.finditer(text):
            statement = _enclosing_statement(text, match.start())
            found = vm.combine(list(vm.phrases(vm.clean(statement))))
            if found:
                line = first_line + text.count("\n", 0, match.start())
                out.append(
                    VerdictMention(
                        found[0],
                        found[1].upper(),
                        vm.clean(statement),
                        page.slug,
                        line,
                        cell,
                        "logbook summary",
                        GLOBAL,
                        ("logbook summary",),
                    )
                )
    return out


def _enclosing_statement(text: str, at: int) -> str:
    """The table cell or sentence around offset `at`."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    if line.lstrip().startswith("|"):
        offset = at - line_start
        left = line.rfind("|", 0, offset) + 1
        right = line.find("|", offset)
        return line[left : len(line) if right < 0 else right].strip()
    starts = [text.rfind(mark, line_start, at) for mark in (". ", "! ", "? ", "; ")]
    start = max([s + 2 for s in starts if s >= 0] + [line_start])
    return vm.first_sentence(text, start, 240)


def _raw_data_mentions(page: Page) -> list[tuple[int, VerdictMention]]:
    """JSON results in figure raw data keyed by claim ('claim_2_x': {"status": "supported by …"})."""
    out: list[tuple[int, VerdictMention]] = []
    for cell in page.cells:
        if cell.kind is not CellKind.FIGURE or "claim" not in cell.body.lower():
            continue
        raw = figure_details(cell).raw
        if not raw or not raw.lstrip().startswith("{") or len(raw) > _RAW_JSON_LIMIT:
            continue
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(data, dict):
            continue
        for key, value in data.items():
            number = _RAW_CLAIM_KEY.match(str(key))
            if not number or not isinstance(value, dict):
                continue
            for field in ("verdict", "status", "outcome", "result"):
                text = value.get(field)
                found = vm.combine(list(vm.phrases(text))) if isinstance(text, str) else None
                if found:
                    mention = VerdictMention(
                        found[0],
                        found[1].upper(),
                        f"{key}.{field}: {text}",
                        page.slug,
                        cell.body_line,
                        cell.ordinal,
                        "raw data",
                        RAW_DATA,
                        ("raw data",),
                    )
                    out.append((int(number.group(1)), mention))
                    break
    return out
