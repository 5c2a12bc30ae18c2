"""`browser_network_requests`: The session's requests since the last call of this tool: method, URL,
resource type, status (null while pending) and failure (null unless it failed).

Described by `browser_network_requests.tool.yaml` beside this file; its arguments were checked against that
schema before it runs. With @playwright/mcp's `static`, `filter` or `filename` (never listed), the
call answers as the peer lists them: every kept request, taken before or not, under its id;
successful requests that are not fetch/XHR (the page, its images, scripts, styles) left out and
counted unless `static` is true; `filter` a JavaScript regular expression the URL must match, run
in the page (never in the host: one that backtracks without end costs that tab, within the action
timeout); `filename` writes the list, one request a line, under the output directory's `network/`
(a plain name, `.log` unless it has an extension, never over a file; a secret's value shown as its
`${NAME}`) and returns the path instead.
"""

from __future__ import annotations

from typing import cast

from host.calls.registry import CallContext
from host.sessions.downloads import save_output
from host.shared.jsontypes import JsonObject, JsonValue
from host.tools.page_regex import hits_in_page

# Which URLs match, in the page (JavaScript's RegExp, as the peer's `new RegExp(filter)`).
_MATCH_IN_PAGE = """([source, urls]) => {
  let re;
  try { re = new RegExp(source); } catch (e) { return {error: String(e.message || e)}; }
  return {hits: urls.map(url => { re.lastIndex = 0; return re.test(url); })};
}"""


def _static_success(entry: JsonObject) -> bool:
    """A request the peer leaves out unless `static`: not fetch/XHR, answered below 400."""
    status = entry.get("status")
    return (
        entry.get("resourceType") not in ("fetch", "xhr")
        and entry.get("failure") is None
        and isinstance(status, int)
        and status < 400
    )


async def _matching(call: CallContext, source: str, urls: list[str]) -> list[bool]:
    hits = await hits_in_page(
        call,
        _MATCH_IN_PAGE,
        [source, list[JsonValue](urls)],
        path="filter",
        hint="write a simpler one",
    )
    return [bool(hit) for hit in hits]


def _line(entry: JsonObject) -> str:
    """One request as the peer lists it: `id. [METHOD] url => [status]` (or `[FAILED] why`)."""
    line = f"{entry.get('id')}. [{entry.get('method')}] {entry.get('url')}"
    if entry.get("status") is not None:
        line += f" => [{entry.get('status')}]"
    elif entry.get("failure") is not None:
        line += f" => [FAILED] {entry.get('failure')}"
    return line + "\n"


def _saved(call: CallContext, requested: str, value: JsonObject) -> JsonObject:
    listed = cast(list[JsonObject], value.pop("requests"))
    text = "".join(_line(entry) for entry in listed)
    note = value.get("note")
    if isinstance(note, str):
        text += f"\nNote: {note}\n"
    # The file is output too: a secret's value shows as its ${NAME}, as in a result.
    data = call.config.secrets.scrub(text).encode("utf-8")
    path = save_output(call.session.files, "network", requested, ".log", data)
    return {"path": str(path), "count": len(listed), **value}


async def browser_network_requests(call: CallContext, args: JsonObject) -> JsonValue:
    if "static" not in args and "filter" not in args and "filename" not in args:
        entries, dropped = call.session.take_network()
        return {"requests": entries, "dropped": dropped}
    kept = call.session.kept_network()
    shown = kept if args.get("static") else [e for e in kept if not _static_success(e)]
    hidden = len(kept) - len(shown)
    source = args.get("filter")
    if isinstance(source, str) and source:
        hits = await _matching(call, source, [str(e["url"]) for e in shown])
        shown = [entry for entry, hit in zip(shown, hits, strict=True) if hit]
    listed: list[JsonValue] = [*shown]
    value: JsonObject = {"requests": listed}
    if hidden:
        value["hiddenStatic"] = hidden
        value["note"] = (
            f"{hidden} successful static request(s) (page, images, scripts, styles) not shown; "
            "pass static: true to see them"
        )
    requested = args.get("filename")
    return _saved(call, requested, value) if isinstance(requested, str) else value
