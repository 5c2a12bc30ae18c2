"""`browser_snapshot`: Accessibility snapshot of the current tab (or of target) with element refs like
[ref=e12] (f1e3 inside iframes); only the latest snapshot's refs work.

Described by `browser_snapshot.tool.yaml` beside this file; its arguments were checked against that
schema before it runs.
"""

from __future__ import annotations

from host.calls.feedback import page_feedback
from host.calls.page_snapshot import snapshot_within
from host.calls.registry import CallContext
from host.calls.results import Rendered
from host.sessions.downloads import save_output
from host.sessions.targets import locate, record_refs
from host.shared.jsontypes import JsonObject, JsonValue


async def browser_snapshot(call: CallContext, args: JsonObject) -> JsonValue:
    tab = call.tab
    depth = args.get("depth")
    kwargs: dict[str, object] = {"mode": "ai", "boxes": call.config.snapshot_boxes}
    if isinstance(depth, int):
        kwargs["depth"] = depth
    if args.get("boxes") is True:
        # @playwright/mcp's `boxes`: each element's [box=x,y,width,height], viewport CSS pixels.
        kwargs["boxes"] = True
    target = args.get("target")
    part = await locate(tab, target) if isinstance(target, str) else None
    snapshot = await snapshot_within(tab, call.config.action_timeout, part, **kwargs)
    requested = args.get("filename")
    if isinstance(requested, str):
        # As @playwright/mcp: the whole snapshot in a file (the output directory's snapshots/),
        # its path in the result; refs are the file's.
        record_refs(tab, snapshot)
        path = save_output(
            call.session.files,
            "snapshots",
            requested,
            ".yml",
            # The file is output too: a secret's value shows as its ${NAME}, as in a result.
            call.config.secrets.scrub(snapshot).encode("utf-8"),
        )
        saved = await page_feedback(
            call.session, {"path": str(path), "chars": len(snapshot)}, snapshot=False
        )
        return Rendered(dict(saved), f"{saved.text}\nsnapshot saved to {path}")
    limit = call.config.snapshot_limit
    value: JsonObject = {}
    if len(snapshot) > limit:
        cut = snapshot.rfind("\n", 0, limit)
        snapshot = snapshot[: cut if cut > 0 else limit]
        value["truncated"] = (
            f"the snapshot was cut at {limit} characters; pass a target (a ref or selector of a "
            "part) or a depth to see the rest"
        )
    record_refs(tab, snapshot)
    feedback = await page_feedback(call.session, snapshot=False)
    value = {**feedback, **value, "snapshot": snapshot}
    note = f"\n[{value['truncated']}]" if "truncated" in value else ""
    return Rendered(value, f"{feedback.text}\nsnapshot:\n{snapshot}{note}")
