"""The command line's indented JSON is the standard library's text, byte for byte."""

from __future__ import annotations

import json
from enum import IntEnum, StrEnum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewapp.cli.json_text import dumps_indented

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
)
_KEYS = st.text(max_size=6) | st.integers(-5, 5) | st.booleans() | st.none() | st.floats(allow_nan=False)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_the_text_is_json_dumps_text(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)


class _Colour(StrEnum):
    RED = "red"


class _Level(IntEnum):
    HIGH = 3


def test_enums_quotes_and_control_characters_are_written_as_json_does() -> None:
    value = {"verdict": _Colour.RED, "level": _Level.HIGH, "text": 'say "hi"\n\t\u2028 é ✅', "nested": [[], {}, [{}]]}
    assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_what_json_refuses_is_refused() -> None:
    with pytest.raises(TypeError):
        dumps_indented({"when": object()})
    with pytest.raises(TypeError):
        dumps_indented({(1, 2): "tuple key"})
