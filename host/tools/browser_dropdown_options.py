"""`browser_dropdown_options`: List the options of a <select> (text, value, selected, disabled) or of an
ARIA combobox, listbox or menu, including its popup named by aria-controls (open it first if its
options are not rendered); ARIA options come with a target to click.

Described by `browser_dropdown_options.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from typing import cast

from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.shared.jsontypes import JsonObject, JsonValue

_OPTIONS_JS = """(el, max) => {
  const text = e => (e.innerText || e.textContent || '').trim().replace(/\\s+/g, ' ');
  if (el instanceof HTMLSelectElement) {
    const all = [...el.options];
    return {kind: 'select', multiple: el.multiple, count: all.length,
      options: all.slice(0, max).map(o => ({text: o.label || text(o), value: o.value,
        selected: o.selected, disabled: o.disabled}))};
  }
  const role = el.getAttribute('role') || '';
  const popups = [];
  for (const attr of ['aria-controls', 'aria-owns']) {
    for (const id of (el.getAttribute(attr) || '').split(/\\s+/)) {
      const popup = id && el.ownerDocument.getElementById(id);
      if (popup) popups.push(popup);
    }
  }
  popups.push(el);
  const selector = '[role=option],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio]';
  const found = [];
  for (const popup of popups)
    for (const option of popup.querySelectorAll(selector))
      if (!found.includes(option)) found.push(option);
  const quote = s => JSON.stringify(s);
  return {kind: role || el.tagName.toLowerCase(), count: found.length,
    options: found.slice(0, max).map(o => {
      const name = text(o);
      const r = o.getAttribute('role');
      return {text: name, value: o.getAttribute('data-value') ?? o.getAttribute('value') ?? null,
        selected: o.getAttribute('aria-selected') === 'true' || o.getAttribute('aria-checked') === 'true',
        disabled: o.getAttribute('aria-disabled') === 'true' || o.hasAttribute('disabled'),
        target: o.id ? '#' + CSS.escape(o.id) : `role=${r}[name=${quote(name)}s]`};
    })};
}"""


MAX_OPTIONS = 200


async def browser_dropdown_options(call: CallContext, args: JsonObject) -> JsonValue:
    locator = await locate(call.tab, str(args["target"]))
    found = cast(JsonObject, await locator.evaluate(_OPTIONS_JS, MAX_OPTIONS))
    count = found.pop("count")
    found["truncated"] = isinstance(count, int) and count > MAX_OPTIONS
    if found["kind"] != "select" and not found["options"]:
        found["hint"] = (
            "no option or menuitem elements found: open the dropdown (click it) first, then ask "
            "again"
        )
    return found
