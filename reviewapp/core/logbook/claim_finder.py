"""Find the paper claims a logbook set out to reproduce and the verdict the agent wrote for each.

Claims are, in order of preference: pages titled or slugged "Claim N …" (several "Claim N" sections on one page
give one claim each); failing that, a "Claims" page listing them; failing that, the pages between the executive
summary and the conclusion. Verdicts come from the claim's own text first; summary tables, index titles and
logbook-wide statements elsewhere fill gaps and reveal contradictions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field

from reviewapp.core.logbook import verdict_candidates as vc
from reviewapp.core.logbook import verdict_decision as vd
from reviewapp.core.logbook import verdict_mentions as vm
from reviewapp.core.logbook.cell_details import Fence, code_details, figure_details, prose
from reviewapp.core.logbook.model import Cell, CellKind, Claim, Page, VerdictMention, elided_title
from reviewapp.core.logbook.page_tree import SUPERSEDED, toc_links
from reviewapp.core.verdicts import Verdict, may_state_verdict

# How keys were numbered before sub-claims and prefixes were read; a claim whose key changed keeps that one as an
# alias, so that reviews already written under it still attach.
_V1_TITLE_NUMBER = re.compile(r"\bclaims?\s*#?\s*(\d{1,3})\b", re.IGNORECASE)
_V1_SLUG_NUMBER = re.compile(r"(?:^|[-_])claim[-_]?(\d{1,3})(?:[-_]|$)", re.IGNORECASE)
# Written claim numbers: "Claim 3", "Claim #3", "Claim no. 3", "Claim C3", "Claim 3a", "Claim 3.2", "C3: …",
# "Claim B: …"; in slugs "claim-3a-…", "claim3-…", "c3-…". A sub-claim keeps its letter in its label ("3a").
_TITLE_NUMBER = re.compile(
    r"\bclaims?\s*(?:(?:#|no\.?|number)\s*)?C?(?P<num>\d{1,3})(?:(?P<sub>[a-z])|\.(?P<dot>\d{1,2}))?(?![\w.])"
    r"|^\W{0,3}C(?P<cnum>\d{1,3})(?P<csub>[a-z])?(?:\W|$)"
    r"|\bclaim\s+(?P<letter>[A-H])(?=\s*[:.)\]—–-]|\s*$)"
    r"|\bclaim\s+(?P<roman>[IVX]{1,5})(?=\s*[:.)\]—–-]|\s*$)",
    re.IGNORECASE,
)
_SLUG_NUMBER = re.compile(
    r"(?:^|[-_])claims?[-_]?(?P<num>\d{1,3})(?P<sub>[a-z])?(?:[-_]|$)|^c(?P<cnum>\d{1,3})(?P<csub>[a-z])?(?:[-_]|$)",
    re.IGNORECASE,
)
_CLAIM_HEADING = re.compile(
    r"^(#{1,4})[ \t]*(?:\*\*[ \t]*)?claim[ \t]*(?:#[ \t]*)?(\d{1,3})([a-z])?\b[^\n]*$", re.IGNORECASE | re.MULTILINE
)
_TABLE_LINK = re.compile(r"\]\(\s*#/(?P<slug>[^)\s#?]+)\s*\)")
_LIST_ITEM = re.compile(r"^\s{0,3}(\d{1,3})[.)]\s+(\S[^\n]*)$", re.MULTILINE)
_NOT_CLAIM = re.compile(
    r"summary|executive|conclusion|method|limitation|scorecard|plan\b|provenance|negative|control|threat|"
    r"introduction|scope|overview|appendix|setup|environment|discrepanc|reference|glossary|readme|report|"
    r"release|visibility|evidence|verification|catalog|audit|hash|artifact|poster|index|notes|phase|"
    r"background|related|faq|about|changelog|todo|lessons|discussion|cost|resource",
    re.IGNORECASE,
)
# Pages that record how the work was done rather than a finding, named as a whole ("Results", "Data preparation");
# a finding's title may still use the words ("Sparse training speed").
_PROCESS_PAGE = re.compile(
    r"^\W*(?:\d+[.)]?\s*)?(?:results|experiments?|implementation(?:\s+details)?|training(?:\s+(?:setup|details|runs?|logs?))?|"
    r"data(?:sets?)?(?:\s+(?:preparation|prep|loading|sources?))?|figures|plots|logs?|runs?|code|timeline|progress|"
    r"work\s*log|journal|hyperparameters?|configuration|infrastructure|compute|next\s+steps|open\s+questions|"
    r"caveats|risks|errata|reproduction\s+(?:plan|log|details|notes))\W*$",
    re.IGNORECASE,
)
_ROW_CLAIM = re.compile(r"^\s*(?:\*\*)?\s*(?:claim\s*|c)?#?\s*(\d{1,3})\b", re.IGNORECASE)
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
_VERDICT_COLUMN = re.compile(r"verdict|status|outcome|result|assessment|rating", re.IGNORECASE)
# A verdict column about someone else's verdict (the Logbook Judge's, the paper's, an earlier attempt's) or one only
# aimed at; when a table has several verdict columns, one naming this reproduction wins.
_OTHERS_COLUMN = re.compile(
    r"judge|grader|leaderboard|\bpaper(?:'s)?[\s-]+(?:verdict|status|outcome|result|claim)|\bauthors?\b|"
    r"reported|published|claimed|previous|prior|earlier|original|\bold\b|\blast\b|expected|target|predicted",
    re.IGNORECASE,
)
_EARLIER_COLUMN = re.compile(r"previous|prior|earlier|\bold\b|\blast\b|before|\bv1\b|first\s+attempt", re.IGNORECASE)
_OWN_COLUMN = re.compile(
    r"\b(?:our|ours|this|agent|current|final|overall|new|updated|revised|reproduc\w*|replicat\w*)\b", re.IGNORECASE
)

CLAIM_TABLE = 0.7  # a table on the claim's own page: below a labelled statement, above code output
CODE_OUTPUT = 0.45  # verifier JSON in a code cell's output, often about one sub-check
WEAK = 0.6  # below this a verdict is only kept when nothing on the page says otherwise
CANDIDATE_ONLY = 0.35  # below this (a hedged "likely verified") a statement is only ever a candidate
_CONFLICT_FACTOR = 0.7
HISTORY = "history"  # stated by a superseded or orphan page: an earlier verdict, not a contradiction
SUMMARY_TABLE = 0.7
SUMMARY_LINE = 0.6
INDEX_TITLE = 0.8
GLOBAL = 0.4
RAW_DATA = 0.6
_RAW_JSON_LIMIT = 2_000_000
_RAW_CLAIM_KEY = re.compile(r"^claim[_\s-]?(\d{1,3})(?:\D|$)", re.IGNORECASE)
_FALLBACK_FACTOR = 0.8


@dataclass
class _Scope:
    """Where one claim's own text lives: a whole page, or a line range of it."""

    page: Page
    first_line: int = 0  # 0 means the whole page
    last_line: int = 0

    def covers(self, line: int) -> bool:
        return self.first_line == 0 or self.first_line <= line <= self.last_line

    def overlaps(self, first: int, last: int) -> bool:
        return self.first_line == 0 or (first <= self.last_line and last >= self.first_line)


@dataclass
class Gathered:
    """Claims as found and numbered, with every candidate statement about each; no verdict decided yet.

    `decide` turns it into claims with verdicts; it can be decided again with other tunables (the benchmark's
    cross-validation does), as nothing here depends on them."""

    claims: list[Claim]
    own: list[list[VerdictMention]]  # per claim: candidates in its own text
    earlier_on_page: list[list[VerdictMention]]  # per claim: an earlier attempt's verdict quoted on its page
    elsewhere: list[list[VerdictMention]]  # per claim: statements about it on other current pages
    history: list[list[VerdictMention]]  # per claim: what superseded and orphan pages state about it
    old: list[tuple[list[VerdictMention], list[int]]] = dataclass_field(default_factory=list)  # earlier claim pages


def find_claims(pages: list[Page], weights: vd.Weights = vd.DEFAULT_WEIGHTS) -> list[Claim]:
    """Claims from the current pages; superseded and orphan pages only when no current page holds any.

    What earlier attempts said about a claim is kept as its history (source "history"): shown, never a
    contradiction, never the claim's verdict.
    """
    return decide(gather(pages), weights)


def gather(pages: list[Page]) -> Gathered:
    current = [p for p in pages if not p.is_root and p.is_current]
    claims, scopes = _find(current)
    if not claims:
        claims, scopes = _find([p for p in pages if not p.is_root])
    if not claims:  # a hand-made Space whose only page is its index: claims are its sections or list items
        claims, scopes = _root_claims([p for p in pages if p.is_root])
    claims, scopes = _without_older_versions(claims, scopes)
    claims, scopes = _without_supplements(claims, scopes)
    own: list[list[VerdictMention]] = []
    earlier: list[list[VerdictMention]] = []
    for claim, scope in zip(claims, scopes, strict=True):
        mentions = _own_mentions(scope, claim.n, _siblings(claim, claims, scope, scopes))
        own.append([m for m in mentions if m.source != HISTORY])
        earlier.append([m for m in mentions if m.source == HISTORY])
    claim_pages = {id(s.page) for s in scopes}
    _number_unnumbered(claims, pages, claim_pages)
    elsewhere, history = _cross_page_mentions(claims, pages, claim_pages)
    gathered = Gathered(claims, own, earlier, elsewhere, history)
    old_pages = [p for p in pages if not p.is_root and not p.is_current and id(p) not in claim_pages]
    gathered.old = _old_claim_mentions(claims, old_pages)
    return gathered


def decide(gathered: Gathered, weights: vd.Weights = vd.DEFAULT_WEIGHTS) -> list[Claim]:
    """Each claim's agent verdict from its candidates (verdict_decision), or "unstated" with the reason."""
    claims = [replace(c, other_mentions=[], candidates=[], considered=[]) for c in gathered.claims]
    blocked: set[int] = set()
    for index, claim in enumerate(claims):
        decision = vd.decide_own(gathered.own[index], weights)
        claim.considered = vd.scored(gathered.own[index], weights)
        if decision.blocks_fallback:
            blocked.add(index)
        _apply(claim, decision)
        claim.other_mentions = decision.others + gathered.earlier_on_page[index]
    stated: set[Verdict] = {c.verdict for c in claims if c.verdict is not Verdict.UNSTATED}  # before gaps are filled
    for index, claim in enumerate(claims):
        mentions = gathered.elsewhere[index]
        claim.considered += vd.scored(mentions, weights)
        if mentions and claim.verdict is Verdict.UNSTATED and index not in blocked:
            decision = vd.decide_elsewhere(mentions, stated, weights)
            _apply(claim, decision)
            if decision.chosen is not None:
                mentions = [m for m in mentions if m is not _original(decision.chosen, mentions)]
        claim.other_mentions.extend(m for m in mentions if m.confidence >= GLOBAL)
        claim.other_mentions.extend(
            replace(m, source=HISTORY) for m in gathered.history[index] if m.confidence >= GLOBAL
        )
    for old_mentions, targets in gathered.old:
        chosen = vd.decide_own(old_mentions, weights).chosen
        if chosen is not None:
            for index in targets:
                claims[index].other_mentions.append(replace(chosen, source=HISTORY))
    return claims


def _original(chosen: VerdictMention, mentions: list[VerdictMention]) -> VerdictMention | None:
    """The mention a scored copy was made from."""
    return next((m for m in mentions if replace(m, score=chosen.score) == chosen), None)


def _apply(claim: Claim, decision: vd.Decision) -> None:
    if decision.chosen is None:
        claim.candidates = decision.candidates
        claim.unstated_reason = decision.reason
        return
    claim.candidates = []  # decided: what else was read stays in `considered`
    claim.verdict = decision.chosen.verdict
    claim.verdict_raw = decision.chosen.raw
    claim.verdict_mention = decision.chosen
    claim.confidence = decision.confidence
    claim.unstated_reason = None


def _siblings(claim: Claim, claims: list[Claim], scope: _Scope, scopes: list[_Scope]) -> set[int]:
    """The numbers of the other claims that share this claim's page and scope ("Claims 10 & 11")."""
    return {
        c.n
        for c, s in zip(claims, scopes, strict=True)
        if c is not claim and s.page is scope.page and s.first_line == scope.first_line and c.n is not None
    }


def _without_older_versions(claims: list[Claim], scopes: list[_Scope]) -> tuple[list[Claim], list[_Scope]]:
    """Two pages for the same claim number marked as versions ("Claim 1 (v1)", "claim-1-v2"): the highest version
    is the claim, the others are earlier attempts (their pages become superseded and their verdicts history)."""
    groups: dict[str, list[int]] = {}
    for index, (claim, scope) in enumerate(zip(claims, scopes, strict=True)):
        if claim.number is not None and scope.first_line == 0:
            groups.setdefault(claim.number, []).append(index)
    older: set[int] = set()
    for indexes in groups.values():
        versions = [_version(scopes[i].page) for i in indexes]
        if len(indexes) < 2 or None in versions or len(set(versions)) != len(versions):
            continue  # unmarked duplicates stay side by side: the reviewer decides
        newest = max(v for v in versions if v is not None)
        older.update(i for i, v in zip(indexes, versions, strict=True) if v != newest)
    for index in older:
        if scopes[index].page.is_current:
            scopes[index].page.status = SUPERSEDED
    keep = [i for i in range(len(claims)) if i not in older]
    return [claims[i] for i in keep], [scopes[i] for i in keep]


def _without_supplements(claims: list[Claim], scopes: list[_Scope]) -> tuple[list[Claim], list[_Scope]]:
    """A second page for a claim number that says it only adds to it (an appendix, "continued") is that claim's
    evidence, not another claim; alone, such a page is still the claim."""
    labels: dict[str, list[int]] = {}
    for index, claim in enumerate(claims):
        if claim.number is not None and scopes[index].first_line == 0:
            labels.setdefault(claim.number, []).append(index)
    extra: set[int] = set()
    for indexes in labels.values():
        supplements = {i for i in indexes if _SUPPLEMENT.search(scopes[i].page.title[:300])}
        if supplements and len(supplements) < len(indexes):
            extra |= supplements
    keep = [i for i in range(len(claims)) if i not in extra]
    return [claims[i] for i in keep], [scopes[i] for i in keep]


_VERSION = re.compile(r"(?:^|[-_\s(\[])v(?:ersion)?[-_\s]?(\d{1,2})(?=$|[-_\s)\]])", re.IGNORECASE)


def _version(page: Page) -> int | None:
    match = _VERSION.search(page.slug) or _VERSION.search(page.title[:300])
    return int(match.group(1)) if match else None


def _find(candidates: list[Page]) -> tuple[list[Claim], list[_Scope]]:
    claims, scopes = _claim_pages(candidates)
    if not claims:
        claims, scopes = _claim_sections_elsewhere(candidates)
    if not claims:
        claims, scopes = _claims_page_list(candidates)
    if not claims:
        claims, scopes = _between_summary_and_conclusion(candidates)
    return claims, scopes


def _old_claim_mentions(claims: list[Claim], old_pages: list[Page]) -> list[tuple[list[VerdictMention], list[int]]]:
    """Earlier attempts' own claim pages: their candidates, and the current claims of the same number."""
    if not old_pages:
        return []
    old_claims, old_scopes = _claim_pages(old_pages)
    by_number: dict[int, list[int]] = {}
    for index, claim in enumerate(claims):
        if claim.n is not None:
            by_number.setdefault(claim.n, []).append(index)
    out: list[tuple[list[VerdictMention], list[int]]] = []
    for old, scope in zip(old_claims, old_scopes, strict=True):
        if old.n is None or old.n not in by_number:
            continue
        mentions = [m for m in _own_mentions(scope, old.n) if m.source != HISTORY]
        out.append((mentions, by_number[old.n]))
    return out


# --- finding claims -------------------------------------------------------------------------------------------


def _page_number(page: Page) -> tuple[int, str] | None:
    """(number, label) as written in the page's title or slug: (3, "3a") for "Claim 3a"."""
    title = page.title[:300].replace("**", "")  # titles are untrusted; a claim number is near the start
    return _label_of(_TITLE_NUMBER.search(title)) or _label_of(_SLUG_NUMBER.search(page.slug[:300]))


def _label_of(match: re.Match[str] | None) -> tuple[int, str] | None:
    if match is None:
        return None
    groups = match.groupdict()
    if groups.get("roman"):
        value = _roman(groups["roman"].upper())
        return (value, str(value)) if value else None
    if groups.get("letter"):
        letter = groups["letter"].upper()
        return ord(letter) - ord("A") + 1, letter
    num = groups.get("num") or groups.get("cnum")
    if num is None:
        return None
    sub = groups.get("sub") or groups.get("csub")
    dot = groups.get("dot")
    label = str(int(num)) + (sub.lower() if sub else f".{int(dot)}" if dot else "")
    return int(num), label


_ROMAN = re.compile(r"^(X{0,3})(IX|IV|V?I{0,3})$")


def _roman(text: str) -> int | None:
    """'III' -> 3, 'XIV' -> 14; None for anything that is not a roman numeral up to 39."""
    match = _ROMAN.match(text)
    if not match or not text:
        return None
    tens, units = match.groups()
    unit_values = {"": 0, "I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6, "VII": 7, "VIII": 8, "IX": 9}
    return 10 * len(tens) + unit_values[units]


def _v1_key(page: Page) -> str:
    match = _V1_TITLE_NUMBER.search(page.title) or _V1_SLUG_NUMBER.search(page.slug)
    return f"{page.slug}#{int(match.group(1)) if match else 1}"


def _is_claim_page(page: Page) -> bool:
    if _page_number(page) is not None:
        return True
    if re.match(r"^claims\b", page.slug.lower()) or re.match(r"^claims\b", page.title.lower()):
        return False  # a page listing all claims
    if _ABOUT_CLAIMS.match(page.title) or (
        not page.title.lower().startswith("claim") and _ABOUT_CLAIMS.match(page.slug)
    ):
        return False  # "Claim summary", "Claim-by-claim overview": about the claims, not one of them
    return page.slug.lower().startswith(("claim-", "claim_")) or page.title.lower().startswith("claim")


# A page about the claims rather than one claim: "claim" followed (without a colon or dash stating a claim) by a
# word for a summary, a method or a table.
_ABOUT_CLAIMS = re.compile(
    r"^\W*claims?(?:[-_\s]+by[-_\s]+claim)?[-_\s]+(?:summary|overview|index|list|table|verification|methodology|"
    r"methods?|scorecard|status|results|evidence|notes|audit|registry|map|matrix|tracker|review|analysis|"
    r"assessment|verdicts?)\b",
    re.IGNORECASE,
)
# A page that adds to a claim another page states: "Claim 2 — appendix", "Claim 3 (continued)", "Claim 1: raw data".
_SUPPLEMENT = re.compile(
    r"\b(?:appendix|supplement(?:ary)?|additional\s+(?:figures|results|evidence|data)|extra\s+(?:figures|plots|runs)|"
    r"continued|cont\.|part\s+(?:2|ii|two)|raw\s+(?:data|logs|outputs?)|details)\b",
    re.IGNORECASE,
)


def _claim_pages(pages: list[Page]) -> tuple[list[Claim], list[_Scope]]:
    claims: list[Claim] = []
    scopes: list[_Scope] = []
    for page in pages:
        if not _is_claim_page(page):
            continue
        sections = _claim_sections(page)
        if len(sections) >= 2:
            for n, label, title, first, last in sections:
                scope = _Scope(page, first, last)
                claims.append(_claim(page, f"{page.slug}#{label}", n, title, scope, number=label))
                scopes.append(scope)
            continue
        shared = _shared_numbers(page)
        if len(shared) >= 2:  # "Claims 10 & 11: …": one page for both, each a claim of its own
            for n in shared:
                scope = _Scope(page)
                claims.append(_claim(page, f"{page.slug}#{n}", n, page.title, scope))
                scopes.append(scope)
            continue
        written = _page_number(page)
        scope = _Scope(page)
        number, label_text = written if written else (None, None)
        key = f"{page.slug}#{label_text if label_text is not None else 1}"
        claim = _claim(page, key, number, page.title, scope, number=label_text)
        old_key = _v1_key(page)
        if old_key != key:
            claim.aliases = (old_key,)
        claims.append(claim)
        scopes.append(scope)
    return claims, scopes


_SHARED_NUMBERS = re.compile(
    r"\bclaims\s*#?\s*(?P<numbers>\d{1,3}(?:\s*(?:,|&|\+|/|and)\s*#?\s*\d{1,3}){1,5})\b", re.IGNORECASE
)
_SLUG_SHARED = re.compile(r"^claims?-(?P<numbers>\d{1,3}(?:-(?:and-)?\d{1,3}){1,5})(?:-|$)", re.IGNORECASE)


def _shared_numbers(page: Page) -> list[int]:
    """The claim numbers of a page written for several claims ("Claims 10 & 11", "Claims 2, 3 and 4")."""
    match = _SHARED_NUMBERS.search(page.title[:300].replace("**", ""))
    if match is None:
        match = _SLUG_SHARED.match(page.slug[:300]) if page.slug.lower().startswith("claims-") else None
    if match is None:
        return []
    numbers = [int(n) for n in re.findall(r"\d{1,3}", match.group("numbers"))]
    return list(dict.fromkeys(numbers)) if len(set(numbers)) == len(numbers) else []


def _claim_sections_elsewhere(pages: list[Page]) -> tuple[list[Claim], list[_Scope]]:
    """'## Claim N' sections on pages that are not claim pages themselves ("Claims", "Results"), when no page is
    a claim page: one claim per section."""
    claims: list[Claim] = []
    scopes: list[_Scope] = []
    labels: set[str] = set()
    # A results page is read before a summary or overview that repeats the same claims as sections.
    for page in sorted(pages, key=lambda p: bool(_NOT_CLAIM.search(p.slug) or _NOT_CLAIM.search(p.title))):
        sections = _claim_sections(page)
        if len(sections) < 2 or labels & {label for _, label, *_ in sections}:
            continue  # a second page repeating the same numbers is an overview of the first
        for n, label, title, first, last in sections:
            scope = _Scope(page, first, last)
            claims.append(_claim(page, f"{page.slug}#{label}", n, title, scope, number=label))
            scopes.append(scope)
            labels.add(label)
    return claims, scopes


def _claim_sections(page: Page, in_preamble: bool = False) -> list[tuple[int, str, str, int, int]]:
    """(n, label, title, first line, last line) for each 'Claim N' heading on the page, in file line numbers
    (in its cells; with `in_preamble`, in the text before the first cell too)."""
    headings: list[tuple[int, str, str, int]] = []
    texts = [(c.body, c.body_line) for c in page.cells if c.kind is CellKind.MARKDOWN]
    if in_preamble and page.preamble:
        texts.insert(0, (page.preamble, page.preamble_line))
    for body, body_line in texts:
        for match in _CLAIM_HEADING.finditer(body):
            line = body_line + body.count("\n", 0, match.start())
            n = int(match.group(2))
            label = f"{n}{match.group(3).lower()}" if match.group(3) else str(n)
            headings.append((n, label, vm.clean(match.group(0).lstrip("#")), line))
    labels = [label for _, label, _, _ in headings]
    if len(set(labels)) < 2 or len(set(labels)) != len(labels):
        return []
    bounds = [line for *_, line in headings[1:]] + [10**9]
    return [(n, label, title, line, bound - 1) for (n, label, title, line), bound in zip(headings, bounds, strict=True)]


def _claims_page_list(pages: list[Page]) -> tuple[list[Claim], list[_Scope]]:
    """A page named "Claims" that lists them as a numbered list: one claim per item."""
    for page in pages:
        if "claim" not in page.slug.lower() and "claim" not in page.title.lower():
            continue
        for cell in page.cells:
            if cell.kind is not CellKind.MARKDOWN:
                continue
            items = [(int(m.group(1)), m.group(2), m) for m in _LIST_ITEM.finditer(prose(cell.body))]
            numbers = [n for n, _, _ in items]
            if len(items) >= 2 and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
                claims: list[Claim] = []
                scopes: list[_Scope] = []
                for n, text, _ in items:
                    scope = _Scope(page, -1, -1)  # an item has no verdict text of its own
                    claims.append(_claim(page, f"{page.slug}#{n}", n, _short(text), scope, [cell.ordinal]))
                    scopes.append(scope)
                return claims, scopes
    return [], []


def _root_claims(pages: list[Page]) -> tuple[list[Claim], list[_Scope]]:
    """The index page of a logbook that has no other page holding claims: its "Claim N" sections, else the items
    of a numbered list on it, each item its own scope (its verdict is on its line)."""
    for page in pages:
        sections = _claim_sections(page, in_preamble=True)
        if len(sections) >= 2:
            claims: list[Claim] = []
            scopes: list[_Scope] = []
            for n, label, title, first, last in sections:
                scope = _Scope(page, first, last)
                claims.append(_claim(page, f"{page.slug}#{label}", n, title, scope, number=label))
                scopes.append(scope)
            return claims, scopes
        for text, first_line, cell in _page_texts(page):
            items = [(int(m.group(1)), m.group(2), m) for m in _LIST_ITEM.finditer(_without_code(text))]
            numbers = [n for n, _, _ in items]
            if len(items) < 2 or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
                continue
            claims, scopes = [], []
            for n, item, match in items:
                line = first_line + text.count("\n", 0, match.start(1))
                scope = _Scope(page, line, line)
                cells = [cell] if cell is not None else []
                claims.append(_claim(page, f"{page.slug}#{n}", n, _short(item), scope, cells))
                scopes.append(scope)
            return claims, scopes
    return [], []


def _between_summary_and_conclusion(pages: list[Page]) -> tuple[list[Claim], list[_Scope]]:
    slugs = [p.slug.lower() for p in pages]
    start = next((i + 1 for i, s in enumerate(slugs) if "summary" in s), 0)
    end = next((i for i, s in enumerate(slugs) if "conclusion" in s and i >= start), len(pages))
    claims: list[Claim] = []
    scopes: list[_Scope] = []
    for page in pages[start:end]:
        if _NOT_CLAIM.search(page.slug) or _NOT_CLAIM.search(page.title) or (not page.cells and not page.preamble):
            continue
        if _PROCESS_PAGE.match(page.title):
            continue
        scope = _Scope(page)
        claims.append(_claim(page, f"{page.slug}#1", None, page.title, scope))
        scopes.append(scope)
    return claims, scopes


def _claim(
    page: Page,
    key: str,
    n: int | None,
    title: str,
    scope: _Scope,
    cells: list[int] | None = None,
    number: str | None = None,
) -> Claim:
    if cells is None:
        cells = [c.ordinal for c in page.cells if scope.overlaps(c.body_line, c.body_line + max(c.line_count, 1) - 1)]
    if number is None and n is not None:
        number = str(n)
    return Claim(
        key=key,
        n=n,
        title=elided_title(vm.clean(title)),
        page=page.slug,
        cells=cells,
        section_line=scope.first_line or None,
        number=number,
    )


# --- numbers for claims that were not numbered where they are written ------------------------------------------


def _number_unnumbered(claims: list[Claim], pages: list[Page], claim_pages: set[int]) -> None:
    """A number for every claim: from a summary table that links its page, else after the written numbers, else
    (when no claim is numbered at all) by manifest order. Keys do not change; `numbering` says where n came from.
    """
    missing = [c for c in claims if c.n is None]
    if not missing:
        return
    from_tables = _numbers_from_tables([p for p in pages if p.is_current and id(p) not in claim_pages])
    taken = {c.n for c in claims if c.n is not None}
    for claim in missing:
        n = from_tables.get(claim.page)
        if n is not None and n not in taken and not claim.section_line:
            claim.n, claim.number, claim.numbering = n, str(n), "summary table"
            taken.add(n)
    missing = [c for c in claims if c.n is None]
    if not missing:
        return
    nothing_written = not taken
    next_free = max(taken, default=0) + 1
    for claim in missing:
        while next_free in taken:
            next_free += 1
        claim.n, claim.number = next_free, str(next_free)
        claim.numbering = "manifest order" if nothing_written else "after the written numbers"
        taken.add(next_free)


def _numbers_from_tables(pages: list[Page]) -> dict[str, int]:
    """page slug -> claim number, from table rows that link a page and name a claim number in a leading column."""
    found: dict[str, int] = {}
    for page in pages:
        for text, _, _ in _page_texts(page):
            if "#/" not in text:
                continue
            for line in text.split("\n"):
                stripped = line.strip()
                if not stripped.startswith("|") or "#/" not in stripped:
                    continue
                cells = [c.strip() for c in stripped.strip("|").split("|")]
                number = next((_ROW_CLAIM.match(c) for c in cells[:2] if _ROW_CLAIM.match(c)), None)
                link = _TABLE_LINK.search(stripped)
                if number and link:
                    found.setdefault(link.group("slug"), int(number.group(1)))
    return found


def _short(text: str, limit: int = 90) -> str:
    text = vm.clean(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- the claim's own verdict ----------------------------------------------------------------------------------


def _own_mentions(scope: _Scope, n: int | None = None, siblings: set[int] | None = None) -> list[VerdictMention]:
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


def _with_distance(mention: VerdictMention, scope: _Scope) -> VerdictMention:
    """Mark a candidate within a few lines of the claim's heading (its section's, or the page's title)."""
    heading = scope.first_line or 1
    if 0 <= mention.line - heading <= _NEAR_LINES and "near the claim heading" not in mention.features:
        return replace(mention, features=(*mention.features, "near the claim heading"))
    return mention


def _only_about(text: str, numbers: set[int]) -> bool:
    named = {int(m.group(1)) for m in _NAMED_CLAIM.finditer(text)}
    return bool(named) and named <= numbers


_NAMED_CLAIM = re.compile(r"\bclaims?\s*#?\s*C?(\d{1,3})\b", re.IGNORECASE)


def _scope_mentions(scope: _Scope, n: int | None) -> list[VerdictMention]:
    page = scope.page
    found: list[VerdictMention] = []
    if scope.first_line == 0:
        title = vm.title_verdict(page.title)
        if title:
            found.append(_mention(title, page, 1, None, "page title"))
    budget = [PASSING_LIMIT]  # passing mentions still to collect for this claim
    _scan_text(page.preamble, page.preamble_line, page, None, scope, found, budget)
    for cell in page.cells:
        if scope.first_line and not scope.overlaps(cell.body_line, cell.body_line + max(cell.line_count, 1) - 1):
            continue
        title = vm.title_verdict(cell.title) if cell.header.get("title") else None
        if title and scope.covers(cell.body_line):
            found.append(_mention(title, page, cell.line + 2, cell.ordinal, "cell title"))
        if cell.kind in (CellKind.MARKDOWN, CellKind.GENERIC):
            _scan_text(cell.body, cell.body_line, page, cell.ordinal, scope, found, budget)
            _claim_tables(cell.body, cell.body_line, page, cell.ordinal, scope, n, found)
        elif cell.kind is CellKind.CODE and scope.covers(cell.body_line):
            output = code_details(cell).output  # read once: outputs can be long
            if (
                output is not None
                and len(output.text) <= _RAW_JSON_LIMIT
                and not _code_output(cell, output, page, found)
            ):
                _output_lines(cell, output, page, found)
    if scope.first_line == 0:
        _claim_tables(page.preamble, page.preamble_line, page, None, scope, n, found)
    return found


def _claim_tables(
    text: str, first_line: int, page: Page, cell: int | None, scope: _Scope, n: int | None, out: list[VerdictMention]
) -> None:
    """A verdict in a table on the claim's own page: a 'Verdict | X' row, the only row under a verdict column, or
    the row of a verdict column that names this claim's number. Outranked by a labelled statement."""
    if "|" not in text or not may_state_verdict(text):
        return
    lines = _without_code(text).split("\n")
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
        column = _verdict_column_of(header)
        picked: list[tuple[int, str, str]] = []  # (line index, verdict text, row)
        for at, row in data:
            if len(row) == 2 and vm.clean(row[0]).lower() in _ROW_LABELS:
                picked.append((at, row[1], " | ".join(row)))
        if column is not None and not picked:
            if len(body) == 1 and column < len(body[0][1]):
                picked.append((body[0][0], body[0][1][column], " | ".join(body[0][1])))
            elif n is not None:
                for at, row in body:
                    number = next((_ROW_CLAIM.match(c) for c in row[:2] if _ROW_CLAIM.match(c)), None)
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


def _verdict_column_of(header: list[str]) -> int | None:
    """The column of a table header that holds this reproduction's verdicts, if any."""
    names = [vm.clean(c) for c in header]
    columns = [
        i for i, c in enumerate(names) if len(c) <= 40 and _VERDICT_COLUMN.search(c) and not _OTHERS_COLUMN.search(c)
    ]
    own = [i for i in columns if _OWN_COLUMN.search(names[i])]
    picked = own or columns
    return picked[0] if picked else None


def _code_output(cell: Cell, output: Fence, page: Page, out: list[VerdictMention]) -> bool:
    """Verifier JSON printed by a code cell (`{"verdict": "NOT_EXECUTED"}`): the weakest place a verdict can be,
    since such output is often about one sub-check; only top-level keys count. True when one was found."""
    if not output.text.lstrip().startswith("{"):
        return False
    try:
        data = json.loads(output.text)
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


def _output_lines(cell: Cell, output: Fence, page: Page, out: list[VerdictMention]) -> None:
    """`verdict: X` lines anywhere in a run's output (YAML, logs, nested JSON): candidates only, one pass."""
    for key, value, offset in vc.output_lines(output.text):
        found = vm.head_verdict(value.replace("_", " "))
        if found:
            line = cell.body_line + output.text.count("\n", 0, offset)
            features = (vd.CODE_OUTPUT, "output line")
            out.append(VerdictMention(found[0], found[1].upper(), f"{key}: {value}", page.slug, line, cell.ordinal,
                                      "code output", vc.OUTPUT_LINE_CONFIDENCE, features))  # fmt: skip


def _scan_text(
    text: str,
    first_line: int,
    page: Page,
    cell: int | None,
    scope: _Scope,
    out: list[VerdictMention],
    budget: list[int],
) -> None:
    if not text or not vc.may_mention(text):
        return
    plain = _without_code(text)
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
            out.append(_mention(found, page, line + paragraph.count("\n", 0, found.offset), cell, source))
        if owner != _EARLIER and budget[0] > 0:
            _passing_mentions(flat, paragraph, line, page, cell, {f.verdict for f in statements}, out, budget)
    for index, found in vm.heading_then_paragraph(lines):
        if scope.covers(first_line + index) and sections[index] != _OTHERS:
            source = HISTORY if sections[index] == _EARLIER else "verdict section"
            out.append(_mention(found, page, first_line + index, cell, source))


# A sentence about the claim itself ("This verifies the selected … claim", "Claim 1 reproduced"), not the paper's.
_NAMES_CLAIM = re.compile(r"\bclaims?\b", re.IGNORECASE)
_OTHERS_CLAIM = re.compile(
    r"\b(?:paper|papers|authors?|original)(?:'s|’s)?\s+(?:\w+\s+)?claims?\b|\bclaim\s+(?:contract|registry)",
    re.IGNORECASE,
)


def _names_claim(text: str, at: int) -> bool:
    """The word "claim" within a few words of offset `at`, in the same sentence, and not the paper's claim."""
    sentence = _sentence_around(text, at)
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
    found = vm.title_verdict(stripped.lstrip("#").strip())
    return replace(found, text=vm.clean(stripped.lstrip("#"))) if found is not None else None


def _passing_mentions(
    flat: str,
    paragraph: str,
    line: int,
    page: Page,
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
        sentence = vm.clean(_sentence_around(flat, mention.start))
        at = line + paragraph.count("\n", 0, mention.start)
        about = ("names the claim",) if _names_claim(flat, mention.start) else ()
        if flat.lstrip().startswith(">"):  # a block quote: someone else's words
            about = ("quoted", *about)
        features = (vd.MENTION, *mention.features, *about, *_place_features(page, cell, at))
        out.append(VerdictMention(mention.verdict, mention.raw, sentence, page.slug, at, cell, "claim text",
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


def _without_code(text: str) -> str:
    """Blank out fenced code so that line numbers stay right but code and outputs are not read as prose."""
    if "```" not in text and "~~~" not in text:
        return text
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3] * 1
            out.append("")
            continue
        if fence is not None:
            if stripped.startswith(fence) and stripped.strip("`~") == "":
                fence = None
            out.append("")
            continue
        out.append(line)
    return "\n".join(out)


def _mention(found: vm.Found, page: Page, line: int, cell: int | None, source: str) -> VerdictMention:
    kind = _RULE_KINDS.get(found.rule, vd.MENTION)
    if source in ("page title", "cell title"):
        kind = vd.HEDGED if found.rule == "hedged" else vd.TITLE
    features = (kind, *_place_features(page, cell, line))
    return VerdictMention(
        found.verdict, found.raw, found.text, page.slug, line, cell, source, found.confidence, features
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


def _place_features(page: Page, cell: int | None, line: int) -> tuple[str, ...]:
    """Where on its page a candidate sits: before the first cell, in the first or the last cell."""
    if cell is None:
        return ("before the first cell",) if page.cells else ()
    ordinals = [c.ordinal for c in page.cells if c.kind in (CellKind.MARKDOWN, CellKind.GENERIC)]
    out = []
    if ordinals and cell == ordinals[0]:
        out.append("first cell")
    if ordinals and cell == ordinals[-1]:
        out.append("last cell")
    return tuple(out)


def _cross_page_mentions(
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


def _page_texts(page: Page) -> list[tuple[str, int, int | None]]:
    texts: list[tuple[str, int, int | None]] = [(page.preamble, page.preamble_line, None)] if page.preamble else []
    texts += [(c.body, c.body_line, c.ordinal) for c in page.cells if c.kind in (CellKind.MARKDOWN, CellKind.GENERIC)]
    return texts


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
    for text, first_line, cell in _page_texts(page):
        if not may_state_verdict(text):
            continue
        lines = _without_code(text).split("\n")
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
                header = _verdict_column_of(cells)
                verdict_column = header if header is not None else -1
                earlier_column = _earlier_column_of(cells)
                continue
            if set(stripped) <= set("|-: "):
                continue
            number = next((_ROW_CLAIM.match(c) for c in cells[:2] if _ROW_CLAIM.match(c)), None)
            link = next((_TABLE_LINK.search(c) for c in cells[:2] if _TABLE_LINK.search(c)), None)
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
        (i for i, c in enumerate(names) if len(c) <= 40 and _VERDICT_COLUMN.search(c) and _EARLIER_COLUMN.search(c)),
        None,
    )


def _line_mentions(
    line: str, page: Page, line_no: int, cell: int | None, out: list[tuple[int | str | _TitleRef, VerdictMention]]
) -> None:
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
        out.extend((n, mention) for n in range(first, min(last, first + 20) + 1))


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
    for text, first_line, cell in _page_texts(page):
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
