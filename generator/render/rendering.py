"""Renders the registered outputs (`outputs.OUTPUTS`; by default those of `DEFAULT_KINDS`) into {relative path: text}.

Python from the built-in templates is laid out in black's style by `python_layout` (the
templates are written for it), without running black; Python from a custom template, and any
module holding a line the layout rules do not cover, is formatted by black itself."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, assert_never

from generator.model.ir import Tool
from generator.model.surface_report import SurfaceReport
from generator.render import tool_memo, views
from generator.render.kotlin.settings import KotlinSettings
from generator.render.outputs import (
    DEFAULT_KINDS,
    PYTHON_ROOT,
    Context,
    Model,
    Output,
    PerTool,
    Rendered,
    Written,
    selected,
)
from generator.render.python_format import format_all, same_structure
from generator.render.template_dir import default_templates as default_templates
from generator.render.templating import built_in, environment, render, templates_digest
from generator.render.writers.python_layout import NotLaidOut, lay_out
from generator.shared.cache import Cache

__all__ = ["PYTHON_ROOT", "Renderer", "default_templates"]


def _agrees_with(context: Context, text: str) -> bool:
    """The structure a cached rendering (a descriptor) must have: one YAML mapping, and each of
    its fields that the data the text was rendered from also has (`name`, `parameters`, ...) holds
    that data's value. A forged entry with a valid checksum (another tool's descriptor, a field
    cut short) is thereby refused. A custom template that shows a field differently only misses."""
    import yaml

    try:
        parsed = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return False
    if not isinstance(parsed, dict):
        return False
    data = [value for value in context.values() if isinstance(value, dict)]
    return all(
        parsed[key] == fields[key] for fields in data for key in parsed.keys() & fields.keys()
    )


def _laid_out(text: str, cache: Cache) -> str:
    """`lay_out`, from the cache when this exact text was laid out before, and checked to have
    kept every word in order (layout moves only spaces, line breaks, brackets and quotes): a slip
    in the rules, or a forged entry, then costs a black run, never the output."""
    agrees = functools.partial(same_structure, text)
    key = cache.value_key("generator.render.writers.python_layout", text)
    laid_out = cache.load("layout", key, agrees)
    if laid_out is None:
        laid_out = lay_out(text)
        if not agrees(laid_out):
            raise NotLaidOut("the layout did not keep the words of the rendered text")
        cache.store("layout", key, laid_out)
    return laid_out


class Renderer:
    """Renders every output file for one set of tools."""

    def __init__(
        self,
        template_dir: Path,
        cache: Cache,
        outputs: tuple[Output, ...] | None = None,
        kotlin: KotlinSettings | None = None,
        generated_by: str = views.GENERATED_BY,
        options: dict[str, Any] | None = None,
    ) -> None:
        self._env = environment(template_dir, cache)
        self._generated_by = generated_by
        self._options = options
        # The notice is in every file, so cached renderings are kept apart by it as by templates.
        self._templates = f"{templates_digest(self._env)}\0{generated_by}"
        self._cache = cache
        self._outputs = selected(DEFAULT_KINDS) if outputs is None else outputs
        self._kotlin = kotlin or KotlinSettings()
        self.notes: list[tuple[str, str]] = []
        """(where, what) notes of the last `render_all`: what an output's view left out."""
        self.formatted_by_black: dict[str, str] = {}
        """Python files black formatted in the last `render_all`, each with the reason."""

    def _render(self, template: str, context: Context) -> str:
        shared: dict[str, Any] = {
            "generated_by": self._generated_by,
            "package": views.PYTHON_PACKAGE,
        }
        return render(self._env, template, shared | context)

    def _render_cached(self, template: str, context: Context) -> str:
        """Rendered text from the cache when this template set rendered this data before (PyYAML's
        emitter is slow, and most descriptors do not change between runs)."""
        data = json.dumps(context, sort_keys=True)
        key = self._cache.value_key("generator.render.templating", self._templates, template, data)
        text = self._cache.load("rendered", key, functools.partial(_agrees_with, context))
        if text is None:
            text = self._render(template, context)
            self._cache.store("rendered", key, text)
        return text

    def _place(
        self,
        name: str,
        template: str,
        rendered: str,
        files: dict[str, str],
        unformatted: dict[str, str],
    ) -> None:
        """Put one rendered file where it goes: as is, laid out, or left for black."""
        if not name.endswith(".py"):
            files[name] = rendered
        elif not built_in(self._env, template):
            unformatted[name] = rendered
            self.formatted_by_black[name] = f"custom template {template}"
        else:
            try:
                files[name] = _laid_out(rendered, self._cache)
            except NotLaidOut as exc:
                unformatted[name] = rendered
                self.formatted_by_black[name] = str(exc)

    def _tool_keys(self, tools: list[Tool], per_tool: list[PerTool]) -> list[str | None]:
        """Each tool's memo key (`tool_memo`), or None for every tool when nothing is memoised."""
        if not per_tool or not self._cache.enabled:
            return [None] * len(tools)
        # Which per-tool outputs (a run of `--outputs python` and one of `yaml` each have one),
        # and whether each template is built in, are both part of what a memo is for.
        flags = tuple((o.template, o.path, built_in(self._env, o.template)) for o in per_tool)
        shared = tool_memo.templates_key(self._cache, self._templates, flags)
        return [tool_memo.tool_key(self._cache, shared, t) for t in tools]

    def render_all(
        self,
        tools: list[Tool],
        java_version: str,
        python_version: str,
        report: SurfaceReport,
        jar_sha256: str,
    ) -> dict[str, str]:
        model = Model(
            tuple(tools),
            report,
            java_version,
            python_version,
            jar_sha256,
            self._kotlin,
            frozenset(o.kind for o in self._outputs),
            self._generated_by,
            self._options,
        )
        self.notes = []
        files: dict[str, str] = {}
        unformatted: dict[str, str] = {}
        self.formatted_by_black = {}
        per_tool = [o for o in self._outputs if isinstance(o, PerTool)]
        # Every tool's files, from its memo or rendered now; they join the others where the first
        # per-tool output stands, so a later output of the same path still wins, as it always did.
        tool_files: dict[str, str] = {}
        missed: list[tuple[str | None, list[str]]] = []
        shown = [tool_memo.renderable(t) for t in model.tools] if per_tool else []
        for tool, key in zip(shown, self._tool_keys(shown, per_tool), strict=True):
            memo = None if key is None else tool_memo.load(self._cache, key, len(per_tool))
            if memo is not None:
                tool_files.update(memo.files)
                self.formatted_by_black.update(memo.formatted_by_black)
                continue
            names = []
            for each in per_tool:
                context = each.view(tool)
                name = each.path.format(**context)
                render = self._render_cached if each.cache else self._render
                rendered = render(each.template, context)
                self._place(name, each.template, rendered, tool_files, unformatted)
                names.append(name)
            missed.append((key, names))
        for output in self._outputs:
            match output:
                case Written(path, write, _):
                    files[path] = write(model)
                case Rendered(view, template, path, cache, _, notes):
                    if notes is not None:
                        self.notes.extend(notes(model))
                    for context in view(model):
                        name = path.format(**context)
                        rendered = (self._render_cached if cache else self._render)(
                            template, context
                        )
                        self._place(name, template, rendered, files, unformatted)
                case PerTool():
                    files.update(tool_files)  # rendered above, tool by tool
                    tool_files = {}
                case _:
                    assert_never(output)
        files.update(format_all(unformatted, self._cache))
        for key, names in missed:
            if key is not None and len(set(names)) == len(per_tool):
                black = {
                    n: self.formatted_by_black[n] for n in names if n in self.formatted_by_black
                }
                memo = tool_memo.ToolFiles({n: files[n] for n in names}, black)
                tool_memo.store(self._cache, key, memo)
        return dict(sorted(files.items()))
