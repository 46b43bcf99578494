"""Make the README's screenshot of each window with the app itself, on a generated lab:

    python -m tests.support.make_screenshots resources/screenshots

Each PNG is written by `reviewapp ... --screenshot`, the command a user would run, at 1100x700 in the light theme.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.support.look_fixtures import Lab, write_lab

SIZE = "1100x700"


def commands(lab: Lab) -> dict[str, list[str]]:
    teams = [str(t) for t in lab.teams]
    return {
        "queue-window": ["queue", str(lab.queue), "--window", "--annotator", "Grace Hopper"],
        "ranking-dialog": ["queue", str(lab.queue), "--window", "--dialog", "ranking", "--annotator", "Grace Hopper"],
        "score-dialog": ["queue", str(lab.queue), "--window", "--dialog", "score", "--annotator", "Grace Hopper"],
        "paper-window": ["paper", *teams, "--window"],
        "respond-dialog": ["paper", *teams, "--window", "--dialog", "respond", "--annotator", "Ann Author"],
        "pair-rating-window": ["pairs", "rate", str(lab.pairs), "--annotator", "Rita Rater"],
    }


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        home = Path(temp)
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "REVIEWAPP_DATA_DIR": str(home / "data"),
               "REVIEWAPP_CONFIG_DIR": str(home / "config"), "REVIEWAPP_CACHE_DIR": str(home / "cache")}  # fmt: skip
        os.environ.update(env)  # the lab's reviews go to the same data folder the app reads
        lab = write_lab(home / "lab")
        for name, args in commands(lab).items():
            shot = out / f"{name}.png"
            command = [sys.executable, "-m", "reviewapp", *args, "--screenshot", str(shot), "--size", SIZE]
            result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            if result.returncode != 0:
                sys.stderr.write(f"{name}: {result.stderr}")
                return result.returncode
            print(f"wrote {shot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "resources/screenshots")))
