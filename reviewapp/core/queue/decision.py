"""The prize decision: the queue's ranking with each candidate's verdicts, marks and the judges' rationales.

The ranking is `rank`'s (rubric scores normalized per judge, on one rubric: the one given, else the most used).
Beside each candidate: the people's verdict summary (adjudicated verdicts where a dispute was settled), and marks:
the logbook is flagged, or its headline claim (the first) was adjudicated falsified. Marks never move a candidate:
they are stated for the people deciding. `decide` records the decision as a `decision` record in
`<queue folder>/decisions/<adjudicator>.jsonl` (append-only, like review files) and writes the report beside the
queue as Markdown and CSV.
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reviewapp.core.io.durable import atomic_write, fsync_dir, locked, open_for_append, write_all
from reviewapp.core.io.markdown_safe import markdown_inline, markdown_quote, markdown_table_cell
from reviewapp.core.io.spreadsheet import spreadsheet_safe
from reviewapp.core.queue.adjudication import VerdictSummary, adjudications, people_verdicts, verdict_summary
from reviewapp.core.queue.queue_file import Queue
from reviewapp.core.queue.queue_row import QueueRow
from reviewapp.core.queue.ranking import JudgeScore, Method, Ranking, rank_logbooks
from reviewapp.core.queue.rubric import score_text
from reviewapp.core.queue.scoring import current_flag
from reviewapp.core.review.records import (
    DecisionEntry,
    DecisionPayload,
    DecisionRecord,
    RecordBase,
    Target,
    make_record,
    record_line,
)
from reviewapp.core.review.replay import read_review
from reviewapp.core.review.signing import signed
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.review.targets import claim_label
from reviewapp.core.review.write_errors import check_secrets

DECISIONS_DIR = "decisions"
NORMALIZATION = {
    "z": "each judge's overall scores as z-scores over the logbooks that judge scored ((score - mean) / standard "
    "deviation; a judge with one score, or the same score everywhere, counts 0); a logbook's score is the mean over "
    "the judges who scored it",
    "rank": "each judge's mid-ranks mapped onto -1..+1 over the logbooks that judge scored; a logbook's score is "
    "the mean over the judges who scored it",
}


@dataclass
class Candidate:
    source: str
    title: str
    summary: VerdictSummary
    flag_reason: str | None = None
    rationales: list[tuple[str, str]] = field(default_factory=list)  # (who, what they wrote)

    @property
    def marks(self) -> list[str]:
        found = []
        if self.flag_reason:
            found.append(f"flagged: {self.flag_reason}")
        if self.summary.headline_falsified_by_adjudication:
            found.append("headline claim adjudicated falsified")
        return found


@dataclass
class QueueRanking:
    ranking: Ranking
    candidates: dict[str, Candidate]  # by queue source
    rubric_sha256: str | None
    notes: list[str]
    scale: tuple[float, float] = (1.0, 5.0)  # the ranked rubric's, for writing its scores

    def score_text(self, value: float) -> str:
        """A judge's score (or a mean of them) written as the ranked rubric's scale is: 4, or 3.67."""
        return score_text(value, self.scale)

    def ties(self) -> list[list[str]]:
        groups: dict[int, list[str]] = {}
        for row in self.ranking.rows:
            if row.tied:
                groups.setdefault(row.rank, []).append(row.logbook)
        return [groups[rank] for rank in sorted(groups)]


def review_state(row: QueueRow) -> AnnotationState | None:
    """The replayed review of a queue row's logbook (read only), or None when it could not be read."""
    if row.logbook is None:
        return None
    return read_review(row.logbook, trust=row.trust).state  # checked as the row's records were


def candidate(row: QueueRow, state: AnnotationState) -> Candidate:
    found = Candidate(row.entry.source, row.title, verdict_summary(state))
    flag = current_flag(state)
    if flag is not None and flag.payload.raised:
        found.flag_reason = flag.payload.reason
    for judge, score in sorted(row.scores.items()):
        if score.payload.comment:
            found.rationales.append((judge, score.payload.comment))
        for criterion in score.payload.criteria:
            if criterion.comment:
                found.rationales.append((judge, f"{criterion.name}: {criterion.comment}"))
    settled = adjudications(state)
    for claim in state.effective_claims():  # who gave each claim its people's verdict, and why
        if claim.key in settled:
            continue
        for verdict in people_verdicts(state, claim.key):
            if verdict.role != "author":  # authors are interested parties: never counted, so not reported here
                found.rationales.append((verdict.annotator, f"{claim_label(claim)} {verdict.payload.verdict}: "
                                                            f"{verdict.payload.rationale}"))  # fmt: skip
    claims = {c.key: c for c in state.effective_claims()}
    for key, adjudication in settled.items():
        label = claim_label(claims.get(key), key)
        found.rationales.append(
            (
                adjudication.annotator,
                f"adjudicated {label} {adjudication.payload.verdict}: {adjudication.payload.rationale}",
            )
        )
    return found


def queue_ranking(
    rows: list[QueueRow],
    method: Method = "z",
    rubric_sha256: str | None = None,
    states: Sequence[AnnotationState | None] | None = None,
) -> QueueRanking:
    """The ranking of the readable rows' rubric scores (on one rubric) and every candidate's verdicts and marks;
    `states`: the rows' replayed reviews when the caller has them already (one per row)."""
    candidates: dict[str, Candidate] = {}
    scored: list[tuple[str, float, str, str]] = []  # (source, overall, judge, rubric sha)
    scales: dict[str, tuple[float, float]] = {}  # by rubric sha
    for index, row in enumerate(rows):
        state = states[index] if states is not None else review_state(row)
        if state is None:
            continue
        candidates[row.entry.source] = candidate(row, state)
        for record in row.scores.values():
            scored.append((row.entry.source, record.payload.overall, record.annotator, record.payload.rubric_sha256))
            scales.setdefault(record.payload.rubric_sha256, record.payload.scale)
    rubrics = Counter(sha for *_, sha in scored)
    chosen = rubric_sha256 or (rubrics.most_common(1)[0][0] if rubrics else None)
    notes = []
    if len(rubrics) > 1 or (rubric_sha256 and rubrics and rubric_sha256 not in rubrics):
        other = sum(n for sha, n in rubrics.items() if sha != chosen)
        notes.append(f"{other} score(s) made on another rubric are left out")
    ranking = rank_logbooks(
        [JudgeScore(judge, source, overall) for source, overall, judge, sha in scored if sha == chosen], method
    )
    marked = [c.source for c in candidates.values() if c.marks]
    if marked:
        notes.append(
            "marks (flags, adjudicated falsified headline claims) are shown beside the rank and do not move it"
        )
    scale = scales.get(chosen or "", (1.0, 5.0))
    return QueueRanking(ranking, candidates, chosen, [*ranking.warnings, *notes], scale)


def decision_payload(queue: Queue, result: QueueRanking) -> DecisionPayload:
    entries = []
    for row in result.ranking.rows:
        found = result.candidates.get(row.logbook)
        entries.append(
            DecisionEntry(
                rank=row.rank,
                logbook=row.logbook,
                title=found.title if found else "",
                score=row.score,
                tied=row.tied,
                judges=row.judges,
                normalized={k: round(v, 3) for k, v in row.normalized.items()},
                verdicts=found.summary.to_dict() if found else {},
                marks=found.marks if found else [],
            )
        )
    return DecisionPayload(
        queue=queue.path.name,
        method=result.ranking.method,
        normalization=NORMALIZATION[result.ranking.method],
        rubric_sha256=result.rubric_sha256,
        ranking=entries,
        ties=result.ties(),
        notes=result.notes,
    )


def decisions_file(queue: Queue, slug: str) -> Path:
    return _queue_folder(queue) / DECISIONS_DIR / f"{slug}.jsonl"


def record_decision(queue: Queue, payload: DecisionPayload, annotator: str, role: str, slug: str) -> DecisionRecord:
    """Append the decision record (checked for secrets, fsynced); raises SecretInRecord or OSError."""
    record = signed(make_record("decision", annotator=annotator, role=role, target=Target(), payload=payload))
    assert isinstance(record, DecisionRecord)
    path = decisions_file(queue, slug)
    check_secrets(record)
    path.parent.mkdir(parents=True, exist_ok=True)
    _append(path, record)
    return record


def report_paths(queue: Queue) -> tuple[Path, Path]:
    stem = queue.path.name if queue.path.is_dir() else queue.path.stem
    folder = _queue_folder(queue)
    return folder / f"{stem}-decision.md", folder / f"{stem}-decision.csv"


def write_reports(queue: Queue, result: QueueRanking, record: DecisionRecord) -> tuple[Path, Path]:
    markdown_path, csv_path = report_paths(queue)
    atomic_write(markdown_path, decision_markdown(queue, result, record).encode("utf-8"))
    atomic_write(csv_path, decision_csv(result).encode("utf-8"))
    return markdown_path, csv_path


def decision_markdown(queue: Queue, result: QueueRanking, record: DecisionRecord) -> str:
    ranking = result.ranking
    out = [
        f"# Decision: {markdown_inline(queue.path.name)}",
        "",
        f"Recorded by {markdown_inline(record.annotator)} ({record.role}) on {record.created_at:%Y-%m-%d %H:%M} UTC, "
        f"record `{record.id}`.",
        "",
        f"Normalization: {markdown_inline(NORMALIZATION[ranking.method])}. Scores equal at two decimals are ties and "
        "share a rank (`2=`).",
        "",
        "| rank | logbook | title | score | judges | verdicts | marks |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in ranking.rows:
        found = result.candidates.get(row.logbook)
        cells = [
            f"{row.rank}=" if row.tied else str(row.rank),
            markdown_table_cell(row.logbook),
            markdown_table_cell(found.title if found else ""),
            f"{row.score:+.2f}",
            ", ".join(
                f"{markdown_table_cell(j)} {result.score_text(v)} ({row.normalized[j]:+.2f})"
                for j, v in row.judges.items()
            ),
            markdown_table_cell(found.summary.text() if found else ""),
            markdown_table_cell("; ".join(found.marks) if found else ""),
        ]
        out.append("| " + " | ".join(cells) + " |")
    ties = result.ties()
    out.append("")
    if ties:
        out.append("Ties: " + "; ".join(" = ".join(markdown_inline(s) for s in group) for group in ties) + ".")
    else:
        out.append("No ties.")
    for note in result.notes:
        out += ["", f"Note: {markdown_inline(note)}"]
    for row in ranking.rows:
        found = result.candidates.get(row.logbook)
        if found is None or not found.rationales:
            continue
        out += ["", f"## {markdown_inline(row.logbook)}", ""]
        for who, text in found.rationales:
            out += [f"{markdown_inline(who)}:", "", markdown_quote(text), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def decision_csv(result: QueueRanking) -> str:
    judges = result.ranking.judges
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    header = ["rank", "logbook", "title", "score", "tied", "judges", "verdicts", "marks", *judges]
    writer.writerow([spreadsheet_safe(cell) for cell in header])  # the judges' names are people's to choose
    for row in result.ranking.rows:
        found = result.candidates.get(row.logbook)
        cells = [
            row.rank,
            row.logbook,
            found.title if found else "",
            row.score,
            int(row.tied),
            len(row.judges),
            found.summary.text() if found else "",
            "; ".join(found.marks) if found else "",
            *(result.score_text(row.judges[j]) if j in row.judges else "" for j in judges),
        ]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return out.getvalue()


def _queue_folder(queue: Queue) -> Path:
    return queue.path if queue.path.is_dir() else queue.path.parent


def _append(path: Path, record: RecordBase) -> None:
    fd, created = open_for_append(path)
    try:
        with locked(fd, exclusive=True):
            write_all(fd, record_line(record))
            os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)
