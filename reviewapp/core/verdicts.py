"""The one verdict vocabulary shared by the agent, the Logbook Judge and the human reviewer."""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import StrEnum
from functools import lru_cache


class Verdict(StrEnum):
    VERIFIED = "verified"
    PARTIAL = "partial"
    FALSIFIED = "falsified"
    TOY = "toy"
    INCONCLUSIVE = "inconclusive"
    UNSTATED = "unstated"


#: What a human reviewer may record (an override always states a verdict).
HUMAN_VERDICTS: tuple[Verdict, ...] = (
    Verdict.VERIFIED,
    Verdict.PARTIAL,
    Verdict.FALSIFIED,
    Verdict.TOY,
    Verdict.INCONCLUSIVE,
)

#: The Logbook Judge never says "partial".
JUDGE_VERDICTS: tuple[Verdict, ...] = (
    Verdict.VERIFIED,
    Verdict.FALSIFIED,
    Verdict.TOY,
    Verdict.INCONCLUSIVE,
)

# Longest phrases first so that "NOT VERIFIED" wins over "VERIFIED".
_PHRASES: tuple[tuple[str, Verdict], ...] = (
    (r"failed\s+to\s+reproduce", Verdict.FALSIFIED),
    (r"does\s+not\s+hold", Verdict.FALSIFIED),
    # Hedged or negated outcomes: nothing was shown either way.
    (
        r"(?:could|can)\s*not\s+(?:\w+ly\s+)?be\s+(?:\w+ly\s+)?(?:verified|confirmed|reproduced)",
        Verdict.INCONCLUSIVE,
    ),
    (r"unable\s+to\s+(?:verify|confirm|reproduce)", Verdict.INCONCLUSIVE),
    (r"(?:could|can)\s*not\s+(?:independently\s+)?(?:verify|confirm|reproduce|replicate)", Verdict.INCONCLUSIVE),
    (r"not\s+fully\s+(?:verified|reproduced|supported|confirmed)", Verdict.PARTIAL),
    (
        r"not\s+(?:independently|directly|yet|formally|empirically|experimentally|separately)\s+"
        r"(?:verified|verifiable|confirmed|reproduced|replicated|tested)",
        Verdict.INCONCLUSIVE,
    ),
    (r"not\s+(?:yet\s+)?(?:executed|rerun|evaluated|tested)", Verdict.INCONCLUSIVE),
    (r"not\s+reproduced", Verdict.FALSIFIED),
    (r"not\s+verified", Verdict.INCONCLUSIVE),
    (r"not\s+confirmed", Verdict.INCONCLUSIVE),
    (r"not\s+verifiable", Verdict.INCONCLUSIVE),
    (r"not\s+attempted", Verdict.INCONCLUSIVE),
    (r"not\s+replicated", Verdict.INCONCLUSIVE),
    (r"not\s+supported", Verdict.INCONCLUSIVE),
    (r"weakly\s+supported", Verdict.PARTIAL),
    (
        r"(?:mostly|largely|partly|qualitatively)\s+(?:verified|reproduced|replicated|supported|confirmed|holds?)",
        Verdict.PARTIAL,
    ),
    (r"partially\s+(?:verified|reproduced|supported|confirmed|holds?)", Verdict.PARTIAL),
    (r"partially", Verdict.PARTIAL),
    (r"partial", Verdict.PARTIAL),
    (r"mixed", Verdict.PARTIAL),
    (r"toy[-\s]scale", Verdict.TOY),
    (r"scaled[-\s]down|down[-\s]?scaled", Verdict.TOY),
    (r"proxy[-\s]only", Verdict.TOY),
    (r"(?:at|on)\s+(?:a\s+)?(?:reduced|small|smaller)[-\s]scale", Verdict.TOY),
    (r"(?:reduced|small|smaller)[-\s]scale", Verdict.TOY),
    (r"on\s+(?:a\s+)?proxy", Verdict.TOY),
    (r"toy", Verdict.TOY),
    (r"verified", Verdict.VERIFIED),
    (r"reproduced", Verdict.VERIFIED),
    (r"confirmed", Verdict.VERIFIED),
    (r"replicated", Verdict.VERIFIED),
    (r"validated", Verdict.VERIFIED),
    (r"supported", Verdict.VERIFIED),
    (r"holds", Verdict.VERIFIED),
    (r"match(?:es|ed)\s+the\s+paper", Verdict.VERIFIED),
    (r"falsified", Verdict.FALSIFIED),
    (r"contradicted", Verdict.FALSIFIED),
    (r"refuted", Verdict.FALSIFIED),
    (r"disprov(?:ed|en)", Verdict.FALSIFIED),
    (r"disconfirmed", Verdict.FALSIFIED),
    (r"inconclusive", Verdict.INCONCLUSIVE),
    (r"unverified", Verdict.INCONCLUSIVE),
    (r"unverifiable", Verdict.INCONCLUSIVE),
    (r"blocked", Verdict.INCONCLUSIVE),
    (r"deferred", Verdict.INCONCLUSIVE),
    (r"pending", Verdict.INCONCLUSIVE),
    (r"unresolved", Verdict.INCONCLUSIVE),
    (r"undetermined", Verdict.INCONCLUSIVE),
    (r"indeterminate", Verdict.INCONCLUSIVE),
    (r"insufficient\s+evidence", Verdict.INCONCLUSIVE),
    (r"unsupported", Verdict.INCONCLUSIVE),
    # Marks that stand for a verdict in tables and headings.
    (r"✅|✔\ufe0f?", Verdict.VERIFIED),
    (r"❌", Verdict.FALSIFIED),
)

#: Matches any verdict phrase as a whole word; group names map back to verdicts.
PHRASE_RE = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    + "|".join(f"(?P<p{i}>{p})" for i, (p, _) in enumerate(_PHRASES))
    + r")(?![A-Za-z0-9_]|-[A-Za-z])",
    re.IGNORECASE,
)


# The word of each phrase that is distinctive enough to search for; multi-word phrases are found by backing up
# over up to four words before it ("failed to reproduce", "could not be independently verified").
_STEMS = (
    "verif", "reproduc", "confirmed", "supported", "hold", "partial", "mixed", "toy", "proxy", "falsified",
    "contradicted", "refuted", "inconclusive", "attempted", "replicated", "blocked", "undetermined", "executed",
    "rerun", "evaluated", "tested", "deferred", "reduced", "small", "match", "scaled", "disprov", "pending",
    "unresolved", "validated", "disconfirmed", "indeterminate", "insufficient", "✅", "✔", "❌",
)  # fmt: skip


_WORDS_BEFORE_STEM = 4


def may_state_verdict(text: str) -> bool:
    """Cheap pre-check before the phrase regex: does any verdict word stem occur at all?"""
    lowered = text.lower()
    return any(stem in lowered for stem in _STEMS)


def find_phrases(text: str) -> tuple[re.Match[str], ...]:
    """All PHRASE_RE matches, left to right and non-overlapping, at a fraction of a full regex scan's cost.

    Remembered for the most recent texts: the reader asks about the same paragraph several times (its labelled
    statements, bold lead-ins, every passing verdict word, once per claim whose scope holds it), and a match is
    read-only, so every caller can share one scan. Texts longer than a window are scanned afresh, so the memory
    holds at most _REMEMBERED windows' worth of text."""
    return _remembered_phrases(text) if len(text) <= _WINDOW else _scan_phrases(text)


_WINDOW = 8192
_REMEMBERED = 1024


@lru_cache(maxsize=_REMEMBERED)
def _remembered_phrases(text: str) -> tuple[re.Match[str], ...]:
    return _scan_phrases(text)


def _scan_phrases(text: str) -> tuple[re.Match[str], ...]:
    lowered = text.lower()
    if len(lowered) != len(text):  # lower() changed lengths (rare scripts): offsets would not line up
        return tuple(PHRASE_RE.finditer(text))
    starts: set[int] = set()
    for stem in _STEMS:
        at = lowered.find(stem)
        while at >= 0:
            word: int | None = _word_start(lowered, at)
            for _ in range(_WORDS_BEFORE_STEM + 1):
                if word is None:
                    break
                starts.add(word)
                word = _previous_word(lowered, word)
            at = lowered.find(stem, at + len(stem))
    found: list[re.Match[str]] = []
    end = 0
    for start in sorted(starts):
        if start < end:
            continue
        match = PHRASE_RE.match(text, start)
        if match:
            found.append(match)
            end = match.end()
    return tuple(found)


def iter_phrases(text: str, window: int = _WINDOW) -> Iterator[tuple[int, int, re.Match[str]]]:
    """(start, end, match) of every phrase, left to right, found a window at a time so that a caller who stops early
    pays only for what it read. Windows end at a sentence end ('. '), which no phrase spans."""
    start = 0
    while start < len(text):
        end = min(len(text), start + window)
        if end < len(text):
            cut = text.rfind(". ", start, end)
            end = cut + 1 if cut > start else end
        for match in find_phrases(text[start:end]):
            yield start + match.start(), start + match.end(), match
        start = end


def _word_start(text: str, at: int) -> int:
    while at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_"):
        at -= 1
    return at


def _previous_word(text: str, word: int) -> int | None:
    """Start of the word before the one starting at `word`, across blanks only (phrases never span punctuation)."""
    at = word
    while at > 0 and text[at - 1] in " \t\n":
        at -= 1
    if at == word or at == 0 or not text[at - 1].isalnum():
        return None
    return _word_start(text, at - 1)


def phrase_verdict(match: re.Match[str]) -> Verdict:
    """The verdict of a PHRASE_RE match."""
    name = match.lastgroup
    assert name is not None
    return _PHRASES[int(name[1:])][1]


def normalize(text: str | None) -> Verdict:
    """Map a verdict phrase as written ("PARTIALLY VERIFIED", "toy-scale") to the vocabulary.

    The whole text must be a verdict phrase (optionally with punctuation or emphasis around it); anything else
    gives UNSTATED. Free text is searched by the claim reader, not here.
    """
    if not text:
        return Verdict.UNSTATED
    cleaned = re.sub(r"[*_`.!:;,()\[\]\"']+", " ", text).strip()
    for value in Verdict:
        if cleaned.lower() == value.value:
            return value
    match = PHRASE_RE.fullmatch(cleaned)
    return phrase_verdict(match) if match else Verdict.UNSTATED


def parse_verdict(text: str) -> Verdict:
    """Parse a verdict given by a person or a file (CLI flag, judge import); raise ValueError when unknown."""
    value = normalize(text)
    if value is Verdict.UNSTATED and text.strip().lower() != Verdict.UNSTATED.value:
        allowed = ", ".join(v.value for v in Verdict)
        raise ValueError(f"unknown verdict {text!r} (expected one of: {allowed})")
    return value


# What people's verdicts say of a claim: held (fully or partly), refuted, or not established. People dispute a
# claim when their verdicts fall in different classes (the queue's disputes, the paper's disputed cells).
VERDICT_CLASS = {
    Verdict.VERIFIED: "supported",
    Verdict.PARTIAL: "supported",
    Verdict.FALSIFIED: "refuted",
    Verdict.TOY: "undetermined",
    Verdict.INCONCLUSIVE: "undetermined",
}


def dispute(a: Verdict, b: Verdict) -> bool:
    """Two people's stated verdicts dispute a claim: they fall in different classes."""
    return a in VERDICT_CLASS and b in VERDICT_CLASS and VERDICT_CLASS[a] != VERDICT_CLASS[b]


def disagree(a: Verdict | None, b: Verdict | None) -> bool:
    """Two slots' verdicts disagree when both are stated and differ in what they found; unstated never counts.
    Verified against partial is a difference of degree (both say the claim holds), as between people; toy against
    inconclusive is not (one found the claim held at toy scale, the other found nothing: 1 and 0 points)."""
    if a is None or b is None or Verdict.UNSTATED in (a, b):
        return False
    return a != b and {a, b} != {Verdict.VERIFIED, Verdict.PARTIAL}
