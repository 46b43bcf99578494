"""The preview the window shows while a logbook is read: the first claim pages' claims, a subset of the whole
reading's and keyed like them, or nothing when the first pages cannot say which claims there are."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from reviewapp.core.logbook.demo import write_demo
from reviewapp.core.logbook.model import Logbook
from reviewapp.core.logbook.reader import read_logbook, read_preview
from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.core.progress import Cancelled, CancelToken
from reviewapp.core.verdicts import Verdict
from tests.core.logbook_shapes import rewritten_logbook

VERDICTS = ["VERIFIED", "FALSIFIED", "TOY", "INCONCLUSIVE", "partially verified"]


def generated(workspace: Path, seed: int) -> Path:
    """A logbook in one of the shapes claim pages take: summary first or not, several claims on a page,
    "Claims 10 & 11", versions of a claim, supplements, verdicts stated only in the summary table."""
    rng = random.Random(seed)
    draft = LogbookDraft(f"Reproduction: generated {seed}")
    claims = rng.randint(1, 9)
    table = "\n".join(f"| {n} | {rng.choice(VERDICTS)} |" for n in range(1, claims + 1))
    if rng.random() < 0.7:
        draft.page("Executive summary").markdown(f"| Claim | Verdict |\n|---|---|\n{table}")
    for _ in range(rng.randint(0, 3)):
        draft.page(rng.choice(["Setup", "Environment", "Method notes"])).markdown("How the runs were set up.")
    for n in range(1, claims + 1):
        shape = rng.choice(["plain", "plain", "plain", "versions", "supplement", "sections", "shared", "silent"])
        verdict = rng.choice(VERDICTS)
        if shape == "versions":
            old = draft.page(f"Claim {n} (v1): widgets hold", slug=f"claim-{n}-v1")
            old.markdown(f"**Verdict: {rng.choice(VERDICTS)}.**")
            new = draft.page(f"Claim {n} (v2): widgets hold", slug=f"claim-{n}-v2")
            new.markdown(f"**Verdict: {verdict}.**")
        elif shape == "supplement":
            draft.page(f"Claim {n}: widgets hold").markdown(f"**Verdict: {verdict}.**")
            draft.page(f"Claim {n} appendix: raw data").markdown("More runs.")
        elif shape == "sections":
            page = draft.page(f"Claim {n}: two parts")
            page.markdown(f"## Claim {n}a\n\n**Verdict: {verdict}.**\n\n## Claim {n}b\n\nVerdict: TOY.")
        elif shape == "shared":
            draft.page(f"Claims {n} & {n + 100}: shared setup").markdown(f"Both: **Verdict: {verdict}.**")
        elif shape == "silent":  # its verdict is only in the summary table
            draft.page(f"Claim {n}: widgets hold").markdown("Runs and numbers, no verdict here.")
        else:
            page = draft.page(f"Claim {n}: widget {n} holds")
            page.markdown(f"Evidence for claim {n}.\n\n**Verdict: {verdict}.**", title="Verdict")
    if rng.random() < 0.5:
        draft.page("Conclusion").markdown(f"| Claim | Verdict |\n|---|---|\n{table}")
    return draft.write(workspace)


def assert_part_of(preview: Logbook, whole: Logbook) -> None:
    """Every claim the preview shows is one of the whole reading's, under the same key, on the same page, with
    the same evidence cells; every page it read is the whole reading's page, byte for byte."""
    assert preview.claims
    assert preview.logbook_id == whole.logbook_id
    assert preview.title == whole.title
    by_key = {claim.key: claim for claim in whole.claims}
    for claim in preview.claims:
        assert claim.key in by_key, (claim.key, sorted(by_key))
        full = by_key[claim.key]
        assert (claim.page, claim.cells, claim.number, claim.section_line) == (
            full.page,
            full.cells,
            full.number,
            full.section_line,
        )
        # its own text decides alike; only a verdict stated elsewhere (a summary table) comes with the whole reading
        assert claim.verdict in (full.verdict, Verdict.UNSTATED)
    for page in preview.pages:
        same = whole.page(page.slug)
        assert same is not None and (same.sha256, same.cells) == (page.sha256, page.cells)


@pytest.mark.parametrize("seed", range(40))
def test_a_preview_shows_some_of_the_claims_keyed_as_the_whole_reading_keys_them(tmp_path: Path, seed: int) -> None:
    root = generated(tmp_path, seed)
    preview, whole = read_preview(root), read_logbook(root)
    if preview is not None:
        assert_part_of(preview, whole)


def test_generated_shapes_are_previewed_mostly(tmp_path: Path) -> None:
    """The guard above must not pass by previewing nothing."""
    shown = sum(read_preview(generated(tmp_path / str(seed), seed)) is not None for seed in range(40))
    assert shown >= 25


def test_the_demo_and_a_rewritten_logbook(tmp_path: Path) -> None:
    for root in (write_demo(tmp_path / "demo"), rewritten_logbook(tmp_path / "rewritten")):
        preview = read_preview(root)
        assert preview is not None
        assert_part_of(preview, read_logbook(root))


def test_reading_stops_at_the_first_claim_page(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: many claims")
    draft.page("Executive summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | VERIFIED |")
    for n in range(1, 30):
        draft.page(f"Claim {n}: widget {n}").markdown(f"**Verdict: {'VERIFIED' if n % 2 else 'TOY'}.**")
    root = draft.write(tmp_path)
    preview = read_preview(root)
    assert preview is not None
    assert [page.slug for page in preview.pages[1:]] == ["executive-summary", "claim-1-widget-1"]
    assert [claim.label for claim in preview.claims] == ["Claim 1"]
    assert preview.traces == [] and preview.workspace_files == []


def test_no_claim_page_near_the_start_means_no_preview(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: claims far down")
    for n in range(20):
        draft.page(f"Setup step {n}").markdown("Installing things.")
    draft.page("Claim 1: widgets").markdown("**Verdict: VERIFIED.**")
    root = draft.write(tmp_path)
    assert read_preview(root) is None
    assert [claim.key for claim in read_logbook(root).claims] == ["claim-1-widgets#1"]


def test_an_earlier_version_read_first_is_not_previewed(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: versions")
    draft.page("Claim 1 (v1): widgets", slug="claim-1-v1").markdown("**Verdict: TOY.**")
    draft.page("Claim 1 (v2): widgets", slug="claim-1-v2").markdown("**Verdict: VERIFIED.**")
    root = draft.write(tmp_path)
    assert read_preview(root) is None  # only versions among the first pages: the whole reading decides
    assert [claim.key for claim in read_logbook(root).claims] == ["claim-1-v2#1"]


def test_a_preview_can_be_cancelled(tmp_path: Path) -> None:
    root = write_demo(tmp_path)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        read_preview(root, token)
