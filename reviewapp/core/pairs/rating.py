"""One rater working through one pair set: the state behind the rating window, without Qt.

Ratings are annotations. Opening a set appends a `pair_session` record carrying the protocol (seed, trials,
sides, control settings, set fingerprint, app version) unless this rater already has one for the set, in which
case the pair protocol resumes at the first trial without a rating. Each answer is a `pair_rating` record, on disk
(fsync) before `rate` returns; undo appends a retraction of the latest one. When the last trial is rated the
un-blinded results are written to `reviews/pairs/`.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal, cast

from reviewapp import __version__
from reviewapp.core.pairs.protocol import (
    ALGORITHM,
    FREE_SEED_ALGORITHM,
    ControlSettings,
    Trial,
    build_trials,
    derived_seed,
    trials_from_lists,
)
from reviewapp.core.pairs.results import (
    RESPONSES,
    ProtocolInfo,
    Rating,
    ResultRow,
    results_paths,
    row_for,
    write_results,
)
from reviewapp.core.pairs.sets import Pair, PairSet
from reviewapp.core.review.commands import CommandKind, execute
from reviewapp.core.review.history import RecordDraft
from reviewapp.core.review.logbook_review import LogbookReview
from reviewapp.core.review.records import (
    PairControlsPayload,
    PairRatingPayload,
    PairRatingRecord,
    PairSessionPayload,
    PairSessionRecord,
    RecordBase,
    Target,
    make_record,
)
from reviewapp.core.review.review_files import PAIR_RESULTS_DIR

PairResponse = Literal["left", "right", "same", "skipped"]  # RESPONSES, as the record field types them
ESTIMATE_WINDOW = 20  # recent answers the remaining-time estimate is based on


class RatingError(ValueError):
    """An answer that cannot be recorded (nothing left to rate, an invalid confidence)."""


@dataclass(frozen=True)
class Progress:
    rated: int
    total: int
    remaining_s: float | None  # estimate; None before the first answers

    @property
    def text(self) -> str:
        done = f"{min(self.rated + 1, self.total)} of {self.total}" if self.rated < self.total else "all rated"
        if self.remaining_s is None or self.rated >= self.total:
            return done
        minutes = self.remaining_s / 60
        left = "under a minute left" if minutes < 1 else f"about {minutes:.0f} min left"
        return f"{done} · {left}"


class PairRatingRound:
    def __init__(self, annotations: LogbookReview, pair_set: PairSet, start: PairSessionRecord) -> None:
        self.annotations = annotations
        self.pair_set = pair_set
        self.start = start
        payload = start.payload
        self.trials: list[Trial] = trials_from_lists(payload.trial_order, payload.sides, payload.control_kinds)
        self.conditions: tuple[str, str] = (payload.conditions[0], payload.conditions[1])
        self.results: tuple[Path, Path] | None = None
        self._ratings: dict[int, PairRatingRecord] = {}
        for record in annotations.state.live():
            if (
                isinstance(record, PairRatingRecord)
                and record.payload.session == start.id
                and record.payload.trial < len(self.trials)
            ):
                self._ratings[record.payload.trial] = record  # replay order: a later record for a trial wins

    @classmethod
    def open(
        cls,
        annotations: LogbookReview,
        pair_set: PairSet,
        *,
        seed: int | None = None,
        controls: ControlSettings | None = None,
        restart: bool = False,
        preview: bool = False,
    ) -> PairRatingRound:
        """Resume this rater's pair protocol on the set, or start one.

        A `preview` (a screenshot of the rating window) builds a new protocol in memory and writes nothing: looking
        at a window must not change the review.

        The seed is derived from the set's fingerprint and the rater's name (algorithm v2). A `seed` given here
        (to reproduce an earlier pair protocol) is recorded as algorithm v1, which `pairs check` flags as chosen.
        """
        if not restart:
            existing = find_protocol(annotations, pair_set.name)
            if existing is not None:
                return cls(annotations, pair_set, existing)
        pair_ids = [p.id for p in pair_set.rateable]
        if not pair_ids:
            raise RatingError(f"pair set {pair_set.name!r} has no pair that can be shown")
        algorithm = ALGORITHM if seed is None else FREE_SEED_ALGORITHM
        if seed is None:
            seed = derived_seed(pair_set.fingerprint(), annotations.identity.name)
        settings = controls or pair_set.controls
        trials = build_trials(pair_ids, seed, settings)
        payload = PairSessionPayload(
            set=pair_set.name,
            source=pair_set.source,
            fingerprint=pair_set.fingerprint(),
            question=pair_set.question,
            instructions=pair_set.instructions,
            conditions=list(pair_set.conditions),
            pairs=pair_ids,
            seed=seed,
            algorithm=algorithm,
            controls=PairControlsPayload.model_validate(settings.to_dict()),
            trial_order=[t.pair_id for t in trials],
            sides=[t.left for t in trials],
            control_kinds=[t.control for t in trials],
            app_version=__version__,
        )
        if preview:
            target = _target(pair_set)
            record: RecordBase | None = make_record(
                "pair_session", annotator=annotations.identity.name, role=annotations.role, target=target,
                payload=payload, revision=annotations.revision(target),
            )  # fmt: skip
            assert isinstance(record, PairSessionRecord)
            return cls(annotations, pair_set, record)
        # a command like the ratings, so that every window showing the review hears of it
        draft = RecordDraft("pair_session", _target(pair_set), payload)
        label = f"pair protocol of {pair_set.name}"
        record = execute(annotations, CommandKind.START_PAIR_PROTOCOL, label, None, draft).record
        assert isinstance(record, PairSessionRecord)
        return cls(annotations, pair_set, record)

    # -- state ------------------------------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        return self.start.payload.seed

    @property
    def question(self) -> str:
        return self.start.payload.question

    @property
    def instructions(self) -> str:
        return self.start.payload.instructions

    @property
    def current(self) -> Trial | None:
        """The first trial without a rating; None when every trial is rated."""
        return next((t for t in self.trials if t.index not in self._ratings), None)

    @property
    def complete(self) -> bool:
        return len(self._ratings) >= len(self.trials)

    def upcoming(self, count: int) -> list[Trial]:
        """The current trial and the next ones to be shown, for prefetching."""
        return [t for t in self.trials if t.index not in self._ratings][:count]

    def pair(self, trial: Trial) -> Pair | None:
        """The pair a trial shows, when the set (as loaded now) can still show it."""
        pair = self.pair_set.pair(trial.pair_id)
        if pair is None or any(p.pair_id == pair.id for p in self.pair_set.problems):
            return None
        return pair

    def set_changed(self) -> bool:
        """The images differ from those the pair protocol started with (ratings continue on what is there now)."""
        return self.pair_set.validated and self.pair_set.fingerprint() != self.start.payload.fingerprint

    def ratings(self) -> list[Rating]:
        return [_rating(self.trials[i], r) for i, r in sorted(self._ratings.items())]

    def rating(self, index: int) -> Rating | None:
        record = self._ratings.get(index)
        return _rating(self.trials[index], record) if record else None

    def progress(self) -> Progress:
        rated = len(self._ratings)
        recent = [r.payload.response_ms for r in self._latest(ESTIMATE_WINDOW)]
        remaining = None
        if recent:
            remaining = statistics.median(recent) / 1000 * (len(self.trials) - rated)
        return Progress(rated, len(self.trials), remaining)

    def _latest(self, count: int) -> list[PairRatingRecord]:
        return sorted(self._ratings.values(), key=lambda r: r.created_at)[-count:]

    # -- actions ----------------------------------------------------------------------------------------------

    def rate(
        self,
        response: str,
        *,
        left_unusable: bool = False,
        right_unusable: bool = False,
        confidence: int | None = None,
        comment: str | None = None,
        response_ms: int = 0,
    ) -> Rating:
        """Record the answer to the current trial (on disk when this returns) and move to the next."""
        trial = self.current
        if trial is None:
            raise RatingError("every trial of this pair protocol is rated")
        if response not in RESPONSES:
            raise RatingError(f"unknown response {response!r}")
        answer = cast(PairResponse, response)  # checked just above
        payload = PairRatingPayload(
            session=self.start.id,
            set=self.start.payload.set,
            trial=trial.index,
            pair=trial.pair_id,
            left=trial.left,
            right=trial.right,
            control=trial.control,
            response=answer,
            left_unusable=left_unusable,
            right_unusable=right_unusable,
            confidence=confidence,
            comment=(comment or "").strip() or None,
            response_ms=max(0, int(response_ms)),
        )
        # Through the history like every action, so that windows hear of it; undone by `undo` below, not Edit > Undo.
        draft = RecordDraft("pair_rating", self.start.target, payload)
        label = f"rating of trial {trial.index + 1}"
        record = execute(self.annotations, CommandKind.RATE_PAIR, label, None, draft).record
        assert isinstance(record, PairRatingRecord)
        self._ratings[trial.index] = record
        if self.complete:
            self.results = self.write_results()
        return _rating(trial, record)

    def undo(self) -> Rating | None:
        """Retract the latest rating; its trial becomes the current one again. None when nothing is rated."""
        latest = self._latest(1)
        if not latest:
            return None
        record = latest[0]
        label = f"rating of trial {record.payload.trial + 1}"
        execute(self.annotations, CommandKind.RETRACT_PAIR_RATING, label, record, None)
        del self._ratings[record.payload.trial]
        if self.results is not None or self._results_exist():
            for path in results_paths(self.results_folder, self.start.payload.set, self.annotations.identity.slug):
                path.unlink(missing_ok=True)  # a complete result no longer: never leave a stale one to commit
            self.results = None
        return _rating(self.trials[record.payload.trial], record)

    # -- results ----------------------------------------------------------------------------------------------

    @property
    def results_folder(self) -> Path:
        return self.annotations.store.folder / PAIR_RESULTS_DIR

    def _results_exist(self) -> bool:
        csv_path, _ = results_paths(self.results_folder, self.start.payload.set, self.annotations.identity.slug)
        return csv_path.exists()

    def info(self) -> ProtocolInfo:
        payload = self.start.payload
        return ProtocolInfo(
            set_name=payload.set,
            source=payload.source,
            claim=self.start.target.claim,
            question=payload.question,
            instructions=payload.instructions,
            conditions=self.conditions,
            fingerprint=payload.fingerprint,
            pairs=tuple(payload.pairs),
            seed=payload.seed,
            controls=ControlSettings.from_dict(
                payload.controls.model_dump(include={"rate", "identical", "repeats", "min_gap"})
            ),
            annotator=self.start.annotator,
            protocol_id=self.start.id,
            started_at=self.start.created_at.isoformat(timespec="seconds"),
            app_version=payload.app_version,
            algorithm=payload.algorithm,
        )

    def write_results(self) -> tuple[Path, Path]:
        return write_results(
            self.results_folder, self.info(), self.annotations.identity.slug, self.trials, self.ratings()
        )


def find_protocol(annotations: LogbookReview, set_name: str) -> PairSessionRecord | None:
    """This rater's latest live pair protocol on the set."""
    found = None
    for record in annotations.state.live():
        if (
            isinstance(record, PairSessionRecord)
            and record.annotator == annotations.identity.name
            and record.payload.set == set_name
        ):
            found = record
    return found


def _target(pair_set: PairSet) -> Target:
    return Target(claim=pair_set.claim) if pair_set.claim else Target()


def _rating(trial: Trial, record: PairRatingRecord) -> Rating:
    p = record.payload
    rated_at: datetime = record.created_at
    return Rating(
        trial=trial,
        response=p.response,
        left_unusable=p.left_unusable,
        right_unusable=p.right_unusable,
        confidence=p.confidence,
        comment=p.comment,
        response_ms=p.response_ms,
        rated_at=rated_at,
    )


def recomputed_rows(
    reviews_folder: Path, annotator: str, protocol_id: str, trials: list[Trial], conditions: tuple[str, str]
) -> list[ResultRow] | str:
    """The result rows the rater's own records give for a pair protocol, or why they cannot be read.

    Read from `<reviews_folder>/<rater slug>.jsonl`, replayed so that undone ratings are gone and a later
    rating of a trial wins, as in the rating window.
    """
    from reviewapp.core.review.identity import annotator_slug
    from reviewapp.core.review.replay import replay
    from reviewapp.core.review.store import read_file

    path = reviews_folder / f"{annotator_slug(annotator)}.jsonl"
    if not path.is_file():
        return f"the rater's review file {path.name} is not beside the results, so they cannot be recomputed"
    records, _issues, _torn = read_file(path)
    state = replay((), ((r, w) for r, w in records if r.annotator == annotator))
    start = state.record(protocol_id)
    if not isinstance(start, PairSessionRecord):
        return f"pair protocol {protocol_id} is not in {path.name}"
    payload = start.payload
    if (payload.trial_order, payload.sides, payload.control_kinds) != (
        [t.pair_id for t in trials],
        [t.left for t in trials],
        [t.control for t in trials],
    ):
        return f"the pair protocol in {path.name} lists other trials than the protocol file"
    latest: dict[int, PairRatingRecord] = {}
    for record in state.live():
        if (
            isinstance(record, PairRatingRecord)
            and record.payload.session == protocol_id
            and record.payload.trial < len(trials)
        ):
            latest[record.payload.trial] = record
    return [row_for(_rating(trials[i], latest[i]), conditions) for i in sorted(latest)]
