"""Print the runtime and test dependencies of reviewapp except Qt, one per line, for the Qt-free core check."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

QT = {"pyside6", "pyside6-essentials", "pyside6-addons", "shiboken6", "pytest-qt"}
project = tomllib.loads(Path(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml").read_text())["project"]
for requirement in [*project["dependencies"], *project["optional-dependencies"]["test"]]:
    name = re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")
    if name not in QT:
        sys.stdout.write(requirement + "\n")
