"""`browser_pdf_save` (capability `pdf`): the current page as a PDF file in the host's output
directory (`--output-dir`, the session's folder's `pdf/` under it), never at a path the caller
chooses.

Described by `browser_pdf_save.tool.yaml` beside this file. A `filename` is reduced to a plain
name (no directories, no leading dots), ends in `.pdf`, and never replaces an existing file.
"""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from host.calls.registry import CallContext
from host.sessions.session_files import plain_name, unguessable
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_pdf_save(call: CallContext, args: JsonObject) -> JsonValue:
    requested = args.get("filename")
    name = plain_name(str(requested)) if isinstance(requested, str) and requested else ""
    if not name or name == "download":
        name = unguessable("page")
    if not name.lower().endswith(".pdf"):
        name += ".pdf"
    try:
        data = await call.tab.page.pdf(landscape=bool(args.get("landscape", False)))
    except PlaywrightError as error:
        if "headless" in str(error.message).lower() or "not supported" in str(error.message):
            raise HostError(
                "not_supported",
                "this browser cannot print to PDF (Chromium does so only headless)",
            ) from None
        raise
    path = call.session.files.save("pdf", name, data)
    return {"path": str(path), "size": len(data)}
