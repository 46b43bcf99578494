"""Replay: supersede chains, retractions, forks, the current verdict per claim and annotator, notes and tags, and
the effective claims after additions, splits, merges and agent-verdict corrections."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count
from pathlib import Path

import pytest

from reviewapp.core.logbook.model import Claim
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.review.records import RecordBase, Target, make_record
from reviewapp.core.review.state import AnnotationState
from reviewapp.core.verdicts import Verdict
from tests.core.annotation_helpers import small_logbook

_clock = count()
START = datetime(2026, 11, 1, tzinfo=UTC)


def rec(kind: str, payload: dict, *, who: str = "Ada", claim: str | None = "p#1", supersedes: str | None = None,
        target: Target | None = None) -> RecordBase:  # fmt: skip
    return make_record(
        kind,
        annotator=who,
        role="judge",
        target=target or Target(claim=claim, page=claim.split("#")[0] if claim else None),
        payload=payload,
        supersedes=supersedes,
        created_at=START + timedelta(seconds=next(_clock)),
    )


def verdict(v: str, who: str = "Ada", claim: str = "p#1", supersedes: str | None = None, tags=()) -> RecordBase:
    return rec("verdict", {"verdict": v, "rationale": f"because {v}", "tags": list(tags)}, who=who, claim=claim,
               supersedes=supersedes)  # fmt: skip


def retract(record: RecordBase) -> RecordBase:
    return rec("retraction", {}, who=record.annotator, target=record.target, supersedes=record.id)


def state_of(*records: RecordBase, claims=()) -> AnnotationState:
    state = AnnotationState(claims)
    for number, record in enumerate(records, start=1):
        state.add(record, f"reviews/test.jsonl:{number}")
    return state


def test_later_verdict_of_the_same_annotator_replaces_the_earlier() -> None:
    first = verdict("verified")
    second = verdict("partial", supersedes=first.id)
    state = state_of(first, second)
    assert state.verdict("p#1", "Ada") == second
    assert state.current(first.id) == second
    assert [r.id for r in state.history(second.id)] == [first.id, second.id]


def test_an_unchained_second_verdict_still_wins() -> None:
    """Two processes that both started a chain (GUI and CLI): the later verdict for the claim counts."""
    first, second = verdict("verified"), verdict("toy")
    state = state_of(first, second)
    assert state.verdict("p#1", "Ada") == second
    assert len(state.live()) == 2  # both chains live; only the verdict view picks the latest


def test_retraction_deletes_and_a_restore_brings_back() -> None:
    first = verdict("verified")
    gone = retract(first)
    state = state_of(first, gone)
    assert state.verdict("p#1", "Ada") is None
    assert state.current(first.id) is None
    assert state.head(first.id) == gone
    restored = rec("verdict", {"verdict": "verified", "rationale": "because verified"}, supersedes=gone.id)
    state.add(restored)
    assert state.verdict("p#1", "Ada") == restored


def test_deleting_an_edit_does_not_resurrect_the_original() -> None:
    first = verdict("verified")
    edit = verdict("partial", supersedes=first.id)
    state = state_of(first, edit, retract(edit))
    assert state.verdict("p#1", "Ada") is None


def test_each_annotator_keeps_their_own_verdict() -> None:
    ada, bob = verdict("verified", "Ada"), verdict("falsified", "Bob")
    state = state_of(ada, bob)
    assert state.verdicts("p#1") == {"Ada": ada, "Bob": bob}
    assert state.verdict("p#1") == bob  # the latest by anyone
    assert state.annotators() == ["Ada", "Bob"]


def test_fork_the_later_branch_is_the_head() -> None:
    first = verdict("verified")
    left = verdict("partial", supersedes=first.id)
    right = verdict("toy", supersedes=first.id)
    state = state_of(first, left, right)
    assert state.head(first.id) == right
    assert state.verdict("p#1", "Ada") == right


def test_nobody_can_supersede_another_annotators_record() -> None:
    ada = verdict("verified", "Ada")
    bob_edit = verdict("falsified", "Bob", supersedes=ada.id)
    state = state_of(ada, bob_edit)
    assert state.verdict("p#1", "Ada") == ada
    assert state.verdict("p#1", "Bob") is None
    assert len(state.problems) == 1
    assert "Ada" in state.problems[0].message and state.problems[0].where == "reviews/test.jsonl:2"


def test_kind_cannot_change_along_a_chain() -> None:
    note = rec("note", {"text": "hello"})
    wrong = verdict("partial", supersedes=note.id)
    state = state_of(note, wrong)
    assert state.current(note.id) == note
    assert "cannot replace a note" in state.problems[0].message


def test_superseding_a_missing_record_is_reported_and_ignored() -> None:
    orphan = verdict("partial", supersedes="01ABCDEFGHJKMNPQRSTVWXYZ00")
    state = state_of(orphan)
    assert state.verdict("p#1", "Ada") is None
    assert "not in any annotation file" in state.problems[0].message


def test_the_same_line_twice_counts_once_and_a_reused_id_is_reported() -> None:
    first = verdict("verified")
    state = state_of(first, first)
    assert state.records == [first] and state.problems == []
    clash = first.model_copy(update={"annotator": "Mallory"})
    state.add(clash)
    assert state.records == [first]
    assert "two different records" in state.problems[0].message


def test_notes_and_tags_follow_their_chains() -> None:
    note = rec("note", {"text": "units?", "tags": ["units mismatch"]})
    edited = rec("note", {"text": "units differ", "tags": ["Units mismatch", "stopped too early"]},
                 supersedes=note.id)  # fmt: skip
    other = rec("note", {"text": "elsewhere"}, claim="p#2")
    mark = verdict("partial", tags=["units mismatch", "scale below paper"])
    state = state_of(note, edited, other, mark)
    assert state.notes(claim="p#1") == [edited]
    assert state.notes(page="p") == [edited, other]
    # tags from the verdict and the notes, without case-insensitive duplicates
    assert state.tags("p#1") == ["units mismatch", "scale below paper", "stopped too early"]
    state.add(retract(edited))
    assert state.notes(claim="p#1") == []
    assert state.tags("p#1") == ["units mismatch", "scale below paper"]


def test_unknown_kinds_are_kept_but_change_nothing() -> None:
    from reviewapp.core.review.records import SCHEMA_VERSION, parse_record

    data = verdict("verified").model_dump(mode="json", by_alias=True)
    data.update(schema=SCHEMA_VERSION + 1, kind="gaze_map", payload={"trial": 1})
    unknown = parse_record(data)
    state = state_of(unknown)
    assert state.unknown == [unknown] and state.live() == [] and state.verdict("p#1") is None


# -- effective claims -----------------------------------------------------------------------------------------


@pytest.fixture
def claims(tmp_path: Path) -> list[Claim]:
    return read_logbook(small_logbook(tmp_path)).claims


def keys(state: AnnotationState) -> list[str]:
    return [c.key for c in state.effective_claims()]


def test_without_corrections_the_reader_claims_are_the_effective_claims(claims: list[Claim]) -> None:
    state = state_of(claims=claims)
    effective = state.effective_claims()
    assert [c.key for c in effective] == [c.key for c in claims]
    assert all(c.origin == "logbook" and c.agent_verdict == c.agent_verdict_read for c in effective)
    assert state.effective_claim(2).key == claims[1].key  # type: ignore[union-attr]
    assert state.effective_claim(claims[2].key).n == 3  # type: ignore[union-attr]
    assert state.effective_claim(9) is None


def test_added_claim_goes_after_the_claims_of_its_page(claims: list[Claim]) -> None:
    page = claims[0].page
    add = rec("claim_add", {"key": f"{page}#1b", "title": "Also faster", "cells": [1], "rationale": "missed"},
              target=Target(page=page))  # fmt: skip
    state = state_of(add, claims=claims)
    assert keys(state) == [claims[0].key, f"{page}#1b", claims[1].key, claims[2].key]
    added = state.effective_claim(f"{page}#1b")
    assert added is not None and added.origin == "added" and added.agent_verdict_read is None
    assert added.source == add


def test_split_replaces_the_claim_in_place_and_undo_brings_it_back(claims: list[Claim]) -> None:
    target = claims[1]
    split = rec("claim_split", {"parts": [{"key": f"{target.key}.1", "title": "a", "agent_verdict": "falsified"},
                                          {"key": f"{target.key}.2", "title": "b"}], "rationale": "two"},
                claim=target.key)  # fmt: skip
    state = state_of(split, claims=claims)
    assert keys(state) == [claims[0].key, f"{target.key}.1", f"{target.key}.2", claims[2].key]
    parts = state.effective_claims()[1:3]
    assert [p.origin for p in parts] == ["split", "split"] and parts[0].replaces == (target.key,)
    assert [p.agent_verdict for p in parts] == [Verdict.FALSIFIED, Verdict.UNSTATED]
    state.add(retract(split))
    assert keys(state) == [c.key for c in claims]


def test_merge_keeps_the_first_place_and_drops_the_others(claims: list[Claim]) -> None:
    merged = [claims[0].key, claims[2].key]
    merge = rec("claim_merge", {"claims": merged, "key": "m", "title": "one", "rationale": "same"}, claim=merged[0])
    state = state_of(merge, claims=claims)
    assert keys(state) == ["m", claims[1].key]
    assert state.effective_claim("m").replaces == tuple(merged)  # type: ignore[union-attr]


def test_corrections_that_cannot_apply_are_reported(claims: list[Claim]) -> None:
    split = rec("claim_split", {"parts": [{"key": "x.1", "title": "a"}, {"key": "x.2", "title": "b"}],
                                "rationale": "r"}, claim="no-such#9")  # fmt: skip
    clash = rec("claim_add", {"key": claims[0].key, "title": "dup", "rationale": "r"}, target=Target(page="p"))
    state = state_of(split, clash, claims=claims)
    assert keys(state) == [c.key for c in claims]
    messages = [p.message for p in state.claim_problems()]
    assert any("not there" in m for m in messages) and any("already taken" in m for m in messages)


def test_agent_verdict_correction_keeps_what_the_reader_found(claims: list[Claim]) -> None:
    fix = rec("agent_verdict", {"verdict": "inconclusive", "rationale": "misread"}, claim=claims[0].key)
    state = state_of(fix, claims=claims)
    first = state.effective_claims()[0]
    assert first.agent_verdict == Verdict.INCONCLUSIVE
    assert first.agent_verdict_read == Verdict.VERIFIED
    assert first.correction == fix and first.agent_verdict_corrected


def test_verdicts_on_split_claims_survive_as_orphans(claims: list[Claim]) -> None:
    target = claims[1]
    mark = verdict("partial", claim=target.key)
    split = rec("claim_split", {"parts": [{"key": "s.1", "title": "a"}, {"key": "s.2", "title": "b"}],
                                "rationale": "r"}, claim=target.key)  # fmt: skip
    state = state_of(mark, split, claims=claims)
    assert target.key not in keys(state)
    assert state.verdict(target.key, "Ada") == mark  # never dropped
    assert target.key in state.verdict_claims()
