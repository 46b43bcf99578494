"""The calibration picture: people, agent and Logbook Judge verdicts as confusion heat maps, in both themes."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from reviewapp.core.logbook_judge.agreement_report import AGENT, LOGBOOK_JUDGE
from reviewapp.core.logbook_judge.calibration import calibration_figure, calibration_tables, tables_json
from reviewapp.core.plots.figures import THEMES, png_bytes
from reviewapp.core.verdicts import Verdict


def downgrading_judge(claims: int = 40, seed: int = 4) -> dict[str, dict[str, Verdict | None]]:
    """The agent says verified; the Logbook Judge says toy or inconclusive; a person sides with either."""
    rng = random.Random(seed)
    ratings: dict[str, dict[str, Verdict | None]] = {}
    for n in range(claims):
        judge = rng.choice((Verdict.TOY, Verdict.INCONCLUSIVE))
        person = rng.choice((Verdict.VERIFIED, judge))
        ratings[f"claim-{n}"] = {AGENT: Verdict.VERIFIED, LOGBOOK_JUDGE: judge, "Ada": person}
    ratings["unstated"] = {AGENT: Verdict.UNSTATED, LOGBOOK_JUDGE: Verdict.TOY}
    return ratings


def test_the_downgrade_shows_in_the_agent_row() -> None:
    tables = {t.title.split(" (")[0]: t for t in calibration_tables(downgrading_judge())}
    assert set(tables) == {"People vs Logbook Judge", "Agent vs Logbook Judge", "People vs Agent"}
    agent = tables["Agent vs Logbook Judge"]
    verified = dict(zip(agent.columns, agent.counts[list(agent.rows).index("verified")], strict=True))
    assert verified["verified"] == 0 and verified["toy"] + verified["inconclusive"] == 40
    assert sum(sum(row) for row in agent.counts) == 40  # the unstated agent verdict is left out
    assert agent.title == "Agent vs Logbook Judge (40)"
    assert tables_json([agent])[0]["counts"] == [list(r) for r in agent.counts]


def test_only_maps_with_pairs_are_drawn() -> None:
    tables = calibration_tables({"c": {"Ada": Verdict.VERIFIED, AGENT: Verdict.TOY}})
    assert [t.title for t in tables] == ["People vs Agent (1)"]
    assert calibration_tables({"c": {"Ada": Verdict.VERIFIED}}) == []


@pytest.mark.parametrize("theme", THEMES)
def test_the_heat_maps_render_in_both_themes(theme) -> None:
    image = Image.open(io.BytesIO(png_bytes(calibration_figure(calibration_tables(downgrading_judge()), theme))))
    assert image.width > 2.5 * image.height > 0  # three maps side by side
