"""A small logbook and annotation sessions for the annotation tests (written with the core's own writer)."""

from __future__ import annotations

import os
from pathlib import Path

from reviewapp.core.logbook.reader import read_logbook
from reviewapp.core.logbook.writer import LogbookDraft, write_trace
from reviewapp.core.review.identity import Identity
from reviewapp.core.review.logbook_review import LogbookReview

CLAIM_PAGES = {
    1: "claim-1-pruning-keeps-accuracy",
    2: "claim-2-training-is-faster",
    3: "claim-3-robust-to-shift",
}


def write_small_logbook(workspace: Path) -> Path:
    """Three claims (verified, falsified, toy), a run cell with output, a trace; returns the logbook root."""
    draft = LogbookDraft("Reproduction: Small Widgets", metadata={"space_id": "someone/small-widgets"})
    draft.page("Claim 1: Pruning keeps accuracy").markdown("> Pruning keeps accuracy.", title="Claim").run(
        ["python", "prune.py"], "\n".join(f"epoch {e} acc {70 + e}" for e in range(12)), title="Prune"
    ).markdown("**Verdict: VERIFIED.** Within 0.3 points.", title="Verdict")
    draft.page("Claim 2: Training is faster").markdown("> Training is 2x faster.", title="Claim").markdown(
        "## Verdict: FALSIFIED\n\nMeasured 1.02x.", title="Verdict"
    )
    draft.page("Claim 3: Robust to shift").markdown("Status: **TOY**, a 10% proxy only.", title="Verdict")
    root = draft.write(workspace)
    events = [
        {"id": f"event-{i}", "sequence": i, "kind": "message", "title": f"step {i}", "text": "ok"} for i in range(1, 6)
    ]
    write_trace(root, "session-1", events)
    return root


def small_logbook(tmp_path: Path, name: str = "workspace") -> Path:
    """A fresh copy of the small logbook under tmp_path; returns the workspace folder (what users pass)."""
    workspace = tmp_path / name
    write_small_logbook(workspace)
    return workspace


def open_review(workspace: Path, name: str = "Ada Lovelace", role: str = "judge", **kwargs) -> LogbookReview:
    return LogbookReview.open(read_logbook(workspace), Identity(name, "command line"), role, **kwargs)


def subprocess_env(home: Path, **extra: str) -> dict[str, str]:
    """Environment for child processes: isolated data/config/git/HF folders, no token, no Qt display."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING_FACE", "GIT_"))}
    env.update(
        {
            "REVIEWAPP_DATA_DIR": str(home / "data"),
            "REVIEWAPP_CONFIG_DIR": str(home / "config"),
            "HF_HOME": str(home / "hf"),
            "HF_HUB_DISABLE_TELEMETRY": "1",
            "HF_HUB_OFFLINE": "1",
            "HOME": str(home),
            "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        }
    )
    env.update(extra)
    return env
