"""What is wrong with a reviewer's input, in our words rather than the validation library's.

"Value error, must not be empty" at `rationale` becomes "the rationale is empty: say why you chose this
verdict"; the GUI and the command line show the same sentence.
"""

from __future__ import annotations

from typing import Any

_FIELD_NAMES = {
    "rationale": "the rationale",
    "text": "the note's text",
    "reason": "the reason",
    "confidence": "the confidence",
    "verdict": "the verdict",
    "title": "the title",
    "key": "the claim key",
    "tags": "the tags",
}
_EMPTY_HINTS = {
    "rationale": "the rationale is empty: say why you chose this verdict",
    "text": "the note is empty: write something or pick a tag",
    "title": "the title is empty",
}


def _where(loc: tuple[Any, ...]) -> tuple[str, str]:
    """The field's key and a readable name ("tags", 0) -> ("tags", "tag 1")."""
    parts = [p for p in loc if p != "payload"]
    if len(parts) >= 2 and parts[-2] == "tags" and isinstance(parts[-1], int):
        return "tag", f"tag {parts[-1] + 1}"
    field = str(parts[-1]) if parts else ""
    return field, _FIELD_NAMES.get(field, field.replace("_", " ") or "the input")


def plain_error(error: dict[str, Any]) -> str:
    """One validation error of a pydantic model as a sentence."""
    field, name = _where(tuple(error.get("loc", ())))
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "value_error":
        cause = str(ctx.get("error", "")) or error.get("msg", "")
        if "must not be empty" in cause and field in _EMPTY_HINTS:
            return _EMPTY_HINTS[field]
        if "must not be empty" in cause:
            return f"{name} is empty"
        return f"{name}: {cause}" if not cause.startswith(("a ", "an ", "the ")) else cause
    if kind in ("missing", "string_too_short"):
        return _EMPTY_HINTS.get(field, f"{name} is missing")
    if kind == "string_too_long":
        return f"{name} is longer than {ctx.get('max_length')} characters"
    if kind in ("greater_than_equal", "less_than_equal", "int_parsing", "int_type"):
        return f"{name} must be a whole number from 1 to 3" if field == "confidence" else f"{name} is out of range"
    if kind in ("enum", "literal_error"):
        return f"{name} must be one of {ctx.get('expected', '')}".rstrip()
    message = str(error.get("msg", "is not valid"))
    return f"{name}: {message.removeprefix('Value error, ')}"


def plain_errors(errors: list[dict[str, Any]]) -> str:
    return "; ".join(dict.fromkeys(plain_error(e) for e in errors))
