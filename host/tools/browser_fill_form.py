"""`browser_fill_form`: fill several fields in one call, in order, stopping at the first failure.

Described by `browser_fill_form.tool.yaml` beside this file (at most 20 fields, checked by its
schema). Each field is what `browser_type` (text), `browser_select_option` (a `<select>`) or a
check (checkbox, radio, switch) would do to it; a failure names the field (`fields[i]`) and how
many were filled before it.
"""

from __future__ import annotations

from typing import cast

from playwright.async_api import Error as PlaywrightError

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

_KIND = """e => {
  if (e.tagName === 'SELECT') return 'select';
  const type = (e.getAttribute('type') || '').toLowerCase();
  const role = (e.getAttribute('role') || '').toLowerCase();
  if (e.tagName === 'INPUT' && (type === 'checkbox' || type === 'radio')) return 'check';
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) return 'check';
  return 'fill';
}"""
_PEER_TYPES = {
    "textbox": "fill",
    "slider": "fill",
    "checkbox": "check",
    "radio": "check",
    "combobox": "select",
}
"""@playwright/mcp's field types, and what this tool does to such a field."""
_PEER_KINDS = ("name", "type", "element", "ref")
_KIND_NAMES = {"fill": "text field", "check": "checkbox or radio", "select": "select"}
_TRUE = {"true", "on", "yes", "checked"}
_FALSE = {"false", "off", "no", "unchecked", ""}


def from_peer(args: JsonObject) -> JsonObject:
    """@playwright/mcp's fields in ours: `ref` is `target`; `name` and `element` (descriptions)
    are dropped; `type` is checked against what the field turns out to be, when it is filled
    (kept in `_types`). Raises ValueError (`fields[i].name: message`)."""
    fields = args.get("fields")
    if not isinstance(fields, list) or not any(
        isinstance(f, dict) and any(k in f for k in _PEER_KINDS) for f in fields
    ):
        return args
    shaped: list[JsonValue] = []
    types: list[JsonValue] = []
    for index, field in enumerate(fields):
        if not isinstance(field, dict):
            shaped.append(field)
            types.append(None)
            continue
        ours = {k: v for k, v in field.items() if k not in _PEER_KINDS}
        if "ref" in field:
            if "target" in field and field["target"] != field["ref"]:
                raise ValueError(f"fields[{index}].ref: give target or ref, not both")
            ours["target"] = field["ref"]
        for described in ("name", "element"):
            if described in field and not isinstance(field[described], str):
                raise ValueError(f"fields[{index}].{described}: a description, as text")
        kind = field.get("type")
        if kind is not None and kind not in _PEER_TYPES:
            raise ValueError(
                f"fields[{index}].type: one of {', '.join(_PEER_TYPES)}, got {str(kind)[:40]!r}"
            )
        shaped.append(ours)
        types.append(kind)
    return {**args, "fields": shaped, "_types": types}


async def browser_fill_form(call: CallContext, args: JsonObject) -> JsonValue:
    fields = cast(list[JsonObject], args["fields"])
    if call.recorder is not None:
        call.session.note(
            {
                "event": "not_recorded",
                "detail": "browser_fill_form is not kept in the trail; while recording, fill "
                "fields with browser_type, browser_select_option and browser_click",
            }
        )
    said = args.get("_types")
    types = said if isinstance(said, list) else []
    for index, field in enumerate(fields):
        target, value = str(field["target"]), field["value"]
        place = f"fields[{index}]"
        try:
            locator = await locate(call.tab, target)
            kind = await locator.evaluate(_KIND)
            peer_type = types[index] if index < len(types) else None
            if isinstance(peer_type, str) and _PEER_TYPES[peer_type] != kind:
                raise HostError(
                    "invalid_argument",
                    f"{target} is no {peer_type} (it is filled as a {_KIND_NAMES[kind]}); give "
                    "the field's type, or leave type out",
                    path=f"{place}.type",
                )
            if kind == "check":
                checked = value if isinstance(value, bool) else str(value).strip().lower()
                if checked not in (True, False) and checked not in _TRUE | _FALSE:
                    raise HostError(
                        "invalid_argument",
                        f"{target} is a checkbox or radio: its value must be true or false",
                        path=f"{place}.value",
                    )
                await locator.set_checked(checked is True or checked in _TRUE)
            elif kind == "select":
                await locator.select_option(str(value))
            else:
                if isinstance(value, bool):
                    raise HostError(
                        "invalid_argument",
                        f"{target} is a text field: its value must be a string",
                        path=f"{place}.value",
                    )
                await locator.fill(call.config.secrets.reveal(str(value)))
        except HostError as error:
            raise HostError(
                error.code,
                f"{place} ({target}): {error.message}; {index} field(s) before it were filled",
                path=error.path or place,
            ) from None
        except PlaywrightError as error:
            first = (str(error.message).strip().splitlines() or ["failed"])[0][:500]
            raise HostError(
                "playwright_error",
                f"{place} ({target}): {first}; {index} field(s) before it were filled",
                path=place,
            ) from None
    return await page_feedback(call.session, {"filled": len(fields)})
