"""generator/shared/json_text.py writes exactly what `json.dumps(..., indent=n, sort_keys=True)` writes."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from generator.shared.json_text import dumps_indented

ROOT = Path(__file__).resolve().parent.parent

_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()  # NaN and infinities included: json.dumps writes them as NaN/Infinity
    | st.text()
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(_VALUES, st.integers(min_value=0, max_value=3), st.booleans())
def test_any_json_value_is_written_as_json_dumps_writes_it(
    value: object, indent: int, ensure_ascii: bool
) -> None:
    expected = json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=ensure_ascii)
    assert dumps_indented(value, indent, ensure_ascii=ensure_ascii) == expected


def test_values_it_does_not_lay_out_are_json_dumps_text() -> None:
    # Keys of other types, and subclasses of the leaf types, go to json.dumps whole.
    class Text(str):
        pass

    for value in ({1: "a", 2: [True]}, {"k": Text("v")}, [{False: None}]):
        assert dumps_indented(value, 1) == json.dumps(value, indent=1, sort_keys=True)


def test_the_committed_manifest_and_schema_read_back_to_the_same_text() -> None:
    for name in ("manifest.json", "allowlist.schema.json"):
        text = (ROOT / "generated" / name).read_text(encoding="utf-8")
        assert dumps_indented(json.loads(text), 1, ensure_ascii=False) + "\n" == text
