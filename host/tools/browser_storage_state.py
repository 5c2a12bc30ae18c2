"""`browser_storage_state` and `browser_set_storage_state` (capability `storage`): the session's
cookies and web storage saved to a JSON file, and restored from one, as @playwright/mcp's tools of
the same names (Playwright's `storage_state` and `set_storage_state`).

Described by the `.tool.yaml` files beside this file. Files stay in the output directory: a save
goes under its `storage/` (a plain name, `.json` unless it has an extension, never over a file);
a restore reads a file inside the output directory only (a relative name is looked for under
`storage/`), at most `MAX_STORAGE_STATE_BYTES`, in Playwright's storage-state shape. A saved file
shows a secret's value as its `${NAME}`, as every output does.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, cast

from playwright.async_api import Error as PlaywrightError

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.downloads import save_output
from host.settings.browser_options import MAX_STORAGE_STATE_BYTES
from host.settings.config import default_output_dir
from host.settings.limits import check_path_text
from host.settings.storage_state import storage_state_from
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

FOLDER = "storage"


def _output(call: CallContext) -> Path:
    return (call.config.output_dir or default_output_dir()).resolve()


async def browser_storage_state(call: CallContext, args: JsonObject) -> JsonValue:
    state = await call.session.context.storage_state()
    text = call.config.secrets.scrub(json.dumps(state, indent=2))
    requested = args.get("filename")
    name = requested if isinstance(requested, str) else time.strftime("storage-state-%Y%m%dT%H%M%S")
    path = save_output(_output(call), FOLDER, name, ".json", text.encode("utf-8"))
    counts = {"cookies": len(state.get("cookies", [])), "origins": len(state.get("origins", []))}
    return Rendered(
        {"path": str(path), **counts},
        f"storage state saved to {path} ({counts['cookies']} cookie(s), "
        f"{counts['origins']} origin(s) with web storage)",
    )


def _state_file(call: CallContext, filename: str) -> Path:
    check_path_text(filename, "filename")
    output = _output(call)
    given = Path(filename)
    path = (given if given.is_absolute() else output / FOLDER / given).resolve()
    if not path.is_relative_to(output):
        raise HostError(
            "invalid_argument",
            f"{filename} is outside the output directory {output}; restore a file "
            "browser_storage_state saved (or one put under the output directory)",
            path="filename",
        )
    if not path.is_file():
        raise HostError(
            "invalid_argument",
            f"no file {path}; give the path browser_storage_state returned",
            path="filename",
        )
    if path.stat().st_size > MAX_STORAGE_STATE_BYTES:
        raise HostError(
            "invalid_argument",
            f"{path} is larger than {MAX_STORAGE_STATE_BYTES} bytes",
            path="filename",
        )
    return path


async def browser_set_storage_state(call: CallContext, args: JsonObject) -> JsonValue:
    path = _state_file(call, str(args["filename"]))
    # Strict JSON within Playwright's field rules: a NaN here would end the shared driver.
    state = storage_state_from(path.read_bytes(), str(path), "filename")
    state.setdefault("cookies", [])
    state.setdefault("origins", [])
    try:
        await call.session.context.set_storage_state(cast(Any, state))
    except PlaywrightError as error:
        # Playwright's first line is only "Error setting storage state:"; the cause follows.
        message = " ".join(str(error.message).splitlines()[:2])[:300]
        raise HostError(
            "invalid_argument", f"{path} cannot be restored: {message}", path="filename"
        ) from None
    counts = {
        "cookies": len(cast(list[Any], state["cookies"])),
        "origins": len(cast(list[Any], state["origins"])),
    }
    return Rendered(
        {"restored": str(path), **counts},
        f"storage state restored from {path} ({counts['cookies']} cookie(s), "
        f"{counts['origins']} origin(s) with web storage)",
    )
