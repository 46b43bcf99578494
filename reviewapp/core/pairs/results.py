"""Un-blinded results of a pair protocol: `reviews/pairs/<set>-<annotator>.csv` and its protocol file.

The CSV has one row per trial with the response mapped back to conditions; `<set>-<annotator>.protocol.json`
beside it holds what is needed to recompute the trials (seed, pair ids, control settings, algorithm), the
trials as shown, the app version and the CSV's sha256. Both are written atomically (temp file, fsync, rename),
the CSV first, so a protocol never names a CSV that is not on disk.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from reviewapp.core.io.durable import atomic_write
from reviewapp.core.io.spreadsheet import spreadsheet_safe
from reviewapp.core.pairs.protocol import ALGORITHM, ControlSettings, Trial
from reviewapp.core.review.review_files import PAIR_PROTOCOL_SUFFIX

PROTOCOL_FORMAT = "reviewapp-pair-protocol"
PROTOCOL_VERSION = 2  # 2: text cells of the CSV are spreadsheet-safe (a leading apostrophe before =, +, -, @)
READABLE_PROTOCOL_VERSIONS = (1, 2)
RESPONSES = ("left", "right", "same", "skipped")
COLUMNS = (
    "trial",
    "pair_id",
    "control",
    "repeat_of",
    "left_condition",
    "right_condition",
    "response",
    "preferred",
    "left_unusable",
    "right_unusable",
    "unusable",
    "confidence",
    "response_ms",
    "rated_at",
    "comment",
)
NO_PREFERENCE = "none"


@dataclass(frozen=True, slots=True)
class Rating:
    """A rater's answer to one trial, as recorded (sides as shown)."""

    trial: Trial
    response: str  # one of RESPONSES
    left_unusable: bool = False
    right_unusable: bool = False
    confidence: int | None = None
    comment: str | None = None
    response_ms: int = 0
    rated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One CSV row: a trial with the answer mapped back to condition names."""

    trial: int
    pair_id: str
    control: str
    repeat_of: int | None
    left_condition: str
    right_condition: str
    response: str
    preferred: str  # a condition name, "none" for no visible difference, "" when skipped
    left_unusable: bool
    right_unusable: bool
    unusable: tuple[str, ...]  # condition names marked unusable
    confidence: int | None
    response_ms: int
    rated_at: str
    comment: str

    def unusable_conditions(self) -> set[str]:
        return set(self.unusable)


@dataclass(frozen=True, slots=True)
class ProtocolInfo:
    """What the protocol file says about the pair protocol besides its trials."""

    set_name: str
    source: str
    claim: str | None
    question: str
    instructions: str
    conditions: tuple[str, str]
    fingerprint: str
    pairs: tuple[str, ...]
    seed: int
    controls: ControlSettings
    annotator: str
    protocol_id: str  # the pair_session record's id
    started_at: str
    app_version: str
    algorithm: str = ALGORITHM  # the pair protocol's: v1 ones (a chosen seed) keep saying so


def preferred_condition(response: str, left: str, right: str) -> str:
    if response == "left":
        return left
    if response == "right":
        return right
    if response == "same":
        return NO_PREFERENCE
    return ""


def row_for(rating: Rating, conditions: tuple[str, str]) -> ResultRow:
    trial = rating.trial
    left, right = (conditions[0] if c == "a" else conditions[1] for c in (trial.left, trial.right))
    unusable = []
    if rating.left_unusable:
        unusable.append(left)
    if rating.right_unusable and not (rating.left_unusable and left == right):
        unusable.append(right)
    return ResultRow(
        trial=trial.index,
        pair_id=trial.pair_id,
        control=trial.control,
        repeat_of=trial.repeat_of,
        left_condition=left,
        right_condition=right,
        response=rating.response,
        preferred=preferred_condition(rating.response, left, right),
        left_unusable=rating.left_unusable,
        right_unusable=rating.right_unusable,
        unusable=tuple(sorted(set(unusable))),
        confidence=rating.confidence,
        response_ms=rating.response_ms,
        rated_at=rating.rated_at.isoformat(timespec="milliseconds") if rating.rated_at else "",
        comment=rating.comment or "",
    )


def csv_bytes(rows: list[ResultRow]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([spreadsheet_safe(cell) for cell in _cells(row)])
    return out.getvalue().encode("utf-8")


def _cells(row: ResultRow) -> list[Any]:
    return [
        row.trial,
        row.pair_id,
        row.control,
        "" if row.repeat_of is None else row.repeat_of,
        row.left_condition,
        row.right_condition,
        row.response,
        row.preferred,
        int(row.left_unusable),
        int(row.right_unusable),
        ";".join(row.unusable),
        "" if row.confidence is None else row.confidence,
        row.response_ms,
        row.rated_at,
        row.comment,
    ]


def protocol_document(info: ProtocolInfo, trials: list[Trial], csv_name: str, csv_data: bytes) -> dict[str, Any]:
    return {
        "format": PROTOCOL_FORMAT,
        "version": PROTOCOL_VERSION,
        "algorithm": info.algorithm,
        "seed": info.seed,
        "set": {
            "name": info.set_name,
            "source": info.source,
            "claim": info.claim,
            "question": info.question,
            "instructions": info.instructions,
            "conditions": {"a": info.conditions[0], "b": info.conditions[1]},
            "fingerprint": info.fingerprint,
            "pairs": list(info.pairs),
        },
        "controls": info.controls.to_dict(),
        "trial_order": [t.pair_id for t in trials],
        "sides": [t.left for t in trials],
        "control_kinds": [t.control for t in trials],
        "annotator": info.annotator,
        "session": info.protocol_id,
        "started_at": info.started_at,
        "app_version": info.app_version,
        "csv": {"file": csv_name, "sha256": hashlib.sha256(csv_data).hexdigest(), "rows": len(trials)},
    }


def results_paths(folder: Path, set_name: str, annotator_slug: str) -> tuple[Path, Path]:
    """(CSV, protocol JSON) under `folder` (the annotation folder's pairs/ subfolder)."""
    stem = f"{set_name}-{annotator_slug}"
    return folder / f"{stem}.csv", folder / f"{stem}{PAIR_PROTOCOL_SUFFIX}"


def protocol_path_for(csv_path: Path) -> Path:
    return csv_path.with_name(csv_path.name.removesuffix(".csv") + PAIR_PROTOCOL_SUFFIX)


def write_results(
    folder: Path, info: ProtocolInfo, annotator_slug: str, trials: list[Trial], ratings: list[Rating]
) -> tuple[Path, Path]:
    """Write the CSV (one row per rated trial, in trial order) and the protocol; returns both paths."""
    folder.mkdir(parents=True, exist_ok=True)
    csv_path, protocol_path = results_paths(folder, info.set_name, annotator_slug)
    rows = [row_for(r, info.conditions) for r in sorted(ratings, key=lambda r: r.trial.index)]
    data = csv_bytes(rows)
    document = protocol_document(info, trials, csv_path.name, data)
    atomic_write(csv_path, data)
    atomic_write(protocol_path, (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return csv_path, protocol_path
