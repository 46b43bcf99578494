"""The evidence header says where the agent verdict was read and how sure the reader is, shows a current page
that disagrees as a contradiction, an earlier attempt as history, and an undecided claim's candidate statements."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from reviewapp.core.logbook.writer import LogbookDraft
from reviewapp.qt import theme
from tests.core.corpus_expectations import EXPECTED
from tests.qt.conftest import OpenWindow, Screenshots, wait_idle


def write_logbook(workspace: Path) -> Path:
    draft = LogbookDraft("Reproduction: Header")
    draft.page("Executive summary").markdown("| Claim | Verdict |\n|---|---|\n| 1 | TOY |")
    draft.page("Claim 1: Widgets").markdown("**Verdict: VERIFIED.** The bound holds at the paper's scale.")
    draft.page("Claim 2: Gadgets").markdown("Verdict: likely falsified (one seed).")
    draft.page("Old claims", slug="old-claims").markdown("| Claim | Verdict |\n|---|---|\n| 1 | INCONCLUSIVE |")
    draft.write(workspace)
    return workspace


def links(window) -> list[str]:
    header = window.evidence.header
    return [b.text().replace("&&", "&") for b in header.findChildren(QPushButton) if b.isVisibleTo(header)]


def test_contradiction_history_confidence_and_candidates(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path, screenshots: Screenshots
) -> None:
    window = open_window(write_logbook(tmp_path))
    header = window.evidence.header
    assert window.claim_panel.select_key("claim-1-widgets#1")
    wait_idle(qtbot, window)
    assert header.quote.text().endswith("in the claim's text, line 8 (90% sure)")
    shown = links(window)
    assert "Also stated in a summary table on “Executive summary”: TOY (differs)" in shown  # a contradiction
    assert "Earlier attempt on “Old claims”: INCONCLUSIVE (history)" in shown  # history, never "differs"
    assert not [t for t in shown if t.startswith("Candidate")]
    screenshots.take(window, "agent-verdict-contradiction-light")

    assert window.claim_panel.select_key("claim-2-gadgets#2")
    wait_idle(qtbot, window)
    assert header.quote.text().startswith("No verdict taken")
    assert not header.goto_verdict.isVisibleTo(header)
    [candidate] = [t for t in links(window) if t.startswith("Candidate")]
    assert candidate == "Candidate on “Claim 2: Gadgets”, line 8: FALSIFIED — “Verdict: likely falsified (one seed).”"
    theme.manager().apply(theme.ThemeChoice.DARK)
    screenshots.take(window, "agent-verdict-candidates-dark")


def test_a_claim_number_the_logbook_never_wrote_says_where_it_came_from(
    qtbot: QtBot, open_window: OpenWindow, tmp_path: Path
) -> None:
    draft = LogbookDraft("Reproduction: Unnumbered")
    draft.page("Claim: sparsity", slug="claim-sparsity").markdown("Verdict: verified.")
    draft.page("Claim 7: speed").markdown("Verdict: toy.")
    draft.write(tmp_path)
    window = open_window(tmp_path)
    header = window.evidence.header
    assert window.claim_panel.select_key("claim-sparsity#1")
    wait_idle(qtbot, window)
    assert header.kicker.text() == "CLAIM 8 · NEXT FREE NUMBER"
    assert "next number after the ones the logbook wrote" in header.kicker.toolTip()
    assert window.claim_panel.select_key("claim-7-speed#7")
    wait_idle(qtbot, window)
    assert header.kicker.text() == "CLAIM 7" and header.kicker.toolTip() == ""


@pytest.mark.parametrize(
    "name",
    [
        "MachineLearning-Nerd__icml26-repro-aU2sxdnRuL-distribution-valued-cpd",
        "MachineLearning-Nerd__icml26-repro-TBSyYj4VV6-quantum-regression",
    ],
)
def test_rewritten_corpus_logbooks_show_earlier_verdicts_as_history(
    qtbot: QtBot, open_window: OpenWindow, corpus: Path, name: str
) -> None:
    window = open_window(corpus / name / EXPECTED[name].root)
    for claim in window.context.logbook.claims:
        assert window.claim_panel.select_key(claim.key)
        wait_idle(qtbot, window)
        shown = links(window)
        assert any(t.endswith("(differs)") for t in shown) == claim.contradicted, claim.key
        assert any(t.endswith("(history)") for t in shown) == bool(claim.history), claim.key
    assert any(c.history for c in window.context.logbook.claims)
