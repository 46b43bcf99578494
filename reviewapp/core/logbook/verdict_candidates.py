"""Every verdict word in a claim's text becomes a candidate, so that no verdict is missed without a trace.

The rules of `verdict_mentions` find the statements that are stated as verdicts (labelled lines, titles, bold
lead-ins, tables); this module finds all the rest in one linear pass per text: each occurrence of a verdict phrase
of the vocabulary, of an inflection or synonym of one ("verifies", "confirms", "passed", "fails"), or a mark
(✅ ❌ ⚠️), with the features that say how it is written (negated, conditional, quoted from someone else,
hedged). Such a passing mention scores below what the decision takes (`verdict_decision`): it is shown to the
reviewer, and it explains an "unstated" verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from reviewapp.core.logbook import verdict_mentions as vm
from reviewapp.core.verdicts import Verdict, iter_phrases, may_state_verdict, phrase_verdict

MENTION_CONFIDENCE = 0.3  # a verdict word in running text: a candidate, below what the decision takes
OUTPUT_LINE_CONFIDENCE = 0.3  # "verdict: x" printed in a run's output, not its top-level JSON

# Inflections and synonyms outside the vocabulary's phrases: what "verifies" or "passed" would make the verdict.
_WEAK = re.compile(
    r"(?<![A-Za-z0-9_-])(?:"
    r"(?P<verified>verif(?:y|ies|ying)|confirm(?:s|ing)?|supports?|supporting|reproduc(?:e|es|ing)|"
    r"replicat(?:e|es|ing)|pass(?:es|ed)?)"
    r"|(?P<falsified>fail(?:s|ed|ing|ure)?|✗)"
    r"|(?P<partial>⚠\ufe0f?)"
    r")(?![A-Za-z0-9_])",
    re.IGNORECASE,
)
_WEAK_STEMS = ("verif", "confirm", "support", "reproduc", "replicat", "pass", "fail", "✗", "⚠")
_OUTPUT_LINE = re.compile(
    r"^[ \t\-*]*[\"']?(?P<key>verdict|outcome|claim[_ ]status)[\"']?[ \t]*[:=][ \t]*[\"']?(?P<value>[^\"'\n,}]{1,80})",
    re.IGNORECASE | re.MULTILINE,
)
_OUTPUT_KEYS = ("verdict", "outcome", "claim_status", "claim status")


def may_mention(text: str) -> bool:
    """Cheap pre-check: could `text` hold any verdict word, strong or weak?"""
    if may_state_verdict(text):
        return True
    lowered = text.lower()
    return any(stem in lowered for stem in _WEAK_STEMS)


@dataclass(frozen=True)
class Mention:
    verdict: Verdict
    raw: str
    start: int
    end: int
    features: tuple[str, ...]  # why it is not stated as a verdict (negated, conditional, quoted, hedged)


def mentions(text: str) -> Iterator[Mention]:
    """Every verdict word in `text`, left to right: phrases of the vocabulary first, then the weaker forms."""
    for start, end, match in iter_phrases(text):
        yield Mention(phrase_verdict(match), match.group(0).upper(), start, end, vm.void_features(text, start, end))
    lowered = text.lower()
    if not any(stem in lowered for stem in _WEAK_STEMS):
        return
    taken: list[tuple[int, int]] | None = None
    for match in _WEAK.finditer(text):
        if taken is None:  # the vocabulary's phrases, so that a weak form inside one is not counted twice
            taken = [(s, e) for s, e, _ in iter_phrases(text)]
        if any(start <= match.start() < end for start, end in taken):
            continue
        verdict = Verdict(match.lastgroup or "verified")
        features = vm.void_features(text, *match.span())
        yield Mention(verdict, match.group(0).upper(), *match.span(), features)


def output_lines(text: str) -> Iterator[tuple[str, str, int]]:
    """`verdict: X` / `"outcome": "X"` lines a run printed, as (key, value, offset): one pass, and only when a key
    occurs at all."""
    lowered = text.lower()
    if not any(key in lowered for key in _OUTPUT_KEYS):
        return
    for match in _OUTPUT_LINE.finditer(text):
        yield match.group("key"), match.group("value").strip(), match.start()
