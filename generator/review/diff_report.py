"""Compares two surface manifests and writes the Markdown report a reviewer reads on a bump.

Breaking changes are those that can make a caller's existing arguments or result handling wrong:
a tool or parameter removed or renamed, a parameter's type changed or newly required, a new
required parameter, a result type changed, a method that was a tool and no longer can be; and,
when both manifests record the Kotlin shims, a shim whose signature changed or that is no longer
generated, or a change of their package.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class DiffReport:
    """Lines of the report, split by whether they break existing callers."""

    old: str
    new: str
    breaking: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)
    surface: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.breaking or self.other or self.surface)

    def markdown(self) -> str:
        lines = [f"# Tool surface: {self.old} → {self.new}", ""]
        if not self.changed:
            return "\n".join([*lines, "No change to the tool surface.", ""])
        lines += [
            f"**{len(self.breaking)} breaking change(s)**, {len(self.other)} other change(s).",
            "",
        ]
        for title, items in (
            ("Breaking changes", self.breaking),
            ("Other changes", self.other),
            ("Methods newly possible or newly refused", self.surface),
        ):
            if items:
                lines += [f"## {title}", "", *(f"- {item}" for item in items), ""]
        return "\n".join(lines)


def _schema(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _compare_tool(name: str, old: dict[str, Any], new: dict[str, Any], report: DiffReport) -> None:
    old_params, new_params = old["parameters"], new["parameters"]
    removed = [p for p in old_params if p not in new_params]
    added = [p for p in new_params if p not in old_params]
    for gone in list(removed):
        twin = next(
            (a for a in added if _schema(new_params[a]) == _schema(old_params[gone])),
            None,
        )
        if twin is not None:
            report.breaking.append(f"**breaking** `{name}`: parameter `{gone}` renamed to `{twin}`")
            removed.remove(gone)
            added.remove(twin)
    for gone in removed:
        report.breaking.append(f"**breaking** `{name}`: parameter `{gone}` removed")
    for new_param in added:
        if new_params[new_param]["required"]:
            report.breaking.append(f"**breaking** `{name}`: new required parameter `{new_param}`")
        else:
            report.other.append(f"`{name}`: new optional parameter `{new_param}`")
    for param in (p for p in old_params if p in new_params):
        before, after = old_params[param], new_params[param]
        if _schema(before["schema"]) != _schema(after["schema"]):
            report.breaking.append(
                f"**breaking** `{name}`: parameter `{param}` type changed from "
                f"`{_schema(before['schema'])}` to `{_schema(after['schema'])}`"
            )
        if before["required"] != after["required"]:
            if after["required"]:
                report.breaking.append(
                    f"**breaking** `{name}`: parameter `{param}` is now required"
                )
            else:
                report.other.append(f"`{name}`: parameter `{param}` is now optional")
    if _schema(old["result"]) != _schema(new["result"]):
        report.breaking.append(
            f"**breaking** `{name}`: result changed from `{_schema(old['result'])}` to `{_schema(new['result'])}`"
        )
    if old["python"] != new["python"]:
        report.other.append(f"`{name}`: now calls `{new['python']}` (was `{old['python']}`)")
    if old["java"] != new["java"]:
        gained = [s for s in new["java"] if s not in old["java"]]
        lost = [s for s in old["java"] if s not in new["java"]]
        parts = [f"gained `{s}`" for s in gained] + [f"lost `{s}`" for s in lost]
        report.other.append(f"`{name}`: Java overloads {', '.join(parts)}")


def _surface(old: dict[str, str], new: dict[str, str], report: DiffReport) -> None:
    for method in sorted(set(old) | set(new)):
        before, after = old.get(method, "absent"), new.get(method, "absent")
        if before == after or (before.startswith("tool") and after.startswith("tool")):
            continue
        if before.startswith("tool"):
            report.breaking.append(f"**breaking** `{method}` was {before} and is now {after}")
        else:
            report.surface.append(f"`{method}`: {before} → {after}")


def _kotlin_params(signature: str) -> tuple[str, list[str]] | None:
    """`Name(a: A, b: B? = null)` as ("Name", ["a: A", "b: B? = null"]), split at top-level commas."""
    name, open_paren, rest = signature.partition("(")
    if not open_paren or not rest.endswith(")"):
        return None
    body, params, depth, start = rest[:-1], [], 0, 0
    for index, char in enumerate(body):
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        elif char == "," and depth == 0:
            params.append(body[start:index].strip())
            start = index + 1
    if body.strip():
        params.append(body[start:].strip())
    return name, params


def _source_compatible(before: str, after: str) -> list[str] | None:
    """What `after` changes in `before` when every call that compiled against `before` still
    compiles (parameters added at the end, each with a default; a parameter `x: T` become
    `x: T? = default`), as phrases; None when the change is another one."""
    old, new = _kotlin_params(before), _kotlin_params(after)
    if old is None or new is None or old[0] != new[0] or len(new[1]) < len(old[1]):
        return None
    changes = []
    for was, now in zip(old[1], new[1][: len(old[1])], strict=True):
        if was == now:
            continue
        name, _, was_type = was.partition(": ")
        now_name, _, now_type = now.partition(": ")
        if name != now_name or " = " in was_type or now_type.split(" = ")[0] != f"{was_type}?":
            return None
        if " = " not in now_type:
            return None
        changes.append(f"`{name}` now optional")
    added = new[1][len(old[1]) :]
    if not all(" = " in p for p in added):
        return None
    changes += [f"gains defaulted `{p.split(':', 1)[0].strip()}`" for p in added]
    return changes or None


def _descriptions(old: dict[str, Any], new: dict[str, Any], report: DiffReport) -> None:
    """Where the descriptions come from, when that changed (the javadoc of a sources JAR, or the
    Python docstrings when a release has none): one line per change of source, naming the tools."""
    moved: dict[tuple[str, str], list[str]] = {}
    for name in sorted(set(old) & set(new)):
        before, after = old[name].get("descriptionFrom"), new[name].get("descriptionFrom")
        if before and after and before != after:
            moved.setdefault((before, after), []).append(name)
    for (before, after), tools in sorted(moved.items()):
        shown = ", ".join(f"`{t}`" for t in tools[:8]) + (
            f" and {len(tools) - 8} more" if len(tools) > 8 else ""
        )
        report.other.append(
            f"descriptions of {len(tools)} tool(s) now come from {_SOURCES.get(after, after)} "
            f"(were {_SOURCES.get(before, before)}): {shown}"
        )


_SOURCES = {
    "javadoc": "the javadoc",
    "python": "the Python docstrings",
    "allowlist": "the allowlist",
    "generated": "the generator (no documentation)",
}


def _kotlin(old: dict[str, Any] | None, new: dict[str, Any] | None, report: DiffReport) -> None:
    """The Kotlin shims compared, when both sides record them (`--outputs ...,kotlin`)."""
    if old is None or new is None:
        if old is not new:
            side = "the old" if old is None else "the new"
            report.other.append(
                f"Kotlin shims not compared: {side} manifest does not record them "
                "(generate it with --outputs including trailblaze)"
            )
        return
    if old["package"] != new["package"]:
        report.breaking.append(
            f"**breaking** Kotlin shims moved from package `{old['package']}` to `{new['package']}`"
        )
    old_shims, new_shims = old["shims"], new["shims"]
    for tool in sorted(old_shims):
        before, after = old_shims[tool], new_shims.get(tool)
        if after is None:
            why = new["refused"].get(tool)
            if why is not None:
                report.breaking.append(
                    f"**breaking** `{tool}`: Kotlin shim `{before}` is no longer generated: {why}"
                )
            # A tool that is gone altogether is reported as removed already.
        elif after != before:
            compatible = _source_compatible(before, after)
            if compatible is not None:
                report.other.append(
                    f"`{tool}`: Kotlin shim {', '.join(compatible)} (source-compatible)"
                )
            else:
                report.breaking.append(
                    f"**breaking** `{tool}`: Kotlin shim signature changed from `{before}` to `{after}`"
                )
    for tool in sorted(set(new_shims) - set(old_shims)):
        report.other.append(f"`{tool}`: new Kotlin shim `{new_shims[tool]}`")


def compare(old: dict[str, Any], new: dict[str, Any], old_label: str, new_label: str) -> DiffReport:
    report = DiffReport(old_label, new_label)
    old_tools, new_tools = old["tools"], new["tools"]
    for name in sorted(set(old_tools) - set(new_tools)):
        report.breaking.append(f"**breaking** tool `{name}` removed")
    for name in sorted(set(new_tools) - set(old_tools)):
        report.other.append(f"tool `{name}` added")
    for name in sorted(set(old_tools) & set(new_tools)):
        _compare_tool(name, old_tools[name], new_tools[name], report)
    _descriptions(old_tools, new_tools, report)
    _surface(old["surface"], new["surface"], report)
    _kotlin(old.get("kotlin"), new.get("kotlin"), report)
    return report
