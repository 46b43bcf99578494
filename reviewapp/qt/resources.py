"""The one place that knows where resources/ lives: reviewapp/resources in a wheel, ./resources in a checkout."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


@functools.cache
def resources_dir() -> Path:
    candidates = [_PACKAGE / "resources", _PACKAGE.parent / "resources"]
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.insert(0, Path(frozen) / "reviewapp" / "resources")
    for candidate in candidates:
        if (candidate / "styles").is_dir():
            return candidate
    raise FileNotFoundError("reviewapp resources not found; looked in " + ", ".join(map(str, candidates)))


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


def read_text(*parts: str) -> str:
    return resource(*parts).read_text(encoding="utf-8")
