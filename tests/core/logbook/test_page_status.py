"""Which pages are the current claims: superseded and orphan pages, manifest shapes that must not raise problems."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewapp.core.logbook.page_tree import marked_historical
from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.verdicts import Verdict
from tests.core.logbook_shapes import node, rewritten_logbook, write_manifest


def statuses(logbook) -> dict[str, str]:
    return {p.slug: p.status for p in logbook.pages}


def test_a_rewritten_logbook_reads_its_current_claims_and_keeps_the_rest_as_history(tmp_path: Path) -> None:
    logbook = read_logbook(rewritten_logbook(tmp_path))
    assert [(c.key, c.verdict) for c in logbook.claims] == [
        ("current-claim-1#1", Verdict.VERIFIED),
        ("current-claim-2#2", Verdict.FALSIFIED),
    ]
    assert not any(c.contradicted for c in logbook.claims)
    first, second = logbook.claims
    assert {(m.verdict, m.page) for m in first.history} >= {
        (Verdict.TOY, "claim-1-widget-bound"),
        (Verdict.TOY, "executive-summary"),
    }
    assert {m.verdict for m in second.history} >= {Verdict.INCONCLUSIVE, Verdict.PARTIAL}
    assert statuses(logbook) == {
        "index": "orphan",  # the manifest's root is another page: the old index is a stale table of contents
        "current-index": "current",
        "current-claim-1": "current",
        "current-claim-2": "current",
        "historical-rejected-baseline": "superseded",
        "claim-1-widget-bound": "superseded",
        "claim-2-widget-speed": "superseded",
        "executive-summary": "superseded",
        "second-try-claim-2": "orphan",
    }
    root = logbook.page("current-index")
    assert root.is_root and root.in_manifest
    unlisted = [p.file for p in logbook.problems if "not in logbook.json" in p.message]
    assert unlisted == ["pages/second-try-claim-2/page.md"]
    assert logbook.title == "Reproduction: Rewritten widgets"


def test_a_current_summary_that_disagrees_is_a_contradiction(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Widgets")
    draft.page("Executive summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | TOY |")
    draft.page("Claim 1: Widget bound").markdown("**Verdict: VERIFIED.**")
    draft.write(tmp_path)
    [claim] = read_logbook(tmp_path).claims
    assert claim.verdict is Verdict.VERIFIED and claim.contradicted and not claim.history


def test_historical_pages_are_the_claims_when_nothing_else_is(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Only history")
    draft.page("Legacy claim 1: widgets", slug="legacy-claim-1").markdown("Verdict: verified.")
    draft.page("Claim 2 (superseded)", slug="claim-2-v1").markdown("Verdict: falsified.")
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    assert set(statuses(logbook).values()) == {"current", "superseded"}
    assert [(c.n, c.verdict) for c in logbook.claims] == [(1, Verdict.VERIFIED), (2, Verdict.FALSIFIED)]


@pytest.mark.parametrize(
    ("title", "slug", "marked"),
    [
        ("Historical: Claim 1", "claim-1-tangent", True),
        ("Historical rejected baseline", "historical-rejected-baseline", True),
        ("Release report — superseded", "release-report", True),
        ("Claim 3 [archived]", "claim-3", True),
        ("Old claims", "old-claims", True),
        ("Previous attempt", "previous-attempt", True),
        (None, "claim-4-legacy", True),
        (None, "archive", True),
        # must not fire: the words inside a claim's own statement, or not about the logbook's pages
        ("Claim 2: Old models forget", "claim-2-old-models-forget", False),
        ("Claim 1: First", "claim-1-first", False),
        ("Previous work", "previous-work", False),
        ("Claim 4: Historical data analysis", "claim-4-historical-data-analysis", False),
        ("Current verification — five resolved", "current-index", False),
        ("Claim 5: Rejected samples are rare", "claim-5-rejected-samples-are-rare", False),
    ],
)
def test_what_marks_a_page_as_an_earlier_attempt(title: str | None, slug: str, marked: bool) -> None:
    assert marked_historical(title, slug) is marked


def test_a_group_node_without_a_page_is_no_problem(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Groups")
    c1 = draft.page("Claim 1: Widgets")
    c1.markdown("Verdict: verified.")
    old = draft.page("Claim 1: Widgets, first try", slug="claim-1-first-try")
    old.markdown("Verdict: toy.")
    root = draft.write(tmp_path)
    group = {"slug": "archive-2026-07", "title": "Archive", "children": [node(old)]}  # no file, no page on disk
    plain_group = {"slug": "extras", "title": "Extras", "children": []}
    write_manifest(root, draft, {"slug": "index", "title": draft.title, "children": [node(c1), group, plain_group]})
    logbook = read_logbook(tmp_path)
    assert [p.slug for p in logbook.pages] == ["index", "claim-1-widgets", "claim-1-first-try"]
    assert statuses(logbook)["claim-1-first-try"] == "superseded"  # inherited from the group's title
    assert [p for p in logbook.problems if "logbook.json" in p.file or "missing" in p.message] == []
    [claim] = logbook.claims
    assert claim.verdict is Verdict.VERIFIED and [m.verdict for m in claim.history] == [Verdict.TOY]


def test_a_named_file_that_is_missing_is_still_reported(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Missing")
    c1 = draft.page("Claim 1: Widgets")
    c1.markdown("Verdict: verified.")
    root = draft.write(tmp_path)
    gone = {"slug": "claim-2-gone", "title": "Claim 2", "file": "pages/claim-2-gone/page.md", "children": []}
    write_manifest(root, draft, {"slug": "index", "title": draft.title, "children": [node(c1), gone]})
    messages = [p.message for p in read_logbook(tmp_path).problems]
    assert messages == ["page 'claim-2-gone' is listed but pages/claim-2-gone/page.md is missing; skipped"]


def test_a_root_page_named_in_the_manifest_without_a_file_key(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Home root")
    home = draft.page("Home", slug="home")
    home.markdown("Start here.")
    c1 = draft.page("Claim 1: Widgets")
    c1.markdown("Verdict: falsified.")
    root = draft.write(tmp_path)
    write_manifest(root, draft, {"slug": "home", "title": "Home", "children": [node(c1)]})
    logbook = read_logbook(tmp_path)
    assert [(p.slug, p.depth, p.in_manifest) for p in logbook.pages] == [
        ("index", 0, False),
        ("home", 0, True),
        ("claim-1-widgets", 1, True),
    ]
    assert [c.key for c in logbook.claims] == ["claim-1-widgets#1"]
    assert not [p for p in logbook.problems if "home" in p.file or "home" in p.message]


def test_dangling_toc_links_name_the_link_and_nothing_made_up(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Dangling")
    draft.page("Claim 1: Widgets").markdown("Verdict: verified.")
    root = draft.write(tmp_path)
    index = root / "pages" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "| [Claim 2](#/claim-2-renamed) |\n", encoding="utf-8")
    logbook = read_logbook(tmp_path)
    assert [(p.file, p.message) for p in logbook.problems] == [
        ("pages/index.md", "table of contents links to 'claim-2-renamed', which has no page")
    ]
    assert [c.key for c in logbook.claims] == ["claim-1-widgets#1"]


def test_a_manifest_that_lists_no_pages_at_all(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Bare")
    draft.page("Claim 1: Widgets").markdown("Verdict: verified.")
    root = draft.write(tmp_path)
    manifest = json.loads((root / "logbook.json").read_text(encoding="utf-8"))
    manifest["root"] = {"slug": "index", "title": "Bare"}
    (root / "logbook.json").write_text(json.dumps(manifest), encoding="utf-8")
    logbook = read_logbook(tmp_path)
    # every page is then an orphan, and the claims still come from them
    assert statuses(logbook) == {"index": "current", "claim-1-widgets": "orphan"}
    assert [c.verdict for c in logbook.claims] == [Verdict.VERIFIED]


def test_versions_of_one_claim_keep_the_newest_and_make_the_rest_history(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Versions")
    draft.page("Claim 1: Widgets (v1)", slug="claim-1-widgets-v1").markdown("Verdict: toy.")
    draft.page("Claim 1: Widgets (v2)", slug="claim-1-widgets-v2").markdown("Verdict: verified.")
    draft.page("Claim 2: Gadgets v1", slug="claim-2-gadgets").markdown("Verdict: falsified.")  # the only version
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    assert [(c.key, c.verdict) for c in logbook.claims] == [
        ("claim-1-widgets-v2#1", Verdict.VERIFIED),
        ("claim-2-gadgets#2", Verdict.FALSIFIED),
    ]
    assert statuses(logbook)["claim-1-widgets-v1"] == "superseded"
    [claim] = [c for c in logbook.claims if c.n == 1]
    assert [(m.verdict, m.page) for m in claim.history] == [(Verdict.TOY, "claim-1-widgets-v1")]
    assert not claim.contradicted


def test_two_unmarked_pages_for_one_claim_number_both_stay(tmp_path: Path) -> None:
    # must not fire: nothing says which is newer, so the reviewer sees both
    draft = LogbookDraft("Reproduction: Twins")
    draft.page("Claim 1: Widgets", slug="claim-1-widgets").markdown("Verdict: toy.")
    draft.page("Claim 1: Widgets, rerun", slug="claim-1-widgets-rerun").markdown("Verdict: verified.")
    draft.write(tmp_path)
    logbook = read_logbook(tmp_path)
    assert [c.verdict for c in logbook.claims] == [Verdict.TOY, Verdict.VERIFIED]
    assert set(statuses(logbook).values()) == {"current"}
