"""The gateway's checks of raw input, as properties: the nesting scan that runs before any JSON
parser agrees with the parser's own idea of depth on every JSON value, and is fooled neither by
brackets inside strings nor by text that is not JSON; names are trimmed and refused as the docs
say. (The same checks over HTTP and the WebSocket are in test_bad_input.py.)"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju_services.errors import ServiceError
from paiju_services.inputs import MAX_JSON_DEPTH, MAX_NAME, clean_name, too_deep

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab,:'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\ab', max_size=4), inner, max_size=3)
    ),
    max_leaves=60,
)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


def wrap(value: Any, levels: int) -> Any:
    for i in range(levels):
        value = [value] if i % 2 else {"k": value}
    return value


@given(json_values, st.integers(min_value=0, max_value=2 * MAX_JSON_DEPTH), st.integers(0, 40))
def test_the_scan_finds_exactly_the_values_nested_too_deeply(
    value: Any, levels: int, limit: int
) -> None:
    nested = wrap(value, levels)
    text = json.dumps(nested)
    assert too_deep(text, limit) == (depth(nested) > limit)
    assert too_deep(text.encode(), limit) == (depth(nested) > limit)


@given(st.binary(max_size=300), st.integers(0, 8))
def test_the_scan_never_fails_on_text_that_is_not_json(raw: bytes, limit: int) -> None:
    brackets = raw.count(b"[") + raw.count(b"{")
    assert too_deep(raw, limit) in (False, True)
    if brackets <= limit:
        assert not too_deep(raw, limit)


def test_brackets_in_strings_are_not_nesting() -> None:
    assert not too_deep(json.dumps({"a": "[" * 10_000, "b": ['\\"[{' * 500]}))
    assert too_deep("[" * (MAX_JSON_DEPTH + 1))  # unclosed still counts


@given(st.text(max_size=40))
def test_a_name_is_trimmed_and_refused_as_documented(name: str) -> None:
    bad = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
    trimmed = name.strip()
    try:
        clean = clean_name(name)
    except ServiceError as exc:
        if any(unicodedata.category(c) in bad for c in trimmed):
            assert exc.code == "bad_name"
        else:
            assert exc.code == "name_length" and not 1 <= len(trimmed) <= MAX_NAME
        return
    assert clean == trimmed and 1 <= len(clean) <= MAX_NAME
    assert not any(unicodedata.category(c) in bad for c in clean)


@pytest.mark.parametrize("name", ["a\nb", "a\rb", "\x7f", "a\u200db", "a\u2066b", "a\ufeffb"])
def test_names_with_invisible_or_control_characters_are_refused(name: str) -> None:
    with pytest.raises(ServiceError) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name"
