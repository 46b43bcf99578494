"""Print the requirement pyproject.toml gives for one dependency (so the core environment pins the same ranges)."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

name = sys.argv[1]
config = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
for requirement in config["project"]["dependencies"]:
    if re.match(rf"{re.escape(name)}\b", requirement, re.IGNORECASE):
        sys.stdout.write(requirement + "\n")
        break
else:
    sys.exit(f"{name} is not a dependency in pyproject.toml")
