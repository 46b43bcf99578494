"""Lenient conversions for JSON values whose types drift between writers."""

from __future__ import annotations

import json
from typing import Any


def as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def as_float(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def as_text(value: Any) -> str | None:
    """Strings as they are, other JSON values serialized; None stays None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def as_name(value: Any) -> str | None:
    """A non-empty stripped string, else None."""
    return value.strip() if isinstance(value, str) and value.strip() else None
