"""Page text that froze the window for minutes: a heading with 200k blanks, 200k backticks after `$x$`, a
2000 x 50 table, 60k `<svg ` openers. The real window opens the claim in a child with a generous deadline (a
freeze has no other symptom) and every card is built."""

from __future__ import annotations

from pathlib import Path

from reviewapp.core.logbook.writer import LogbookDraft
from tests.core.hostile_helpers import DEADLINE
from tests.qt.window_child import show_first_claim


def table(rows: int) -> str:
    lines = ["|" + "|".join(f"c{j}" for j in range(50)) + "|", "|" + "|".join("-" for _ in range(50)) + "|"]
    return "\n".join(lines + ["|" + "|".join(str(i) for _ in range(50)) + "|" for i in range(rows)])


def test_the_window_opens_pages_built_to_stall_its_layout(tmp_path: Path) -> None:
    draft = LogbookDraft("Reproduction: Hostile text")
    page = draft.page("Claim 1: Text stays responsive").markdown("**Verdict: VERIFIED.**", title="Verdict")
    page.markdown("# x" + " " * 200_000 + "#y", title="blanks")
    page.markdown("$x$" + "`" * 200_000, title="backticks")
    page.markdown(table(2_000), title="table")
    page.markdown("<svg " * 60_000, title="svg")
    draft.write(tmp_path / "ws")
    # four cases that each took minutes; fine ones take seconds
    cards = show_first_claim(
        tmp_path / "ws", tmp_path, "print(json.dumps(len(window.evidence.cards)))", timeout=DEADLINE * 2
    )
    assert isinstance(cards, int) and cards >= 5
