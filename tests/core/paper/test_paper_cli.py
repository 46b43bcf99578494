"""`reviewapp paper` in a subprocess: the matrix as JSON, an author's response, the Markdown export."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reviewapp.core.io.markdown_safe import markdown_inline
from tests.core.annotation_helpers import subprocess_env
from tests.support.paper_fixtures import ORID, write_team_logbook


def cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewapp", *args],
        capture_output=True, text=True, env=subprocess_env(home), cwd=home, timeout=120, check=False,
    )  # fmt: skip


def test_paper_matrix_response_and_markdown(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified"), (1, "verified")])
    bob = write_team_logbook(tmp_path / "bob", "bob", [(1, "falsified")], wording=1)
    shown = cli(home, "paper", str(ada), str(bob), "--json")
    assert shown.returncode == 0, shown.stderr
    view = json.loads(shown.stdout)
    assert (view["paper"], view["class"]) == (ORID, "contested")
    second = view["claims"][1]
    assert [c["decided"] for c in second["cells"]] == ["verified", "falsified"]
    assert second["cells"][1]["claim"]["n"] == 1  # bob's claim 1 is the paper's claim 2
    page = second["cells"][1]["claim"]["page"]
    answered = cli(home, "paper", str(ada), str(bob), "--respond", "2", "--response", "partly", "--comment",
                   "bob ran 1 epoch", "--evidence", f"{bob}#{page}/2", "--evidence", "https://example.org/appendix",
                   "--annotator", "Ann Author")  # fmt: skip
    assert answered.returncode == 0, answered.stderr
    assert "as Ann Author (author)" in answered.stderr
    markdown = cli(home, "paper", str(ada), str(bob), "--format", "markdown").stdout
    assert "**Paper class: contested**" in markdown
    assert "**Ann Author (author) partly agrees.**\n\n> bob ran 1 epoch" in markdown
    assert (
        f"evidence: {markdown_inline('bob/flat-minima-repro')}, page {page}, cell 2" in markdown
        and "`https://example.org/appendix`" in markdown
    )
    again = json.loads(cli(home, "paper", str(ada), str(bob), "--json").stdout)
    assert again["class"] == "contested"  # an author's answer never changes a class
    assert again["claims"][1]["responses"][0]["evidence"][0]["cell"] == 1


def test_paper_errors_are_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    ada = write_team_logbook(tmp_path / "ada", "ada", [(0, "verified")])
    none = cli(home, "paper")
    assert none.returncode == 2 and "name the logbooks" in none.stderr
    missing = cli(home, "paper", str(ada), "--respond", "9", "--response", "agree", "--annotator", "A")
    assert missing.returncode == 2 and "no claim '9'" in missing.stderr
    bad = cli(home, "paper", str(tmp_path / "nowhere"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_the_text_matrix_keeps_its_columns_apart(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    long_team = "a-team-with-a-handle-longer-than-any-column"
    ada = write_team_logbook(tmp_path / "ada", long_team, [(0, "verified"), (1, "falsified")])
    bob = write_team_logbook(tmp_path / "bob", "bob", [(0, "falsified"), (1, "partial")], wording=1)
    out = cli(home, "paper", str(ada), str(bob)).stdout.splitlines()
    header = next(i for i, line in enumerate(out) if line.startswith("claim "))
    rows = out[header + 1 : header + 3]
    for line in rows:
        cells = [c for c in line.split("  ") if c.strip()]
        assert len(cells) == 4, line  # claim, class and one cell per logbook, never run together
        assert cells[2].strip().endswith(")") and cells[3].strip().endswith(")")
