"""Linking Logbook Judge entries to logbooks and matching its registry claims to the logbook's claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook_judge.entries import read_verdicts
from reviewapp.core.logbook_judge.linking import LinkError, SpaceHints, link_entry
from reviewapp.core.logbook_judge.matching import claim_texts, logbook_judge_claims_with_text, match_claims
from reviewapp.core.logbook_judge.registry import read_registry
from tests.conftest import CORPUS, corpus_available
from tests.core.judge_fixtures import ORID, REGISTRY_TEXTS, SPACE, entry, write_logbook, write_registry, write_verdicts

VERDICTS = ["verified", "falsified", "toy", "inconclusive"]


def _entries(tmp_path: Path, values: dict):
    return read_verdicts(write_verdicts(tmp_path / "verdicts.json", values)).entries


def _match(tmp_path: Path, logbook_root: Path, texts=None, verdicts=VERDICTS, registry=None, manual=None):
    (judge_entry,) = _entries(tmp_path, {SPACE: entry(verdicts, texts=texts)})
    logbook = read_logbook(logbook_root)
    claims, notes = logbook_judge_claims_with_text(judge_entry, registry)
    return logbook, match_claims(claims, claim_texts(logbook), manual, notes)


def _pairs(logbook, result) -> dict[int, int | None]:
    """Registry index -> the logbook claim's position in LOGBOOK_CLAIMS order (its title picks it)."""
    from tests.core.judge_fixtures import LOGBOOK_CLAIMS

    titles = {c.key: c.title for c in logbook.claims}
    out: dict[int, int | None] = {}
    for m in result.matches:
        if m.claim_key is None:
            out[m.judge.index] = None
        else:
            out[m.judge.index] = next(i for i, (t, _, _) in enumerate(LOGBOOK_CLAIMS) if t in titles[m.claim_key])
    return out


def test_same_numbers_and_texts_match_by_number(tmp_path):
    logbook, result = _match(tmp_path, write_logbook(tmp_path / "ws"), texts=REGISTRY_TEXTS)
    assert [m.method for m in result.matches] == ["by number"] * 4
    assert _pairs(logbook, result) == {1: 0, 2: 1, 3: 2, 4: 3}
    assert all(m.confidence >= 0.75 for m in result.matches)
    assert "anchors 1.00" in result.matches[0].why and "same position" in result.matches[0].why
    assert result.unmatched_claims == []


def test_reordered_claims_match_by_text(tmp_path):
    logbook, result = _match(tmp_path, write_logbook(tmp_path / "ws", order=[2, 0, 3, 1]), texts=REGISTRY_TEXTS)
    assert {m.method for m in result.matches} == {"by text"}
    assert _pairs(logbook, result) == {1: 0, 2: 1, 3: 2, 4: 3}
    assert all(0 < m.confidence <= 0.95 for m in result.matches)
    assert all("statement" in m.why and "page text" in m.why for m in result.matches)


def test_renumbered_claims_match_by_text(tmp_path):
    logbook, result = _match(tmp_path, write_logbook(tmp_path / "ws", numbers=[5, 6, 7, 8]), texts=REGISTRY_TEXTS)
    assert {m.method for m in result.matches} == {"by text"}
    assert _pairs(logbook, result) == {1: 0, 2: 1, 3: 2, 4: 3}


def test_missing_claims_stay_unmatched_on_both_sides(tmp_path):
    logbook, result = _match(tmp_path, write_logbook(tmp_path / "ws", order=[0, 3, 1]), texts=REGISTRY_TEXTS)
    assert _pairs(logbook, result) == {1: 0, 2: 1, 3: None, 4: 3}
    (missing,) = result.unmatched_judge
    assert missing.method == "unmatched" and "no logbook claim reads like it" in missing.why
    assert result.unmatched_claims == []
    # and the other way round: a logbook claim the Logbook Judge never saw
    three = REGISTRY_TEXTS[:3]
    logbook, result = _match(tmp_path, write_logbook(tmp_path / "ws2"), texts=three, verdicts=VERDICTS[:3])
    assert _pairs(logbook, result) == {1: 0, 2: 1, 3: 2}
    assert len(result.unmatched_claims) == 1 and "quantized" in logbook.claim(result.unmatched_claims[0]).title


def test_no_text_equal_counts_match_by_position_at_low_confidence(tmp_path):
    _, result = _match(tmp_path, write_logbook(tmp_path / "ws", order=[2, 0, 3, 1]))
    assert [m.method for m in result.matches] == ["by position"] * 4
    assert all(m.confidence <= 0.3 for m in result.matches)
    assert any("by position" in n for n in result.notes)


def test_no_text_unequal_counts_stay_unmatched_with_the_reason(tmp_path):
    _, result = _match(tmp_path, write_logbook(tmp_path / "ws", order=[0, 1, 2]))
    assert [m.method for m in result.matches] == ["unmatched"] * 4
    assert "4 claim(s) where the logbook has 3" in result.matches[0].why
    assert len(result.unmatched_claims) == 3


def test_registry_gives_texts_when_counts_agree(tmp_path):
    registry = read_registry(write_registry(tmp_path / "claims_anchored.json")).for_paper(ORID)
    logbook, result = _match(tmp_path, write_logbook(tmp_path / "ws", order=[1, 0, 3, 2]), registry=registry)
    assert {m.method for m in result.matches} == {"by text"}
    assert _pairs(logbook, result) == {1: 0, 2: 1, 3: 2, 4: 3}
    assert result.matches[0].judge.text == REGISTRY_TEXTS[0]
    assert any("taken from the claim registry" in n for n in result.notes)


def test_registry_count_drift_is_reported_and_not_used_by_position(tmp_path):
    drifted = [*REGISTRY_TEXTS, "A fifth claim added later (Figure 9)"]
    registry = read_registry(write_registry(tmp_path / "claims_anchored.json", drifted)).for_paper(ORID)
    _, result = _match(tmp_path, write_logbook(tmp_path / "ws"), registry=registry)
    assert any("judged 4 claim(s); the claim registry lists 5" in n for n in result.notes)
    assert all(m.judge.text is None for m in result.matches)
    assert [m.method for m in result.matches] == ["by position"] * 4


def test_manual_rematch_wins_and_frees_the_claim(tmp_path):
    _, auto = _match(tmp_path, write_logbook(tmp_path / "ws"), texts=REGISTRY_TEXTS)
    key_of_first = auto.matches[0].claim_key
    key_of_second = auto.matches[1].claim_key
    _, manual = _match(
        tmp_path, write_logbook(tmp_path / "ws"), texts=REGISTRY_TEXTS, manual={1: key_of_second, 2: None}
    )
    assert manual.matches[0].claim_key == key_of_second and manual.matches[0].method == "by hand"
    assert manual.matches[1].claim_key is None and manual.matches[1].why == "unmatched by hand"
    assert key_of_first in manual.unmatched_claims


# -- linking --------------------------------------------------------------------------------------------------------


def _logbook(tmp_path: Path, **kwargs):
    return read_logbook(write_logbook(tmp_path / "ws", **kwargs))


def test_link_by_metadata_space_and_by_inner_space_id(tmp_path):
    values = {"ada/old-name": entry(VERDICTS, space_id=SPACE), "bob/x": entry(VERDICTS, space_id="bob/x")}
    link = link_entry(_entries(tmp_path, values), SpaceHints.of(_logbook(tmp_path)))
    assert link.strength == "strong" and link.entry is not None and link.entry.key == "ada/old-name"
    assert "metadata" in link.method
    values["bob/x"] = entry(VERDICTS, space_id=SPACE)  # two entries say they judged the same Space
    clash = link_entry(_entries(tmp_path, values), SpaceHints.of(_logbook(tmp_path)))
    assert clash.strength == "ambiguous" and clash.entry is None


def test_metadata_and_manifest_naming_two_judged_spaces_is_ambiguous_until_forced(tmp_path):
    entries = _entries(tmp_path, {SPACE: entry(VERDICTS), "ada/second": entry(VERDICTS, space_id="ada/second")})
    logbook = _logbook(tmp_path, manifest_space="ada/second")
    link = link_entry(entries, SpaceHints.of(logbook))
    assert link.strength == "ambiguous" and link.entry is None
    assert {c.key for c in link.candidates} == {SPACE, "ada/second"}
    forced = link_entry(entries, SpaceHints.of(logbook), forced="ada/second")
    assert forced.strength == "forced" and forced.entry is not None and forced.entry.key == "ada/second"
    only_one = link_entry(entries[:1], SpaceHints.of(logbook))
    assert only_one.strength == "strong" and any("two Spaces" in n for n in only_one.notes)


def test_opened_from_space_wins_and_a_different_hint_is_weak(tmp_path):
    entries = _entries(tmp_path, {SPACE: entry(VERDICTS), "hub/opened": entry(VERDICTS, space_id="hub/opened")})
    logbook = _logbook(tmp_path)
    link = link_entry(entries, SpaceHints.of(logbook, opened_from="hub/opened"))
    assert link.strength == "strong" and link.entry is not None and link.entry.key == "hub/opened"
    assert any("another Space" in n for n in link.notes)
    weak = link_entry(entries[:1], SpaceHints.of(logbook, opened_from="hub/opened"))
    assert weak.strength == "weak" and weak.entry is None and weak.candidates[0].key == SPACE


def test_paper_and_owner_without_space_id(tmp_path):
    entries = _entries(tmp_path, {SPACE: entry(VERDICTS), "eve/same-paper": entry(VERDICTS, space_id="eve/same-paper")})
    logbook = _logbook(tmp_path, metadata_space=None)
    weak = link_entry(entries, SpaceHints.of(logbook))
    assert weak.strength == "weak" and weak.entry is None and len(weak.candidates) == 2
    strong = link_entry(entries, SpaceHints.of(logbook, owners=["ada"]))
    assert strong.strength == "strong" and strong.entry is not None and strong.entry.key == SPACE
    with pytest.raises(LinkError, match="no Logbook Judge entry for Space nobody/x"):
        link_entry(entries, SpaceHints.of(logbook), forced="nobody/x")


def test_entry_for_another_paper_is_noted(tmp_path):
    entries = _entries(tmp_path, {SPACE: entry(VERDICTS, orid="OtherPaper")})
    link = link_entry(entries, SpaceHints.of(_logbook(tmp_path)))
    assert link.taken and any("judged paper OtherPaper" in n for n in link.notes)


# -- the corpus -----------------------------------------------------------------------------------------------------


def _corpus_logbook(name: str):
    path = CORPUS / name
    for inner in ("space", "logbook"):
        if (path / inner).is_dir() and not (path / ".trackio").exists():
            path = path / inner
    return read_logbook(path)


@pytest.mark.skipif(not corpus_available(), reason="shared corpus not present")
def test_corpus_links_and_matches():
    entries = read_verdicts(CORPUS / "JUDGE-verdicts.json").entries
    by_logbook: dict[str, list] = {}
    for e in entries:
        by_logbook.setdefault(e.extra["reconstructed"]["logbook"], []).append(e)
    strengths = {}
    for name in by_logbook:
        logbook = _corpus_logbook(name)
        strengths[name] = link_entry(entries, SpaceHints.of(logbook)).strength
    quantum = "MachineLearning-Nerd__icml26-repro-TBSyYj4VV6-quantum-regression"
    flow = "MachineLearning-Nerd__icml26-repro-zl3akehFBq-flow-matching"
    assert strengths.pop(quantum) == "ambiguous"  # metadata and manifest name two judged Spaces
    assert strengths.pop(flow) == "weak"  # no space_id; the paper alone does not say whose logbook
    assert set(strengths.values()) == {"strong"}
    # the flow-matching entry carries text: forced, it matches all six claims by number
    logbook = _corpus_logbook(flow)
    link = link_entry(entries, SpaceHints.of(logbook), forced="DineshAI/zl3akehFBq")
    assert link.entry is not None
    claims, notes = logbook_judge_claims_with_text(link.entry, None)
    result = match_claims(claims, claim_texts(logbook), notes=notes)
    assert [m.method for m in result.matches] == ["by number"] * 6
    # most entries carry no text: equal counts go by position, unequal stay unmatched with the reason
    s2mnet = _corpus_logbook("k4ru4kai__icml-2026-s2mnet-reproduction")
    link = link_entry(entries, SpaceHints.of(s2mnet))
    assert link.entry is not None
    claims, notes = logbook_judge_claims_with_text(link.entry, None)
    result = match_claims(claims, claim_texts(s2mnet), notes=notes)
    assert {m.method for m in result.matches} == {"unmatched"}
    assert len(result.unmatched_claims) == len(s2mnet.claims)


def _clone_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, origin: str, name: str):
    """A logbook naming no Space, checked out of a repository whose origin is `origin` (never contacted)."""
    from tests.core.commit_helpers import git, isolate_git

    isolate_git(tmp_path / "home", monkeypatch)
    workspace = write_logbook(tmp_path / name, metadata_space=None).parent.parent
    git(workspace, "init", "-q")
    git(workspace, "add", ".")
    git(workspace, "-c", "user.name=Ada", "-c", "user.email=ada@example.com", "commit", "-qm", "logbook")
    git(workspace, "remote", "add", "origin", origin)
    return read_logbook(workspace)


def test_a_git_clone_of_a_space_links_as_opened_from_it_and_a_dataset_gives_its_owner(tmp_path, monkeypatch):
    from reviewapp.core.logbook_judge.import_paths import logbook_id_of
    from reviewapp.core.logbook_judge.judged import hub_owners, opened_from_space

    entries = _entries(tmp_path, {SPACE: entry(VERDICTS), "eve/same-paper": entry(VERDICTS, space_id="eve/same-paper")})
    clone = _clone_of(tmp_path, monkeypatch, "https://huggingface.co/spaces/eve/same-paper.git", "space-clone")
    logbook_id = logbook_id_of(clone)
    assert logbook_id.startswith("git:huggingface.co/spaces/eve/same-paper")
    link = link_entry(entries, SpaceHints.of(clone, opened_from=opened_from_space(logbook_id)))
    assert link.strength == "strong" and link.entry is not None and link.entry.key == "eve/same-paper"

    data = _clone_of(tmp_path, monkeypatch, "git@hf.co:datasets/ada/widget-logs", "dataset-clone")
    data_id = logbook_id_of(data)
    assert opened_from_space(data_id) is None and hub_owners(data_id) == ["ada"]
    owned = link_entry(entries, SpaceHints.of(data, owners=hub_owners(data_id)))
    assert owned.strength == "strong" and owned.entry is not None and owned.entry.key == SPACE
    assert "paper GenPaper01 and owner ada" in owned.method
    github = _clone_of(tmp_path, monkeypatch, "https://github.com/ada/widget-logs", "github-clone")
    assert hub_owners(logbook_id_of(github)) == []  # a GitHub owner is no Hub account
    assert link_entry(entries, SpaceHints.of(github)).strength == "weak"
