"""The id of a JSON-RPC request that cannot be parsed whole (too long, nested too deep, not JSON).

A client waits for the answer under its own id; an error under `null` leaves it waiting until its
own timeout. The id is a member of the top-level object, and the clients in use write it either
near the start (the Python SDK: `{"jsonrpc":"2.0","id":1,"method":...}`) or at the end (the
TypeScript SDK: `{"method":...,"params":{...},"jsonrpc":"2.0","id":1}`). So it is read from the
first and the last `WINDOW` bytes alone: the start is read member by member while they are short
scalars; the end is read backwards from the closing brace over short scalar members. Nothing
else of the message is looked at, so the cost is bounded whatever its size or depth.

Guarantees: `recover_id` returns an int or a string of at most `MAX_ID_CHARS` characters only
when it found it as a member of the top-level object (read from the end, the closing `}` is the
message's last byte, so the member is the top-level object's); otherwise None.
"""

from __future__ import annotations

import json
import re

WINDOW = 8192
"""Bytes kept from each end of a message whose id may have to be recovered."""
MAX_ID_CHARS = 256

_WS = rb"[ \t\r\n]*"
_STRING = rb'"(?:[^"\\]|\\.){0,1024}"'
_NUMBER = rb"-?(?:0|[1-9][0-9]{0,40})(?:\.[0-9]{1,40})?(?:[eE][+-]?[0-9]{1,10})?"
_SCALAR = rb"(?:" + _STRING + rb"|" + _NUMBER + rb"|true|false|null)"
_MEMBER = re.compile(
    _WS + rb"(" + _STRING + rb")" + _WS + rb":" + _WS + rb"(" + _SCALAR + rb")" + _WS + rb"([,}])"
)
_TAIL = re.compile(
    rb'[{,]' + _WS + rb'"id"' + _WS + rb":" + _WS + rb"(" + _STRING + rb"|" + _NUMBER + rb")"
    + _WS + rb"(?:," + _WS + _STRING + _WS + rb":" + _WS + _SCALAR + _WS + rb"){0,8}\}" + _WS + rb"\Z"
)  # fmt: skip


def _as_id(text: bytes) -> int | str | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    if isinstance(value, str) and len(value) > MAX_ID_CHARS:
        return None
    return value


def _from_head(head: bytes) -> int | str | None:
    start = head.find(b"{")
    if start < 0 or head[:start].strip():
        return None
    position = start + 1
    for _ in range(16):
        member = _MEMBER.match(head, position)
        if member is None:
            return None
        if member.group(1) == b'"id"':
            return _as_id(member.group(2))
        if member.group(3) == b"}":
            return None
        position = member.end()
    return None


def _from_tail(tail: bytes) -> int | str | None:
    if not tail.endswith(b"}"):
        return None
    # The top-level id is the last `"id"` member followed by nothing but short members and the
    # closing brace; a few candidates from the end are tried, each match bounded.
    end = len(tail)
    for _ in range(8):
        at = tail.rfind(b'"id"', 0, end)
        if at < 0:
            return None
        before = tail[:at].rstrip(b" \t\r\n")
        if before.endswith((b"{", b",")):
            found = _TAIL.match(tail, len(before) - 1)
            if found is not None:
                return _as_id(found.group(1))
        end = at
    return None


def recover_id(head: bytes, tail: bytes | None = None) -> int | str | None:
    """The request's id, from the first bytes of a message (`head`) and its last (`tail`;
    None: `head` is the whole message)."""
    found = _from_head(head[:WINDOW])
    if found is not None:
        return found
    end = (head if tail is None else tail)[-WINDOW:]
    return _from_tail(end.rstrip(b" \t\r\n"))
