"""Find the places where a logbook states a verdict, with how sure we are that each one is a verdict.

Agents write verdicts as free text (logbook-format.md §13): labelled lines ("**Verdict: FALSIFIED as stated.**"),
headings ("## Verdict: partial"), title suffixes ("— **toy**"), bold or upper-case words. The same words also
appear where they are not verdicts: negated ("no claim remains BLOCKED"), conditional ("VERIFIED only if …"),
in table columns about something else ("Full replication: NOT ATTEMPTED") and inside claim statements
("property 1 holds at scale"). Each rule below carries a confidence so the caller can prefer the surest.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reviewapp.core.verdicts import PHRASE_RE, Verdict, find_phrases, iter_phrases, may_state_verdict, phrase_verdict

LABELLED = 0.9
FINAL_LABELLED = 0.95
TITLE = 0.85
BOLD = 0.75
UPPER = 0.5
QUALIFIED = 0.4  # "component verdict", "preliminary verdict": about part of a claim
HEDGED = 0.3  # "likely verified": shown as a candidate, never taken as the verdict

_LABEL = re.compile(
    r"(?P<qual>\b(?:final|overall|claim|scope|scientific|component|sub|partial|preliminary|interim|initial|"
    r"previous|old|earlier|legacy|historical|current|updated|revised|expected|target|predicted|hypothesi[sz]ed|"
    r"planned|anticipated|desired|intended)[\s-]+)?"
    r"\b(?P<label>verdict|outcome|status|result|conclusion|assessment|finding|rating)s?\b(?!-\w)"
    r"(?P<extra>[^:\n|]{0,40}?)(?:\s*(?:\*\*|__))?(?:\s*[:：]|\s[-–—]{1,2}\s)\s*(?:\*\*|__)?",
    re.IGNORECASE,
)
# "Verdict:" is the surest label; "Result:" and "Conclusion:" often introduce a finding rather than a verdict.
_LABEL_CONFIDENCE = {
    "verdict": LABELLED,
    "outcome": LABELLED - 0.02,
    "status": LABELLED - 0.02,
    "assessment": LABELLED - 0.02,
    "rating": LABELLED - 0.02,
    "result": LABELLED - 0.1,
    "finding": LABELLED - 0.1,
    "conclusion": LABELLED - 0.1,
}
_LABEL_WORDS = ("verdict", "outcome", "status", "result", "conclusion", "assessment", "finding", "rating")
_HEADING_LABEL = re.compile(
    r"^#{1,6}\s*(?:\*\*\s*)?(?P<qual>final\s+|overall\s+)?(?:verdict|outcome|status|conclusion)s?\s*"
    r"(?:\*\*\s*)?(?:[:：]\s*)?$",
    re.IGNORECASE,
)
_NEGATION = re.compile(
    r"(?:\b(?:no|not|never|nor|without|neither|none|nothing|cannot|rather\s+than|instead\s+of|would\s+be|"
    r"whether|if|unless|before|until|than|nor|why)\b|n't)[^.;:!?|—]*$",  # a dash ends a negation's reach
    re.IGNORECASE,
)
_CONDITION_AFTER = re.compile(
    r"^[\W_]*(?:only\s+if|only\s+when|if\b|unless\b|when\b|requires?\b|would\b)", re.IGNORECASE
)
# A verdict the logbook reports from someone else: the Logbook Judge, a grader, an earlier attempt.
_ATTRIBUTED = re.compile(
    r"(?:\b(?:judges?|judged|graders?|graded|leaderboard)\b"
    r"|\b(?:earlier|previous|prior|original|old|last|first)\s+(?:\w+\s+)?"
    r"(?:attempts?|runs?|revisions?|rounds?|versions?|submissions?|logbooks?|verdicts?|scores?|pages?)\b"
    r"|\b(?:was|were|had\s+been)\s+(?:rated|judged|scored|marked|graded)\b)[^.;!?|\n]*$",
    re.IGNORECASE,
)
# A verdict hoped for or set as a goal, not given: "Expected verdict: VERIFIED", "target outcome - reproduced".
_NOT_GIVEN = re.compile(
    r"\b(?:expected|target|predicted|hypothesi[sz]ed|planned|anticipated|desired|intended)[\s-]+"
    r"(?:verdict|outcome|status|result|rating)s?\b[^.;!?|\n]*$",
    re.IGNORECASE,
)
# Someone else's labelled statement earlier in the sentence: "Paper's verdict: VERIFIED", "authors' result - …".
_OWNED_LABEL = re.compile(
    r"\b(?:paper|papers|authors?|original|published)(?:'s|’s|'|’)?\s*(?:\*\*|__)?\s*"
    r"(?:verdict|outcome|status|result|conclusion|claim|finding)s?\b[^.;!?|\n]*$",
    re.IGNORECASE,
)
_ATTRIBUTION_WINDOW = 160
_SENTENCE_MARKS = ".;!?|"
_ATTRIBUTED_ANY = re.compile(
    "|".join(f"(?:{pattern.pattern})" for pattern in (_ATTRIBUTED, _NOT_GIVEN, _OWNED_LABEL)), re.IGNORECASE
)
_NOT_A_VERDICT = re.compile(r"contract|criteri|rule|rubric|scale|legend|definition|key\b", re.IGNORECASE)
# Between a label word and its colon: "Verdict criteria:", "Verdict scale:" are no verdicts, "Verdict (paper
# scale):" is one; "Conclusion of the paper:" is the paper's.
_NOT_A_VERDICT_EXTRA = re.compile(
    r"contract|criteri|rule|rubric|legend|definition|key\b|^\W*scales?\b|"
    r"\b(?:of|from|in|by)\s+the\s+(?:paper|authors?|original)\b",
    re.IGNORECASE,
)
# Whose label it is, right before it: "The paper's conclusion:", "Authors' result:", "Original verdict:".
_OWNER_BEFORE = re.compile(
    r"\b(?:paper|papers|authors?|original|published|reference)(?:'s|’s|'|’)?\s*(?:\*\*|__)?\s*$", re.IGNORECASE
)
_QUALIFIERS_BAD = {"component", "sub", "partial", "preliminary", "interim", "initial", "previous", "old", "earlier"}
_QUALIFIERS_OLD = {"legacy", "historical"}
# A verdict hoped for or planned is no verdict at all.
_QUALIFIERS_NOT_GIVEN = {"expected", "target", "predicted", "hypothesised", "hypothesized", "planned", "anticipated",
                         "desired", "intended"}  # fmt: skip
_DASH_LABEL_HINT = re.compile(r"\s[-–—]{1,2}\s")
_BOLD = re.compile(r"(\*\*|__)(?P<inner>[^*_\n]{1,200}?)\1")
# A sentence ends after . ! or ? and any closing emphasis, bracket or quote ("**VERIFIED.** Next …").
_SENTENCE_END = re.compile(r"(?<=[.!?])(?=[*_)\]\"'”’]*(?:\s+[A-Z\W]|$))|\n")
# Hedges void the verdict word they qualify: "likely verified", "appears to be reproduced".
_HEDGE = re.compile(
    r"\b(?:likely|unlikely|probably|possibly|apparently|presumably|tentatively|seemingly|arguably|plausibly|"
    r"perhaps|maybe|may\s+be|might\s+be|appears?\s+(?:to\s+(?:be\s+)?)?|seems?\s+(?:to\s+(?:be\s+)?)?|"
    r"looks?\s+(?:to\s+be\s+)?)\W*$",
    re.IGNORECASE,
)
# Another claim named inside a statement: what follows is about that claim ("VERIFIED, unlike claim 2 …").
_OTHER_CLAIM = re.compile(r"\b(?:unlike|as\s+in|like|see|cf\.?|whereas|while)\s+claims?\s*#?\s*\d", re.IGNORECASE)
_TITLE_BRACKET = re.compile(r"[(\[](?P<inner>[^()\[\]\n]{2,60})[)\]]")
_TITLE_SPLIT = re.compile(r"\s+[—–-]{1,2}\s+|\s*[:|]\s+|\s*—\s*")


@dataclass(frozen=True)
class Found:
    verdict: Verdict
    raw: str
    text: str  # the sentence or line it was found in
    offset: int  # character offset of the statement in the scanned text
    confidence: float
    rule: str


def clean(text: str) -> str:
    return re.sub(r"[*_`]+", "", text).strip()


def phrases(text: str) -> Iterator[re.Match[str]]:
    """Verdict phrases that are not negated, hedged, conditions or quoted from someone else."""
    for match in find_phrases(text):
        if not _voided(text, match) and not hedged(text, match):
            yield match


def _voided_at(text: str, start: int, end: int) -> bool:
    """Negated, conditional, quoted from someone else or hedged, for the phrase at text[start:end]."""
    before = text[max(0, start - 40) : start]
    return bool(
        _NEGATION.search(before)
        or _CONDITION_AFTER.match(text[end : end + 20])
        or attributed(text, start)
        or _HEDGE.search(_unemphasized(text[max(0, start - 30) : start]))
    )


def _voided(text: str, match: re.Match[str]) -> bool:
    before = text[max(0, match.start() - 40) : match.start()]
    after = text[match.end() : match.end() + 20]
    return bool(_NEGATION.search(before) or _CONDITION_AFTER.match(after) or attributed(text, match.start()))


def void_features(text: str, start: int, end: int) -> tuple[str, ...]:
    """Why a verdict word at text[start:end] is not stated as a verdict: negated, conditional, quoted from someone
    else, hedged (empty when it is stated plainly)."""
    before = text[max(0, start - 40) : start]
    features = []
    if _NEGATION.search(before):
        features.append("negated")
    if _CONDITION_AFTER.match(text[end : end + 20]):
        features.append("conditional")
    if attributed(text, start):
        features.append("quoted")
    if _HEDGE.search(_unemphasized(text[max(0, start - 30) : start])):
        features.append("hedged")
    return tuple(features)


def hedged(text: str, match: re.Match[str]) -> bool:
    """'likely VERIFIED', 'appears to be reproduced': the writer did not commit to the word."""
    return bool(_HEDGE.search(_unemphasized(text[max(0, match.start() - 30) : match.start()])))


def _unemphasized(text: str) -> str:
    return text.replace("*", "").replace("_", " ")


def hedged_phrases(text: str) -> list[re.Match[str]]:
    """Verdict phrases voided only by a hedge: candidates for a reviewer to read, never a verdict."""
    return [m for m in find_phrases(text) if hedged(text, m) and not _voided(text, m)]


def attributed(text: str, at: int) -> bool:
    """The sentence leading up to `at` reports a verdict given by a judge, a grader, an earlier attempt or the paper,
    or one only expected."""
    start = max(0, at - _ATTRIBUTION_WINDOW)
    # Each pattern ends its match at `at` and holds none of . ; ! ? | (only its tail may not cross a line), so it
    # can only start after the last of them: searched from there, each mention costs a third of the whole window.
    start = max(start, *(text.rfind(mark, start, at) + 1 for mark in _SENTENCE_MARKS))
    return bool(_ATTRIBUTED_ANY.search(text[start:at]))


def head_verdict(tail: str) -> tuple[Verdict, str] | None:
    """The verdict of a labelled statement: its first phrase, qualified but not overturned by what follows.

    "NOT INDEPENDENTLY VERIFIED (infrastructure confirmed)" is inconclusive: a remark in parentheses or after the
    head never turns a negative or inconclusive head into a positive one. A verified head still takes the toy,
    partial and mixed qualifiers of `combine` ("VERIFIED at reduced scale" is toy).
    """
    other = _OTHER_CLAIM.search(tail)
    if other:
        tail = tail[: other.start()]
    matches = list(phrases(tail))
    if not matches:
        return None
    head = matches[0]
    if phrase_verdict(head) is not Verdict.VERIFIED:
        return phrase_verdict(head), head.group(0)
    kept = [m for m in matches if not (_in_parentheses(tail, m.start()) and phrase_verdict(m) in _REMARKS)]
    return combine(kept)


_REMARKS = frozenset({Verdict.INCONCLUSIVE, Verdict.FALSIFIED})


def _in_parentheses(text: str, at: int) -> bool:
    return text.count("(", 0, at) > text.count(")", 0, at)


def combine(matches: list[re.Match[str]]) -> tuple[Verdict, str] | None:
    """One verdict for a statement: reduced-scale and partial qualifiers outrank a plain 'verified'."""
    if not matches:
        return None
    verdicts = [phrase_verdict(m) for m in matches]
    for preferred in (Verdict.TOY, Verdict.PARTIAL):
        if preferred in verdicts and Verdict.VERIFIED in verdicts:
            index = verdicts.index(preferred)
            return preferred, matches[index].group(0)
    if Verdict.VERIFIED in verdicts and ({Verdict.INCONCLUSIVE, Verdict.FALSIFIED} & set(verdicts)):
        # "portion supported; the rest inconclusive" is a mixed outcome
        return Verdict.PARTIAL, " / ".join(dict.fromkeys(m.group(0) for m in matches))
    return verdicts[0], matches[0].group(0)


def first_sentence(text: str, start: int, limit: int = 220) -> str:
    window = text[start : start + limit]
    end = _SENTENCE_END.search(window)
    return window[: end.start()] if end else window


def labelled(text: str) -> Iterator[Found]:
    """'Verdict: X', 'Status: **X**', 'Outcome — X' statements, with qualifiers lowering confidence."""
    if ":" not in text and "：" not in text and not _DASH_LABEL_HINT.search(text):
        return
    lowered = text.lower()
    if not any(word in lowered for word in _LABEL_WORDS):
        return
    for label in _LABEL.finditer(text):
        qualifier = (label.group("qual") or "").strip().lower().rstrip("-")
        extra = label.group("extra").strip().lower()
        if _NOT_A_VERDICT_EXTRA.search(extra) or _OWNER_BEFORE.search(text[max(0, label.start() - 24) : label.start()]):
            continue
        tail = first_sentence(text, label.end())
        if qualifier in _QUALIFIERS_OLD or qualifier in _QUALIFIERS_NOT_GIVEN or attributed(text, label.start()):
            continue
        found = head_verdict(tail)
        statement = text[label.start() : label.end() + len(tail)].strip()
        if found is None:
            hedges = hedged_phrases(tail)
            if hedges:
                raw = hedges[0].group(0).upper()
                yield Found(phrase_verdict(hedges[0]), raw, clean(statement), label.start(), HEDGED, "hedged")
            continue
        confidence = _LABEL_CONFIDENCE[label.group("label").lower()]
        if qualifier in _QUALIFIERS_BAD or extra:
            confidence = QUALIFIED
        elif qualifier in ("final", "overall"):
            confidence = FINAL_LABELLED
        yield Found(found[0], found[1].upper(), clean(statement), label.start(), confidence, "labelled")


def heading_then_paragraph(lines: list[str]) -> Iterator[tuple[int, Found]]:
    """'## Verdict' on its own, the verdict in the next paragraph's first sentence."""
    for index, line in enumerate(lines):
        heading = _HEADING_LABEL.match(line.strip())
        if not heading:
            continue
        for follow in range(index + 1, min(index + 6, len(lines))):
            paragraph = lines[follow].strip()
            if not paragraph:
                continue
            if paragraph.startswith("#"):
                break
            sentence = first_sentence(paragraph, 0)
            found = combine(list(phrases(sentence)))
            if found:
                confidence = FINAL_LABELLED if heading.group("qual") else LABELLED
                yield follow, Found(found[0], found[1].upper(), clean(sentence), 0, confidence, "heading")
            break


def title_verdict(title: str) -> Found | None:
    """A title whose first or last segment is a verdict ('TOY: claim 2', 'Claim 4 — … — **inconclusive**')."""
    if not may_state_verdict(title):
        return None
    for found in labelled(title):
        if found.rule == "hedged":
            return Found(found.verdict, found.raw, title, 0, found.confidence, "hedged")
        return Found(found.verdict, found.raw, title, 0, max(found.confidence, TITLE), "title label")
    segments = [clean(s).strip(" ()[].!") for s in _TITLE_SPLIT.split(title) if s.strip()]
    if len(segments) >= 2:
        for segment in (segments[-1], segments[0]):
            match = PHRASE_RE.fullmatch(segment)
            if match:
                return Found(phrase_verdict(match), segment.upper(), title, 0, TITLE, "title")
    # "Claim 2 (FALSIFIED): …", "[TOY] Claim 3": a bracket that holds nothing but a verdict
    for bracket in _TITLE_BRACKET.finditer(title):
        match = PHRASE_RE.fullmatch(clean(bracket.group("inner")).strip(" .!"))
        if match and not _NEGATION.search(title[max(0, bracket.start() - 40) : bracket.start()]):
            return Found(phrase_verdict(match), match.group(0).upper(), title, 0, TITLE, "title")
    return None


def emphasized(line: str) -> Iterator[Found]:
    """A bold span that opens with a verdict phrase, or an upper-case phrase in running text."""
    stripped = line.lstrip()
    if not may_state_verdict(line):
        return
    if stripped.startswith(("|", ">")) or (_NOT_A_VERDICT.search(line[:80]) and "verdict" in line[:80].lower()):
        return
    for bold in _BOLD.finditer(line):
        inner = bold.group("inner").strip()
        match = PHRASE_RE.match(inner)
        before = line[max(0, bold.start() - 40) : bold.start()]
        if match and not _NEGATION.search(before) and not _CONDITION_AFTER.match(inner[match.end() :]):
            if attributed(line, bold.start()) or _HEDGE.search(_unemphasized(before[-30:])):
                continue
            if inner.endswith("?"):  # "**Reproduced?** No.": a question, answered after it
                continue
            # A bold lead-in states the verdict; bold inside a sentence only stresses a detail of it.
            lead = not any(ch.isalnum() for ch in line[: bold.start()])  # markers and emoji may come first
            confidence = BOLD if lead else UPPER
            yield Found(phrase_verdict(match), match.group(0).upper(), clean(line), 0, confidence, "bold")
            return
    for start, _, match in iter_phrases(line):  # the cheap test first: most words in running text are not upper-case
        word = match.group(0)
        if word.isupper() and len(word) > 3 and not _voided_at(line, start, start + len(word)):
            yield Found(phrase_verdict(match), word, clean(line), 0, UPPER, "upper-case")
            return
