"""Selectors made safe for a planner to remember: literal e-mail addresses and long numbers hashed."""

from __future__ import annotations

import hashlib
import hmac
import re

EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
# Six digits or more, alone or in groups split by single spaces or dashes (account and card
# numbers, phone numbers); shorter runs (an `nth=2`, a year, `field-12`) are kept.
_NIBBLE = "abcdefghijklmnop"
DIGITS = re.compile(r"(?<![0-9])[0-9](?:[ -]?[0-9]){5,}(?![0-9])")


class SelectorPrivacy:
    """Replaces PII in selectors by keyed hashes: `{email:kbmcadpe}`, `{digits:fgaohbnc}`.

    Guarantees: `clean` leaves no e-mail address and no run of six or more digits of its input;
    the same literal gives the same tag for the life of the key (a planner can still compare), and
    the tag is an HMAC, so a short account number cannot be recovered by hashing guesses without
    the key. A cleaned selector is for remembering and comparing; it may no longer match.
    """

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _tag(self, kind: str, literal: str) -> str:
        digest = hmac.new(self._key, literal.encode(), hashlib.sha256).digest()[:4]
        # Letters only (a nibble each): a tag never looks like a digit run, so cleaning is idempotent.
        letters = "".join(_NIBBLE[b >> 4] + _NIBBLE[b & 15] for b in digest)
        return f"{{{kind}:{letters}}}"

    def clean(self, selector: str) -> str:
        selector = EMAIL.sub(lambda m: self._tag("email", m.group(0).lower()), selector)
        return DIGITS.sub(lambda m: self._tag("digits", re.sub(r"[ -]", "", m.group(0))), selector)

    def has_pii(self, selector: str) -> bool:
        return bool(EMAIL.search(selector) or DIGITS.search(selector))
