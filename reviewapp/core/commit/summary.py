"""What changed in the annotations since the last commit, in words: the commit message and the readable diff.

Records are replayed (`replay`) over everything that is about to be committed; the annotations whose
records are new since the committed version are then described by their current state, so a verdict edited
three times reads as one verdict, and a note added and undone before committing does not appear at all.
"""

from __future__ import annotations

import heapq
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from reviewapp.core.commit.files import lines_of
from reviewapp.core.logbook.model import Claim
from reviewapp.core.review.records import (
    AgentVerdictRecord,
    ClaimAddRecord,
    ClaimMergeRecord,
    ClaimSplitRecord,
    NoteRecord,
    PairRatingRecord,
    PairSessionRecord,
    RecordBase,
    RecordError,
    RetractionRecord,
    UnknownRecord,
    VerdictRecord,
    parse_line,
)
from reviewapp.core.review.replay import replay
from reviewapp.core.review.state import AnnotationState, EffectiveClaim
from reviewapp.core.review.targets import claim_label, describe_target
from reviewapp.core.verdicts import Verdict

# kinds of change, in the order the message lists them: (singular, plural)
KINDS = {
    "verdict": ("verdict", "verdicts"),
    "note": ("note", "notes"),
    "correction": ("claim correction", "claim corrections"),
    "rating": ("rating", "ratings"),
    "removal": ("removal", "removals"),
}
MAX_SUBJECT = 100
MAX_BODY_LINES = 40
_SHORT = 90


@dataclass(frozen=True)
class Change:
    """One annotation that is new or different since the last commit, as a line for people."""

    annotator: str
    kind: str  # a key of KINDS, or "other" (pair protocols, records of a newer version): not counted
    text: str
    claims: tuple[str, ...] = ()  # claim labels it concerns ("3", or a title when the claim has no number)
    file: str = ""  # path in the repository
    count: int = 1  # annotations this line stands for (pair ratings are summed per set)


@dataclass
class Summary:
    changes: list[Change] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)  # "reviews/x.jsonl:12: reason" for new lines that are not records

    def annotators(self) -> list[str]:
        return list(dict.fromkeys(c.annotator for c in self.changes))

    def counts(self, annotator: str | None = None) -> Counter[str]:
        counts: Counter[str] = Counter()
        for change in self.changes:
            if change.kind in KINDS and (annotator is None or change.annotator == annotator):
                counts[change.kind] += change.count
        return counts

    def claims(self, annotator: str | None = None) -> list[str]:
        return list(
            dict.fromkeys(n for c in self.changes if annotator is None or c.annotator == annotator for n in c.claims)
        )


def summarize(
    files: Mapping[str, tuple[bytes | None, bytes]], claims: Sequence[Claim], *, context: Iterable[bytes] = ()
) -> Summary:
    """Describe the records of `files` (path -> (committed bytes or None, bytes to commit)) that are new.

    `context` holds other record files whose records the new ones may refer to (nothing in them is described).
    """
    summary = Summary()
    per_file: list[list[tuple[RecordBase, str]]] = []
    committed: set[str] = set()
    new: dict[str, str] = {}  # record id -> file
    for path, (base, data) in files.items():
        base_ids = _ids(base or b"")
        base_lines = set(lines_of(base or b""))
        committed |= base_ids
        records: list[tuple[RecordBase, str]] = []
        for number, line in enumerate(lines_of(data), start=1):
            try:
                record = parse_line(line)
            except RecordError as exc:
                if _id_of(line) not in base_ids and line not in base_lines:
                    summary.invalid.append(f"{path}:{number}: {exc}")
                continue
            records.append((record, f"{path}:{number}"))
            if record.id not in base_ids:
                new[record.id] = path
        per_file.append(records)
    for data in context:
        per_file.append([(r, "") for r in _records(data)])
    state = replay(claims, heapq.merge(*per_file, key=lambda item: item[0].created_at))
    summary.changes = _Describer(state, claims, committed).changes(new)
    return summary


def _ids(data: bytes) -> set[str]:
    return {found for line in lines_of(data) if (found := _id_of(line))}


def _id_of(line: bytes) -> str | None:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def _records(data: bytes) -> list[RecordBase]:
    records = []
    for line in lines_of(data):
        try:
            records.append(parse_line(line))
        except RecordError:
            continue
    return records


class _Describer:
    def __init__(self, state: AnnotationState, claims: Sequence[Claim], committed: set[str]) -> None:
        self.state = state
        self.effective = state.effective_claims()
        self.reader_claims = {c.key: c for c in claims}
        self.committed = committed
        self.chains: dict[str, list[RecordBase]] = {}  # chain id -> its records in replay order
        for record in state.records:
            chain = state.chain_id(record.id)
            if chain is not None:
                self.chains.setdefault(chain, []).append(record)

    def changes(self, new: Mapping[str, str]) -> list[Change]:
        out: list[Change] = []
        ratings: Counter[tuple[str, str, str]] = Counter()  # (annotator, set, file)
        seen: set[str] = set()
        for record in self.state.records:
            if record.id not in new:
                continue
            file = new[record.id]
            if isinstance(record, UnknownRecord):
                out.append(Change(record.annotator, "other", f"a {record.kind} record (newer version)", file=file))
                continue
            chain = self.state.chain_id(record.id)
            if chain is None or chain in seen:
                continue  # a record that could not apply is reported by `reviewapp annotations`
            seen.add(chain)
            head = self.state.head(chain)
            before = [r for r in self.chains[chain] if r.id in self.committed]
            prior = before[-1] if before and not isinstance(before[-1], RetractionRecord) else None
            if head is None or (isinstance(head, RetractionRecord) and prior is None):
                continue  # made and removed again since the last commit
            if isinstance(head, PairRatingRecord):
                if prior is None:
                    ratings[(head.annotator, head.payload.set, file)] += 1
                continue
            change = self._describe(head, prior, file)
            if change is not None:
                out.append(change)
        for (annotator, set_name, file), count in ratings.items():
            noun = "rating" if count == 1 else "ratings"
            out.append(Change(annotator, "rating", f"Pair set “{set_name}”: {count} {noun}", file=file, count=count))
        return out

    # -- one annotation -----------------------------------------------------------------------------------------

    def _describe(self, head: RecordBase, prior: RecordBase | None, file: str) -> Change | None:
        who = head.annotator
        if isinstance(head, RetractionRecord):
            assert prior is not None
            where = self._where(prior)
            return Change(who, "removal", f"{where}: {self._noun(prior)} removed", self._claims(prior), file)
        where = self._where(head)
        claims = self._claims(head)
        if isinstance(head, VerdictRecord):
            verdict = head.payload.verdict.value
            text = f"{where}: verdict {verdict}{self._compared(head, prior)}"
            text += f" — {_short(head.payload.rationale)}{_tags(head.payload.tags)}"
            return Change(who, "verdict", text, claims, file)
        if isinstance(head, NoteRecord):
            verb = "note edited" if prior is not None else "note"
            text = f"{where}: {verb} “{_short(head.payload.text)}”{_tags(head.payload.tags)}"
            return Change(who, "note", text.replace(" “”", ""), claims, file)
        if isinstance(head, AgentVerdictRecord):
            read = self._agent_verdict_read(head)
            text = f"{where}: agent verdict corrected to {head.payload.verdict.value}"
            text += f"{f' (read as {read})' if read else ''} — {_short(head.payload.rationale)}"
            return Change(who, "correction", text, claims, file)
        if isinstance(head, ClaimAddRecord):
            title, why = _short(head.payload.title), _short(head.payload.rationale)
            text = f"Page {head.target.page}: claim added “{title}” — {why}"
            return Change(who, "correction", text, claims, file)
        if isinstance(head, ClaimSplitRecord):
            text = f"{where}: split into {len(head.payload.parts)} claims — {_short(head.payload.rationale)}"
            return Change(who, "correction", text, claims, file)
        if isinstance(head, ClaimMergeRecord):
            names = _join([self._claim_label(k) for k in head.payload.claims])
            text = f"{_capital(names)}: merged into “{_short(head.payload.title)}” — {_short(head.payload.rationale)}"
            return Change(who, "correction", text, claims, file)
        if isinstance(head, PairSessionRecord):
            text = f"Pair set “{head.payload.set}”: pair protocol of {len(head.payload.trial_order)} trials started"
            return Change(who, "other", text, (), file)
        return None

    def _where(self, record: RecordBase) -> str:
        if record.target.claim is not None and record.target.cell is None and record.target.trace is None:
            return _capital(self._claim_label(record.target.claim))
        return _capital(describe_target(record.target, self.effective))

    def _claim_label(self, key: str) -> str:
        found = next((c for c in self.effective if c.key == key), None)
        if found is not None:
            return claim_label(found)
        reader = self.reader_claims.get(key)
        if reader is not None and reader.n is not None:
            return f"claim {reader.n}"
        return claim_label(None, key)

    def _claims(self, record: RecordBase) -> tuple[str, ...]:
        keys = list(record.payload.claims) if isinstance(record, ClaimMergeRecord) else [record.target.claim]
        if isinstance(record, ClaimAddRecord):
            keys = [record.payload.key]
        return tuple(self._claim_name(k) for k in keys if k)

    def _claim_name(self, key: str) -> str:
        found: EffectiveClaim | Claim | None = next((c for c in self.effective if c.key == key), None)
        if found is None:
            found = self.reader_claims.get(key)
        if found is None:
            return key
        return str(found.n) if found.n is not None else found.title

    def _compared(self, head: VerdictRecord, prior: RecordBase | None) -> str:
        """ " (was verified)" against the reviewer's committed verdict, else against the agent's."""
        verdict = head.payload.verdict
        if isinstance(prior, VerdictRecord):
            return " (edited)" if prior.payload.verdict == verdict else f" (was {prior.payload.verdict.value})"
        claim = next((c for c in self.effective if c.key == head.target.claim), None)
        agent = claim.agent_verdict if claim is not None else Verdict.UNSTATED
        if agent is Verdict.UNSTATED:
            return ""
        return " (agrees with the agent)" if agent == verdict else f" (was {agent.value})"

    def _agent_verdict_read(self, head: AgentVerdictRecord) -> str | None:
        claim = next((c for c in self.effective if c.key == head.target.claim), None)
        read = claim.agent_verdict_read if claim is not None else None
        return read.value if read is not None and read is not Verdict.UNSTATED else None

    @staticmethod
    def _noun(record: RecordBase) -> str:
        if isinstance(record, VerdictRecord):
            return f"verdict {record.payload.verdict.value}"
        if isinstance(record, NoteRecord):
            return f"note “{_short(record.payload.text, 40)}”".replace(" “”", "")
        if isinstance(record, ClaimAddRecord):
            return f"added claim “{_short(record.payload.title, 40)}”"
        nouns = {"agent_verdict": "agent verdict correction", "claim_split": "split", "claim_merge": "merge"}
        return nouns.get(record.kind, record.kind.replace("_", " "))


# -- the commit message -----------------------------------------------------------------------------------------


def commit_message(summary: Summary, changed_files: int) -> str:
    """Subject ("Review of claims 1–4 by Ada: 1 verdict, 3 notes") and a body listing the changes."""
    annotators = summary.annotators()
    counts = _counts_text(summary.counts())
    if not annotators or not counts:
        noun = "file" if changed_files == 1 else "files"
        subject = f"Update review files ({changed_files} {noun})"
        if annotators:
            subject = f"Update review files by {_who(annotators)}"
    else:
        claims = _claims_text(summary.claims())
        subject = f"Review{f' of {claims}' if claims else ''} by {_who(annotators)}: {counts}"
        if len(subject) > MAX_SUBJECT:
            many = len(summary.claims())
            subject = f"Review{f' of {many} claims' if many else ''} by {_who(annotators)}: {counts}"
    body: list[str] = []
    if len(annotators) > 1:
        for name in annotators:
            claims = _claims_text(summary.claims(name))
            what = _counts_text(summary.counts(name)) or "updates"
            body.append(f"{name}: {what}{f' ({claims})' if claims else ''}")
        body.append("")
    lines = [c.text for c in summary.changes]
    body.extend(f"- {line}" for line in lines[:MAX_BODY_LINES])
    if len(lines) > MAX_BODY_LINES:
        body.append(f"- … and {len(lines) - MAX_BODY_LINES} more")
    return subject + ("\n\n" + "\n".join(body).strip("\n") if body else "") + "\n"


def _counts_text(counts: Counter[str]) -> str:
    parts = []
    for kind, (one, many) in KINDS.items():
        if counts.get(kind):
            parts.append(f"{counts[kind]} {one if counts[kind] == 1 else many}")
    return ", ".join(parts)


def _who(names: list[str]) -> str:
    if len(names) > 3:
        return f"{len(names)} reviewers"
    return _join(names)


def _claims_text(claims: list[str]) -> str:
    """ "claim 3", "claims 1–4", "claims 1, 3 and 5–7", titles quoted for claims without a number."""
    if not claims:
        return ""
    numbers = sorted({int(c) for c in claims if c.isdigit()})
    titles = [c for c in claims if not c.isdigit()]
    parts = _ranges(numbers) + [f"“{_short(t, 30)}”" for t in titles[:2]]
    if len(titles) > 2:
        parts.append(f"{len(titles) - 2} more")
    single = len(numbers) + len(titles) == 1
    return f"{'claim' if single else 'claims'} {_join(parts)}"


def _ranges(numbers: list[int]) -> list[str]:
    out: list[str] = []
    start = previous = None
    for n in [*numbers, None]:
        if n is not None and previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None and previous is not None:
            if previous - start >= 2:
                out.append(f"{start}–{previous}")
            else:
                out.extend(str(n) for n in range(start, previous + 1))
        start = previous = n
    return out


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _short(text: str, limit: int = _SHORT) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _tags(tags: Sequence[str]) -> str:
    return f" [{', '.join(tags)}]" if tags else ""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
