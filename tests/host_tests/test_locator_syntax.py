"""Playwright's locator code as a target (host/sessions/locator_syntax.py): each call becomes the selector
Playwright's own locator uses; selectors stay selectors; code that cannot be read is refused with
what went wrong, never passed on as CSS."""

from __future__ import annotations

import pytest

from host.sessions.targets import to_selector
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
