"""Find the paper claims a logbook set out to reproduce and the verdict the agent wrote for each.

Claims are, in order of preference: pages titled or slugged "Claim N …" (several "Claim N" sections on one page
give one claim each, as does a page titled for several, "Claims 10 & 11"); failing that, "Claim N" sections on
another page; failing that, a "Claims" page listing them; failing that, the pages between the executive summary
and the conclusion; failing that, the sections or numbered list of an index that is the only page.

`gather` finds them and every candidate statement about each: in the claim's own text (`claim_statements`) and on
other pages (`claims_elsewhere`). `decide` then picks each verdict with the scored decision of `verdict_decision`,
or leaves the claim unstated with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field

from reviewapp.core.io.fork_split import split_map
from reviewapp.core.logbook import verdict_decision as vd
from reviewapp.core.logbook import verdict_mentions as vm
from reviewapp.core.logbook.cell_details import prose
from reviewapp.core.logbook.claim_statements import own_mentions
from reviewapp.core.logbook.claim_text import (
    ROW_CLAIM,
    TABLE_LINK,
    Scope,
    page_texts,
    without_code,
)
from reviewapp.core.logbook.claims_elsewhere import GLOBAL, HISTORY, cross_page_mentions
from reviewapp.core.logbook.model import CellKind, Claim, Page, VerdictMention, elided_title
from reviewapp.core.logbook.page_tree import SUPERSEDED
from reviewapp.core.verdicts import Verdict

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
# A verdict column about someone else's verdict (the Logbook Judge's, the paper's, an earlier attempt's) or one only
# aimed at; when a table has several verdict columns, one naming this reproduction wins.

_RAW_JSON_LIMIT = 2_000_000


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


def find_claims(
    pages: list[Page], weights: vd.Weights = vd.DEFAULT_WEIGHTS, *, meanwhile: Callable[[], None] | None = None
) -> list[Claim]:
    """Claims from the current pages; superseded and orphan pages only when no current page holds any.

    What earlier attempts said about a claim is kept as its history (source "history"): shown, never a
    contradiction, never the claim's verdict. `meanwhile`: the caller's work that needs no claim, run once while
    a second CPU (where there is one) starts on the claims' statements.
    """
    return decide(gather(pages, meanwhile=meanwhile), weights)


def gather(pages: list[Page], *, meanwhile: Callable[[], None] | None = None) -> Gathered:
    current = [p for p in pages if not p.is_root and p.is_current]
    claims, scopes = _find(current)
    if not claims:
        claims, scopes = _find([p for p in pages if not p.is_root])
    if not claims:  # a hand-made Space whose only page is its index: claims are its sections or list items
        claims, scopes = _root_claims([p for p in pages if p.is_root])
    claims, scopes = _without_older_versions(claims, scopes)
    claims, scopes = _without_supplements(claims, scopes)
    own, earlier = _statements(claims, scopes, meanwhile)
    claim_pages = {id(s.page) for s in scopes}
    _number_unnumbered(claims, pages, claim_pages)
    elsewhere, history = cross_page_mentions(claims, pages, claim_pages)
    gathered = Gathered(claims, own, earlier, elsewhere, history)
    old_pages = [p for p in pages if not p.is_root and not p.is_current and id(p) not in claim_pages]
    gathered.old = _old_claim_mentions(claims, old_pages)
    return gathered


def _statements(
    claims: list[Claim], scopes: list[Scope], meanwhile: Callable[[], None] | None = None
) -> tuple[list[list[VerdictMention]], list[list[VerdictMention]]]:
    """Per claim: the candidates in its own text, and an earlier attempt's verdict quoted on its page. One pass per
    claim, shared with a second CPU where that is safe (fork_split), which starts while `meanwhile` runs here."""
    asked = [
        (scope, claim.n, _siblings(claim, claims, scope, scopes)) for claim, scope in zip(claims, scopes, strict=True)
    ]
    found = split_map(_own_mentions, asked, lambda item: item[0].page.size, first=meanwhile)
    own = [[m for m in mentions if m.source != HISTORY] for mentions in found]
    earlier = [[m for m in mentions if m.source == HISTORY] for mentions in found]
    return own, earlier


def _own_mentions(asked: tuple[Scope, int | None, set[int]]) -> list[VerdictMention]:
    return own_mentions(*asked)


def preview_claims(pages: list[Page], weights: vd.Weights = vd.DEFAULT_WEIGHTS) -> list[Claim]:
    """The claims of the first pages of a logbook, to show while the rest is read: only those whose key does not
    depend on the pages not read yet, with the verdict their own text states.

    They are the current pages titled or slugged for their claims ("Claim N …", "Claims 10 & 11", sections), the
    first way `find_claims` looks, keyed the same way; a page marked as a version or as a supplement is left out
    (a later page may make it an earlier attempt or another page's evidence). Verdicts stated only elsewhere, and
    what superseded pages said, come with the whole reading. Pages are not changed.
    """
    current = [p for p in pages if not p.is_root and p.is_current]
    found, found_scopes = _claim_pages(current)
    kept = [
        (claim, scope)
        for claim, scope in zip(found, found_scopes, strict=True)
        if _version(scope.page) is None and not _SUPPLEMENT.search(scope.page.title[:300])
    ]
    claims, scopes = [c for c, _ in kept], [s for _, s in kept]
    own, earlier = _statements(claims, scopes)
    nothing: list[list[VerdictMention]] = [[] for _ in claims]
    return decide(Gathered(claims, own, earlier, nothing, nothing), weights)


def decide(gathered: Gathered, weights: vd.Weights = vd.DEFAULT_WEIGHTS) -> list[Claim]:
    """Each claim's agent verdict from its candidates (verdict_decision), or "unstated" with the reason."""
    claims = [replace(c, other_mentions=[], candidates=[], considered=[]) for c in gathered.claims]
    blocked: set[int] = set()
    for index, claim in enumerate(claims):
        claim.considered = vd.scored(gathered.own[index], weights)
        decision = vd.decide_scored(claim.considered, weights)
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
    return next((m for m in mentions if m.with_score(chosen.score) == chosen), None)


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


def _siblings(claim: Claim, claims: list[Claim], scope: Scope, scopes: list[Scope]) -> set[int]:
    """The numbers of the other claims that share this claim's page and scope ("Claims 10 & 11")."""
    return {
        c.n
        for c, s in zip(claims, scopes, strict=True)
        if c is not claim and s.page is scope.page and s.first_line == scope.first_line and c.n is not None
    }


def _without_older_versions(claims: list[Claim], scopes: list[Scope]) -> tuple[list[Claim], list[Scope]]:
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


def _without_supplements(claims: list[Claim], scopes: list[Scope]) -> tuple[list[Claim], list[Scope]]:
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


def _find(candidates: list[Page]) -> tuple[list[Claim], list[Scope]]:
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
        mentions = [m for m in own_mentions(scope, old.n) if m.source != HISTORY]
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


def _claim_pages(pages: list[Page]) -> tuple[list[Claim], list[Scope]]:
    claims: list[Claim] = []
    scopes: list[Scope] = []
    for page in pages:
        if not _is_claim_page(page):
            continue
        sections = _claim_sections(page)
        if len(sections) >= 2:
            for n, label, title, first, last in sections:
                scope = Scope(page, first, last)
                claims.append(_claim(page, f"{page.slug}#{label}", n, title, scope, number=label))
                scopes.append(scope)
            continue
        shared = _shared_numbers(page)
        if len(shared) >= 2:  # "Claims 10 & 11: …": one page for both, each a claim of its own
            for n in shared:
                scope = Scope(page)
                claims.append(_claim(page, f"{page.slug}#{n}", n, page.title, scope))
                scopes.append(scope)
            continue
        written = _page_number(page)
        scope = Scope(page)
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


def _claim_sections_elsewhere(pages: list[Page]) -> tuple[list[Claim], list[Scope]]:
    """'## Claim N' sections on pages that are not claim pages themselves ("Claims", "Results"), when no page is
    a claim page: one claim per section."""
    claims: list[Claim] = []
    scopes: list[Scope] = []
    labels: set[str] = set()
    # A results page is read before a summary or overview that repeats the same claims as sections.
    for page in sorted(pages, key=lambda p: bool(_NOT_CLAIM.search(p.slug) or _NOT_CLAIM.search(p.title))):
        sections = _claim_sections(page)
        if len(sections) < 2 or labels & {label for _, label, *_ in sections}:
            continue  # a second page repeating the same numbers is an overview of the first
        for n, label, title, first, last in sections:
            scope = Scope(page, first, last)
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


def _claims_page_list(pages: list[Page]) -> tuple[list[Claim], list[Scope]]:
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
                scopes: list[Scope] = []
                for n, text, _ in items:
                    scope = Scope(page, -1, -1)  # an item has no verdict text of its own
                    claims.append(_claim(page, f"{page.slug}#{n}", n, _short(text), scope, [cell.ordinal]))
                    scopes.append(scope)
                return claims, scopes
    return [], []


def _root_claims(pages: list[Page]) -> tuple[list[Claim], list[Scope]]:
    """The index page of a logbook that has no other page holding claims: its "Claim N" sections, else the items
    of a numbered list on it, each item its own scope (its verdict is on its line)."""
    for page in pages:
        sections = _claim_sections(page, in_preamble=True)
        if len(sections) >= 2:
            claims: list[Claim] = []
            scopes: list[Scope] = []
            for n, label, title, first, last in sections:
                scope = Scope(page, first, last)
                claims.append(_claim(page, f"{page.slug}#{label}", n, title, scope, number=label))
                scopes.append(scope)
            return claims, scopes
        for text, first_line, cell in page_texts(page):
            items = [(int(m.group(1)), m.group(2), m) for m in _LIST_ITEM.finditer(without_code(text))]
            numbers = [n for n, _, _ in items]
            if len(items) < 2 or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
                continue
            claims, scopes = [], []
            for n, item, match in items:
                line = first_line + text.count("\n", 0, match.start(1))
                scope = Scope(page, line, line)
                cells = [cell] if cell is not None else []
                claims.append(_claim(page, f"{page.slug}#{n}", n, _short(item), scope, cells))
                scopes.append(scope)
            return claims, scopes
    return [], []


def _between_summary_and_conclusion(pages: list[Page]) -> tuple[list[Claim], list[Scope]]:
    slugs = [p.slug.lower() for p in pages]
    start = next((i + 1 for i, s in enumerate(slugs) if "summary" in s), 0)
    end = next((i for i, s in enumerate(slugs) if "conclusion" in s and i >= start), len(pages))
    claims: list[Claim] = []
    scopes: list[Scope] = []
    for page in pages[start:end]:
        if _NOT_CLAIM.search(page.slug) or _NOT_CLAIM.search(page.title) or (not page.cells and not page.preamble):
            continue
        if _PROCESS_PAGE.match(page.title):
            continue
        scope = Scope(page)
        claims.append(_claim(page, f"{page.slug}#1", None, page.title, scope))
        scopes.append(scope)
    return claims, scopes


def _claim(
    page: Page,
    key: str,
    n: int | None,
    title: str,
    scope: Scope,
    cells: list[int] | None = None,
    number: str | None = None,
) -> Claim:
    if cells is None:
        cells = [c.ordinal for c in page.cells if scope.overlaps_cell(c)]
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
        for text, _, _ in page_texts(page):
            if "#/" not in text:
                continue
            for line in text.split("\n"):
                stripped = line.strip()
                if not stripped.startswith("|") or "#/" not in stripped:
                    continue
                cells = [c.strip() for c in stripped.strip("|").split("|")]
                number = next((ROW_CLAIM.match(c) for c in cells[:2] if ROW_CLAIM.match(c)), None)
                link = TABLE_LINK.search(stripped)
                if number and link:
                    found.setdefault(link.group("slug"), int(number.group(1)))
    return found


def _short(text: str, limit: int = 90) -> str:
    text = vm.clean(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
