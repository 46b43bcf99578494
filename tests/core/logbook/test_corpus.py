"""Every real logbook opens, and what the reader finds matches a careful human reading (corpus_expectations, and
corpus_more_expectations for the logbooks of ../shared/corpus-more)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.verdicts import Verdict
from tests.conftest import CORPUS, CORPUS_MORE, corpus_entries, shared_corpus
from tests.core.corpus_expectations import EXPECTED, LogbookExpectation
from tests.core.corpus_more_expectations import EXPECTED_MORE

COLLECTIONS: dict[str, tuple[Path, dict[str, LogbookExpectation]]] = {
    "corpus": (CORPUS, EXPECTED),
    "corpus-more": (CORPUS_MORE, EXPECTED_MORE),
}
NAMES = [
    (collection, name)
    for collection, (folder, expected) in COLLECTIONS.items()
    for name in corpus_entries(folder) or sorted(expected)
]


def corpus_params(check: str | None = None) -> list:
    """Every entry of both corpora; those whose expectations name `check` as a reader gap are strict xfails."""
    return [known_gap_param(collection, name, check) for collection, name in NAMES]


def known_gap_param(collection: str, name: str, check: str | None):
    expected = COLLECTIONS[collection][1]
    reason = expected[name].reader_gaps.get(check) if check and name in expected else None
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param((collection, name), marks=marks, id=name)


@pytest.fixture
def entry(request: pytest.FixtureRequest) -> tuple[Path, LogbookExpectation]:
    collection, name = request.param
    folder, expected = COLLECTIONS[collection]
    assert name in expected, f"{collection} entry {name} has no expectations"
    return shared_corpus(folder) / name, expected[name]


def test_every_corpus_entry_has_expectations(corpus: Path) -> None:
    assert sorted(p.name for p in corpus.iterdir() if p.is_dir()) == sorted(EXPECTED)


def test_every_corpus_more_entry_has_expectations(corpus_more: Path) -> None:
    assert sorted(p.name for p in corpus_more.iterdir() if p.is_dir()) == sorted(EXPECTED_MORE)


@pytest.mark.parametrize("entry", corpus_params(), indirect=True)
def test_expected_problems_are_reported(entry: tuple[Path, LogbookExpectation]) -> None:
    """A folder that is not a whole logbook still opens, saying what is wrong with it, file by file."""
    folder, expected = entry
    logbook = read_logbook(folder / expected.root)
    messages = [f"{p.file}: {p.message}" for p in logbook.problems]
    for part in expected.problems:
        assert any(part in m for m in messages), (part, messages)


@pytest.mark.parametrize("entry", corpus_params("facts"), indirect=True)
def test_logbook_facts(entry: tuple[Path, LogbookExpectation]) -> None:
    folder, expected = entry
    logbook = read_logbook(folder / expected.root)
    assert logbook.layout == expected.layout
    assert logbook.title == expected.title
    assert logbook.paper_id == expected.paper_id
    assert logbook.space_id == expected.space_id
    assert tuple(p.slug for p in logbook.pages) == expected.page_slugs
    assert logbook.cell_counts() == expected.cell_counts
    assert tuple(p.slug for p in logbook.pages if not p.in_manifest) == expected.pages_not_in_manifest
    assert tuple(p.slug for p in logbook.pages if p.status == "superseded") == expected.superseded_pages
    assert all(p.status == "orphan" for p in logbook.pages if not p.in_manifest)
    # No false "not in logbook.json" problem for a page the manifest does list (e.g. a root that is not index).
    unlisted = {p.file for p in logbook.problems if "not in logbook.json" in p.message}
    assert unlisted <= {p.file for p in logbook.pages if not p.in_manifest}


@pytest.mark.parametrize("entry", corpus_params("claims"), indirect=True)
def test_claims_and_agent_verdicts(entry: tuple[Path, LogbookExpectation]) -> None:
    folder, expected = entry
    logbook = read_logbook(folder / expected.root)
    assert [c.key for c in logbook.claims] == [c.key for c in expected.claims]
    for want in expected.claims:
        claim = logbook.claim(want.key)
        assert claim is not None
        assert (claim.n, claim.page, claim.numbering) == (want.n, want.page, want.numbering), want.key
        assert logbook.claim(str(claim.number)) is claim, want.key  # every claim is reachable by its number
        assert claim.verdict == Verdict(want.verdict), f"{want.key}: {want.note}"
        if claim.verdict is Verdict.UNSTATED:
            assert claim.verdict_raw is None and claim.verdict_mention is None
            continue
        # The phrase as written, found in the sentence the GUI highlights.
        assert claim.verdict_raw
        assert claim.verdict_mention is not None
        mention_text = claim.verdict_mention.text.upper()
        assert all(part.strip() in mention_text for part in claim.verdict_raw.split("/")), want.key
        assert 0 < claim.confidence <= 1
        flagged = {m.verdict.value for m in claim.other_mentions if m.elsewhere and m.verdict != claim.verdict}
        assert set(want.contradicted_by) <= flagged, want.key
        assert claim.contradicted == bool(flagged)
        assert set(want.history) <= {m.verdict.value for m in claim.history}, want.key


@pytest.mark.parametrize("entry", corpus_params(), indirect=True)
def test_traces(entry: tuple[Path, LogbookExpectation]) -> None:
    folder, expected = entry
    logbook = read_logbook(folder / expected.root)
    assert tuple(t.id for t in logbook.traces) == expected.trace_ids
    for trace in logbook.traces:
        assert trace.event_count == expected.trace_events[trace.id]
        assert trace.available == expected.traces_available[trace.id]
        if not trace.available:
            assert any(trace.id in p.message and "missing" in p.message for p in logbook.problems)


@pytest.mark.parametrize("entry", corpus_params(), indirect=True)
def test_dangling_toc_links_are_reported(entry: tuple[Path, LogbookExpectation]) -> None:
    folder, expected = entry
    logbook = read_logbook(folder / expected.root)
    dangling = [p for p in logbook.problems if "table of contents links to" in p.message]
    assert sorted(p.message.split("'")[1] for p in dangling) == sorted(expected.dangling_toc_links)
    assert all(p.file == "pages/index.md" and p.line for p in dangling)


@pytest.mark.parametrize("entry", corpus_params(), indirect=True)
def test_every_accepted_source_form_opens_the_same_logbook(entry: tuple[Path, LogbookExpectation]) -> None:
    folder, expected = entry
    root = folder / expected.root
    forms = [root]
    if expected.layout == "workspace":
        forms += [folder, folder / ".trackio"]
    keys = {tuple(c.key for c in read_logbook(form).claims) for form in forms}
    assert len(keys) == 1


@pytest.mark.parametrize("entry", corpus_params(), indirect=True)
def test_a_copy_reads_like_the_original(entry: tuple[Path, LogbookExpectation], tmp_path: Path) -> None:
    folder, expected = entry
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy, symlinks=True)
    original, copied = read_logbook(folder / expected.root), read_logbook(copy / expected.root)
    assert [(c.key, c.verdict) for c in copied.claims] == [(c.key, c.verdict) for c in original.claims]
    assert [p.sha256 for p in copied.pages] == [p.sha256 for p in original.pages]


def test_malformed_markers_are_recovered_and_reported(corpus: Path) -> None:
    logbook = read_logbook(corpus / "kondratevakate__icml-2026-repro__LJdacnMXkr_arm2b")
    for page in logbook.pages:
        if page.is_index:
            continue
        assert len(page.cells) == 1 and page.cells[0].body, page.slug
        messages = [p.message for p in logbook.problems if p.file == page.file]
        assert any("comes after its body" in m for m in messages)
        assert any("not closed by a line of its own" in m for m in messages)
    assert sum("duplicate cell id" in p.message for p in logbook.problems) == len(logbook.pages) - 2


@pytest.mark.parametrize("entry", corpus_params(), indirect=True)
def test_every_unstated_claim_says_why_and_lists_what_it_read(entry: tuple[Path, LogbookExpectation]) -> None:
    folder, expected = entry
    for claim in read_logbook(folder / expected.root).claims:
        if claim.verdict is Verdict.UNSTATED:
            assert claim.unstated_reason, claim.key
            assert claim.candidates or claim.unstated_reason.startswith("no verdict word"), claim.key
        else:
            assert claim.unstated_reason is None and not claim.candidates, claim.key
            assert claim.verdict_mention is not None and claim.verdict_mention.score > 0, claim.key
