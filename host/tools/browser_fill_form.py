"""`browser_fill_form`: fill several fields in one call, in order, stopping at the first failure.

Described by `browser_fill_form.tool.yaml` beside this file (at most 20 fields, checked by its
schema). Each field is what `browser_type` (text), `browser_select_option` (a `<select>`) or a
check (checkbox, radio, switch) would do to it; a failure names the field (`fields[i]`) and how
many were filled before it.
"""

from __future__ import annotations

from typing import cast

from playwright.async_api import Error as PlaywrightError

from host.errors import HostError
from host.feedback import page_feedback
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.targets import locate

_KIND = """e => {
  if (e.tagName === 'SELECT') return 'select';
  const type = (e.getAttribute('type') || '').toLowerCase();
  const role = (e.getAttribute('role') || '').toLowerCase();
  if (e.tagName === 'INPUT' && (type === 'checkbox' || type === 'radio')) return 'check';
  if (['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role)) return 'check';
  return 'fill';
}"""
_TRUE = {"true", "on", "yes", "checked"}
_FALSE = {"false", "off", "no", "unchecked", ""}


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
    for index, field in enumerate(fields):
        target, value = str(field["target"]), field["value"]
        place = f"fields[{index}]"
        try:
            locator = await locate(call.tab, target)
            kind = await locator.evaluate(_KIND)
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
