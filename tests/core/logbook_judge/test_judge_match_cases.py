"""Matching the Logbook Judge's registry claims to a logbook's claims, one generated logbook per hard case."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.assignment import best_assignment, margins
from reviewapp.core.logbook_judge.entries import JudgeClaim, read_verdicts
from reviewapp.core.logbook_judge.judged import JudgedLogbook, judge_logbook
from reviewapp.core.logbook_judge.matching import LogbookClaimText, claim_texts, match_claims
from reviewapp.core.logbook_judge.registry import read_registry
from tests.core.judge_match_cases import CLAIMS, Case, Page, cases, large_case, write_cases


def _judged(tmp_path: Path, case: Case) -> JudgedLogbook:
    paths = write_cases(tmp_path, [case])
    (entry,) = read_verdicts(paths.verdicts).entries
    registry = read_registry(paths.registry).for_paper(entry.orid)
    return judge_logbook(read_logbook(tmp_path / case.name), entry, registry)


def _pairs(judged: JudgedLogbook, logbook_root: Path) -> set[tuple[int, str | None]]:
    numbers = {c.key: c.number for c in read_logbook(logbook_root).claims}
    found: set[tuple[int, str | None]] = set()
    for m in judged.result.matches:
        found.update((m.judge.index, numbers[k]) for k in m.claim_keys)
        if not m.claim_keys:
            found.add((m.judge.index, None))
    return found


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_each_case_pairs_what_a_careful_reader_pairs(tmp_path, case):
    judged = _judged(tmp_path, case)
    assert _pairs(judged, tmp_path / case.name) == set(case.key)
    for m in judged.result.matches:
        if m.matched and m.method != "by position":
            assert m.score >= 0.3 and m.margin is not None and m.margin >= 0.05
            assert m.runner_up is None or m.runner_up.score < m.score


def test_methods_and_reasons_say_how_each_pair_was_made(tmp_path):
    by_name = {c.name: c for c in cases()}
    same_order = _judged(tmp_path / "a", by_name["reworded"])
    assert {m.method for m in same_order.result.matches} == {"by number"}
    reordered = _judged(tmp_path / "b", by_name["reordered"])
    assert {m.method for m in reordered.result.matches} == {"by text"}
    assert all("leads the runner-up pairing" in m.why for m in reordered.result.matches)
    assert any("position is not used" in n for n in reordered.result.notes)  # the text says the order differs
    assert not any("position is not used" in n for n in same_order.result.notes)
    split = _judged(tmp_path / "c", by_name["split"])
    assert "the logbook split it" in split.result.matches[1].why and len(split.result.matches[1].claim_keys) == 2
    merged = _judged(tmp_path / "d", by_name["merged"])
    assert "merged it with registry claim 3" in merged.result.matches[3].why
    older = _judged(tmp_path / "e", by_name["older-claim-list"])
    assert [m.method for m in older.result.matches if not m.matched] == ["unmatched", "unmatched"]
    assert older.result.unmatched_claims == ["claim-2-no-retraining-needed#2"]  # the dropped claim, on its side
    no_text = _judged(tmp_path / "f", by_name["no-text-other-count"])
    assert "5 claim(s) where the logbook has 4" in no_text.result.matches[0].why


def test_two_claims_that_read_the_same_are_left_for_a_person_with_both_candidates(tmp_path):
    twin = CLAIMS[2]
    pages = [Page(str(n), f"Claim {n}: {CLAIMS[i].title}", CLAIMS[i].body) for n, i in ((1, 0), (2, 1))]
    pages += [Page(str(n), f"Claim {n}: {twin.title}", twin.body) for n in (3, 4)]  # neither at registry position 2
    case = Case("twins", [0, 2], pages, [(1, "1"), (2, None)])
    judged = _judged(tmp_path, case)
    close = judged.result.matches[1]
    assert not close.matched and "too close to call" in close.why and "left for a person" in close.why
    assert {c.claim_key for c in close.candidates[:2]} == {"claim-3-quantization-error-bound#3",
                                                           "claim-4-quantization-error-bound#4"}  # fmt: skip
    assert close.candidates[0].score == pytest.approx(close.candidates[1].score, abs=0.05)


def test_without_text_an_unnumbered_logbook_is_not_matched_by_position(tmp_path):
    pages = [Page(str(n), CLAIMS[i].title, CLAIMS[i].body) for n, i in enumerate([0, 1, 2], start=1)]
    case = Case("unnumbered", [0, 1, 2], pages, [(p, None) for p in (1, 2, 3)], text="none")
    paths = write_cases(tmp_path, [case])
    (entry,) = read_verdicts(paths.verdicts).entries
    logbook = read_logbook(tmp_path / case.name)
    assert {c.numbering for c in logbook.claims} != {"written"}  # the reader counted them, the logbook did not
    judged = judge_logbook(logbook, entry)
    assert {m.method for m in judged.result.matches} == {"unmatched"}
    assert "does not number its claims" in judged.result.matches[0].why


def test_huge_titles_and_pages_are_capped_and_still_match(tmp_path):
    judge, claims = large_case(40, 200_000)
    shuffled = claims[::-1]
    result = match_claims(judge, shuffled)
    assert all(m.claim_key == f"claim-{m.judge.index}#{m.judge.index}" for m in result.matches)


def test_the_assignment_is_the_best_total_against_brute_force():
    rng = random.Random(20260801)
    for _ in range(60):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        weights = [[rng.choice([0.0, round(rng.random(), 2)]) for _ in range(cols)] for _ in range(rows)]
        total, pairs = best_assignment(weights)
        assert len(set(pairs.values())) == len(pairs) and all(weights[r][c] > 0 for r, c in pairs.items())
        assert total == pytest.approx(sum(weights[r][c] for r, c in pairs.items()))
        best = 0.0
        for perm in itertools.permutations(range(max(rows, cols)), rows):
            best = max(best, sum(weights[r][c] for r, c in enumerate(perm) if c < cols))
        assert total == pytest.approx(best)


def test_a_pairs_margin_is_its_lead_over_the_best_pairing_without_it():
    weights = [[0.6, 0.58], [0.3, 0.7]]  # row 0 alone hesitates; together the pairing is clear
    total, pairs = best_assignment(weights)
    assert pairs == {0: 0, 1: 1}
    leads = margins(weights, pairs, total)
    assert leads[0] == pytest.approx(1.3 - 0.88)
    assert margins([[0.6, 0.6]], {0: 0}, 0.6, siblings={0: [1]})[0] == pytest.approx(0.6)  # 2a vs 2b: no rival
    assert margins([[0.6, 0.6]], {0: 0}, 0.6)[0] == pytest.approx(0.0)


def test_inspect_json_carries_score_runner_up_and_reason(tmp_path, capsys):
    from reviewapp.cli import main

    case = next(c for c in cases() if c.name == "older-claim-list")
    paths = write_cases(tmp_path, [case])
    args = ["inspect", str(tmp_path / case.name), "--verdicts", str(paths.verdicts), "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    first = next(c for c in out["claims"] if c["judge_match"])
    match = first["judge_match"]
    assert match["score"] >= 0.3 and match["margin"] >= 0.05 and "lead" in match["reason"]
    assert match["runner_up"]["score"] < match["score"]
    unmatched = out["logbook_judge"]["unmatched_judge_claims"]
    assert [c["index"] for c in unmatched] == [2, 4] and all(len(c["candidates"]) == 2 for c in unmatched)
    (left,) = out["logbook_judge"]["unmatched_logbook_claims"]
    assert left["key"] == "claim-2-no-retraining-needed#2"


def test_a_hand_match_wins_over_a_clear_automatic_one(tmp_path):
    case = next(c for c in cases() if c.name == "reworded")
    judged = _judged(tmp_path, case)
    first, second = judged.result.matches[0].claim_key, judged.result.matches[1].claim_key
    assert first and second
    texts = [LogbookClaimText(k, n, k, "") for k, n in ((first, 1), (second, 2))]
    judge = [JudgeClaim(1, CLAIMS[0].registry, None, None), JudgeClaim(2, CLAIMS[1].registry, None, None)]
    result = match_claims(judge, texts, manual={1: second})
    assert result.matches[0].claim_key == second and result.matches[0].method == "by hand"
    assert result.matches[1].claim_key is None or result.matches[1].claim_key == first


def test_past_forty_claims_the_lead_over_the_nearest_rival_decides(tmp_path):
    judge, claims = large_case(45, 2_000)
    result = match_claims(judge, claims[::-1])
    assert all(m.claim_key == f"claim-{m.judge.index}#{m.judge.index}" for m in result.matches)
    assert all(m.margin is not None and m.margin >= 0.05 for m in result.matches)


def test_an_entry_with_text_for_some_claims_pairs_the_rest_by_position_only_when_counts_agree(tmp_path):
    case = next(c for c in cases() if c.name == "reworded")
    texts = [CLAIMS[0].registry, None, CLAIMS[2].registry, None, CLAIMS[4].registry, CLAIMS[5].registry]
    logbook = read_logbook(write_cases(tmp_path, [case]).folder / case.name)
    judge = [JudgeClaim(i, t, None, None) for i, t in enumerate(texts, start=1)]
    result = match_claims(judge, claim_texts(logbook))
    methods = [m.method for m in result.matches]
    assert methods == ["by text", "by position", "by text", "by position", "by text", "by text"]
    assert [m.claim_key.split("#")[1] if m.claim_key else None for m in result.matches] == list("123456")
    fewer = match_claims(judge[:5], claim_texts(logbook))  # 5 registry claims, 6 logbook claims
    assert [m.method for m in fewer.matches][1::2] == ["unmatched", "unmatched"]


def test_claims_without_text_do_not_go_by_position_when_the_text_shows_another_order(tmp_path):
    case = next(c for c in cases() if c.name == "reordered")  # the logbook's claim n is not registry claim n
    logbook = read_logbook(write_cases(tmp_path, [case]).folder / case.name)
    texts = [CLAIMS[i].registry if i < 4 else None for i in range(6)]
    judge = [JudgeClaim(i, t, None, None) for i, t in enumerate(texts, start=1)]
    result = match_claims(judge, claim_texts(logbook))
    assert [m.method for m in result.matches][4:] == ["unmatched", "unmatched"]
    assert any("position is not used" in n for n in result.notes)
    pairs = {m.judge.index: m.claim_key for m in result.matches[:4]}
    expected = {p: next(c.key for c in logbook.claims if c.number == n) for p, n in case.key if p <= 4 and n}
    assert pairs == expected
