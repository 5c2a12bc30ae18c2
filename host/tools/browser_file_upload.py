"""`browser_file_upload`: Upload a file into a file input: target is the input or an element near it (its
nearest input[type=file] is used).

Described by `browser_file_upload.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.registry import CallContext
from host.sessions.targets import locate
from host.sessions.uploads import file_input, read_uploads, sending_timeout
from host.shared.errors import HostError
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_file_upload(call: CallContext, args: JsonObject) -> JsonValue:
    given = args.get("paths")
    chooser = call.tab.file_chooser if "target" not in args else None
    if "target" not in args and chooser is None:
        raise HostError(
            "missing_argument",
            "no file chooser is open: give target (the file input, or an element near it), or "
            "click what opens the chooser first",
            path="target",
        )
    if chooser is not None and given is None and "path" not in args:
        call.tab.file_chooser = None  # as @playwright/mcp: no paths cancels the chooser
        return await page_feedback(call.session, {"cancelled": "file chooser"})
    if given is None and "path" not in args:
        raise HostError("missing_argument", "give path, or paths for several files", path="paths")
    named = [("path", str(args["path"]))] if "path" in args else []
    if isinstance(given, list):
        named += [(f"paths[{i}]", str(p)) for i, p in enumerate(given)]
    # Read by the host (confined, capped), handed over as buffers: the driver opens no path.
    files = read_uploads(call.config, named)
    payloads = [f.payload() for f in files]
    timeout = sending_timeout(call.config, files)
    if chooser is not None:
        # The chooser the page opened (a click on a file input, showPicker()): @playwright/mcp's
        # modal state, answered without a target.
        call.tab.file_chooser = None
        await chooser.set_files(payloads, timeout=timeout)
    else:
        target = await file_input(await locate(call.tab, str(args["target"])))
        await target.set_input_files(payloads, timeout=timeout)
    if len(files) == 1:
        uploaded: JsonObject = {"uploaded": files[0].name, "bytes": len(files[0].data)}
        return await page_feedback(call.session, uploaded)
    listed: list[JsonValue] = [{"name": f.name, "bytes": len(f.data)} for f in files]
    return await page_feedback(call.session, {"uploaded": listed})
