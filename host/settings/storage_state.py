"""A storage state (Playwright's `storage_state()` JSON: cookies, web storage per origin) read
from bytes that someone else wrote, checked before Playwright's driver sees it.

Why: Python's `json` accepts `NaN` and `Infinity`, the Python client sends them on, and the
driver's `JSON.parse` refuses them by exiting, which ends every session of the host. A page can
plant such a file as a download. So a state is strict JSON (no NaN, no infinity, no number past a
double's range, no lone surrogate) and within the field rules of the driver's protocol validator
(`scheme.SetNetworkCookie`, `SetOriginStorage`, `IndexedDBDatabase`, `OPFSEntry`,
`VirtualCredential` in playwright-core's `validator.ts`) and of its `rewriteCookies` (a url or a
domain and path, never both; `expires` -1 or a positive Unix time up to year 9999). Chromium's
own cookie rules (`CanonicalCookie`: no control characters or `;` in a name or value, no `=` in a
name, name and value at most 4096 bytes together, a path from `/` of at most 1024 bytes) are
checked too, so that a refusal names the field instead of Chromium's "Invalid cookie fields".
Stricter than Playwright on purpose: an origin and a cookie's url are http(s) (ws(s) for a url),
the only origins a browser keeps cookies and web storage for.

`storage_state_from` is the one door: the restore tool and `--storage-state` both pass through it.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast
from urllib.parse import urlsplit

from host.settings.limits import ArgumentLimits, check_arguments, json_depth
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject
from host.shared.origins import origin_of

MAX_DEPTH = 256
"""The deepest nesting a state may have (IndexedDB values nest; cookies are 3 levels deep)."""
MAX_EXPIRES = 253402300799
"""Playwright's `kMaxCookieExpiresDateInSeconds`: 9999-12-31T23:59:59Z."""
MAX_NAME_AND_VALUE = 4096
MAX_PATH = 1024
_LIMITS = ArgumentLimits(
    depth=MAX_DEPTH, string_chars=64 * 1024 * 1024, items=10_000_000, total_chars=256 * 1024**2
)
_COOKIE_URL_SCHEMES = ("http", "https", "ws", "wss")
_CONTROL = re.compile("[\x00-\x1f\x7f]")
_NOT_IN_NAME = re.compile("[\x00-\x1f\x7f;=]")
_NOT_IN_VALUE = re.compile("[\x00-\x1f\x7f;]")
_FIX = "save a state with browser_storage_state (or Playwright's context.storage_state())"


@dataclass(frozen=True)
class StorageState:
    """A checked storage state and where it came from.

    Guarantees: `text` is strict JSON (made by `json.dumps(..., allow_nan=False)` from a state
    `storage_state_from` accepted); it is text, so the value cannot change once checked."""

    path: Path
    text: str

    def value(self) -> JsonObject:
        """A fresh copy of the state, for one `new_context`."""
        return cast(JsonObject, json.loads(self.text))


class _Invalid(Exception):
    """A field of the state breaks a rule: its path (`cookies[3].expires`) and what is wrong."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


def storage_state_from(data: bytes, source: str, argument: str = "filename") -> JsonObject:
    """The storage state in `data`, checked; raises `HostError("invalid_argument")` whose message
    names `source` (a file's path) and the field (`cookies[3].expires`) and whose `path` is
    `argument` (the tool argument or option that named the file). Costs a few passes over
    `data`, none recursive but the parser's, which the depth measured first keeps shallow."""

    def refuse(detail: str) -> HostError:
        return HostError(
            "invalid_argument",
            f"{source} is not a storage state this host can restore: {detail}; {_FIX}",
            path=argument,
        )

    # The parser recurses once per level: 100,000 levels would exhaust the stack. Measured first.
    depth = json_depth(data)
    if depth > MAX_DEPTH:
        raise refuse(f"it nests {depth} levels deep, more than {MAX_DEPTH}")
    try:
        state = json.loads(data)
    except UnicodeDecodeError:
        raise refuse("it is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise refuse(f"it is not JSON ({error})") from None
    except ValueError:  # the one other ValueError of json.loads: Python's limit on digits
        raise refuse(
            f"it holds a whole number of more than {sys.get_int_max_str_digits()} digits, past "
            "the range of JSON numbers"
        ) from None
    except RecursionError:  # not reached below MAX_DEPTH; kept so no traceback can escape
        raise refuse(f"it nests more than {MAX_DEPTH} levels deep") from None
    try:
        check_arguments(state, _LIMITS)
    except HostError as error:
        raise refuse(f"{error.path or 'the top level'}: {error.message}") from None
    try:
        _STATE(state, "")
    except _Invalid as invalid:
        raise refuse(f"{invalid.field or 'the top level'}: {invalid.problem}") from None
    return cast(JsonObject, state)


def storage_state_file(path: Path, data: bytes, argument: str) -> StorageState:
    """`storage_state_from(data, str(path), argument)` kept as a `StorageState`."""
    state = storage_state_from(data, str(path), argument)
    return StorageState(path, json.dumps(state, allow_nan=False))


def check_cookie(cookie: JsonObject, prefix: str = "") -> None:
    """Refuse a cookie as `add_cookies` receives it if Playwright or Chromium would: a
    `HostError("invalid_argument")` whose `path` is the field under `prefix` (`name`, or
    `cookies[0].name` with `prefix="cookies[0]"`)."""
    try:
        _COOKIE(cookie, prefix)
    except _Invalid as invalid:
        raise HostError("invalid_argument", invalid.problem, path=invalid.field) from None


# -- the rules: a checker takes a value and its path, and raises _Invalid ----------------------

Check = Callable[[object, str], None]


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    return "a list" if isinstance(value, list) else "an object"


def _string(value: object, field: str) -> None:
    if not isinstance(value, str):
        raise _Invalid(field, f"expected text, got {_kind(value)}")


def _boolean(value: object, field: str) -> None:
    if not isinstance(value, bool):
        raise _Invalid(field, f"expected true or false, got {_kind(value)}")


def _number(value: object, field: str) -> None:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _Invalid(field, f"expected a number, got {_kind(value)}")


def _integer(value: object, field: str) -> None:
    _number(value, field)
    if isinstance(value, float) and not value.is_integer():
        raise _Invalid(field, f"expected a whole number, got {value}")


def _any(value: object, field: str) -> None:
    """Anything JSON (its strictness is checked for the whole state at once)."""


def _enum(*choices: str) -> Check:
    def check(value: object, field: str) -> None:
        if value not in choices:
            shown = repr(value)[:40] if isinstance(value, str) else _kind(value)
            raise _Invalid(field, f"expected one of {', '.join(choices)}, got {shown}")

    return check


def _list(item: Check) -> Check:
    def check(value: object, field: str) -> None:
        if not isinstance(value, list):
            raise _Invalid(field, f"expected a list, got {_kind(value)}")
        for index, member in enumerate(value):
            item(member, f"{field}[{index}]")

    return check


def _object(required: dict[str, Check], optional: dict[str, Check] | None = None) -> Check:
    """An object with these keys; other keys are left alone, as Playwright's validator drops
    them. An optional key may be absent, not null (Playwright's `tOptional` takes `undefined`)."""

    def check(value: object, field: str) -> None:
        if not isinstance(value, dict):
            raise _Invalid(field, f"expected an object, got {_kind(value)}")
        for key, rule in required.items():
            where = f"{field}.{key}" if field else key
            if key not in value:
                raise _Invalid(where, "missing")
            rule(value[key], where)
        for key, rule in (optional or {}).items():
            if key in value:
                rule(value[key], f"{field}.{key}" if field else key)

    return check


def _cookie_rules(value: object, field: str) -> None:
    """`rewriteCookies` in playwright-core, then Chromium's `CanonicalCookie` rules."""
    cookie = cast(JsonObject, value)

    def at(key: str) -> str:
        return f"{field}.{key}" if field else key

    url, domain, path = cookie.get("url"), cookie.get("domain"), cookie.get("path")
    if not (url or (domain and path)):
        raise _Invalid(at("url"), "a cookie needs a url, or a domain and a path")
    if url and domain:
        raise _Invalid(at("domain"), "give a url or a domain, not both")
    if url and path:
        raise _Invalid(at("path"), "give a url or a path, not both")
    if isinstance(url, str) and url:
        try:
            parts = urlsplit(url)
            host = parts.hostname
        except ValueError:
            host = None
        if host is None or parts.scheme.lower() not in _COOKIE_URL_SCHEMES:
            raise _Invalid(at("url"), "expected an http(s) URL such as https://example.com/")
    expires = cookie.get("expires")
    # Playwright: falsy (0, absent) or -1 or in (0, MAX]; NaN cannot reach here (strict JSON).
    if (
        isinstance(expires, int | float)
        and expires not in (0, -1)
        and not 0 < expires <= MAX_EXPIRES
    ):
        raise _Invalid(
            at("expires"),
            f"expected -1 (a session cookie) or a Unix time in seconds up to {MAX_EXPIRES}, "
            f"got {expires}",
        )
    name, text = str(cookie["name"]), str(cookie["value"])
    if not name and not text:
        raise _Invalid(at("name"), "a cookie needs a name or a value")
    # The size first: the character checks below then read at most 4096 bytes.
    name_bytes = len(name.encode("utf-8", "surrogatepass"))
    value_bytes = len(text.encode("utf-8", "surrogatepass"))
    size = name_bytes + value_bytes
    if size > MAX_NAME_AND_VALUE:
        raise _Invalid(
            at("name" if name_bytes >= value_bytes else "value"),
            f"a cookie's name and value hold {size} bytes together, more than Chromium's "
            f"{MAX_NAME_AND_VALUE}",
        )
    for key, part, pattern in (("name", name, _NOT_IN_NAME), ("value", text, _NOT_IN_VALUE)):
        bad = pattern.search(part)
        if bad is not None:
            char = bad.group()
            shown = repr(char) if char in ";=" else f"U+{ord(char):04X}"
            raise _Invalid(at(key), f"a cookie's {key} cannot hold {shown} (Chromium refuses it)")
    if isinstance(path, str) and path and (len(path) > MAX_PATH or not path.startswith("/")):
        raise _Invalid(at("path"), f"expected a path from / of at most {MAX_PATH} characters")
    if isinstance(domain, str) and _CONTROL.search(domain):
        raise _Invalid(at("domain"), "a domain cannot hold control characters")


def _all(*checks: Check) -> Check:
    def check(value: object, field: str) -> None:
        for one in checks:
            one(value, field)

    return check


def _origin(value: object, field: str) -> None:
    _string(value, field)
    if origin_of(cast(str, value)) is None:
        raise _Invalid(
            field,
            f"expected an http(s) origin such as https://example.com, got {str(value)[:80]!r}",
        )


_COOKIE = _all(
    _object(
        {"name": _string, "value": _string},
        {
            "url": _string,
            "domain": _string,
            "path": _string,
            "expires": _number,
            "httpOnly": _boolean,
            "secure": _boolean,
            "sameSite": _enum("Strict", "Lax", "None"),
            "partitionKey": _string,
            "_crHasCrossSiteAncestor": _boolean,
        },
    ),
    _cookie_rules,
)
_KEY_PATH = {"keyPath": _string, "keyPathArray": _list(_string)}
_INDEXED_DB = _object(
    {
        "name": _string,
        "version": _integer,
        "stores": _list(
            _object(
                {
                    "name": _string,
                    "autoIncrement": _boolean,
                    "records": _list(
                        _object(
                            {},
                            {"key": _any, "keyEncoded": _any, "value": _any, "valueEncoded": _any},
                        )
                    ),
                    "indexes": _list(
                        _object(
                            {"name": _string, "multiEntry": _boolean, "unique": _boolean},
                            _KEY_PATH,
                        )
                    ),
                },
                _KEY_PATH,
            )
        ),
    }
)
_ORIGIN = _object(
    {"origin": _origin, "localStorage": _list(_object({"name": _string, "value": _string}))},
    {
        "indexedDB": _list(_INDEXED_DB),
        "opfs": _list(
            _object({"path": _string, "type": _enum("file", "directory")}, {"base64": _string})
        ),
    },
)
_CREDENTIAL = _object(
    {
        "id": _string,
        "rpId": _string,
        "userHandle": _string,
        "privateKey": _string,
        "publicKey": _string,
    }
)
_STATE = _object(
    {},
    {"cookies": _list(_COOKIE), "origins": _list(_ORIGIN), "credentials": _list(_CREDENTIAL)},
)
