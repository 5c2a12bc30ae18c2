"""Selector drift: alternatives for a selector that no longer finds its element.

The page is read once per attempt (`COLLECT_JS`, run through the generated `web_evaluate`); the
elements' `data-testid`, `name`, `aria-label`, `id` and label text (a button's text for submits)
are normalised into words and compared with the literals of the requested selector. Pure Python
from there on, so the ranking is testable without a browser.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from host.shared.jsontypes import JsonValue

Purpose = Literal["fill", "submit"]
THRESHOLD = 0.6
"""Scores below this are not candidates: `#first-name` must not drift to `last_name`."""

COLLECT_JS = r"""
({purpose, limit}) => {
  const fillable = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset])'
    + ':not([type=image]):not([type=checkbox]):not([type=radio]):not([type=file]), textarea, select,'
    + ' [contenteditable=""], [contenteditable=true]';
  const submittable = 'button, input[type=submit], input[type=button], input[type=image], a[href],'
    + ' [role=button], form';
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim().slice(0, 200);
  const labelOf = (el) => {
    const parts = [];
    if (el.labels) for (const l of el.labels) parts.push(l.textContent);
    const by = el.getAttribute('aria-labelledby');
    if (by) for (const id of by.split(/\s+/)) {
      const t = document.getElementById(id);
      if (t) parts.push(t.textContent);
    }
    return clean(parts.join(' '));
  };
  const shown = (el) => el.tagName === 'FORM' || !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const out = [];
  for (const el of document.querySelectorAll(purpose === 'fill' ? fillable : submittable)) {
    if (out.length >= limit) break;
    if (el.disabled || el.readOnly || !shown(el)) continue;  // it could be neither filled nor clicked
    out.push({
      tag: el.tagName.toLowerCase(),
      testid: el.getAttribute('data-testid') || '',
      name: el.getAttribute('name') || '',
      aria: el.getAttribute('aria-label') || '',
      id: el.id || '',
      label: labelOf(el),
      text: purpose === 'fill' || el.tagName === 'FORM' ? '' : clean(el.innerText || el.value || ''),
    });
  }
  return out;
}
"""

_ID = re.compile(r"#((?:[A-Za-z0-9_-]|\\.)+)")
_CLASS = re.compile(r"\.((?:[A-Za-z0-9_-]|\\.)+)")
_ATTR = re.compile(
    r"\[\s*([\w:-]+)\s*[~|^$*]?=\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|([^\]\s]+))\s*[is]?\s*\]"
)
_ENGINE = re.compile(
    r"(?:internal:)?(?:label|testid|test-id|placeholder|text|alt|title|role)\s*=\s*"
    r"(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|([^>\[\]]+))"
)
_TEXT_PSEUDO = re.compile(
    r":(?:has-text|text-is|text)\(\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)')\s*\)"
)
_TAG = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9-]*)(?=$|[#.\[:\s>])")
_ENGINE_PREFIX = re.compile(r"\s*(?:internal:|xpath=|[a-zA-Z-]+=|//)")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])")
_WORD = re.compile(r"[a-z0-9]+")
_SIMPLE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_ATTRIBUTES = ("testid", "id", "name", "aria", "label", "text")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def hints(selector: str) -> list[str]:
    """The literals a selector looks for: ids, classes, attribute values, engine texts."""
    found: list[str] = []
    for pattern in (_ATTR, _ENGINE, _TEXT_PSEUDO):
        for match in pattern.finditer(selector):
            groups = match.groups()[1:] if pattern is _ATTR else match.groups()
            value = next((g for g in groups if g), "")
            if value:
                found.append(_unescape(value).strip())
    # Ids and classes outside attribute values and quoted texts.
    bare = _ATTR.sub(" ", _TEXT_PSEUDO.sub(" ", _ENGINE.sub(" ", selector)))
    found += [_unescape(m.group(1)) for m in _ID.finditer(bare)]
    found += [_unescape(m.group(1)) for m in _CLASS.finditer(bare)]
    if not found:
        found.append(selector)
    return [h for h in dict.fromkeys(found) if words(h)]


def tag_of(selector: str) -> str | None:
    """The element name a CSS selector starts with (`input#email` → `input`), else None."""
    if _ENGINE_PREFIX.match(selector):
        return None
    match = _TAG.match(selector)
    return match.group(1).lower() if match else None


def words(text: str) -> tuple[str, ...]:
    """`userEmail-input` → (`user`, `email`, `input`): camel case, digits and punctuation split."""
    return tuple(_WORD.findall(_CAMEL.sub(" ", text).lower()))


def similarity(a: str, b: str) -> float:
    """1.0 for the same words however written (`user_name` ~ `userName` ~ `User name`), 0.9 less a
    little per extra word when one's words contain the other's (`email` ~ `email-input`), else 0.8 of
    the character similarity (typos: `emial` ~ `email`)."""
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return 0.0
    ca, cb = "".join(wa), "".join(wb)
    if ca == cb:
        return 1.0
    sa, sb = set(wa), set(wb)
    if sa <= sb or sb <= sa:
        return max(THRESHOLD, 0.9 - 0.05 * len(sa ^ sb))
    return 0.8 * SequenceMatcher(None, ca, cb).ratio()


@dataclass(frozen=True)
class ElementInfo:
    """What `COLLECT_JS` reports about one element that could be filled (or submitted)."""

    tag: str
    testid: str = ""
    id: str = ""
    name: str = ""
    aria: str = ""
    label: str = ""
    text: str = ""

    @classmethod
    def from_json(cls, value: JsonValue) -> ElementInfo | None:
        if not isinstance(value, dict) or not isinstance(value.get("tag"), str):
            return None
        fields = value

        def text(key: str) -> str:
            item = fields.get(key)
            return item[:200] if isinstance(item, str) else ""

        return cls(
            tag=text("tag"),
            testid=text("testid"),
            id=text("id"),
            name=text("name"),
            aria=text("aria"),
            label=text("label"),
            text=text("text"),
        )

    def attribute(self, key: str) -> str:
        return str(getattr(self, key))


def _css_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\a ")
    return f'"{escaped}"'


def selector_for(element: ElementInfo) -> str:
    """The most stable selector for `element`: test id, id, name, aria-label, label, text."""
    if element.testid:
        return f"[data-testid={_css_string(element.testid)}]"
    if element.id:
        if _SIMPLE_ID.fullmatch(element.id):
            return f"#{element.id}"
        return f"[id={_css_string(element.id)}]"
    if element.name:
        return f"{element.tag}[name={_css_string(element.name)}]"
    if element.aria:
        return f"{element.tag}[aria-label={_css_string(element.aria)}]"
    if element.label:
        return f"internal:label={json.dumps(element.label)}s"
    return f"{element.tag}:text-is({json.dumps(element.text)})"


@dataclass(frozen=True)
class Candidate:
    """An alternative selector and why: the attribute that matched and its score (0..1)."""

    selector: str
    score: float
    matched: str


def rank(
    requested: str,
    elements: list[ElementInfo],
    *,
    limit: int = 5,
    exclude: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """Candidates for `requested` among `elements`, best first (ties: document order), at most
    `limit`, none scoring under `THRESHOLD`, none in `exclude` (already tried)."""
    literals = hints(requested)
    wanted_tag = tag_of(requested)
    scored: list[tuple[float, int, Candidate]] = []
    seen = set(exclude) | {requested}
    for order, element in enumerate(elements):
        best, matched = 0.0, ""
        for key in _ATTRIBUTES:
            value = element.attribute(key)
            if not value:
                continue
            for literal in literals:
                score = similarity(literal, value)
                if score > best:
                    best, matched = score, key
        if best < THRESHOLD:
            continue
        if wanted_tag is not None and wanted_tag == element.tag:
            best = min(1.0, best + 0.05)
        selector = selector_for(element)
        if selector in seen:
            continue
        seen.add(selector)
        scored.append((-best, order, Candidate(selector, round(best, 3), matched)))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [candidate for _, _, candidate in scored[:limit]]
