"""`browser_file_upload`: Upload a file into a file input: target is the input or an element near it (its
nearest input[type=file] is used).

Described by `browser_file_upload.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.feedback import page_feedback
from host.jsontypes import JsonObject, JsonValue
from host.registry import CallContext
from host.targets import locate
from host.uploads import check_upload, file_input


async def browser_file_upload(call: CallContext, args: JsonObject) -> JsonValue:
    path = check_upload(call.config, str(args["path"]))
    target = await file_input(await locate(call.tab, str(args["target"])))
    await target.set_input_files(str(path))
    return await page_feedback(call.session, {"uploaded": path.name, "bytes": path.stat().st_size})
