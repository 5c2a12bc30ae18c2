"""Playwright's locator code as a target (host/sessions/locator_syntax.py): each call becomes the selector
Playwright's own locator uses; selectors stay selectors; code that cannot be read is refused with
what went wrong, never passed on as CSS."""

from __future__ import annotations

import json

import pytest

from host.sessions.targets import runs_a_regex, to_selector
from host.shared.errors import HostError

READ = [
    ('getByRole("button", { name: "Submit" })', 'internal:role=button[name="Submit"i]'),
    (
        "page.getByRole('heading', {name: 'Hi', exact: true, level: 1})",
        'internal:role=heading[name="Hi"s][level=1]',
    ),
    ("getByRole('checkbox', { checked: false })", "internal:role=checkbox[checked=false]"),
    (
        'getByTestId("main").getByRole("button")',
        'internal:testid=[data-testid="main"s] >> internal:role=button',
    ),
    ("getByText(/apples/i).first()", "internal:text=/apples/i >> nth=0"),
    ('getByText("It\'s \\"here\\"", { exact: true })', 'internal:text="It\'s \\"here\\""s'),
    ("getByLabel(`Email`)", 'internal:label="Email"i'),
    ("getByPlaceholder('Search')", 'internal:attr=[placeholder="Search"i]'),
    ("getByAltText('logo')", 'internal:attr=[alt="logo"i]'),
    ("getByTitle('Close')", 'internal:attr=[title="Close"i]'),
    ("locator('#list li').nth(2)", "#list li >> nth=2"),
    ("locator('li').last()", "li >> nth=-1"),
    (
        "frameLocator('#pay').getByLabel('Card')",
        '#pay >> internal:control=enter-frame >> internal:label="Card"i',
    ),
    (
        "locator('iframe').contentFrame().getByText('Hi')",
        'iframe >> internal:control=enter-frame >> internal:text="Hi"i',
    ),
]


@pytest.mark.parametrize(("code", "selector"), READ)
def test_locator_code_becomes_playwrights_selector(code: str, selector: str) -> None:
    assert to_selector(code) == selector


@pytest.mark.parametrize(
    ("target", "selector"),
    [
        ("button", "button"),
        ("#target", "#target"),
        ("div:has(> p)", "div:has(> p)"),
        ("text=Sign in", "text=Sign in"),
        ("label=Email", 'internal:label="Email"i'),
        ("getByTextual", "getByTextual"),  # a tag name, not a call
    ],
)
def test_selectors_are_not_read_as_code(target: str, selector: str) -> None:
    assert to_selector(target) == selector


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("getByRole(button)", "unexpected 'b' at character 11"),
        ('getByRole("button", {nme: "x"})', "getByRole has no option 'nme'"),
        ('getByText("x"', "expected ')' at character 14"),
        ("getByText('a').click()", "unknown locator call at character 16"),
        ("getByText(`${name}`)", "template strings"),
        ("getByRole('button').nth('1')", "nth takes a whole number"),
        ("getByTestId('a' + 'b')", "expected ')'"),
        ("getByRole('button', {name: {name: 'x'}})", "unexpected '{'"),
        ("getByText(" + "{a: " * 400 + "1", "unexpected '{'"),
    ],
)
def test_code_that_cannot_be_read_is_refused_saying_why(code: str, why: str) -> None:
    with pytest.raises(HostError) as raised:
        to_selector(code)
    assert raised.value.code == "invalid_argument" and raised.value.path == "target"
    assert why in str(raised.value) and "getByRole('button'" in str(raised.value)


# -- strings read as JavaScript reads them (issue 42, item 8; docs/ERRORS.md H5P4-5) -------------

ESCAPED = [
    (r"getByText('a\nb\tc\rd')", "a\nb\tc\rd"),
    (r"getByText('\b\f\v\0')", "\b\f\v\0"),
    (r"getByText('\x41\u00e9\u{1F600}\u{e9}')", "A\u00e9\U0001f600\u00e9"),
    (r"getByText('\uD83D\uDE00')", "\U0001f600"),  # a surrogate pair written as two escapes
    (r"getByText('\uD83D\u{DE00}')", "\U0001f600"),
    (r"getByText('\q\'\"\\\/\`')", "q'\"\\/`"),  # identity escapes
    ("getByText('one \\\ntwo')", "one two"),  # a line continuation
    ('getByText("one \\\r\ntwo")', "one two"),
    ("getByText('one \\\u2028two')", "one two"),
    ("getByText(`one\r\ntwo\rthree`)", "one\ntwo\nthree"),  # a template's line breaks are LF
    ("getByText('\u2028')", "\u2028"),  # allowed raw in a string since ES2019
]


@pytest.mark.parametrize(("code", "text"), ESCAPED)
def test_strings_are_read_as_javascript_reads_them(code: str, text: str) -> None:
    # What JavaScript makes of the literal, written out by hand above; Playwright's text engine
    # takes it as a JSON string.
    assert to_selector(code) == f"internal:text={json.dumps(text, ensure_ascii=False)}i"


@pytest.mark.parametrize(
    ("code", "why"),
    [
        (r"getByText('\x4')", r"the escape \x at character 12 needs two hex digits"),
        (r"getByText('ab\xZZ')", r"the escape \x at character 14 needs two hex digits"),
        (r"getByText('\u12')", r"the escape \u at character 12 needs four hex digits"),
        (r"getByText('\u{110000}')", r"the escape \u{...} at character 12 needs hex digits"),
        (r"getByText('\u{}')", r"the escape \u{...} at character 12"),
        (r"getByText('\u{41')", r"the escape \u{...} at character 12"),
        (r"getByText('\1')", r"the escape \1 at character 12 is an octal"),
        (r"getByText('\08')", r"the escape \0 at character 12 is an octal"),
        (r"getByText('\8')", r"the escape \8 at character 12"),
        (r"getByText('x\uD83D')", "the escape at character 13 is half a surrogate pair"),
        (r"getByText('\uD83Dx')", "the escape at character 12 is half a surrogate pair"),
        (r"getByText('\uDE00')", "the escape at character 12 is half a surrogate pair"),
        ("getByText('a\nb')", "a string is not closed before the end of its line at character 13"),
        ("getByText('a\\", "a string is not closed"),
    ],
)
def test_an_escape_javascript_refuses_is_refused_naming_the_place(code: str, why: str) -> None:
    with pytest.raises(HostError) as raised:
        to_selector(code)
    assert raised.value.code == "invalid_argument" and raised.value.path == "target"
    assert why in raised.value.message, raised.value.message


@pytest.mark.parametrize(
    ("target", "runs"),
    [
        ("getByText(/(a+)+$/)", True),
        ("getByRole('button', { name: /sa+ve/i })", True),
        ("getByTestId(/row-\\d+/)", True),
        ("text=/(a+)+$/", True),
        ("getByText('(a+)+$')", False),
        ("#a", False),
        ("getByText('x'", False),  # unreadable: refused elsewhere
    ],
)
def test_a_target_that_runs_a_regular_expression_in_the_page_is_known(
    target: str, runs: bool
) -> None:
    assert runs_a_regex(target) is runs
