"""The surface report: every public method of the target interfaces, as a tool or with the reason
it is not one, and the notes on where Java and Python disagree. Rendered to generated/SURFACE.md."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from generator.model.binding import Binder
from generator.model.ir import Tool
from generator.model.refusal import Refusal
from generator.read.allowlist import AllowlistEntry
from generator.read.java_model import JavaSurface
from generator.read.python_api import PythonSurface
from generator.shared.diagnostics import Diagnostics, Level
from generator.shared.targets import TARGETS

Status = Literal["tool", "refused", "not listed"]


@dataclass(frozen=True)
class SurfaceRow:
    """One Java method. `tool` is set exactly when `status` is "tool"; `reason` says why not, or
    for "not listed", that it would bind; `notes` are the binder's remarks (Java/Python differences)."""

    interface: str
    method: str
    status: Status
    category: str
    tool: str
    reason: str
    notes: tuple[str, ...]


@dataclass(frozen=True)
class SurfaceReport:
    """All rows in target then method order, and the coverage over candidate methods (public
    methods that are neither event registrations nor callback-only)."""

    rows: tuple[SurfaceRow, ...]

    @property
    def candidates(self) -> int:
        return sum(1 for r in self.rows if r.category not in ("event", "callback"))

    @property
    def tools(self) -> int:
        return sum(1 for r in self.rows if r.status == "tool")

    @property
    def explained(self) -> tuple[SurfaceRow, ...]:
        """Methods that are not tools, events aside (those are only counted)."""
        return tuple(r for r in self.rows if r.status != "tool" and r.category != "event")

    @property
    def listed(self) -> tuple[SurfaceRow, ...]:
        """Every method but the event registrations."""
        return tuple(r for r in self.rows if r.category != "event")

    @property
    def events(self) -> int:
        return sum(1 for r in self.rows if r.category == "event")

    @property
    def interfaces(self) -> tuple[str, ...]:
        return tuple(sorted({r.interface for r in self.rows}))

    @property
    def counts(self) -> tuple[tuple[str, int], ...]:
        """Rows per status and category, sorted by label."""
        counts: dict[str, int] = {}
        for row in self.rows:
            label = "tool" if row.status == "tool" else f"{row.status}: {row.category}"
            counts[label] = counts.get(label, 0) + 1
        return tuple(sorted(counts.items()))

    @property
    def coverage(self) -> str:
        return f"{100 * self.tools / self.candidates:.1f}%" if self.candidates else "n/a"


_MEMBER = re.compile(r"[\w.$]+#\w+")


# The Java package before a class name: `com.microsoft.playwright.`
_PACKAGE = re.compile(r"^(?:[a-z_][a-z0-9_]*\.)+")


def _notes_by_member(diagnostics: Diagnostics) -> dict[str, tuple[str, ...]]:
    """Each member's notes (info and warnings about it), gathered in one pass over the diagnostics."""
    found: dict[str, list[str]] = {}
    for d in diagnostics:
        if d.level > Level.WARNING:
            continue
        in_location = _MEMBER.match(d.location)
        in_message = _MEMBER.match(d.message)
        member = (
            in_location.group(0) if in_location else in_message.group(0) if in_message else None
        )
        if member is None:
            continue
        text = d.message.replace(f"{member}: ", "")
        found.setdefault(member, []).append(
            f"{_PACKAGE.sub('', d.location)}: {text}" if in_location else text
        )
    # Sorted by their text: the order never depends on where a note was made (the allowlist's
    # file name sorts among Java member names).
    return {member: tuple(sorted(set(notes))) for member, notes in found.items()}


def _notes(diagnostics: Diagnostics, member: str) -> tuple[str, ...]:
    return _notes_by_member(diagnostics).get(member, ())


def build_report(
    java: JavaSurface,
    python: PythonSurface,
    tools: list[Tool],
    diagnostics: Diagnostics,
    binder: Binder | None = None,
    probed: dict[tuple[str, str], SurfaceRow] | None = None,
) -> SurfaceReport:
    """One row per method of every target: its tool, or why it has none (bound again with
    scratch diagnostics). `binder`, the run's binder of the same surfaces, saves making another
    (its lowering reads every Literal of the Python API). `probed` holds the rows of methods
    already probed against these same surfaces ((target prefix, method): row, see `probe_memo`):
    they are used as they are, and every method probed now is added to it."""
    probe = Binder(java, python, Diagnostics()) if binder is None else binder
    probed = {} if probed is None else probed
    notes = _notes_by_member(diagnostics)
    by_member = {(t.target.prefix, t.java_method): t for t in tools}
    rows: list[SurfaceRow] = []
    for target in TARGETS.values():
        interface = java.interface(target.java_class)
        if interface is None:
            continue
        for method in interface.method_names:
            member = f"{interface.name}#{method}"
            tool = by_member.get((target.prefix, method))
            if tool is not None:
                row = SurfaceRow(
                    target.java_interface,
                    method,
                    "tool",
                    "tool",
                    tool.name.value,
                    "",
                    notes.get(member, ()),
                )
            else:
                row = probed.get((target.prefix, method)) or _probe(
                    probe, target.prefix, method, interface.name
                )
                probed[(target.prefix, method)] = row
            rows.append(row)
    return SurfaceReport(tuple(rows))


def _probe(binder: Binder, prefix: str, method: str, interface: str) -> SurfaceRow:
    """Bind a method that is not a tool with scratch diagnostics, to say why it is not."""
    scratch = Diagnostics()
    entry = AllowlistEntry(target=TARGETS[prefix], method=method, location="surface")
    member = f"{interface}#{method}"
    short = interface.rsplit(".", 1)[-1]
    outcome = binder.with_diagnostics(scratch).bind(entry)
    if isinstance(outcome, Refusal):
        return SurfaceRow(short, method, "refused", outcome.kind.value, "", outcome.detail, ())
    if outcome.result_shape.kind == "discard" and outcome.result_note:
        # It binds, but its tool would only say that its result was dropped: listing it is no use.
        why = outcome.result_note
        return SurfaceRow(short, method, "not listed", "no JSON result", "", why, ())
    return SurfaceRow(
        short,
        method,
        "not listed",
        "available",
        "",
        "binds; add it to allowlist.yaml",
        _notes(scratch, member),
    )
