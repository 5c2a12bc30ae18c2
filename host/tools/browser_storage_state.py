"""`browser_storage_state` and `browser_set_storage_state` (capability `storage`): the session's
cookies and web storage saved to a JSON file, and restored from one, as @playwright/mcp's tools of
the same names (Playwright's `storage_state` and `set_storage_state`).

Described by the `.tool.yaml` files beside this file. Files stay in the session's own folder
(`host.sessions.session_files`): a save goes under its `storage/` (a plain name, `.json` unless it
has an extension, never over a file; by default an unguessable name); a restore reads only a file
this session saved there (its name, or the path the save returned), through the confined read (no
symlink followed, at most `MAX_STORAGE_STATE_BYTES` read), in Playwright's storage-state shape. A
file another session saved, a download, or any other file is refused: a state the operator wants
to start from is given with `--storage-state`. A saved file shows a secret's value as its
`${NAME}`, as every output does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from playwright.async_api import Error as PlaywrightError

from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.session_files import save_output, unguessable
from host.settings.browser_options import MAX_STORAGE_STATE_BYTES
from host.shared.confined import Refused
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue

FOLDER = "storage"


async def browser_storage_state(call: CallContext, args: JsonObject) -> JsonValue:
    state = await call.session.context.storage_state()
    text = call.config.secrets.scrub(json.dumps(state, indent=2))
    requested = args.get("filename")
    name = requested if isinstance(requested, str) else unguessable("storage-state")
    path = save_output(call.session.files, FOLDER, name, ".json", text.encode("utf-8"))
    counts = {"cookies": len(state.get("cookies", [])), "origins": len(state.get("origins", []))}
    return Rendered(
        {"path": str(path), **counts},
        f"storage state saved to {path} ({counts['cookies']} cookie(s), "
        f"{counts['origins']} origin(s) with web storage)",
    )


def _state_file(call: CallContext, filename: str) -> tuple[Path, bytes]:
    """The path and bytes of the state file `filename` names among this session's saved ones,
    read confined and capped; else a HostError naming `filename`."""
    files = call.session.files
    try:
        return files.read(FOLDER, filename, MAX_STORAGE_STATE_BYTES)
    except Refused as refused:
        if refused.reason == "too_large":
            why = f"it is larger than {MAX_STORAGE_STATE_BYTES} bytes"
        elif refused.reason == "missing":
            why = "there is no such file"
        else:
            why = refused.message
        raise HostError(
            "invalid_argument",
            f"{filename} cannot be restored ({why}): a session restores only a file it saved "
            f"itself, in {files.folder(FOLDER)}; give the name or the path browser_storage_state "
            "returned (a state to start from is given by the operator with --storage-state)",
            path="filename",
        ) from None


async def browser_set_storage_state(call: CallContext, args: JsonObject) -> JsonValue:
    path, data = _state_file(call, str(args["filename"]))
    try:
        state = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise HostError(
            "invalid_argument", f"{path} is not JSON ({error})", path="filename"
        ) from None
    if not (
        isinstance(state, dict)
        and isinstance(state.get("cookies", []), list)
        and isinstance(state.get("origins", []), list)
    ):
        raise HostError(
            "invalid_argument",
            f"{path} is not a storage state ({{cookies: [...], origins: [...]}}); save one with "
            "browser_storage_state",
            path="filename",
        )
    state.setdefault("cookies", [])
    state.setdefault("origins", [])
    try:
        # Checked above as far as the host needs; Playwright checks each cookie and origin.
        await call.session.context.set_storage_state(cast(Any, state))
    except PlaywrightError as error:
        message = (str(error.message).splitlines() or [""])[0][:300]
        raise HostError(
            "invalid_argument", f"{path} cannot be restored: {message}", path="filename"
        ) from None
    counts = {"cookies": len(state["cookies"]), "origins": len(state["origins"])}
    return Rendered(
        {"restored": str(path), **counts},
        f"storage state restored from {path} ({counts['cookies']} cookie(s), "
        f"{counts['origins']} origin(s) with web storage)",
    )
