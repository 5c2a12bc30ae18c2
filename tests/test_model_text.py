"""`ModelText.apply`: descriptions rewritten however deep they sit, and nothing else copied."""

from __future__ import annotations

from generator.model.ir import ToolParam
from generator.model.model_text import ModelText
from generator.model.type_tree import Field, ListOf, ObjectOf, Scalar

TEXT = ModelText({("Page", "fill"): "web_fill"})


def _param(first: str, second: str, own: str) -> ToolParam:
    options = ObjectOf(
        "FillOptions",
        (
            Field("force", Scalar("boolean"), False, first),
            Field("timeout", Scalar("number"), False, second),
        ),
    )
    return ToolParam("options", ListOf(options), False, own)


def test_a_nested_description_is_rewritten_and_its_unchanged_siblings_are_kept() -> None:
    param = _param("Like `Page.fill()`, but forced.", "Maximum time in milliseconds.", "Options.")
    rewritten = TEXT.apply(param)
    assert isinstance(rewritten.type, ListOf) and isinstance(rewritten.type.item, ObjectOf)
    force, timeout = rewritten.type.item.fields
    assert force.description == "Like `web_fill`, but forced."
    assert param.type.item.fields[1] is timeout  # type: ignore[attr-defined]
    assert rewritten.description == "Options."
    assert rewritten != param


def test_a_value_with_nothing_to_rewrite_is_returned_itself() -> None:
    param = _param("Whether to bypass the checks.", "Maximum time in milliseconds.", "Options.")
    assert TEXT.apply(param) is param
    pair = (param, param)
    assert TEXT.apply(pair) is pair


def test_notes_and_links_are_rewritten_in_every_text_field() -> None:
    param = _param("**NOTE:** see [the docs](https://example.org/x).", "Plain.", "**NOTE** own.")
    rewritten = TEXT.apply(param)
    assert rewritten.description == "Note: own."
    assert rewritten.type.item.fields[0].description == "Note: see the docs."  # type: ignore[attr-defined]
